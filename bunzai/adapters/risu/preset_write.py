"""Writing `.risup`: a canonical preset as RisuAI's downloadPreset writes it.

RPack(gzip(msgpack({presetVersion: 2, type: "preset", preset: AES-GCM(msgpack(botPreset))}))).
A preset read from a RisuAI preset starts from its escrowed botPreset (so the ~90 keys
bunzai does not map go back as they were); any other preset starts empty (RisuAI fills
every missing key from its preset template on import). The mapped parts are written over
it: name, mainPrompt/jailbreak/globalNote, the prompt template, samplers (temperature and
the penalties x100), context and response sizes, the model. RisuAI sends the three fields only
without a template, and only the template's items with one (index.svelte.ts `if(!promptTemplate)`),
and without one sends its formatingOrder's parts (read by preset.py as the three fields and the
markers charDescription, personaDescription, chatHistory, worldInfoBefore, authorNote), so: a preset
that order expresses (legacy_expresses) is written without a template, a block it lacks as an empty
field (a missing key RisuAI's import would fill with its default); a preset with no blocks at all
is written with none of the three keys (RisuAI's defaults apply); any other is written as a
template holding every sent block, markers included. Items are made as RisuAI's own SillyTavern
import makes them; a main, jailbreak or globalNote block not sent keeps its text in the field of
that name, which RisuAI ignores beside a template; a field the escrowed preset lacked (or held as
null) stays so while it says what RisuAI fills in. The losses are what the written botPreset reads
back without (common.losses), the order compared once its blocks are renamed as their items read
back (renamed_orders), and an innerFormat written without {{slot}} (inner_format_losses).
"""

from __future__ import annotations

import base64
import gzip
from typing import Any

from bunzai.adapters.common.losses import ESCROW_OTHER_FORMAT, LossRule, escrow_why, readback_losses
from bunzai.adapters.common.preset_family import nothing_kept
from bunzai.adapters.contract import Encoded, Loss, MediaSource
from bunzai.adapters.risu import aesgcm, rpack
from bunzai.adapters.risu.msgpack_write import pack
from bunzai.adapters.risu.preset import (
    AUTHOR_NOTE,
    FAMILY,
    FORMAT_ID,
    IV,
    KEY,
    LABEL,
    LEGACY_FIELDS,
    MARKERS,
    SLOT,
    SLOTTED,
    TEXT_KINDS,
    filled_fields,
    formating_order,
    preset_body,
    template_identifiers,
    unslotted,
)
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.model import dump_piece
from bunzai.model.preset import Preset, PresetBody, active_order_index

FIELDS = LEGACY_FIELDS
# The families a RisuAI preset has a place for that bunzai does not write yet: RisuAI's own import of
# SillyTavern files (prompt.ts, promptConvertion) builds an instruct template's sequences and a context
# template's story string and chat start into the preset's JinjaTemplate (instructChatTemplate "jinja"),
# and a system prompt is what mainPrompt holds. Such a crossing is written (its strings reported lost),
# not refused; a reasoning template has no place (RisuAI reads reasoning in fixed <Thoughts> tags).
UNMAPPED_PLACES = ("instruct", "context", "sysprompt")
_ROLES = {"assistant": "bot", "user": "user", "system": "system"}

