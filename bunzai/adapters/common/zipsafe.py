"""Read ZIP archives from untrusted bytes safely, and write them deterministically.

`open_archive(data)` refuses, with `unsafe_archive`, what could hurt a reader or a later
extraction: member names that climb out (`../`, absolute, drive letters, backslashes,
NUL), duplicated names, too many members, a member or a total over the limits in
`bunzai.limits`, and compression ratios only a bomb reaches. Sizes are counted while
decompressing, in bounded steps; the sizes a header declares are only used to refuse
early, never trusted to allow. A damaged archive is `corrupt_file`. A name without the
UTF-8 flag reads as UTF-8 where its bytes are (see member_name).

A JPEG followed by a ZIP (a CHARX polyglot, as RisuAI writes it) opens like a ZIP:
zipfile finds the end record at the end of the data and corrects member offsets that
were written relative to the start of the ZIP part.

`write_archive(members)` gives the same bytes for the same members: fixed timestamps,
fixed attributes, names in UTF-8 with the UTF-8 flag where they are not ASCII (as RisuAI's
fflate writes them; fflate and SillyTavern's yauzl read a name without the flag as Latin-1
or code page 437), deflate unless storing is smaller; it refuses, with `too_large`, an
archive open_archive would refuse for its size.
"""

from __future__ import annotations

import io
import re
import struct
import warnings
import zipfile
import zlib

from bunzai import limits
from bunzai.errors import BunzaiError

ZIP_LOCAL_MAGIC = b"PK\x03\x04"
_EOCD_MAGIC = b"PK\x05\x06"
_EOCD_SEARCH = 65_557  # the end record (22 bytes) plus its longest comment (65535)
_DRIVE = re.compile(r"^[A-Za-z]:")
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a ZIP can hold
_FILE_MODE = 0o100644 << 16  # a regular, readable file, written as from a Unix system
_DIR_MODE = (0o40755 << 16) | 0x10  # a directory (Unix mode and the MS-DOS directory bit)
_UTF8_FLAG = 0x800  # general purpose bit 11: the name and comment are UTF-8
_NAME_MAX = 0xFFFF  # a ZIP header's name length field is 16 bits
_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}
_HINT = "the archive was refused unread; rebuild it with an ordinary zip tool from the files themselves"


def _unsafe(message: str) -> BunzaiError:
    return BunzaiError("unsafe_archive", message, _HINT)


def _corrupt(message: str) -> BunzaiError:
    return BunzaiError("corrupt_file", message, "the archive is damaged or truncated; export it again")


def name_problem(name: str) -> str | None:
    """Why a member name is unsafe to use as a path, or None when it is safe."""
    if not name:
        return "an empty member name"
    if "\x00" in name:
        return f"member name {name!r} holds a NUL character"
    if "\\" in name:
        return f"member name {name!r} holds a backslash (a Windows path separator)"
    if name.startswith("/"):
        return f"member name {name!r} is an absolute path"
    if _DRIVE.match(name):
        return f"member name {name!r} names a drive"
    parts = name[:-1].split("/") if name.endswith("/") else name.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return f"member name {name!r} has an empty, '.' or '..' path segment"
    return None


def member_name(info: zipfile.ZipInfo) -> str:
    """A member's name: the original (`filename` is cut at a NUL, the original shows it), read
    as UTF-8 where the UTF-8 flag is off but its bytes are UTF-8. Info-ZIP, macOS and most tools
    outside Windows write names so, and the card's `embeded://` uris spell them in UTF-8; bytes
    that are not UTF-8 keep zipfile's reading of them (code page 437, as the ZIP spec says)."""
    name = info.orig_filename
    if info.flag_bits & _UTF8_FLAG or name.isascii():
        return name
    try:
        return name.encode("cp437").decode("utf-8")
    except UnicodeError:
        return name


