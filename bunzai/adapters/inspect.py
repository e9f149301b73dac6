"""Take one file to the adapter that claims it, through one three-way branch.

    image container (PNG, JPEG, WEBP, GIF)  -> adapters with container "image"
    archive container (ZIP, JPEG+ZIP)       -> adapters with container "archive"
    text (JSON, YAML)                       -> parsed once, within limits, then "text" adapters

Each candidate sniffs; the most confident wins. When nothing claims the file, the error
says what the file looked like, so a person knows what they gave.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISREG
from typing import Any

from bunzai.adapters.common.png import headers as png_headers, read_png
from bunzai.adapters.common.yamltext import load_yaml_bytes
from bunzai.adapters.contract import Adapter, Decoded
from bunzai.adapters.registry import all_adapters, get_adapter, readers_of
from bunzai.errors import BunzaiError
from bunzai.files import list_folder, read_file_bytes, text_name
from bunzai.jsondoc.reading import ReadNotes, load_json_bytes, read_notes
from bunzai.limits import FOLDER_PIECE_MAX_BYTES, FOLDER_PIECE_MAX_FILES

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ZIP_MAGIC = b"PK\x03\x04"
# A ZIP that opens on its end record has no member before its directory: an empty archive.
EMPTY_ZIP_MAGIC = b"PK\x05\x06"
JPEG_MAGIC = b"\xff\xd8\xff"


@dataclass
class Inspected:
    adapter: Adapter
    container: str
    parsed: Any
    confidence: float


def container_of(data: bytes, name: str) -> str:
    """'image', 'archive' or 'text', from the bytes (never from the name alone)."""
    if data.startswith(ZIP_MAGIC):
        return "archive"
    if data.startswith(JPEG_MAGIC):
        # A JPEG with a ZIP appended is a CHARX polyglot (RisuAI writes these).
        return "archive" if ZIP_MAGIC in data[2:] and _has_zip_directory(data) else "image"
    if (
        data.startswith(PNG_MAGIC)
        or data[:4] == b"RIFF"
        and data[8:12] == b"WEBP"
        or data[:6] in (b"GIF87a", b"GIF89a")
    ):
        return "image"
    return "text"


def _has_zip_directory(data: bytes) -> bool:
    return b"PK\x05\x06" in data[-65_557:]  # end-of-central-directory record, within its max comment


_YAML_SUFFIXES = (".yaml", ".yml")


def parse_text(data: bytes, name: str, yaml: bool | None = None) -> Any:
    """JSON, or YAML (`yaml`, else for .yaml/.yml names), within the limits; BunzaiError when
    it is not."""
    if yaml or yaml is None and Path(name).suffix.lower() in _YAML_SUFFIXES:
        return load_yaml_bytes(data, what=name or "the YAML file")
    return load_json_bytes(data, what=name or "the file")


def _parse_or_error(data: bytes, name: str, yaml: bool | None = None) -> tuple[Any, BunzaiError | None]:
    """A text file's document, or the parse error: binary formats with no container of their
    own (RisuAI's .risum/.risup) are then offered to the text adapters with `parsed` None."""
    try:
        return parse_text(data, name, yaml), None
    except BunzaiError as error:
        return None, error


def _claims_binary(adapter: Adapter, data: bytes, name: str) -> bool:
    try:
        return float(adapter.sniff(data, name, None)) > 0
    except Exception:  # noqa: BLE001 - a sniffer that trips does not claim the file
        return False


def _refuse_empty_zip(data: bytes, name: str) -> None:
    """An empty ZIP is named so, whatever format was asked for: no reader's own words fit it."""
    if data.startswith(EMPTY_ZIP_MAGIC):
        raise BunzaiError(
            "unrecognized_file",
            f"{name or 'the file'} is an empty ZIP archive: it holds no files",
            "the archive was saved before anything was put in it; export it again",
        )


def inspect_bytes(data: bytes, name: str) -> Inspected:
    _refuse_empty_zip(data, name)
    container = container_of(data, name)
    parsed, unparsed = _parse_or_error(data, name) if container == "text" else (None, None)
    if container == "image" and data.startswith(PNG_MAGIC):
        parsed = png_headers(data)  # walked once: every image sniffer, then the reader, look at this walk
    best: tuple[float, Adapter] | None = None
    damage: BunzaiError | None = unparsed
    for adapter in readers_of(container):
        try:
            score = float(adapter.sniff(data, name, parsed))
        except BunzaiError as error:  # the sniffer found the container damaged or hostile
            damage = damage or error
            score = 0.0
        except Exception:  # noqa: BLE001 - a sniffer that trips does not claim the file
            score = 0.0
        if score > 0 and (best is None or score > best[0]):
            best = (score, adapter)
    promised = _BINARY_NAMES.get(Path(name).suffix.lower()) if name and best is None else None
    if best is None and container == "text" and not data.strip():
        # Said in place of the JSON or YAML reader's complaint ("Expecting value at line 1 column
        # 1", "a JSON NoneType"); the code stays the reader's, as a folder's walk judges by it.
        held = "it is empty" if not data else "it holds only white space"
        raise BunzaiError(
            unparsed.code if unparsed is not None and not promised else "unrecognized_file",
            f"{name} is not a {promised}: {held}" if promised else f"{name or 'the file'}: {held}",
            "the file was not copied whole; copy or export it again",
        )
    if best is None and container == "text" and promised is not None:
        raise BunzaiError(
            "unrecognized_file",
            f"{name} is not a {promised}: its bytes are "
            f"{'text' if unparsed is not None else describe(data, container, parsed)}, "
            f"not a {promised}",
            "the file was renamed or saved wrongly; export it again",
        )
    if best is None and damage is not None:
        raise damage
    if best is None and data.startswith(PNG_MAGIC):
        read_png(data, name or "the PNG")  # a damaged PNG says so, rather than "unrecognized"
    if best is None:
        raise BunzaiError(
            "unrecognized_file",
            f"{name or 'the file'}: {describe(data, container, parsed)}, which no format claims",
            "see `bunzai formats` for what bunzai reads",
        )
    return Inspected(best[1], container, parsed, best[0])


def read_bytes(data: bytes, name: str, format_id: str | None = None) -> tuple[Adapter, Decoded]:
    """Read a file's bytes into pieces, by the named format or by sniffing."""
    given = name
    if not name.isascii():  # (most names are: no call on the read path for them)
        name = text_name(name)
    # A read builds trees (the parsed file, the pieces), not cycles: the collector's passes during
    # one free nothing, and took a fifth to a quarter of a 200-entry book's read (docs/benchmarks.md). Paused
    # here for every caller, not only the CLI, whose thresholds (limits.GC_THRESHOLDS) are raised.
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        with read_notes() as notes:
            adapter, decoded = _read(data, name, format_id)
    finally:
        if collecting:
            gc.enable()
    decoded.warnings += notes_warnings(notes, name or "the file")
    if name is not given:
        decoded.warnings.append(
            f"{name}: the file's name is not UTF-8; its undecodable bytes are kept as U+FFFD "
            "wherever the name is kept (the piece's name, its source)"
        )
    return adapter, decoded


def notes_warnings(notes: ReadNotes, what: str) -> list[str]:
    """The warnings a read owes its reader for what the JSON or YAML reader mended."""
    warnings = []
    if notes.surrogates:
        warnings.append(
            f"{what}: {notes.surrogates} lone UTF-16 surrogate(s) (half an emoji, "
            "as some JavaScript writes) were replaced by U+FFFD"
        )
    if notes.duplicate_keys:
        keys = ", ".join(sorted(set(notes.duplicate_keys))[:8])
        warnings.append(
            f"{what}: an object repeats the key(s) {keys}; the last value of each was kept, "
            "as the platforms' own readers do"
        )
    return warnings


def _read(data: bytes, name: str, format_id: str | None) -> tuple[Adapter, Decoded]:
    if format_id is not None:
        adapter = get_adapter(format_id)
        _refuse_empty_zip(data, name)
        container = container_of(data, name)
        # A format that is YAML alone is parsed as YAML whatever the name (standard input, a
        # file without its suffix); any other by the name, as a sniffed file is.
        yaml = True if adapter.extensions and all(ext in _YAML_SUFFIXES for ext in adapter.extensions) else None
        parsed, unparsed = (
            _parse_or_error(data, name, yaml) if adapter.container == "text" and container == "text" else (None, None)
        )
        if unparsed is not None and not _claims_binary(adapter, data, name):
            raise unparsed
        _refuse_other_shape(adapter, data, name, container, parsed)
        return adapter, adapter.read(data, name, parsed)
    found = inspect_bytes(data, name)
    return found.adapter, found.adapter.read(data, name, found.parsed)


def _refuse_other_shape(adapter: Adapter, data: bytes, name: str, container: str, parsed: Any) -> None:
    """An explicit format the file does not have is refused, not read into an empty piece.

    The named format may be forced on a file its sniffer would not pick (a plain V2 card
    read as SillyTavern's export); what is refused is a file that is another kind of
    thing: of another container, or claimed by a format of another kind (a lorebook read
    as a card). A file nothing claims goes to the named reader, which says what it lacks.
    """
    if adapter.container == container and _claims(adapter, data, name, parsed):
        return
    what = f"{name or 'the file'} is not a {adapter.label} file"
    if adapter.container != container and data[:4] in (b"\x89PNG", b"PK\x03\x04", b"PK\x05\x06"):
        return  # a damaged PNG or ZIP: its reader says what is wrong
    if adapter.container != container:
        raise BunzaiError(
            "unrecognized_file",
            f"{what}: it is {_container_words(data, container)}",
            "leave out --format to let bunzai recognise the file",
        )
    try:
        other = inspect_bytes(data, name).adapter
    except BunzaiError:
        other = None
    if other is None or set(other.kinds) & set(adapter.kinds):
        return  # nothing else claims it: the named format's reader says what it lacks
    raise BunzaiError(
        "unrecognized_file",
        f"{what}: it reads as {other.label} ({other.format_id})",
        "leave out --format to let bunzai recognise the file",
    )


def _claims(adapter: Adapter, data: bytes, name: str, parsed: Any) -> bool:
    try:
        return float(adapter.sniff(data, name, parsed)) > 0
    except BunzaiError:
        return True  # a damaged container of this format: its reader says what is wrong
    except Exception:  # noqa: BLE001 - a sniffer that trips does not claim the file
        return False


def _container_words(data: bytes, container: str) -> str:
    if container == "image":
        return "an image"
    return "a ZIP archive" if container == "archive" else "text"


# File name endings that promise a binary container: a text file named so is refused as
# "not a PNG" (and so on), not reported as broken JSON.
_BINARY_NAMES = {
    ".png": "PNG",
    ".apng": "PNG",
    ".webp": "WEBP",
    ".jpg": "JPEG",
    ".jpeg": "JPEG",
    ".charx": "CHARX (ZIP) archive",
    ".byaf": "BYAF (ZIP) archive",
    ".zip": "ZIP archive",
}


def describe(data: bytes, container: str, parsed: Any) -> str:
    """What a file looked like, in a few words."""
    if container == "image":
        kind = "PNG" if data.startswith(PNG_MAGIC) else "JPEG" if data.startswith(JPEG_MAGIC) else "WEBP or GIF"
        return f"a {kind} image without character card metadata"
    if container == "archive":
        return "a ZIP archive without a card.json or a known layout"
    if isinstance(parsed, dict):
        keys = ", ".join(sorted(map(str, parsed))[:8])
        return f"a JSON object with keys {keys or '(none)'}"
    if isinstance(parsed, list):
        return f"a JSON array of {len(parsed)} items"
    return f"a JSON {type(parsed).__name__}"


def claim_folder(
    path: Path, notes: list[str] | None = None, files: list[Path] | None = None
) -> tuple[Adapter | None, dict[str, bytes]]:
    """(adapter, contents): the folder adapter that reads `path` as one piece (a sprite folder),
    or None, and the folder's files by name as far as they were read whole to decide ({} when
    the names alone settled it), so a caller that walks the folder file by file does not read
    them again.
    `files` is the folder's listing (`list_folder`) when the caller has made it.

    Folder adapters first judge the folder by its file names (`sniff_names`, nothing read);
    only a folder some adapter may claim is read (bounded) and sniffed by its bytes. A folder
    no adapter claims is walked file by file by the caller instead.

    A folder whose names an adapter claims but that is over the limits of one piece
    (`FOLDER_PIECE_MAX_FILES` regular files, `FOLDER_PIECE_MAX_BYTES` bytes) is not claimed either:
    names alone cannot tell a sprite folder from a folder of cards where one card is called
    joy.png, and the cards must still import. `notes` gets a sentence saying why.
    """
    candidates = [a for a in all_adapters() if a.container == "folder" and a.can_read]
    if not candidates:
        return None, {}
    if files is None:
        files = list_folder(path)[0]
    names = [file.name for file in files]
    candidates = [a for a in candidates if names and _score(lambda a=a: a.sniff_names(names)) >= 0.5]
    if not candidates:
        return None, {}
    sizes = [(file, size) for file in files if (size := _regular_size(file)) is not None]  # FIFOs are no part
    if len(sizes) > FOLDER_PIECE_MAX_FILES:
        return _crowded(path, candidates, f"{len(sizes):,} files, over the {FOLDER_PIECE_MAX_FILES:,}", notes)
    size = sum(size for _, size in sizes)  # by the listing, before a byte is read
    if size > FOLDER_PIECE_MAX_BYTES:
        return _crowded(path, candidates, f"{size:,} bytes, over the {FOLDER_PIECE_MAX_BYTES:,}", notes)
    contents = _read_listed(path, [file for file, _ in sizes])
    best: tuple[float, Adapter] | None = None
    for adapter in candidates:
        score = _score(lambda adapter=adapter: adapter.sniff(b"", str(path), contents))
        if score >= 0.5 and (best is None or score > best[0]):
            best = (score, adapter)
    return (best[1] if best else None), contents


def _regular_size(file: Path) -> int | None:
    """The size of a regular file by lstat; None for a FIFO, device or socket, which no
    piece is made of. A file gone since the listing counts 0: its read says so."""
    try:
        info = file.stat(follow_symlinks=False)
    except OSError:
        return 0
    return info.st_size if S_ISREG(info.st_mode) else None


def _read_listed(path: Path, files: list[Path]) -> dict[str, bytes]:
    """The listed files' bytes by name, bounded again as they are read: a file may grow in between."""
    contents: dict[str, bytes] = {}
    total = 0
    for file in files:
        data = read_file_bytes(file)
        total += len(data)
        if total > FOLDER_PIECE_MAX_BYTES:
            raise BunzaiError(
                "too_large",
                f"{path} holds more than {FOLDER_PIECE_MAX_BYTES} bytes",
                "move files that are not part of the piece out of the folder",
            )
        contents[file.name] = data
    return contents


def _crowded(path: Path, candidates: list[Adapter], what: str, notes: list[str] | None) -> tuple[None, dict]:
    if notes is not None:
        labels = " or ".join(sorted({adapter.label for adapter in candidates}))
        notes.append(
            f"{text_name(path.name)} has the file names of a {labels} but holds {what} "
            "a folder read as one piece may hold (see `bunzai docs read limits`)"
        )
    return None, {}


def _score(sniff) -> float:
    try:
        return float(sniff())
    except Exception:  # noqa: BLE001 - a sniffer that trips does not claim the folder
        return 0.0
