"""Chat-completion prompt manager: `prompts[]` <-> blocks, `prompt_order` <-> orders.

Blocks are matched to the escrowed ones by `identifier`, orders by `character_id` (and
occurrence) and order items by identifier (and occurrence), so unknown keys at every level
survive.

`character_id` 100001 is the order SillyTavern uses (openai.js `promptOrder: {strategy:
'global', dummyId: 100001}`; PromptManager reads the first list whose id is 100001 as text)
and reads as the target `global`; other ids, 100000 among them (PromptManager's own default
dummyId, unused by chat completion since Aug 2023), are kept as their text. A file with no
100001 list is sent with SillyTavern's default order (sanitizeServiceSettings adds it); its
lists are read as they are. A piece read under bunzai's old mapping (100000 as `global`, 100001
as "100001": bunzai.model.preset.old_sillytavern_mapping) is written back with that mapping, so
it still exports to the file it came from.

A repeated identifier in `prompts` is read as SillyTavern's PromptManager reads it
(getPromptById: the first prompt with that identifier): the first is the block, a later
one is never sent, so it is no block; it stays in the escrow and is written back where it
stood (after the nearest prompt before it whose block is still there, and never before the
prompt it repeats). SillyTavern never drops a prompt for its identifier (it keeps the whole
`prompts` list and reads the first match), so when the block of that identifier is gone
(removed, renamed) the repeat is still written: it is then the first prompt with its
identifier, which SillyTavern uses, and the loss `preset.prompts.revealed` says so.
Repeated identifiers in an order are kept as items.

Markers: SillyTavern fills only its own (MARKERS). A marker block it has no source for is
sent as its own text, and a known marker's own text is not used; both are named as losses
(`preset.marker.unknown`, `preset.marker.text_ignored`) unless the escrowed file had the
block already.
"""

from __future__ import annotations

import json
from typing import Any

from bunzai.adapters.common.fieldmap import (
    MISSING,
    Field,
    FieldMap,
    bool_reader,
    choice,
    decimal_text,
    decode_fields,
    encode_fields,
    int_reader,
    reverse,
    str_reader,
)
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss
from bunzai.errors import BunzaiError
from bunzai.model.preset import GLOBAL_ORDER, old_sillytavern_mapping

ACTIVE_CHARACTER_ID = 100001  # the order SillyTavern's chat completion uses: target `global`
OLD_GLOBAL_CHARACTER_ID = 100000  # `global` under the old mapping (bunzai.model.preset.old_sillytavern_mapping)
# The markers SillyTavern fills from a source (PromptManager's chatCompletionDefaultPrompts,
# marker: true); preparePromptsForChatCompletion / populateChatCompletion fill nothing else.
MARKERS = (
    "dialogueExamples",
    "chatHistory",
    "worldInfoAfter",
    "worldInfoBefore",
    "charDescription",
    "charPersonality",
    "scenario",
    "personaDescription",
)
REVEALED = LossRule(
    "/body/prompts",
    "translated",
    "preset.prompts.revealed",
    "a prompt that repeated an identifier, which SillyTavern never reached, is now the first prompt with it "
    "(its block is gone), so SillyTavern uses it",
)
MARKER_UNKNOWN = LossRule(
    r"/body/prompts/\d+",
    "dropped",
    "preset.marker.unknown",
    "SillyTavern has no source for this marker: it fills only its own, and sends this block as its own text",
)
MARKER_TEXT = LossRule(
    r"/body/prompts/\d+/content",
    "dropped",
    "preset.marker.text_ignored",
    "SillyTavern fills this marker from its source; the block's own text (a wrapper, a default) is not used",
)
ROLES = {0: "system", 1: "user", 2: "assistant", "system": "system", "user": "user", "assistant": "assistant"}
POSITIONS = {0: "relative", 1: "absolute"}
TRIGGERS = ("normal", "continue", "impersonate", "swipe", "regenerate", "quiet")
_identifier = str_reader("")  # a prompt's identifier, as its row reads it


