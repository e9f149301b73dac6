"""File writes that never show a partial file under its final name. Linux only.

- `write_new(path, data)`: create-only. The bytes go to a temp file in the same folder,
  which is fsynced and then hard-linked to the final name: `link` fails when the name is
  taken, so a create can never overwrite, even against a writer that ignores bunzai's locks.
- `replace_file(path, data)`: the temp file is renamed over the final name (`os.replace`).

Both make the new name durable by fsyncing the folder afterwards, or, given a
`store.batch.Batch`, leave the syncs to the batch (the group commit of `bunzai apply`). A disk
that fails that folder sync is said of the file, as it is (`sync_folder`, `store.faults.Unsettled`):
there whole, not confirmed durable.
Temp files are named `.<name>.<pid>-<random>.tmp` (the name cut to fit a file system's longest
name): hidden, and not ending in the final extension, so listings and reads skip them; they are removed on any
failure. A SIGKILL can still leave one behind: `bunzai doctor --repair` sweeps those whose
writer (the pid in the name) is gone, and a library export those in the folders it writes
into (`sweep_stale_temps`).
"""

from __future__ import annotations

import errno
import os

from bunzai.errors import BunzaiError
from bunzai.limits import FILE_NAME_MAX_BYTES, TEMP_START_SLACK_SECONDS

TYPE_CHECKING = False  # pathlib and typing cost 5 and 3 ms to import; `bunzai read` needs neither
if TYPE_CHECKING:
    from pathlib import Path

    from bunzai.store.batch import Batch

TEMP_SUFFIX = ".tmp"


def is_temp_name(name: str) -> bool:
    """Whether a file name is one of our temp files (`.<name>.<pid>-<random>.tmp`)."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


def temp_writer(name: str) -> int | None:
    """The pid of the process that wrote a temp file, when its name says."""
    tail = name[: -len(TEMP_SUFFIX)].rsplit(".", 1)[-1]
    pid, dash, _ = tail.partition("-")
    return int(pid) if dash and pid.isdigit() else None


def writer_gone(pid: int | None, written: float | None = None) -> bool:
    """Whether the process that wrote a temp file (`temp_writer`) is gone. A live process counts
    as its writer (another of its writes may be under way), and so does one of another user,
    unless it started after the file was last written (`written`, its mtime): then the pid is
    another process's now, and the writer is gone."""
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # another user's live process
        pass
    started = process_started_at(pid) if written is not None else None
    return started is not None and started > written + TEMP_START_SLACK_SECONDS


def process_started_at(pid: int) -> float | None:
    """When process `pid` started, in seconds since the epoch, from /proc (None where it
    cannot be read: not Linux, or the process just ended)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat_line = handle.read()
        with open("/proc/stat", "rb") as handle:
            boot = next(int(line.split()[1]) for line in handle if line.startswith(b"btime "))
        # the command name in parentheses may hold spaces; the start time is the 22nd field
        ticks = int(stat_line[stat_line.rindex(b")") + 2 :].split()[19])
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def sweep_stale_temps(folder: Path) -> int:
    """Remove the temp files in `folder` (not below it) whose writer is gone; how many. Only
    regular files named exactly as `write_temp` names them, so a user's own files stay."""
    import stat

    from bunzai.files import is_exact_temp_name

    removed = 0
    try:
        with os.scandir(folder) as listing:
            found = [
                (entry.path, entry.stat(follow_symlinks=False)) for entry in listing if is_exact_temp_name(entry.name)
            ]
        stale = [
            path
            for path, status in found
            if stat.S_ISREG(status.st_mode) and writer_gone(temp_writer(os.path.basename(path)), status.st_mtime)
        ]
    except OSError:  # a folder that cannot be listed: nothing is swept there
        return 0
    for path in stale:
        try:
            os.unlink(path)
            removed += 1
        except OSError:
            pass
    return removed


# What fsync of a folder answers on a file system that cannot sync folders at all (some network
# and FUSE mounts): no fault of this write, whose files are each fsynced; the new names are as
# durable as that file system makes them. PostgreSQL's fsync_fname ignores the same two.
_NO_FOLDER_SYNC = frozenset({errno.EINVAL, errno.EBADF})


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    except OSError as error:
        if error.errno not in _NO_FOLDER_SYNC:
            raise
    finally:
        os.close(fd)


