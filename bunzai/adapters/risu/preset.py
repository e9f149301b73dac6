"""RisuAI presets (`.risup`, `.risupreset`) -> a canonical preset.

`.risup` = RPack(gzip(msgpack({presetVersion, type: "preset", preset: AES-GCM(msgpack(
botPreset))}))) with key SHA-256("risupreset") and a zero IV; `.risupreset` is the same
without RPack. bunzai maps the parts every frontend has: mainPrompt, jailbreak and
globalNote as prompt blocks (main, jailbreak, globalNote), the prompt template items as
blocks in their order (`promptTemplate`), the samplers (RisuAI keeps temperature and the
penalties x100), maxContext/maxResponse, the model; everything else stays in the escrow
(the decoded botPreset document and the file's bytes).

A template item of the shape RisuAI's SillyTavern import makes for a SillyTavern marker
(MARKERS: the whole chat, lorebook, description, persona) is that marker's block (its first
such item; a repeat, and every other item, is `template-<index>`). RisuAI sends mainPrompt,
jailbreak and globalNote only when the preset has no prompt template (index.svelte.ts,
`if(!promptTemplate)`), so with one they are disabled blocks in no order. Without one RisuAI sends
the parts of the preset's formatingOrder (its default when absent), which are read as blocks in that
order (formating_order): the three fields (a field the order leaves out is a disabled block, an empty
one no block), and description, personaPrompt, chats/lastChat and lorebook as the markers
charDescription, personaDescription, chatHistory and worldInfoBefore; authorNote is a marker block
`authorNote`, which SillyTavern has no marker for. A missing mainPrompt, jailbreak or globalNote is
read as RisuAI's import fills it (`{...presetTemplate, ...preset}`; the default texts from the
checkout: default_prompts), and a chat item is the whole chat wherever RisuAI slices all of it
(_whole_chat). Read warnings say what RisuAI sends otherwise than the blocks read: a default
bunzai had no checkout to read, a null field, an item type RisuAI has no case for, and an
innerFormat without {{slot}} (sent in place of the part it wraps). Without a RisuAI checkout a
`.risup` is not decoded (see rpack); a `.risupreset` needs no table. Written as `.risup`
by preset_write (which needs the table).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import json
import re
import zlib
from typing import Any

from bunzai import limits
from bunzai.adapters.common.drift import as_float, as_int, as_str
from bunzai.adapters.common.naming import piece_id_for
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.contract import Adapter, Blob, Decoded, Encoded, MediaSource, Origin
from bunzai.adapters.registry import register
from bunzai.adapters.risu import aesgcm, rpack
from bunzai.adapters.risu.msgpack_read import unpack
from bunzai.errors import BunzaiError
from bunzai.model.preset import Preset

FORMAT_ID = "risu.preset"
LABEL = "RisuAI preset (.risup / .risupreset)"
FAMILY = "chat_completion"  # what a RisuAI preset reads as (preset_body)
KEY = hashlib.sha256(b"risupreset").digest()
IV = bytes(12)
_GZIP = b"\x1f\x8b"
_ROLES = {"user": "user", "bot": "assistant", "system": "system"}
# SillyTavern's marker blocks RisuAI's own import (importPreset's SillyTavern branch) turns into
# template items; it skips the other markers. preset_write writes them; read back, an item of
# this shape is that marker again.
MARKERS = {
    "chatHistory": {"type": "chat", "rangeEnd": "end", "rangeStart": 0},
    "worldInfoBefore": {"type": "lorebook"},
    "charDescription": {"type": "description"},
    "personaDescription": {"type": "persona"},
}
TEXT_KINDS = ("plain", "jailbreak", "cot", "chatML")
# The fields RisuAI sends when the preset has no prompt template.
LEGACY_FIELDS = {"main": "mainPrompt", "jailbreak": "jailbreak", "globalNote": "globalNote"}
# RisuAI's formatingOrder when a preset names none (database.svelte.ts, presetTemplate): without a
# template RisuAI sends these parts in this order (index.svelte.ts, `for(... formatOrder ...)`).
DEFAULT_FORMATING_ORDER = (
    "main",
    "description",
    "personaPrompt",
    "chats",
    "lastChat",
    "jailbreak",
    "lorebook",
    "globalNote",
    "authorNote",
)
# Each formatingOrder part as a block: the three fields, the SillyTavern marker that sends the same
# (MARKERS; lastChat is the end of the whole chat, so part of chatHistory), and the author's note,
# which SillyTavern has no marker for (a marker block of its own, reported where it is not carried).
FORMATING_BLOCKS = {
    "main": "main",
    "jailbreak": "jailbreak",
    "globalNote": "globalNote",
    "description": "charDescription",
    "personaPrompt": "personaDescription",
    "chats": "chatHistory",
    "lastChat": "chatHistory",
    "lorebook": "worldInfoBefore",
    "authorNote": "authorNote",
}
# RisuAI's importPreset fills a missing key from presetTemplate (database.svelte.ts); its mainPrompt and
# jailbreak are defaultMainPrompt and defaultJailbreak (defaultPrompts.ts: a prebuilt preset's, in
# templates.ts). That text is RisuAI's (GPL-family), so it is read from the configured checkout, as the
# RPack table is (default_prompts).
DEFAULTS_BINDING = "src/ts/storage/defaultPrompts.ts"
DEFAULTS_SOURCE = "src/ts/process/templates/templates.ts"
DEFAULTED = {"mainPrompt": "defaultMainPrompt", "jailbreak": "defaultJailbreak"}
DEFAULTS_HINT = (
    f'set `[engines] risu = "<path of a RisuAI checkout>"` in the studio\'s bunzai.toml, or {rpack.ENV_ROOT}, '
    f"to a RisuAI checkout holding {DEFAULTS_BINDING} and {DEFAULTS_SOURCE}"
)
# the template item of the authorNote block (RisuAI's `authornote` item sends the same)
AUTHOR_NOTE = {"type": "authornote"}
# Every item type RisuAI's prompt builder has a case for (index.svelte.ts, `switch(card.type)`); it skips others.
ITEM_TYPES = (
    *TEXT_KINDS,
    "persona",
    "description",
    "lorebook",
    "postEverything",
    "memory",
    "authornote",
    "chat",
    "cache",
)
# The items whose part RisuAI sends through the item's innerFormat, {{slot}} standing for the part
# (index.svelte.ts, `case 'persona'`, `'description'`, `'authornote'`, `'memory'`).
SLOT = "{{slot}}"
SLOTTED = {
    "persona": "the persona",
    "description": "the character's description",
    "authornote": "the author's note",
    "memory": "the chat memory",
}


def _inflate(data: bytes, what: str) -> bytes:
    """gzip or zlib, as fflate's decompressSync accepts, bounded."""
    try:
        if data.startswith(_GZIP):
            stream = gzip.GzipFile(fileobj=io.BytesIO(data))
            out = stream.read(limits.JSON_MAX_BYTES + 1)
        else:
            inflater = zlib.decompressobj()
            out = inflater.decompress(data, limits.JSON_MAX_BYTES + 1)
    except (OSError, EOFError, zlib.error) as error:
        raise BunzaiError("corrupt_file", f"{what} does not decompress: {error}", "export the preset again") from None
    if len(out) > limits.JSON_MAX_BYTES:
        raise BunzaiError(
            "too_large",
            f"{what} decompresses past {limits.JSON_MAX_BYTES} bytes",
            "the file is not a preset RisuAI writes",
        )
    return out


