"""RisuAI modules (`.risum`) -> a lorebook piece and, when the module has scripts, a regex piece.

The binary: `u8 111` magic, `u8 0` version, `u32le` length, RPack(JSON `{module, type:
"risuModule"}`), then per asset `u8 1`, `u32le` length, RPack(bytes), ended by `u8 0`.
A module maps to canonical pieces this way: pieces[0] is a lorebook named after the module
(its description, its lore entries); when the module has regex scripts, pieces[1] is a
regex set whose escrow is a RisuAI regex export, so it writes back as `risu.regex`
unchanged. Triggers, Lua/cjs code, toggles and asset names are code or RisuAI settings:
they stay sealed in the lorebook's escrow (the decoded module JSON), never executed; the
module's own bytes and its assets are kept byte for byte in the escrow files.
Without a RisuAI checkout (see rpack) the module is not decoded: the lorebook is empty,
the bytes are escrowed, and a `not_decoded` warning says how to configure one.
Writing (module_write) needs the table too, except to give back unchanged the bytes of a
module that was never decoded.
"""

from __future__ import annotations

import re
import struct
from typing import Any

from pydantic import ValidationError

from bunzai import limits
from bunzai.adapters.common.jsjson import stringify
from bunzai.adapters.common.naming import linked_id, piece_id_for
from bunzai.adapters.contract import Adapter, Blob, Decoded, Encoded, MediaSource, Origin
from bunzai.adapters.registry import register
from bunzai.adapters.risu import rpack
from bunzai.adapters.risu.lorebook import read_entries
from bunzai.adapters.risu.regex import read_scripts
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import load_json_bytes
from bunzai.model.lorebook import Lorebook
from bunzai.model.regex import RegexSet

FORMAT_ID = "risu.module"
JSON_FORMAT_ID = "risu.module.json"  # the same module as JSON, as RisuRealm shares it (module_json)
MODULE_TYPE = "risuModule"
MAGIC = 111
MODULE_MEMBER = "module.risum"
REGEX_SUFFIX = " regex"  # a module's scripts read as a set named after it, with this after the name
_EXT = re.compile(r"[a-z0-9]{1,10}")  # an asset extension the studio stores (AssetRef.ext)


def looks_like_module(data: bytes) -> bool:
    return len(data) >= 7 and data[0] == MAGIC and data[1] == 0 and 6 + struct.unpack("<I", data[2:6])[0] < len(data)


def module_of(document: Any) -> dict | None:
    """The module object of a module JSON document: the flat form RisuRealm shares (the module
    with `type: "risuModule"`) or the wrapped one a `.risum` holds (`{"module": {...}, "type"}`)."""
    if not isinstance(document, dict) or document.get("type") != MODULE_TYPE:
        return None
    inner = document.get("module")
    return inner if isinstance(inner, dict) else document


def encode_module(module: dict, assets: list[bytes], table: rpack.Table) -> bytes:
    """The `.risum` bytes of a module document, as RisuAI's exportModule writes them: the JSON
    indented by 2 with each asset's data slot emptied, then one block per asset."""
    module = dict(module)
    module["assets"] = [
        [entry[0] if entry else "", "", entry[2] if len(entry) > 2 else ""]
        for entry in (item if isinstance(item, list) else [] for item in module.get("assets") or [])
    ]
    main = table.encode(stringify({"module": module, "type": "risuModule"}, 2).encode("utf-8"))
    blocks = b"".join(b"\x01" + struct.pack("<I", len(asset)) + table.encode(asset) for asset in assets)
    return bytes([MAGIC, 0]) + struct.pack("<I", len(main)) + main + blocks + b"\x00"


def _asset_ext(entry: list) -> str:
    """The extension an asset's escrow file and studio asset get: the module's own, lowercased, when
    it is 1 to 10 ASCII letters or digits (what RisuAI's picker writes: the suffix of a png, mp3, woff2
    ...), else `bin`. `str.isalnum()` would let `ｐｎｇ` or `²` into a file name. The module JSON keeps
    the ext as written either way, so a write back loses nothing."""
    ext = entry[2].lower() if len(entry) > 2 and isinstance(entry[2], str) else ""
    return ext if _EXT.fullmatch(ext) else "bin"


def _corrupt(what: str, why: str) -> BunzaiError:
    return BunzaiError(
        "corrupt_file",
        f"{what} is not a RisuAI module RisuAI could read: {why}",
        "export the module again from RisuAI",
    )


def frame(data: bytes, what: str) -> tuple[bytes, list[bytes]]:
    """The RPack'd module JSON block and asset blocks, as RisuAI's readModule walks them; walking
    them needs no table, so a damaged module is refused with or without one."""
    if len(data) < 6 or data[0] != MAGIC:
        raise _corrupt(what, "it does not start with the module magic byte 111")
    if data[1] != 0:
        raise _corrupt(what, f"module format version {data[1]} (bunzai reads version 0)")
    at = 2

    def block() -> bytes:
        nonlocal at
        if at + 4 > len(data):
            raise _corrupt(what, "it ends inside a length")
        size = struct.unpack("<I", data[at : at + 4])[0]
        if at + 4 + size > len(data):
            raise _corrupt(what, "a block is longer than the file")
        chunk = data[at + 4 : at + 4 + size]
        at += 4 + size
        return chunk

    main = block()
    assets: list[bytes] = []
    while True:
        if at >= len(data):
            raise _corrupt(what, "it ends without its end mark")
        mark = data[at]
        at += 1
        if mark == 0:
            break
        if mark != 1:
            raise _corrupt(what, f"unknown block mark {mark}")
        if len(assets) >= limits.ARCHIVE_MAX_MEMBERS:
            raise BunzaiError(
                "too_large", f"{what} holds more than {limits.ARCHIVE_MAX_MEMBERS} assets", "split the module"
            )
        assets.append(block())
    return main, assets


