"""What an environment fault of a write names (a full disk, a read-only mount, no rights): the
file the person asked for, not the hidden file the system refused.

The store writes through temp files (`.<name>.<pid>-<random>.tmp`, `store.atomic`) and keeps its
log, locks, cursors and history under the studio's `.bunzai/` folder; an OSError names those.
A caller that knows what it was asked to write names that (`errors.from_os_error(error, path)`);
one that does not (the CLI's and the MCP server's last catch) names `meant_path(...)`.
"""

from __future__ import annotations

import os

from bunzai.files import is_exact_temp_name
from bunzai.limits import FILE_NAME_MAX_BYTES
from bunzai.store.studio import STATE_FOLDER, STUDIO_FILE


def meant_path(filename: object, studio_root: object = None) -> str | None:
    """`filename` as the person knows it: a temp file as the file it was to become, a file of a
    studio's `.bunzai/` folder as the studio; `studio_root` when the error names no file."""
    if not isinstance(filename, (str, os.PathLike)):
        return None if studio_root is None else os.fspath(studio_root)
    path = os.fspath(filename)
    if not isinstance(path, str):  # an error raised with a bytes path
        return os.fsdecode(path)
    head, name = os.path.split(path)
    if is_exact_temp_name(name):
        # A temp name of the longest length may hold a cut copy of the name: then its folder is named.
        cut = len(os.fsencode(name)) >= FILE_NAME_MAX_BYTES - 4  # a cut takes off up to 4 bytes more
        path = head if cut else os.path.join(head, name[1 : name.rindex(".", 0, name.rindex("-"))])
    return _studio_of(path) or path


def by_a_write(error: OSError) -> bool | None:
    """True where the fault names a temp file (only a write makes one), else None: not known
    whether a write or a read met it (`errors.from_os_error`'s `writing`)."""
    filename = error.filename
    if isinstance(filename, (str, os.PathLike)) and is_exact_temp_name(os.path.basename(os.fsdecode(filename))):
        return True
    return None


def _studio_of(path: str) -> str | None:
    """The studio whose `.bunzai/` folder holds `path` (the nearest such folder above it), if any."""
    parts = os.path.normpath(path).split(os.sep)
    for at in range(len(parts) - 1, 0, -1):
        if parts[at] == STATE_FOLDER:
            root = os.sep.join(parts[:at]) or os.sep
            if os.path.isfile(os.path.join(root, STUDIO_FILE)):  # ~/.bunzai/studio is no state folder
                return root
    return None