def decode_preset(data: bytes, what: str) -> tuple[dict, dict]:
    """(the outer envelope without its sealed bytes, the botPreset) of gzip'd preset bytes."""
    outer = unpack(_inflate(data, what), what)
    if not isinstance(outer, dict) or outer.get("type") != "preset":
        raise BunzaiError(
            "corrupt_file",
            f"{what} is not a RisuAI preset (no type: preset inside)",
            "export the preset again from RisuAI",
        )
    sealed = outer.get("preset", outer.get("pres"))
    if not isinstance(sealed, bytes):
        raise BunzaiError("corrupt_file", f"{what} holds no encrypted preset", "export the preset again from RisuAI")
    inner = unpack(aesgcm.decrypt(KEY, IV, sealed, what), what)
    if not isinstance(inner, dict):
        raise BunzaiError("corrupt_file", f"{what}: the preset is not an object", "export the preset again")
    envelope = {key: value for key, value in outer.items() if key not in ("preset", "pres")}
    return envelope, _jsonable(inner)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_jsonable(item) for item in value]
    if isinstance(value, bytes):
        import base64

        return {"$bytes": base64.b64encode(value).decode("ascii")}
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    return value


def _hundredths(value: Any) -> float | None:
    number = as_float(value, float("nan"))
    return None if number != number else number / 100


