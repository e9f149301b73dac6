"""Reading files and folders from outside the studio, bounded and without following links."""

from __future__ import annotations

import errno
import os
import stat
import sys

from bunzai.errors import BunzaiError, from_os_error
from bunzai.limits import (
    FOLDER_WALK_MAX_DEPTH,
    IMPORT_FILE_MAX_BYTES,
    WALK_MAX_ENTRIES,
)

TYPE_CHECKING = False  # pathlib and typing cost 5 and 3 ms to import; `bunzai read` needs neither
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


def text_name(name: str) -> str:
    """A file name (or a path) as text a piece can hold: where the name is not UTF-8, Python
    keeps its bytes as lone surrogates (`\\udcff`), which no JSON file can store; those bytes
    become U+FFFD, as a terminal shows them. Any other name is returned as it is."""
    if name.isascii():
        return name
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        except UnicodeEncodeError:  # a surrogate no file system decoding makes
            return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in name)
    return name


def read_file_bytes(path: Path, limit: int = IMPORT_FILE_MAX_BYTES) -> bytes:
    """A regular file's bytes, up to `limit`. Folders, missing files, FIFOs, devices and
    sockets are refused before anything is read (a FIFO is opened without waiting for a
    writer, so naming one never hangs), and the size is checked on the open file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        raise BunzaiError("not_found", f"no file at {path}", "check the path") from None
    except IsADirectoryError:
        raise BunzaiError("invalid_input", f"{path} is a folder", "name a file inside it") from None
    except OSError as error:
        if _is_special(path):  # a socket cannot be opened at all (ENXIO): it is refused as a FIFO is
            raise _special(path) from None
        raise _refusal(error, path, f"cannot read {path}: {error.strerror}", "check the path") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise BunzaiError("invalid_input", f"{path} is a folder", "name a file inside it")
        if not stat.S_ISREG(info.st_mode):
            raise _special(path)
        if info.st_size > limit:
            raise BunzaiError(
                "too_large", f"{path} has {info.st_size} bytes, over the {limit}-byte import limit", "shrink the file"
            )
        os.set_blocking(fd, True)
        data = read_up_to(fd, limit + 1)
    except OSError as error:  # opened, then the disk failed (EIO ...): this file's error, not the walk's end
        raise _refusal(error, path, f"cannot read {path}: {error.strerror}", "check the disk or the file") from None
    finally:
        try:
            os.close(fd)
        except OSError:  # EIO from NFS: a read-only descriptor loses nothing on close, the bytes are read
            pass
    if len(data) > limit:
        raise BunzaiError(
            "too_large",
            f"{path} grew past the {limit}-byte import limit while it was read",
            "shrink the file, and read it when nothing is writing to it",
        )
    return data


def _refusal(error: OSError, path: Path, message: str, hint: str) -> BunzaiError:
    """A file or folder that could not be read: a failing disk's EIO as io_error (the device's
    fault, naming `path`), any other error as the path's (invalid_input, `message`)."""
    coded = from_os_error(error, path, writing=False) if error.errno == errno.EIO else None
    return coded or BunzaiError("invalid_input", message, hint)


def _special(path: Path) -> BunzaiError:
    return BunzaiError(
        "invalid_input",
        f"{path} is not a regular file (a FIFO, device or socket)",
        "bunzai reads only regular files",
        special=True,
    )