class SafeArchive:
    """A checked ZIP archive: file member names, and bounded reads of their bytes."""

    def __init__(self, zf: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo]) -> None:
        self._zf = zf
        self._infos = infos
        self._counted: dict[str, int] = {}  # member -> bytes, counted once towards the total

    def names(self) -> list[str]:
        """File members (not directories), in archive order."""
        return [name for name in self._infos if not name.endswith("/")]

    def prefix_length(self) -> int:
        """Bytes before the first member (a JPEG cover a polyglot archive is appended to)."""
        return min((info.header_offset for info in self._infos.values()), default=0)

    def entries(self) -> list[str]:
        """Every member name in archive order, directory entries (`name/`) included."""
        return list(self._infos)

    def has(self, name: str) -> bool:
        return name in self._infos and not name.endswith("/")

    def read(self, name: str) -> bytes:
        """A member's bytes, refused (unsafe_archive) as soon as a limit is passed."""
        info = self._infos.get(name)
        if info is None or name.endswith("/"):
            raise BunzaiError("not_found", f"the archive has no member {name!r}", "list the members with names()")
        others = sum(self._counted.values()) - self._counted.get(name, 0)
        data = _read_bounded(self._zf, info, limits.ARCHIVE_TOTAL_MAX_BYTES - others)
        self._counted[name] = len(data)
        return data


def open_archive(data: bytes) -> SafeArchive:
    """Check an archive's directory and open it for bounded reads."""
    if len(data) > limits.ARCHIVE_MAX_BYTES:
        raise BunzaiError(
            "too_large",
            f"the archive is {len(data)} bytes; bunzai opens at most {limits.ARCHIVE_MAX_BYTES}",
            "split the archive",
        )
    _check_end_record(data)
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infolist = zf.infolist()
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        RuntimeError,
        EOFError,
        struct.error,
        ValueError,
        OSError,
    ) as error:  # RuntimeError: a zip version zipfile does not implement
        raise _corrupt(f"the archive cannot be opened: {error}") from None
    if len(infolist) > limits.ARCHIVE_MAX_MEMBERS:
        raise _unsafe(f"the archive lists {len(infolist)} members; bunzai opens at most {limits.ARCHIVE_MAX_MEMBERS}")
    infos: dict[str, zipfile.ZipInfo] = {}
    declared = 0
    for info in infolist:
        name = member_name(info)
        problem = name_problem(name)
        if problem:
            raise _unsafe(f"the archive is refused: {problem}")
        if name in infos:
            raise _unsafe(f"the archive lists member {name!r} twice")
        if info.flag_bits & 0x1:
            raise BunzaiError("unsupported", f"member {name!r} is encrypted", "export the archive without a password")
        _check_declared_size(info)
        declared += info.file_size
        infos[name] = info
    if declared > limits.ARCHIVE_TOTAL_MAX_BYTES:
        raise _unsafe(
            f"the archive declares {declared} uncompressed bytes; bunzai reads at most {limits.ARCHIVE_TOTAL_MAX_BYTES}"
        )
    return SafeArchive(zf, infos)


_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_RECORD = b"PK\x06\x06"
_ZIP64_RECORD_SEARCH = 1 << 16  # the record may carry an extensible data sector before the locator
_CENTRAL_MAGIC = b"PK\x01\x02"