def _position(value: Any) -> str:
    """`injection_position` as SillyTavern compares it: `=== INJECTION_POSITION.ABSOLUTE`, the
    number 1 (openai.js populateChatCompletion), so the text "1" is a relative prompt there and
    here (and, reading as the block still does, is written back as it was)."""
    if value.__class__ is float and value.is_integer():
        value = int(value)  # 1.0 is JSON's 1: the same number to JavaScript
    return "absolute" if value.__class__ is int and value == 1 else "relative"


def _triggers(value: Any) -> list[str]:
    return [item for item in value if item in TRIGGERS] if isinstance(value, list) else []


PROMPT_FIELDS = FieldMap(
    (
        Field("identifier", ("identifier",), str_reader("")),
        Field("name", ("name",), str_reader("")),
        Field("system_prompt", ("system_prompt",), bool_reader(False)),
        Field("role", ("role",), choice(ROLES, "system")),
        Field("content", ("content",), str_reader("")),
        Field("marker", ("marker",), bool_reader(False)),
        Field("injection_position", ("position",), _position, reverse(POSITIONS)),
        Field("injection_depth", ("depth",), int_reader(4, lo=0)),
        Field("injection_order", ("injection_order",), int_reader(100)),
        Field("injection_trigger", ("triggers",), _triggers),
        Field("forbid_overrides", ("forbid_overrides",), bool_reader(False)),
        Field("enabled", ("enabled",), bool_reader(True)),
    )
)


def _target(value: Any) -> str:
    """An order's target: `global` for the id SillyTavern compares equal to 100001 (as text),
    else the id as text (another value, which no character has: its JSON text, '' when absent)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return "" if value is MISSING else json.dumps(value, sort_keys=True)
    text = str(value)
    return GLOBAL_ORDER if text == str(ACTIVE_CHARACTER_ID) else text


def _character_id(target: str) -> int | str:
    if target == GLOBAL_ORDER:
        return ACTIVE_CHARACTER_ID
    return int(target) if decimal_text(target) else target


def _old_target(value: Any) -> str:
    """An order's target under the old mapping (100000 is `global`), as bunzai read it then."""
    if value == OLD_GLOBAL_CHARACTER_ID and not isinstance(value, bool):
        return GLOBAL_ORDER
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else GLOBAL_ORDER


def _old_character_id(target: str) -> int | str:
    if target == GLOBAL_ORDER:
        return OLD_GLOBAL_CHARACTER_ID
    return int(target) if decimal_text(target) else target


ORDER_FIELDS = FieldMap((Field("character_id", ("target",), _target, _character_id),))
OLD_ORDER_FIELDS = FieldMap((Field("character_id", ("target",), _old_target, _old_character_id),))
ITEM_FIELDS = FieldMap(
    (
        Field("identifier", ("identifier",), str_reader("")),
        Field("enabled", ("enabled",), bool_reader(True)),
    )
)


def decode_prompts(document: dict) -> list[dict]:
    """The blocks: each identifier's first prompt (a later one with it is shadowed)."""
    blocks = []
    seen: set[str] = set()
    for raw in _objects(document, "prompts"):
        block = decode_fields(PROMPT_FIELDS, raw)
        if block["identifier"] not in seen:
            seen.add(block["identifier"])
            blocks.append(block)
    return blocks


def _placed_shadows(blocks: list[dict], prior: dict | None) -> tuple[dict[str | None, list[dict]], list[dict]]:
    """The escrow's shadowed prompts by the block each is written after (None: before the
    first block), and those of them that are now the first prompt with their identifier.

    A shadowed prompt goes after the nearest prompt before it in the file whose block is
    still there, but never before the prompt it repeats (that would make it the one read)."""
    place = {block["identifier"]: index for index, block in enumerate(blocks)}

    def rank(anchor: str | None) -> int:
        return -1 if anchor is None else place[anchor]

    after: dict[str | None, list[dict]] = {}
    revealed: list[dict] = []
    floor: dict[str, str | None] = {}  # identifier -> what a repeat of it must follow
    seen: set[str] = set()
    nearest: str | None = None
    for raw in _objects(prior or {}, "prompts"):
        identifier = _identifier(raw.get("identifier"))
        if identifier not in seen:
            seen.add(identifier)
            if identifier in place:
                nearest = floor[identifier] = identifier
            continue
        anchor = nearest
        if identifier in floor:
            anchor = max(anchor, floor[identifier], key=rank)
        else:  # its block is gone: this repeat is now the first prompt with the identifier
            revealed.append(raw)
            floor[identifier] = anchor
        after.setdefault(anchor, []).append(raw)
    return after, revealed