RULES = (
    LossRule("/name", "translated", "risu.preset.name", "RisuAI presets keep their name inside the file"),
    LossRule(
        "/body/prompts",
        "translated",
        "risu.preset.template",
        "RisuAI's prompt template has items, not named blocks: blocks read back as template-<n> items (the "
        "markers chatHistory, worldInfoBefore, charDescription, personaDescription and authorNote as themselves; other "
        "markers RisuAI has no item for are not written)",
    ),
    LossRule(
        "/body/orders",
        "translated",
        "risu.preset.order",
        "RisuAI's template order is the only order: disabled blocks are left out, per-character orders dropped",
    ),
    LossRule(
        r"/body/samplers/(?:temperature|frequency_penalty|presence_penalty)",
        "translated",
        "risu.preset.hundredths",
        "RisuAI keeps this sampler x100 as a number; a value below 0 is not read",
    ),
    LossRule("/body/samplers/[^/]+", "dropped", "risu.preset.sampler", "a RisuAI preset has no such sampler"),
    LossRule("/body/family", "translated", "risu.preset.family", "a RisuAI preset is a chat-completion preset"),
    LossRule(
        "/body/templates",
        "dropped",
        "risu.preset.field",
        "bunzai writes no template strings: RisuAI keeps an instruct or context template's in the preset's "
        "JinjaTemplate (its own SillyTavern import builds one) and a system prompt as mainPrompt, which bunzai "
        "does not map yet; a reasoning template's have no place (RisuAI reads fixed <Thoughts> tags)",
    ),
    LossRule("/body/[^/]+", "dropped", "risu.preset.field", "a RisuAI preset has no such field"),
    LossRule("/assets", "dropped", "risu.assets", "a RisuAI preset carries no media"),
    LossRule("/profiles", "dropped", "risu.profiles", "a RisuAI preset has no per-platform profiles"),
)
FALLBACK = LossRule("", "dropped", "risu.preset.not_carried", "a RisuAI preset does not carry this value as it is")


def revive(value: Any) -> Any:
    """The escrowed JSON back as msgpack values: {"$bytes": base64} -> bytes."""
    if isinstance(value, dict):
        if set(value) == {"$bytes"} and isinstance(value["$bytes"], str):
            return base64.b64decode(value["$bytes"])
        return {key: revive(item) for key, item in value.items()}
    if isinstance(value, list):
        return [revive(item) for item in value]
    return value


def _escrow(piece: Any) -> tuple[dict, dict] | None:
    original = piece.original
    if original is None or original.format != FORMAT_ID or not isinstance(original.document, dict):
        return None
    preset, envelope = original.document.get("preset"), original.document.get("envelope")
    if not isinstance(preset, dict):
        return None
    return copied(preset), copied(envelope) if isinstance(envelope, dict) else {}


# the global order as written, but naming its blocks by their items' identifiers (renamed_orders)
RENAMED = LossRule(
    "/body/orders",
    "translated",
    "risu.preset.template",
    "the order is sent as it is, but names its blocks as RisuAI's template items read back: template-<n> (the "
    "markers as themselves)",
)
# the marker items whose text RisuAI sends as innerFormat ({{slot}} is the filled text): persona and
# description (index.svelte.ts, `case 'persona'` / `case 'description'`, and the author's note's
# `case 'authornote'`); chat and lorebook items have none
INNER_FORMAT = ("personaDescription", "charDescription", "authorNote")
# the marker items a template can hold: SillyTavern's (MARKERS) and the author's note preset.py reads
ITEMS = MARKERS | {"authorNote": AUTHOR_NOTE}
# the text items RisuAI's SillyTavern import makes (importPreset), plus globalNote as RisuAI's templates write it
_TEXT_ITEMS = {"main": ("plain", "main"), "jailbreak": ("jailbreak", "normal"), "nsfw": ("jailbreak", "normal")}
_TEXT_ITEMS["globalNote"] = ("plain", "globalNote")
UNSLOTTED = LossRule(
    "",
    "translated",
    "risu.preset.inner_format",
    "RisuAI sends an innerFormat without {{slot}} in place of the part it wraps (persona, description ...)",
)
DEFAULT_LAYOUT = LossRule(
    "",
    "translated",
    "risu.preset.default_layout",
    "the preset has no prompt blocks, so it is written with no template and no main prompt, jailbreak or global "
    "note, and RisuAI sends its own default layout (its formatingOrder: description, persona, chat, lorebook, "
    "author's note, and its default main prompt and jailbreak, which its import fills in)",
)
MARKER_TEXT = LossRule(
    "",
    "dropped",
    "risu.preset.marker_text",
    "RisuAI's chat and lorebook template items carry no text (only persona and description have an "
    "innerFormat); the marker's text is not written",
)