def _same(value: Any, wanted: Any) -> bool:
    return value == wanted and isinstance(value, bool) == isinstance(wanted, bool)


def _whole_chat(item: dict) -> bool:
    """Whether a chat item sends the whole chat as RisuAI slices it (index.svelte.ts, `case 'chat'`): a
    rangeStart of -1000 does; a missing or null start slices from 0, and a missing end (not a null one,
    which makes `start >= end` true and sends nothing) or 'end' slices to the end."""
    start, end = item.get("rangeStart", None), item.get("rangeEnd", "end")
    return _same(start, -1000) or ((start is None or _same(start, 0)) and _same(end, "end"))


def _marker_of(item: dict) -> str | None:
    if _same(item.get("type"), "chat"):
        return "chatHistory" if _whole_chat(item) else None
    return next((name for name, shape in MARKERS.items() if all(_same(item.get(k), v) for k, v in shape.items())), None)


def template_warnings(preset: dict) -> list[str]:
    """The template items RisuAI sends otherwise than they read: an item of a type RisuAI has no case for
    (it sends nothing), and an item whose innerFormat lacks {{slot}}: RisuAI fills the part by replacing {{slot}}
    in the innerFormat (`.replace('{{slot}}', ...)`), so without one it sends the innerFormat's text in
    place of the part, and the part itself is never sent."""
    template = preset.get("promptTemplate")
    warnings = []
    for index, item in enumerate(template if isinstance(template, list) else []):
        if isinstance(item, dict) and item.get("type") not in ITEM_TYPES:
            warnings.append(
                f"template item {index}: RisuAI has no item of type {item.get('type')!r}, so it sends nothing "
                "for it; read as a marker block, which another platform may send as its own text"
            )
        if not isinstance(item, dict) or not unslotted(item):
            continue
        what = SLOTTED[item["type"]]
        label = as_str(item.get("name")) or item["type"]
        warnings.append(
            f"template item {index} ({label}): its innerFormat has no {{{{slot}}}}, so RisuAI sends that text in "
            f"place of {what}, which is not sent at all; read as the block's text (another platform fills the "
            f"marker with {what} instead)"
        )
    return warnings


def unslotted(item: dict) -> bool:
    """An item of a part RisuAI wraps in innerFormat whose innerFormat (used when not empty) has no {{slot}}."""
    text, kind = item.get("innerFormat"), item.get("type")
    return isinstance(kind, str) and kind in SLOTTED and isinstance(text, str) and bool(text) and SLOT not in text


def template_identifiers(template: list) -> list[str | None]:
    """Each template item's block identifier (None: not an object, so no block): the first item
    of a MARKERS shape is that marker, every other item `template-<index>`."""
    out: list[str | None] = []
    taken: set[str] = set()
    for index, item in enumerate(template):
        if not isinstance(item, dict):
            out.append(None)
            continue
        identifier = _marker_of(item)
        if identifier is None or identifier in taken:
            identifier = f"template-{index}"
        taken.add(identifier)
        out.append(identifier)
    return out


def formating_order(preset: dict) -> list[str]:
    """The block identifiers a preset without a template sends, in its formatingOrder (RisuAI's default
    when it names none); a part named twice, or chats and lastChat, make one block."""
    order = preset.get("formatingOrder")
    out: list[str] = []
    for part in order if isinstance(order, list) else DEFAULT_FORMATING_ORDER:
        identifier = FORMATING_BLOCKS.get(part) if isinstance(part, str) else None
        if identifier is not None and identifier not in out:
            out.append(identifier)
    return out


def default_prompts() -> dict[str, str]:
    """RisuAI's default mainPrompt and jailbreak (DEFAULTED), read from the configured checkout: {} without
    one, and a text its source does not give as a plain string literal is left out."""
    root = rpack.risu_root()
    if root is None:
        return {}
    try:
        with open(root / DEFAULTS_BINDING, "rb") as binding, open(root / DEFAULTS_SOURCE, "rb") as source:
            texts = (binding.read(limits.JSON_MAX_BYTES), source.read(limits.JSON_MAX_BYTES))
    except OSError:
        return {}
    return dict(_defaults_in(*(text.decode("utf-8", "replace") for text in texts)))