def decode_orders(document: dict) -> list[dict]:
    orders = []
    for raw in _objects(document, "prompt_order"):
        order = decode_fields(ORDER_FIELDS, raw)
        order["items"] = [decode_fields(ITEM_FIELDS, item) for item in _objects(raw, "order")]
        orders.append(order)
    return orders


def _first_prompts(prior: dict | None) -> dict[str, dict]:
    known: dict[str, dict] = {}
    for raw in _objects(prior or {}, "prompts"):
        known.setdefault(_identifier(raw.get("identifier")), raw)  # the first one is the block
    return known


def encode_prompts(blocks: list[dict], prior: dict | None) -> list[dict]:
    known = _first_prompts(prior)
    after, _revealed = _placed_shadows(blocks, prior)
    out = list(after.get(None, []))
    for block in blocks:
        raw = known.get(block["identifier"])
        out.append(_encoded(block, raw) if raw is not None else _new_prompt(block))
        out.extend(after.get(block["identifier"], []))
    return out


def _encoded(block: dict, raw: dict) -> dict:
    """`block` written over its prompt `raw`. A block made in-chat here gets its depth and role as
    SillyTavern's `===` finds them (a whole number, a role name), though the text or absence the
    relative prompt held still reads as them: else the prompt it was made to be is never sent."""
    written = encode_fields(PROMPT_FIELDS, block, raw)
    if block.get("position") == "absolute" and _position(raw.get("injection_position")) != "absolute":
        if not js_depth(written.get("injection_depth")):
            written["injection_depth"] = block.get("depth", 4)
        if written.get("role") not in JS_ROLES:
            written["role"] = block.get("role", "system")
    return written


JS_ROLES = ("system", "user", "assistant")  # the roles openai.js populationInjectionPrompts matches with ===


def js_depth(value: object) -> bool:
    """Whether SillyTavern's `injection_depth === i` (i = 0, 1, ...) can match `value`: a JSON
    number that is a whole number, not below 0 (4.0 is JavaScript's 4; text and booleans never are)."""
    return value.__class__ in (int, float) and float(value).is_integer() and value >= 0  # type: ignore[operator]


def written_depth(block: dict, prior: dict | None) -> Any:
    """The `injection_depth` the file this format writes over `prior` (the escrowed document)
    holds for `block`, as SillyTavern will compare it: the escrowed prompt's own value while it
    still reads as the block's depth (the text "4", None when the prompt has no such key), else
    the block's depth, a number."""
    return _written(block, prior, "injection_depth", block.get("depth", 4))


def written_role(block: dict, prior: dict | None) -> Any:
    """The `role` that file holds for `block`, as SillyTavern compares it (`prompt.role === role`):
    the escrowed prompt's own value while it still reads as the block's role (the number 1, None
    when the prompt has none), else the block's role, a name."""
    return _written(block, prior, "role", block.get("role", "system"))


def _written(block: dict, prior: dict | None, key: str, anew: Any) -> Any:
    raw = _first_prompts(prior).get(block.get("identifier", ""))
    if raw is None:
        return anew
    value = _encoded(block, raw).get(key, MISSING)  # what the export writes (a block made in-chat included)
    return None if value is MISSING else value


