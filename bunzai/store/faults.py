"""What an environment fault of a write names (a full disk, a read-only mount, no rights): the
file the person asked for, not the hidden file the system refused.

The store writes through temp files (`.<name>.<pid>-<random>.tmp`, `store.atomic`) and keeps its
log, locks, cursors and history under the studio's `.bunzai/` folder; an OSError names those.
A caller that knows what it was asked to write names that (`errors.from_os_error(error, path)`);
one that does not (the CLI's and the MCP server's last catch) names `meant_path(...)`. A folder
sync the disk fails after a file took its name is `unsettled`: said of that file, written whole
but not confirmed durable, never as "nothing was half-written".
"""

from __future__ import annotations

import os
from typing import Any

from bunzai.errors import BunzaiError, from_os_error
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


def caught_fault(error: OSError, studio_root: object = None) -> BunzaiError | None:
    """The coded refusal of an OSError caught far from the call that met it (the CLI's and the MCP
    server's last catch, a revert's row): said of the file as the person knows it (`meant_path`,
    `studio_root` when it names none), and of a write only where a temp file shows one was met.
    None for an OSError the taxonomy has no code for."""
    return from_os_error(error, meant_path(error.filename, studio_root), writing=by_a_write(error))


def _studio_of(path: str) -> str | None:
    """The studio whose `.bunzai/` folder holds `path` (the nearest such folder above it), if any."""
    parts = os.path.normpath(path).split(os.sep)
    for at in range(len(parts) - 1, 0, -1):
        if parts[at] == STATE_FOLDER:
            root = os.sep.join(parts[:at]) or os.sep
            if os.path.isfile(os.path.join(root, STUDIO_FILE)):  # ~/.bunzai/studio is no state folder
                return root
    return None


class Unsettled(BunzaiError):
    """A folder sync that failed after `path` took its name (or lost it, `removed`): the file is
    there whole (or gone), and the disk did not confirm it durable; `fault` is the OSError.
    `details`: the file (`path`) and `durable: false`.

    `landed` is what the write did, where this sync was its last step (a burial's removal of the
    piece's file): the write is whole, and a caller that answers with receipts says applied, with
    `durable: false`, rather than refused."""

    def __init__(self, fault: OSError, coded: BunzaiError, path: str, message: str) -> None:
        super().__init__(coded.code, message, coded.hint, path=path, durable=False)
        self.fault = fault
        self.landed: Any = None

    def said_of(self, path: os.PathLike[str] | str, said: str) -> BunzaiError:
        """The fault said of `path` (as `from_os_error` names it), then `said`: what is true after
        the caller dealt with the write (took it back, or reports it landed)."""
        coded = from_os_error(self.fault, os.fspath(path), writing=False)
        return BunzaiError(coded.code, f"{coded.message}; {said}", coded.hint)

    def taken_back(
        self, path: os.PathLike[str] | str, what: str, held: os.PathLike[str] | str | None = None
    ) -> BunzaiError:
        """The refusal once the caller removed what it wrote: said of `path`, `what` it is ("the
        export's folder"); `held`, the place the writes were made (`path` when not given), tells
        whether the removal took."""
        gone = not os.path.lexists(path if held is None else held)
        said = f"{what} was removed: nothing was kept" if gone else f"{what} could not be removed: check what it holds"
        return self.said_of(path, f"the disk failed a sync of a file written there, so {said}")


def unsettled(error: OSError, path: object, *, removed: bool = False) -> BunzaiError | OSError:
    """The refusal of a folder sync the disk failed after `path` took its new name (or, `removed`,
    lost it), said of `path` as the person knows it (`meant_path`): what is true is that the file
    is there whole (or gone), and that a power cut may still undo it. An OSError the taxonomy has
    no code for is given back naming `path`."""
    named = os.fspath(path)
    meant = meant_path(named) or named
    coded = from_os_error(error, meant, writing=False)
    if coded is None:
        return OSError(error.errno, error.strerror, named)
    it = "it" if meant == named else f"{os.path.basename(named)}, a file of its .bunzai/ folder,"
    done = "removed" if removed else "written whole under its name"
    undo = "bring it back" if removed else "still undo it"
    return Unsettled(
        error,
        coded,
        meant,
        f"{coded.message}; {it} was {done}, but the disk failed the sync of its folder that makes that durable: "
        f"a power cut may {undo}, and the command stopped there",
    )