def _item_of(block: dict, prior: Any) -> dict | None:
    """A template item for a block: the prior item with its text replaced, or a new one."""
    if isinstance(prior, dict):
        item = copied(prior)
        key = next((k for k in ("text", "innerFormat", "defaultText") if k in item), None)
        if key is not None or block["content"]:
            item[key or ("text" if item.get("type") in TEXT_KINDS else "innerFormat")] = block["content"]
        if item.get("type") in TEXT_KINDS:
            item["role"] = _ROLES[block["role"]]
        return item
    if block["marker"]:
        if block["identifier"] not in ITEMS:
            return None
        item = copied(ITEMS[block["identifier"]])
        if block["identifier"] in INNER_FORMAT and block["content"]:
            item["innerFormat"] = block["content"]
        return item
    kind = _TEXT_ITEMS.get(block["identifier"], ("plain", "normal"))
    item = {"type": kind[0], "type2": kind[1], "text": block["content"], "role": _ROLES[block["role"]]}
    if block["name"]:
        item["name"] = block["name"]
    return item


def _ordered(body: dict) -> list[dict]:
    """The blocks in the global order (enabled ones only) when there is one, else as listed."""
    blocks = {block["identifier"]: block for block in body["prompts"]}
    active = active_order_index([o["target"] for o in body["orders"]])
    if active is None:
        return [block for block in body["prompts"] if block["enabled"]]
    order = body["orders"][active]
    return [
        blocks[item["identifier"]]
        for item in order["items"]
        if item["enabled"] and item["identifier"] in blocks and blocks[item["identifier"]]["enabled"]
    ]


def legacy_expresses(preset: dict, body: dict, sent: list[dict]) -> bool:
    """Whether the preset without a template sends what the order sends, as preset.py reads it: the
    blocks of its formatingOrder (formating_order: the markers, and main/jailbreak/globalNote where the
    preset has that block; a field without one is written empty), in that order, the markers without
    text of their own. A preset with no blocks at all is written without a template too (RisuAI's
    defaults apply)."""
    if not body["prompts"]:
        return True
    present = {block["identifier"] for block in body["prompts"]}
    expected = [i for i in formating_order(preset) if i not in FIELDS or i in present]
    markers_bare = all(not block["content"] for block in sent if block["marker"])
    return markers_bare and [block["identifier"] for block in sent] == expected


def _template(preset: dict, sent: list[dict], escrow: Any) -> list[tuple[dict, dict, Any]]:
    """Every sent block with its template item and the escrowed item it was made from (None: a new
    one), in order (markers RisuAI has no item for left out)."""
    prior = preset.get("promptTemplate") if isinstance(preset.get("promptTemplate"), list) else []
    # the escrowed template's item for each block identifier, as preset.py reads them
    items = {ident: item for ident, item in zip(template_identifiers(prior), prior) if ident is not None}
    written = []
    for block in sent:
        before = items.get(block["identifier"]) if escrow is not None else None
        item = _item_of(block, before)
        if item is not None:
            written.append((block, item, before))
    return written


def renamed_orders(before: dict, written: list[tuple[dict, dict, Any]]) -> dict:
    """The dumped piece with its order items naming each written block as its item reads back
    (`template-<n>` or a marker): the renaming is risu.preset.template's loss, so risu.preset.order
    is named only where RisuAI's order itself differs (a block left out, a per-character order)."""
    identifiers = template_identifiers([item for _block, item, _before in written])
    rename = {block["identifier"]: new for (block, _item, _before), new in zip(written, identifiers)}
    rename = {old: new for old, new in rename.items() if new is not None and new != old}
    if not any(item["identifier"] in rename for order in before["body"]["orders"] for item in order["items"]):
        return before
    orders = [
        order
        | {
            "items": [
                item | {"identifier": rename.get(item["identifier"], item["identifier"])} for item in order["items"]
            ]
        }
        for order in before["body"]["orders"]
    ]
    return before | {"body": before["body"] | {"orders": orders}}