def _is_special(path: Path) -> bool:
    """Whether `path` is a FIFO, device or socket (by lstat: a link is not followed)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))


def read_stdin_bytes(limit: int = IMPORT_FILE_MAX_BYTES) -> bytes:
    """Standard input's bytes (`-` in place of a file), up to `limit`; too_large beyond, and
    invalid_input when it is empty (nothing was piped in)."""
    import sys

    data = read_up_to(sys.stdin.fileno(), limit + 1)
    if len(data) > limit:
        raise BunzaiError(
            "too_large", f"standard input holds more than the {limit}-byte import limit", "pipe in a smaller file"
        )
    if not data:
        raise BunzaiError(
            "invalid_input", "standard input is empty", "pipe a file in, e.g. `bunzai import - < card.png`"
        )
    return data


def read_some(fd: int, count: int) -> bytes:
    """`os.read`, which waits where the descriptor is a non-blocking pipe with nothing in it yet
    (a parent may leave O_NONBLOCK on the stdin it hands over: read, it raises BlockingIOError
    at once, and Python's buffered stdin returns None or only part of the input)."""
    while True:
        try:
            return os.read(fd, count)
        except BlockingIOError:
            import select

            select.select([fd], [], [])


def read_up_to(fd: int, count: int) -> bytes:
    """At most `count` bytes from an open file, read in steps (a file may be shorter than its
    size said, or grow while it is read: the caller compares the length with its limit)."""
    chunks, remaining = [], count
    while remaining > 0:
        chunk = read_some(fd, min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def walk_files(
    root: Path,
    *,
    max_depth: int = FOLDER_WALK_MAX_DEPTH,
    dot_files: bool = False,
    unreadable: list[str] | None = None,
) -> Iterator[Path]:
    """Regular files under `root`, sorted, skipping symlinks and hidden entries, bounded
    (`walk_entries`)."""
    for path, is_folder in walk_entries(root, max_depth=max_depth, dot_files=dot_files, unreadable=unreadable):
        if not is_folder:
            yield path


def walk_entries(
    root: Path,
    *,
    max_depth: int = FOLDER_WALK_MAX_DEPTH,
    dot_files: bool = False,
    unreadable: list[str] | None = None,
    bad_entries: list[str] | None = None,
) -> Iterator[tuple[Path, bool]]:
    """(path, is_folder) for the regular files and folders under `root`, in name order, a folder
    before what it holds; symlinks, hidden folders and leftovers (`is_junk_file`) are skipped, and
    folders deeper than `max_depth` are named but not entered. With `dot_files`, a file whose name
    starts with a dot is kept unless it is junk, as `list_folder` keeps it (SillyTavern lists
    `characters/.hack.png`). too_large past WALK_MAX_ENTRIES entries.

    A folder that cannot be listed, or is listed but not entered (read without execute: looking at
    its first entry is denied), is passed over; an entry that cannot be looked at otherwise (a bad
    inode, a path too long: a file system that reports no entry types stats each one), the first or
    not, is passed over, and its folder named. With
    `unreadable`, such a folder (`root` too) is added to it, once (one locked folder in a library
    does not hide the rest); without, it is refused. With `bad_entries`, an entry that cannot be
    looked at (not a folder not entered) is named there itself, not its folder (`folder read`
    lists one folder: naming it would say nothing)."""
    from pathlib import Path

    seen = 0
    stack: list[tuple[Path, int]] = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as error:
            _cannot_look(folder, "list", error, unreadable)
            continue
        subfolders = []
        entered = False
        for entry in entries:
            seen += 1
            if seen > WALK_MAX_ENTRIES:
                raise BunzaiError(
                    "too_large",
                    f"{root} holds more than {WALK_MAX_ENTRIES} entries",
                    "name a folder further down that holds less",
                    limit=WALK_MAX_ENTRIES,
                )
            try:
                if not entered:  # one lstat a folder: where it is denied, nothing in the folder can be read
                    entry.stat(follow_symlinks=False)
                    entered = True
                kind = _kind(entry, dot_files)
            except FileNotFoundError:  # gone since the folder was listed
                continue
            except OSError as error:
                denied = error.errno in (errno.EACCES, errno.EPERM)  # no search permission: the whole folder's
                if bad_entries is not None and not denied:
                    bad_entries.append(entry.path)
                    continue
                _cannot_look(folder, "enter" if denied else "look into", error, unreadable)
                if denied:
                    break
                continue  # one bad entry (EIO, ENAMETOOLONG), the first or not: the rest of the folder is read
            if kind == "folder":
                if depth < max_depth:
                    subfolders.append((Path(entry.path), depth + 1))
                yield Path(entry.path), True
            elif kind == "file":
                yield Path(entry.path), False
        stack.extend(reversed(subfolders))  # popped in name order


def _kind(entry: os.DirEntry, dot_files: bool) -> str | None:
    """The entry's kind: "folder", "file" (a regular one), or None for what a walk passes over.
    Raises OSError where the file system reports no entry types and the entry cannot be looked at."""
    hidden = entry.name.startswith(".")
    if entry.is_symlink() or hidden and not dot_files:
        return None
    if entry.is_dir(follow_symlinks=False):
        return None if hidden else "folder"
    if entry.is_file(follow_symlinks=False) and not is_junk_file(entry.name):
        return "file"
    return None


def _cannot_look(folder: Path, verb: str, error: OSError, unreadable: list[str] | None) -> None:
    """Name `folder` under `unreadable` (once), or refuse it when the walk keeps no such list."""
    if unreadable is None:
        raise _refusal(
            error, folder, f"cannot {verb} {folder}: {error.strerror}", "check the path and who owns the folder"
        ) from None
    if str(folder) not in unreadable:
        unreadable.append(str(folder))


# Files that hold no one's content: what macOS, Windows shares, KDE and editors leave beside
# files. Matched by exact name, or by prefix for the families (`._card.png`, the AppleDouble
# twin of a copied file; `.~lock.x#`, an office suite's lock), or by suffix (vim's swap file;
# a backup, `notes.txt~`, which Emacs and gedit name without a dot). Emacs's auto-save
# `#notes.txt#` is matched in `is_junk_file`. No format bunzai reads ends so: SillyTavern
# lists only `.png`, `.json` ... files, so it passes these over too.
_JUNK_NAMES = frozenset({".DS_Store", ".directory", ".localized", ".Spotlight-V100", ".Trashes", ".fseventsd"})
# Windows's own, written by Explorer into folders it shows (a share, a copied data folder); the
# case they come in varies, as Windows's file names ignore it.
_WINDOWS_JUNK = frozenset({"thumbs.db", "ehthumbs.db", "desktop.ini"})
_JUNK_PREFIXES = ("._", ".~lock.", ".#")
_JUNK_SUFFIXES = (".swp", ".swo", "~")


def is_exact_temp_name(name: str) -> bool:
    """Whether `name` is exactly what `store.atomic.write_temp` names a temp file
    (`.<name>.<pid>-<12 hex>.tmp`): stricter than `store.atomic.is_temp_name`, for folders
    that hold a user's own files too."""
    import re

    return re.fullmatch(r"\..+\.[0-9]+-[0-9a-f]{12}\.tmp", name, re.DOTALL) is not None


def is_junk_file(name: str) -> bool:
    """Whether a file is an operating system's or an editor's leftover, with a dot or not, or a
    temp file a stopped bunzai write left, rather than a file someone made."""
    return (
        name in _JUNK_NAMES
        or name.lower() in _WINDOWS_JUNK
        or name.startswith(_JUNK_PREFIXES)
        or name.endswith(_JUNK_SUFFIXES)
        or (len(name) > 2 and name[0] == name[-1] == "#")  # Emacs's auto-save of an unsaved buffer
        or is_exact_temp_name(name)
    )


def list_folder(
    folder: Path, unreadable: list[tuple[Path, BunzaiError]] | None = None
) -> tuple[list[Path], list[Path]]:
    """(files, subfolders) directly in `folder`, sorted, without symlinks or leftovers
    (`is_junk_file`: `.DS_Store`, `notes.txt~`). A file whose name starts with a dot is listed
    (SillyTavern reads `characters/.hack.png` as any card); a folder whose name does is not
    (`.git`, `.bunzai`, an editor's or a tool's state). Files include FIFOs, devices and sockets, which
    `read_file_bytes` refuses by name, so a walk can say it passed them over. No cap on the
    count: a walk takes them one at a time.

    A folder that cannot be listed, or is listed but not entered (read without execute: no entry
    can be looked at), is refused. An entry that cannot be looked at (a file system that reports
    no entry types looks at each one: a bad inode, a name too long) is passed over and added with
    its refusal to `unreadable`, so one broken entry does not hide the rest; without that list
    it is refused. An entry gone since the folder was listed is passed over."""
    from pathlib import Path

    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError as error:
        raise _refusal(
            error, folder, f"cannot list {folder}: {error.strerror}", "check the path and who owns the folder"
        ) from None
    files, folders = [], []
    entered = False
    for entry in entries:
        try:
            if not entered:  # one lstat a folder, as in walk_entries: a folder not entered fails it on every entry
                entry.stat(follow_symlinks=False)
                entered = True
            if entry.is_symlink():
                continue
            is_folder = entry.is_dir(follow_symlinks=False)
        except FileNotFoundError:
            continue
        except OSError as error:
            if error.errno in (errno.EACCES, errno.EPERM):  # no search permission: the folder's fault, not the entry's
                raise _refusal(
                    error, folder, f"cannot enter {folder}: {error.strerror}", "check the path and who owns the folder"
                ) from None
            refused = _refusal(
                error, Path(entry.path), f"cannot look at {entry.path}: {error.strerror}", "check the disk or the file"
            )
            if unreadable is None:
                raise refused from None
            unreadable.append((Path(entry.path), refused))
            continue
        if is_folder:
            if not entry.name.startswith("."):
                folders.append(Path(entry.path))
        elif not is_junk_file(entry.name):
            files.append(Path(entry.path))
    return files, folders


def contained_path(root: Path, relative: str) -> Path:
    """`root/relative`, refused (unsafe_path) unless it stays beneath `root` with no symlink on the way.

    Checked on the names and with lstat only, so nothing is opened: an absolute path, a
    `..`, `.` or empty part, a backslash or NUL, or any symlink from `root` down is refused.
    """
    if not isinstance(relative, str) or not relative or "\x00" in relative or "\\" in relative:
        raise BunzaiError(
            "unsafe_path",
            f"{relative!r} is not a relative path",
            "name a path beneath the folder, with / between parts",
        )
    if relative.startswith("/") or (len(relative) > 1 and relative[1] == ":"):
        raise BunzaiError(
            "unsafe_path", f"{relative!r} is absolute", "name a path beneath the folder, not from the root of the disk"
        )
    parts = relative.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise BunzaiError(
            "unsafe_path",
            f"{relative!r} steps outside its folder or has an empty part",
            "`..`, `.` and `//` are refused",
        )
    path = root
    for part in parts:
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            raise BunzaiError("not_found", f"no file at {relative}", "check the name") from None
        if stat.S_ISLNK(mode):
            raise BunzaiError(
                "unsafe_path",
                f"{relative!r} goes through a symlink ({part})",
                "links are never followed; put the file itself there",
            )
    return path


def read_text_nofollow(path: Path, max_bytes: int) -> str:
    """A regular file's UTF-8 text, opened without following a final symlink, bounded."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        raise BunzaiError("not_found", f"no file at {path}", "check the name") from None
    except OSError as error:
        raise BunzaiError("unsafe_path", f"cannot open {path}: {error.strerror}", "links are never followed") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise BunzaiError("invalid_input", f"{path} is not a regular file", "bunzai reads only regular files")
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise BunzaiError("too_large", f"{path} is over {max_bytes} bytes", "shorten the file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BunzaiError(
            "invalid_input", f"{path} is not UTF-8 text (byte {error.start})", "save the file as UTF-8"
        ) from None


def write_or_check_table(path: str, text: str, *, check: bool, stale: str) -> int:
    """Write a table generated from the code (under bunzai/generated/), or with `check` only
    compare it with `text`: the exit status, 1 (with `stale` on stderr) when it differs."""
    if not check:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return 0
    try:
        with open(path, encoding="utf-8") as handle:
            current = handle.read() == text
    except OSError:
        current = False
    if not current:
        sys.stderr.write(stale + "\n")
    return 0 if current else 1