def decode_module(data: bytes, table: rpack.Table, what: str) -> tuple[dict, list[bytes]]:
    """The module JSON document and the bytes of its assets, in order."""
    main, assets = frame(data, what)
    try:
        document = load_json_bytes(table.decode(main), what=f"the module JSON in {what}")
    except BunzaiError as error:
        if error.code == "invalid_json":
            raise _corrupt(what, "its JSON does not decode (is the RPack table RisuAI's?)") from None
        raise
    if (
        not isinstance(document, dict)
        or document.get("type") != MODULE_TYPE
        or not isinstance(document.get("module"), dict)
    ):
        raise _corrupt(what, 'its JSON is not {"type": "risuModule", "module": {...}}')
    return document, [table.decode(asset) for asset in assets]


def module_pieces(data: bytes, name: str, file_name: str) -> Decoded:
    """The pieces a module's bytes read as (see the module docstring)."""
    what = file_name or "the module"
    raw = Blob(data, "risum", "application/octet-stream", Origin(spans=((0, len(data)),)))
    files = {MODULE_MEMBER: raw.ref().model_dump(mode="json")}
    table, why = rpack.current_table()
    stem = file_name.rsplit("/", 1)[-1].rsplit(".", 1)[0] if file_name else ""
    if table is None:
        frame(data, what)  # a damaged module is refused now, not when a table is configured
        book = Lorebook.model_validate(
            {
                "id": piece_id_for(name or stem, file_name, "module"),
                "name": name or stem or "RisuAI module",
                "original": {"format": FORMAT_ID, "document": None, "files": files},
            }
        )
        return Decoded(
            [book],
            [raw],
            [
                f"not_decoded: {what} is a RisuAI module; {why}, so its lorebook, regex "
                f"scripts and triggers are not read (its bytes are kept in the escrow). "
                f"Hint: {rpack.NOT_DECODED_HINT}"
            ],
        )
    document, assets = decode_module(data, table, what)
    module = document["module"]
    blobs = [raw]
    names = module.get("assets") if isinstance(module.get("assets"), list) else []
    for index, content in enumerate(assets):
        entry = names[index] if index < len(names) and isinstance(names[index], list) else []
        ext = _asset_ext(entry)
        blob = Blob(content, ext)
        blobs.append(blob)
        files[f"assets/{index}.{ext}"] = blob.ref().model_dump(mode="json")
    original = {"format": FORMAT_ID, "document": document, "files": files}
    pieces, warnings = read_module(module, original, name or stem, file_name)
    return Decoded(pieces, blobs, warnings)


def read_module(module: dict, original: dict, fallback_name: str, file_name: str) -> tuple[list[Any], list[str]]:
    """The pieces of a module object (see the module docstring) and the read's warnings, for
    both of its files: the module JSON of a `.risum`, and RisuRealm's `.json` (module_json).
    `original` is the lorebook's escrow; `fallback_name` names a module without a name."""
    what = file_name or "the module"
    title = module.get("name") if isinstance(module.get("name"), str) and module.get("name") else fallback_name
    book_id = piece_id_for(title, file_name, "module")
    description = module.get("description") if isinstance(module.get("description"), str) else ""
    warnings: list[str] = []
    try:
        pieces: list[Any] = [
            Lorebook.model_validate(
                {
                    "id": book_id,
                    "name": title or "RisuAI module",
                    "body": {"description": description, "entries": read_entries(module.get("lorebook"), warnings)},
                    "original": original,
                }
            )
        ]
        if isinstance(module.get("regex"), list) and module["regex"]:
            pieces.append(
                RegexSet.model_validate(
                    {
                        "id": linked_id(book_id, "regex"),
                        "name": f"{title}{REGEX_SUFFIX}",
                        "body": {"rules": read_scripts(module["regex"])},
                        "original": {"format": "risu.regex", "document": {"type": "regex", "data": module["regex"]}},
                    }
                )
            )
    except ValidationError as error:
        raise BunzaiError(
            "corrupt_file",
            f"{what} holds values bunzai cannot read: {error.errors()[0]['msg']}",
            "fix the module in RisuAI",
        ) from None
    sealed = [key for key in ("trigger", "cjs") if module.get(key)]
    if sealed:
        warnings.append(
            f"{what}: its {' and '.join(sealed)} (RisuAI code) are kept sealed in the lorebook's escrow, never run"
        )
    return pieces, warnings


class RisuModule(rpack.WritesThroughTable, Adapter):
    format_id = FORMAT_ID
    label = "RisuAI module (.risum)"
    kinds = ("lorebook", "regex")
    extensions = (".risum",)
    container = "text"  # a binary file: inspect offers it to text adapters with no parsed document
    engine = "risuai"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if parsed is not None:
            return 0.0
        if name.lower().endswith(".risum") and data[:2] == bytes([MAGIC, 0]):
            return 0.9  # even when damaged: the read says what is wrong with it
        return 0.5 if looks_like_module(data) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        return module_pieces(data, "", name)

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        from bunzai.adapters.risu.module_write import write_module  # lazy: breaks the cycle with module_write

        return write_module(piece, media)


register(RisuModule())