def _check_end_record(data: bytes) -> None:
    """Refuse early what is not a ZIP, and a directory that lists too many members: the
    central directory's entries are counted from their headers (zip64 included) before
    `zipfile` parses any of them, so 100,000 members cost a count, not 100,000 objects."""
    at = data.rfind(_EOCD_MAGIC, max(0, len(data) - _EOCD_SEARCH))
    if at < 0:
        if ZIP_LOCAL_MAGIC in data:
            raise _corrupt("the archive has no end-of-directory record: it is truncated")
        raise BunzaiError(
            "unrecognized_file",
            "the file is not a ZIP archive (no ZIP directory found)",
            "give a .zip, .charx or a JPEG with a CHARX appended",
        )
    if len(data) - at < 22:
        return  # a cut record: zipfile refuses it with its own message
    declared, size = struct.unpack_from("<H", data, at + 10)[0], struct.unpack_from("<I", data, at + 12)[0]
    end = at
    locator = at - 20
    if locator >= 0 and data[locator : locator + 4] == _ZIP64_LOCATOR:
        record = data.rfind(_ZIP64_RECORD, max(0, locator - _ZIP64_RECORD_SEARCH), locator)
        if record >= 0 and locator - record >= 56:
            declared, size = struct.unpack_from("<QQ", data, record + 32)
            end = record
    if declared > limits.ARCHIVE_MAX_MEMBERS:
        raise _unsafe(f"the archive lists {declared} members; bunzai opens at most {limits.ARCHIVE_MAX_MEMBERS}")
    counted, pos = 0, max(0, end - size)
    while pos + 46 <= end and data[pos : pos + 4] == _CENTRAL_MAGIC:
        counted += 1
        if counted > limits.ARCHIVE_MAX_MEMBERS:
            raise _unsafe(
                f"the archive holds more than {limits.ARCHIVE_MAX_MEMBERS} members; bunzai opens at most "
                f"{limits.ARCHIVE_MAX_MEMBERS}"
            )
        names, extra, comment = struct.unpack_from("<HHH", data, pos + 28)
        pos += 46 + names + extra + comment


def _check_declared_size(info: zipfile.ZipInfo) -> None:
    if info.file_size > limits.ARCHIVE_MEMBER_MAX_BYTES:
        raise _unsafe(
            f"member {info.orig_filename!r} declares {info.file_size} bytes; bunzai reads at most "
            f"{limits.ARCHIVE_MEMBER_MAX_BYTES} per member"
        )
    if info.file_size > limits.ARCHIVE_RATIO_FLOOR_BYTES and info.file_size > limits.ARCHIVE_MAX_RATIO * max(
        1, info.compress_size
    ):
        raise _unsafe(
            f"member {info.orig_filename!r} declares a compression ratio over {limits.ARCHIVE_MAX_RATIO}:1, "
            "as a zip bomb does"
        )