def inner_format_losses(body: dict, written: list[tuple[dict, dict, Any]]) -> list[Loss]:
    """The written persona, description, author's note and memory items whose innerFormat has no {{slot}}
    (RisuAI sends it in place of the part), but for an escrowed item written back as it was."""
    where = _places(body)
    losses = []
    for block, item, before in written:
        if not unslotted(item) or (isinstance(before, dict) and before.get("innerFormat") == item["innerFormat"]):
            continue
        what = SLOTTED[item["type"]]
        why = (
            f"RisuAI fills {what} by replacing {SLOT} in the item's innerFormat; this text has none, so RisuAI "
            f"sends it in place of {what}, which is not sent at all"
        )
        losses.append(UNSLOTTED.at(f"/body/prompts/{where[block['identifier']]}/content", why))
    return losses


def marker_text_losses(body: dict, written: list[tuple[dict, dict, Any]]) -> list[Loss]:
    """The sent chat and lorebook markers whose text their item does not carry (a new item has no
    text; an escrowed one keeps its text in the key it had, which RisuAI does not send)."""
    where = _places(body)
    return [
        MARKER_TEXT.at(f"/body/prompts/{where[block['identifier']]}/content")
        for block, item, _before in written
        if block["marker"]
        and block["content"]
        and block["identifier"] in MARKERS
        and block["identifier"] not in INNER_FORMAT
        and block["content"] not in (item.get(key) for key in ("text", "innerFormat", "defaultText"))
    ]


def _places(body: dict) -> dict[str, int]:
    """Each block identifier's place in the prompts (its first)."""
    return {block["identifier"]: index for index, block in reversed(list(enumerate(body["prompts"])))}


def _left_to_defaults(preset: dict, unread: dict[str, bool], body: dict) -> None:
    """The fields the escrowed preset lacked (unread: False) or held as null (True) are left so where
    RisuAI fills them with what the piece says: a missing one where it equals its default (as preset.py
    read it), and either where bunzai read no text for it and the piece has no block."""
    defaults = filled_fields({})
    present = {block["identifier"] for block in body["prompts"]}
    for identifier, key in FIELDS.items():
        if key not in unread:
            continue
        default = None if unread[key] else defaults[key]
        if default is None and identifier not in present:
            preset[key] = None
            if not unread[key]:
                del preset[key]
        elif default is not None and preset.get(key) == default:
            preset.pop(key, None)