@functools.lru_cache(maxsize=4)
def _defaults_in(binding: str, source: str) -> tuple[tuple[str, str], ...]:
    """(key, text) of each DEFAULTED key: the prebuilt preset defaultPrompts.ts binds it to, that
    preset's string in templates.ts (up to the next preset, a key at the object's two-space indent)."""
    found = []
    for key, name in DEFAULTED.items():
        bound = re.search(rf"\b{name}\s*=\s*prebuiltPresets\.(\w+)\.{key}\b", binding)
        start = bound and re.search(rf'"{bound.group(1)}"\s*:\s*\{{', source)
        if not start:
            continue
        end = re.compile(r'^  "\w+"\s*:\s*\{', re.M).search(source, start.end())
        # the key's first value in the preset (its own: nested objects come after), when a plain string
        value = re.compile(rf'"{key}"\s*:\s*').search(source, start.end(), end.start() if end else len(source))
        literal = value and re.compile(r'"(?:[^"\\\n]|\\.)*"').match(source, value.end())
        try:
            text = json.loads(literal.group(0)) if literal else None
        except ValueError:  # a TypeScript escape JSON has not (\', \x41): not read
            text = None
        if isinstance(text, str):
            found.append((key, text))
    return tuple(found)


def filled_fields(preset: dict) -> dict[str, Any]:
    """mainPrompt, jailbreak and globalNote as RisuAI's import fills them ({...presetTemplate, ...preset}):
    a missing key is RisuAI's default (globalNote ""; the others only where the checkout gives them)."""
    defaults = {"globalNote": ""} | (default_prompts() if not set(DEFAULTED) <= set(preset) else {})
    return {key: preset[key] if key in preset else defaults.get(key) for key in LEGACY_FIELDS.values()}


def default_warnings(preset: dict) -> list[str]:
    """The sent fields RisuAI fills with what bunzai cannot read: a missing key's default where the
    checkout gave none, and a null key, which RisuAI's setPreset (`newPres.mainPrompt ?? db.mainPrompt`)
    replaces with the field of the preset chosen before it."""
    if isinstance(preset.get("promptTemplate"), list):
        return []  # beside a template the fields are not sent
    known = filled_fields(preset)
    order = formating_order(preset)
    warnings = []
    for identifier, key in LEGACY_FIELDS.items():
        if identifier not in order or known[key] is not None:
            continue
        if key in preset:
            warnings.append(
                f"the preset's {key} is null: RisuAI keeps the {key} of the preset that was chosen before it "
                f"and sends that, which the file does not hold, so no {identifier} block is read"
            )
        else:
            warnings.append(
                f"the preset has no {key}: RisuAI fills it with its default {key} when it imports the preset, "
                f"and sends it; bunzai reads that text from a RisuAI checkout ({DEFAULTS_SOURCE}) and has none "
                f"to read, so no {identifier} block is read. Hint: {DEFAULTS_HINT}"
            )
    return warnings


def _formating_blocks(preset: dict) -> list[dict]:
    """A preset without a template: its formatingOrder's parts as blocks, in that order; a field RisuAI
    sends as nothing (empty) is no block, and a field the order leaves out is a disabled block. A missing
    field is RisuAI's default (filled_fields)."""
    filled = filled_fields(preset)
    fields = {i: filled[k] for i, k in LEGACY_FIELDS.items() if isinstance(filled[k], str) and filled[k]}
    blocks = []
    for identifier in formating_order(preset):
        if identifier in LEGACY_FIELDS:
            if identifier in fields:
                blocks.append(
                    {"identifier": identifier, "name": LEGACY_FIELDS[identifier], "content": fields[identifier]}
                )
            continue
        blocks.append({"identifier": identifier, "name": identifier, "content": "", "marker": True})
    sent = {block["identifier"] for block in blocks}
    for identifier, text in fields.items():
        if identifier not in sent:
            blocks.append(
                {"identifier": identifier, "name": LEGACY_FIELDS[identifier], "content": text, "enabled": False}
            )
    return blocks