def _read_bounded(zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> bytes:
    """Decompress one member in steps, checking every limit after each step."""
    name = info.orig_filename
    if info.compress_type not in _METHODS:
        raise BunzaiError(
            "unsupported",
            f"member {name!r} uses compression method {info.compress_type}, which bunzai does not read",
            "rebuild the archive with deflate",
        )
    # The member's data can come from at most compress_size bytes: zipfile never reads past it.
    source = max(1, info.compress_size)
    chunks: list[bytes] = []
    produced = 0
    try:
        with zf.open(info) as stream:
            while chunk := stream.read(limits.ARCHIVE_READ_CHUNK_BYTES):
                produced += len(chunk)
                if produced > limits.ARCHIVE_MEMBER_MAX_BYTES:
                    raise _unsafe(
                        f"member {name!r} decompresses past {limits.ARCHIVE_MEMBER_MAX_BYTES} bytes, "
                        "the most bunzai reads per member"
                    )
                if produced > budget:
                    raise _unsafe(
                        f"the archive decompresses past {limits.ARCHIVE_TOTAL_MAX_BYTES} bytes in all, "
                        "the most bunzai reads from one archive"
                    )
                if produced > limits.ARCHIVE_RATIO_FLOOR_BYTES and produced > limits.ARCHIVE_MAX_RATIO * source:
                    raise _unsafe(
                        f"member {name!r} decompresses at a ratio over {limits.ARCHIVE_MAX_RATIO}:1, as a zip bomb does"
                    )
                chunks.append(chunk)
    except BunzaiError:
        raise
    except (zipfile.BadZipFile, EOFError, zlib.error, struct.error, ValueError, OSError, RuntimeError) as error:
        raise _corrupt(f"member {name!r} cannot be read: {error}") from None
    return b"".join(chunks)


def write_archive(members: list[tuple[str, bytes]], lead: bytes = b"") -> bytes:
    """`lead` then a ZIP of `members` in order; the same members always give the same bytes.

    Names must be safe (see name_problem), unique, and fit a ZIP header as UTF-8 (zipfile
    sets the UTF-8 flag on a name that is not ASCII). Each member is deflated
    unless storing it is smaller (images are already compressed) or deflating it would
    pass the ratio open_archive refuses as a bomb. `lead` is what comes before the ZIP
    (a CHARX polyglot's cover image). What open_archive would refuse for its size (too
    many members, a member or a total too large, a file too long) is refused here,
    before anything is written: bunzai reads back every archive it writes.
    """
    _check_fits(members)
    seen: set[str] = set()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in members:
            problem = name_problem(name) or _unwritable(name)
            if problem or name in seen:
                raise BunzaiError(
                    "invalid_input",
                    f"cannot write the archive: {problem or f'{name!r} is listed twice'}",
                    "use unique, relative member names of at most 65,535 UTF-8 bytes",
                )
            seen.add(name)
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.create_system = 3
            if name.endswith("/"):  # a directory entry: no data, stored
                if data:
                    raise BunzaiError(
                        "invalid_input",
                        f"cannot write the archive: directory entry {name!r} has data",
                        "a name ending in / is a directory",
                    )
                info.external_attr = _DIR_MODE
                info.compress_type = zipfile.ZIP_STORED
                zf.writestr(info, b"")
                continue
            info.external_attr = _FILE_MODE
            info.compress_type = _method_for(data)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                zf.writestr(info, data, compresslevel=9)
    archive = lead + out.getvalue()
    if len(archive) > limits.ARCHIVE_MAX_BYTES:
        raise _too_large(
            f"it would be {len(archive)} bytes; bunzai opens archives of at most {limits.ARCHIVE_MAX_BYTES}"
        )
    return archive


def _unwritable(name: str) -> str | None:
    """Why a safe name cannot go in a ZIP header, or None: its UTF-8 must fit the 16-bit length field."""
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:
        return f"member name {name!r} holds a lone UTF-16 surrogate, which UTF-8 cannot hold"
    if size > _NAME_MAX:
        return f"member name {name[:40]!r}... is {size} UTF-8 bytes; a ZIP name holds at most {_NAME_MAX}"
    return None


def _too_large(why: str) -> BunzaiError:
    return BunzaiError(
        "too_large",
        f"cannot write the archive: {why}",
        "write fewer or smaller files into one archive (split the pack or the card's assets)",
    )


def _check_fits(members: list[tuple[str, bytes]]) -> None:
    """Refuse what open_archive would refuse for its size, so nothing unreadable is written."""
    if len(members) > limits.ARCHIVE_MAX_MEMBERS:
        raise _too_large(f"it would hold {len(members)} members; bunzai opens at most {limits.ARCHIVE_MAX_MEMBERS}")
    total = 0
    for name, data in members:
        if len(data) > limits.ARCHIVE_MEMBER_MAX_BYTES:
            raise _too_large(
                f"member {name!r} is {len(data)} bytes; "
                f"bunzai opens at most {limits.ARCHIVE_MEMBER_MAX_BYTES} per member"
            )
        total += len(data)
    if total > limits.ARCHIVE_TOTAL_MAX_BYTES:
        raise _too_large(
            f"its members hold {total} bytes in all; bunzai reads at most {limits.ARCHIVE_TOTAL_MAX_BYTES}"
        )


def _method_for(data: bytes) -> int:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = compressor.compress(data) + compressor.flush()
    if len(packed) >= len(data):
        return zipfile.ZIP_STORED
    # A member that deflates past the ratio the reader refuses (a book of one entry repeated
    # thousands of times does) is stored, so bunzai always reads back what it wrote.
    if len(data) > limits.ARCHIVE_RATIO_FLOOR_BYTES and len(data) > limits.ARCHIVE_MAX_RATIO * len(packed):
        return zipfile.ZIP_STORED
    return zipfile.ZIP_DEFLATED