def bot_preset(piece: Any) -> tuple[dict, dict, list[tuple[dict, dict, Any]]]:
    """(the botPreset, the envelope, the template's blocks with their items: _template) a preset piece
    writes as.

    With a template the escrowed preset had, every sent block is a template item (a sent main,
    jailbreak or globalNote too: RisuAI ignores those fields beside a template). Without one,
    the three fields are written and no template when they send what the order sends
    (legacy_expresses); otherwise the whole order is written as a template."""
    escrow = _escrow(piece)
    preset, envelope = escrow if escrow is not None else ({}, {})
    body = piece.body.model_dump(mode="json")
    preset["name"] = piece.name
    had_template = isinstance(preset.get("promptTemplate"), list)
    sent = _ordered(body)
    templated = had_template or not legacy_expresses(preset, body, sent)
    written = _template(preset, sent, escrow) if templated else []
    if templated:
        preset["promptTemplate"] = [item for _block, item, _before in written]
    in_template = {block["identifier"] for block in sent} if templated else set()
    unread = {key: key in preset for key in FIELDS.values() if preset.get(key) is None} if escrow is not None else {}
    for identifier, key in FIELDS.items():
        block = next((b for b in body["prompts"] if b["identifier"] == identifier), None)
        # a block not sent keeps its text in the field RisuAI ignores beside a template (preset.py)
        if block is not None and (escrow is not None or identifier not in in_template):
            preset[key] = block["content"]
        elif not templated and body["prompts"]:
            # RisuAI's import fills a missing key from its presetTemplate (its default main prompt and
            # jailbreak): without a template an absent block is an empty field, which sends nothing
            preset[key] = ""
        elif escrow is not None:
            preset.pop(key, None)
    _left_to_defaults(preset, unread, body)
    samplers = body["samplers"]
    for key, name, scale in (
        ("temperature", "temperature", 100),
        ("frequency_penalty", "frequencyPenalty", 100),
        ("presence_penalty", "PresensePenalty", 100),
        ("top_p", "top_p", 1),
        ("top_k", "top_k", 1),
        ("min_p", "min_p", 1),
        ("top_a", "top_a", 1),
        ("repetition_penalty", "repetition_penalty", 1),
        ("max_context", "maxContext", 1),
        ("max_tokens", "maxResponse", 1),
    ):
        if samplers[key] is not None:
            preset[name] = round(samplers[key] * scale, 10) if scale != 1 else samplers[key]
    if body["model"]:
        preset["aiModel"] = body["model"]
    envelope = {"presetVersion": 2, "type": "preset"} | {k: v for k, v in envelope.items() if k != "type"}
    return preset, envelope, written


def packed(preset: dict, envelope: dict) -> bytes:
    """gzip(msgpack(envelope + the sealed botPreset)): a `.risupreset`, a `.risup` before RPack."""
    sealed = aesgcm.encrypt(KEY, IV, pack(revive(preset)))
    return gzip.compress(pack(revive(envelope) | {"preset": sealed}), mtime=0)


def keeps_nothing(piece: Any) -> bool:
    """Whether a new botPreset of the piece is the one a preset holding its name alone writes. Judged
    on a new file, not over an escrow, whose keys are not the piece's."""
    bare = piece.model_copy(update={"body": PresetBody(), "original": None})
    return bot_preset(piece.model_copy(update={"original": None}))[0] == bot_preset(bare)[0]


def write_preset(piece: Any, media: MediaSource) -> Encoded:
    family = piece.body.family
    # before the table: the crossing is refused whether or not a checkout is configured
    if family != FAMILY and family not in UNMAPPED_PLACES and keeps_nothing(piece):
        raise nothing_kept(FORMAT_ID, LABEL, family)
    table, why = rpack.current_table()
    if table is None:
        raise BunzaiError(
            "unsupported", f"writing a RisuAI preset (.risup) needs the RPack table, and {why}", rpack.NOT_DECODED_HINT
        )
    preset, envelope, written = bot_preset(piece)
    data = table.encode(packed(preset, envelope))
    back = Preset.model_validate({"id": piece.id, "name": preset["name"], "body": preset_body(preset)})
    body = piece.body.model_dump(mode="json")
    declared: list[Loss] = marker_text_losses(body, written) + inner_format_losses(body, written)
    if piece.original is not None and _escrow(piece) is None:
        declared.append(ESCROW_OTHER_FORMAT.at("/original", escrow_why(piece.original.format, "a RisuAI preset")))
    if not body["prompts"] and back.body.prompts:
        # not blocks renamed or an order cut: no block of the piece's is there to rename or order
        declared += [DEFAULT_LAYOUT.at("/body/prompts"), DEFAULT_LAYOUT.at("/body/orders")]
    before = dump_piece(piece)
    renamed = renamed_orders(before, written)
    found = readback_losses(renamed, dump_piece(back), RULES, FALLBACK, declared)
    if renamed is not before and not any(loss.pointer == "/body/orders" for loss in found):
        declared.append(RENAMED.at("/body/orders"))  # the order is RisuAI's; only the names in it change
    return Encoded(data, declared + found)