def prompt_losses(blocks: list[dict], prior: dict | None) -> list[Loss]:
    """What SillyTavern does otherwise than the blocks say: repeats that come alive, markers
    it cannot fill or fills without the block's text (not named for a block the escrowed file had)."""
    losses = []
    for raw in _placed_shadows(blocks, prior)[1]:
        identifier = _identifier(raw.get("identifier"))
        why = (
            f"the prompt {str_reader('')(raw.get('name'))!r} repeated the identifier {identifier!r}, so "
            "SillyTavern never reached it; no block has that identifier now, and SillyTavern keeps every "
            "prompt in the file and reads the first with an identifier, so this one is written and is the "
            f"{identifier!r} prompt SillyTavern reads (sent where an order names it)"
        )
        losses.append(REVEALED.at(REVEALED.pattern, why))
    own = _first_prompts(prior)
    for index, block in enumerate(blocks):
        identifier = block["identifier"]
        if not block["marker"] or identifier in own:
            continue
        if identifier not in MARKERS:
            why = (
                f"SillyTavern has no source for the marker {identifier!r} ({block['name'] or 'unnamed'}): it "
                "fills only its own (" + ", ".join(MARKERS) + "), and sends this block as its own text"
            )
            losses.append(MARKER_UNKNOWN.at(f"/body/prompts/{index}", why))
        elif block["content"]:
            why = (
                f"SillyTavern fills the marker {identifier!r} from its source and does not use the block's "
                "own text (a wrapper around the filled text, a default)"
            )
            losses.append(MARKER_TEXT.at(f"/body/prompts/{index}/content", why))
    return losses


def _new_prompt(block: dict) -> dict:
    native = encode_fields(PROMPT_FIELDS, block, None)
    if block["enabled"]:
        del native["enabled"]  # the orders say what is on; SillyTavern's prompts carry no flag
    if block["marker"]:  # markers have no text or role of their own
        for key, empty in (("content", ""), ("role", "system")):
            if native.get(key) == empty:
                del native[key]
    return native


def encode_orders(orders: list[dict], prior: dict | None) -> list[dict]:
    fields, target_of = ORDER_FIELDS, _target
    if old_sillytavern_mapping([order["target"] for order in orders]):
        fields, target_of = OLD_ORDER_FIELDS, _old_target  # `global` is the file's 100000 list
    known: dict[str, list[dict]] = {}
    for raw in _objects(prior or {}, "prompt_order"):
        known.setdefault(target_of(raw.get("character_id", MISSING)), []).append(raw)
    out = []
    for order in orders:
        same = known.get(order["target"])
        raw = same.pop(0) if same else None  # two lists of one id: each its own, in turn
        native = encode_fields(fields, order, raw)
        native["order"] = _encode_items(order["items"], _objects(raw, "order") if raw is not None else [])
        out.append(native)
    return out


def _encode_items(items: list[dict], prior_items: list[dict]) -> list[dict]:
    by_identity: dict[tuple[str, int], dict] = {}
    counts: dict[str, int] = {}
    for raw in prior_items:
        identifier = _identifier(raw.get("identifier"))
        by_identity[(identifier, counts.get(identifier, 0))] = raw
        counts[identifier] = counts.get(identifier, 0) + 1
    counts.clear()
    out = []
    for item in items:
        occurrence = counts.get(item["identifier"], 0)
        counts[item["identifier"]] = occurrence + 1
        out.append(encode_fields(ITEM_FIELDS, item, by_identity.get((item["identifier"], occurrence))))
    return out


def global_order_for(blocks: list[dict]) -> list[dict]:
    """The one global order (100001) a new file gets when the piece names none, so the blocks stay in use."""
    return encode_orders(
        [{"target": GLOBAL_ORDER, "items": [{"identifier": b["identifier"], "enabled": b["enabled"]} for b in blocks]}],
        None,
    )


def _objects(document: dict, key: str) -> list[dict]:
    value = document.get(key, MISSING)
    if value is MISSING or value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise BunzaiError(
            "corrupt_file",
            f"the preset's `{key}` is not a list of objects",
            "SillyTavern writes prompts and prompt_order as lists of objects",
        )
    return value