def _blocks(preset: dict) -> list[dict]:
    template = preset.get("promptTemplate")
    templated = isinstance(template, list)  # RisuAI: any template (even []) replaces the three fields
    if not templated:
        return _formating_blocks(preset)
    blocks = []
    for identifier, key in LEGACY_FIELDS.items():
        if isinstance(preset.get(key), str):
            blocks.append({"identifier": identifier, "name": key, "content": preset[key], "enabled": not templated})
    for identifier, item in zip(template_identifiers(template) if templated else [], template or []):
        if identifier is None:
            continue
        kind = as_str(item.get("type"))
        text = item.get("text", item.get("innerFormat", item.get("defaultText", "")))
        blocks.append(
            {
                "identifier": identifier,
                "name": as_str(item.get("name")) or kind,
                "role": _ROLES.get(as_str(item.get("role")), "system"),
                "content": as_str(text),
                "marker": kind not in TEXT_KINDS,
            }
        )
    return blocks


def preset_body(preset: dict) -> dict:
    samplers = {
        "temperature": _nonneg(_hundredths(preset.get("temperature"))),
        "frequency_penalty": _hundredths(preset.get("frequencyPenalty")),
        "presence_penalty": _hundredths(preset.get("PresensePenalty")),
        "top_p": _number(preset.get("top_p")),
        "top_k": as_int(preset.get("top_k"), None),
        "min_p": _number(preset.get("min_p")),
        "top_a": _number(preset.get("top_a")),
        "repetition_penalty": _number(preset.get("repetition_penalty")),
        "max_context": _count(preset.get("maxContext")),
        "max_tokens": _count(preset.get("maxResponse")),
    }
    blocks = _blocks(preset)
    return {
        "family": FAMILY,
        "model": as_str(preset.get("aiModel")),
        "samplers": samplers,
        "prompts": blocks,
        "orders": [
            {"target": "global", "items": [{"identifier": b["identifier"]} for b in blocks if b.get("enabled", True)]}
        ]
        if blocks
        else [],
    }


def _number(value: Any) -> float | None:
    number = as_float(value, float("nan"))
    return None if number != number else number


def _nonneg(value: float | None) -> float | None:
    return value if value is None or value >= 0 else None


def _count(value: Any) -> int | None:
    number = as_int(value, None)
    return number if number is None or number >= 0 else None


class RisuPreset(rpack.WritesThroughTable, Adapter):
    format_id = FORMAT_ID
    label = LABEL
    family = FAMILY  # named among the chat-completion formats by a refusal's hint (common.preset_family)
    kinds = ("preset",)
    extensions = (".risup", ".risupreset")
    container = "text"  # a binary file: inspect offers it to text adapters with no parsed document
    engine = "risuai"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if parsed is not None:
            return 0.0
        lowered = name.lower()
        return 0.9 if lowered.endswith((".risup", ".risupreset")) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        what = name or "the preset"
        raw = Blob(data, "risup", "application/octet-stream", Origin(spans=((0, len(data)),)))
        files = {"preset": raw.ref().model_dump(mode="json")}
        stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0] if name else ""
        packed = not data.startswith(_GZIP) and not name.lower().endswith(".risupreset")
        if packed:
            table, why = rpack.current_table()
            if table is None:
                piece = Preset.model_validate(
                    {
                        "id": piece_id_for(stem, name, "preset"),
                        "name": stem or "RisuAI preset",
                        "original": {"format": FORMAT_ID, "document": None, "files": files},
                    }
                )
                return Decoded(
                    [piece],
                    [raw],
                    [
                        f"not_decoded: {what} is a RisuAI preset; {why}, so its prompts and "
                        f"settings are not read (its bytes are kept in the escrow). "
                        f"Hint: {rpack.NOT_DECODED_HINT}"
                    ],
                )
            data = table.decode(data)
        envelope, preset = decode_preset(data, what)
        title = as_str(preset.get("name")) or stem or "RisuAI preset"
        piece = read_piece(
            Preset,
            title,
            name,
            "preset",
            preset_body(preset),
            {"format": FORMAT_ID, "document": {"envelope": _jsonable(envelope), "preset": preset}, "files": files},
            "fix the preset in RisuAI",
        )
        return Decoded([piece], [raw], default_warnings(preset) + template_warnings(preset))

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        from bunzai.adapters.risu.preset_write import write_preset  # lazy: breaks the cycle with preset_write

        return write_preset(piece, media)


register(RisuPreset())