def settle(path: Path, batch: Batch | None, *, removed: bool = False) -> None:
    """Make the new name `path` (or, `removed`, its removal) durable now, or at the batch's commit."""
    if batch is None:
        sync_folder(path.parent, path, removed=removed)
    else:
        batch.touched(path.parent)


def sync_folder(folder: Path, path: Path, *, removed: bool = False) -> None:
    """fsync `folder`, where `path` has just taken its name (or, `removed`, lost it). A disk that
    fails it is said of `path`, and truly: the file is there whole (or gone), not confirmed
    durable (`store.faults.Unsettled`), never the nameless fault of an fsync."""
    try:
        fsync_dir(folder)
    except OSError as error:
        from bunzai.store.faults import unsettled

        raise unsettled(error, path, removed=removed) from error


def write_temp(path: Path, data: bytes, batch: Batch | None = None) -> Path:
    """A temp file beside `path` holding `data`: fsynced, or left for the batch's `sync_data`."""
    import secrets  # here: reading commands import this module for `is_temp_name` and never write

    temp = path.with_name(temp_name(path.name, f".{os.getpid()}-{secrets.token_hex(6)}{TEMP_SUFFIX}"))
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if batch is not None and batch.defers_data:
            batch.wrote()
        else:
            os.fsync(fd)
    except BaseException as error:
        os.close(fd)
        unlink_quietly(temp)
        if isinstance(error, OSError) and error.filename is None:
            # os.write and os.fsync name no file: the temp named, a last catch knows a write failed
            # (nothing half-written) and names the file meant (store.faults.by_a_write, meant_path)
            raise OSError(error.errno, error.strerror, os.fspath(temp)) from error
        raise
    os.close(fd)
    return temp


def temp_name(name: str, tail: str) -> str:
    """`.<name><tail>`, its copy of `name` cut (at a character) where the whole would pass the
    longest file name: a file whose own name is near that limit can still be written."""
    room = FILE_NAME_MAX_BYTES - 1 - len(os.fsencode(tail))
    raw = os.fsencode(name)
    if len(raw) > room:
        raw = raw[:room]
        while raw and 0x80 <= raw[-1] < 0xC0:  # UTF-8 continuation bytes of a character cut in two
            raw = raw[:-1]
        if raw and raw[-1] >= 0xC0:  # and the lead byte they followed
            raw = raw[:-1]
        name = os.fsdecode(raw)
    return f".{name}{tail}"


def unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def occupied_error(path: Path) -> BunzaiError:
    return BunzaiError(
        "occupied", f"{path.name} already exists in {path.parent}", hint="choose another name; nothing was written"
    )


def link_temp(temp: Path, path: Path) -> None:
    """Give the temp file its final name, create-only (occupied when taken); the temp goes."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise occupied_error(path) from None
    finally:
        unlink_quietly(temp)


def rename_temp(temp: Path, path: Path) -> None:
    """Move the temp file over the final name in one rename."""
    try:
        os.replace(temp, path)
    except BaseException:
        unlink_quietly(temp)
        raise


def write_new(path: Path, data: bytes, batch: Batch | None = None) -> None:
    """Create `path` holding `data`; BunzaiError occupied when the name is taken."""
    from pathlib import Path

    path = Path(path)
    temp = write_temp(path, data, batch)
    if batch is not None:
        batch.sync_data()
    link_temp(temp, path)
    settle(path, batch)


def replace_file(path: Path, data: bytes, batch: Batch | None = None) -> None:
    """Write `data` to `path`, replacing what is there in one rename."""
    from pathlib import Path

    path = Path(path)
    temp = write_temp(path, data, batch)
    if batch is not None:
        batch.sync_data()
    rename_temp(temp, path)
    settle(path, batch)


def remove_file(path: Path, batch: Batch | None = None) -> None:
    """Unlink `path` and fsync its folder (FileNotFoundError when it is gone)."""
    from pathlib import Path

    path = Path(path)
    os.unlink(path)
    settle(path, batch, removed=True)
