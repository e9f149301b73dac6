"""SillyTavern quick-reply sets: v2 set files, and legacy v1 files migrated on read.

A v1 file (`quickReplySlots[].mes` ...) is read the way ST migrates it when it loads a set
from disk; the escrow keeps the v1 document. Writing always gives a v2 set, because ST's
importer refuses files without an integer `version`: a v1 piece written back to this
format is the v2 set ST itself would make of it, and the loss `quickreply.v1.upgraded`
says so. A v2 piece written back starts from its escrowed set, so unknown keys survive.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from bunzai.adapters.common.drift import as_bool, as_int, as_list, as_str
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.naming import piece_id_for
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource, linked_names_of
from bunzai.adapters.inspect import parse_text
from bunzai.adapters.registry import register
from bunzai.adapters.sillytavern.st_json import native_json_bytes
from bunzai.errors import BunzaiError
from bunzai.model.base import Escrow
from bunzai.model.quickreply import ContextLink, QuickReply, QuickReplySet, QuickReplySetBody, QuickReplySettings

FORMAT_ID = "sillytavern.quickreply"

V1_UPGRADED = LossRule(
    "/original",
    "translated",
    "quickreply.v1.upgraded",
    "SillyTavern imports only v2 quick-reply sets, so the v1 file "
    "is written as the v2 set SillyTavern migrates it to; the v1-only keys "
    "(quickReplyEnabled, numberOfSlots, selectedPreset, slot enabled) stay in escrow",
)
# What a set file has no place for, by field: the set's own fields, then the piece's.
SET_FIELD_DROPPED = {
    **{
        field: LossRule(
            f"/body/{field}",
            "dropped",
            f"quickreply.set.{field}.dropped",
            f"SillyTavern quick-reply sets have no {field}",
        )
        for field in ("description", "extensions")
    },
    **{
        field: LossRule(
            f"/{field}", "dropped", f"quickreply.set.{field}.dropped", f"SillyTavern quick-reply sets carry no {field}"
        )
        for field in ("profiles", "assets")
    },
}
NAME_EMPTY = LossRule(
    "/name",
    "translated",
    "quickreply.set.name.empty",
    "a set without a name is read back under its file's name",
)
CONTEXT_SET_BY_ID = LossRule(
    r"/body/items/\d+/context_list",
    "translated",
    "quickreply.context.set_by_id",
    "context links name sets by their bunzai id; "
    "SillyTavern looks sets up by name, so rename the link if the set's name differs",
)
AUTO_EXECUTE_NORMALISED = LossRule(
    r"/body/items/\d+/auto_execute",
    "translated",
    "quickreply.item.auto_execute.normalised",
    "SillyTavern keeps one flag per event, so the events read back once each, in its order",
)

# canonical auto_execute value -> v2 key -> v1 slot key, in ST's order
_AUTO = (
    ("startup", "executeOnStartup", "autoExecute_appStartup"),
    ("user", "executeOnUser", "autoExecute_userMessage"),
    ("ai", "executeOnAi", "autoExecute_botMessage"),
    ("chat_change", "executeOnChatChange", "autoExecute_chatLoad"),
    ("group_member_draft", "executeOnGroupMemberDraft", "autoExecute_groupMemberDraft"),
    ("new_chat", "executeOnNewChat", "autoExecute_newChat"),
    ("before_generation", "executeBeforeGeneration", "autoExecute_beforeGeneration"),
)
_SETTINGS = (
    ("disable_send", "disableSend"),
    ("place_before_input", "placeBeforeInput"),
    ("inject_input", "injectInput"),
    ("only_border_color", "onlyBorderColor"),
)
_V1_ONLY = (
    "quickReplyEnabled",
    "numberOfSlots",
    "selectedPreset",
    "quickReplySlots",
    "quickActionEnabled",
    "placeBeforeInputEnabled",
    "AutoInputInject",
)
_V1_SLOT = ("mes", "hidden", "enabled", "contextMenu") + tuple(v1 for _, _, v1 in _AUTO)
_NO_COLOR = "transparent"  # ST's default colour: the theme's own


def _bool(value: Any, default: bool = False) -> bool:
    return bool(as_bool(value, default))


def is_v1(document: Any) -> bool:
    return (
        isinstance(document, dict)
        and document.get("version") != 2
        and isinstance(document.get("quickReplySlots"), list)
    )


def _or(mapping: dict, key: str, default: Any) -> Any:
    """`mapping[key] ?? default`, as SillyTavern's migration reads a v1 value: null counts as absent."""
    value = mapping.get(key)
    return default if value is None else value


def _v1_link(link: dict) -> dict:
    # ST maps {preset, chain} to {set, isChained} without defaults; JSON drops an undefined one
    return {v2: link[v1] for v1, v2 in (("preset", "set"), ("chain", "isChained")) if v1 in link}


def migrate_v1(document: dict) -> dict:
    """The v2 set SillyTavern saves after loading a v1 file (index.js loadSets, then its
    defaults for what v1 lacks); keys ST does not know are carried along."""
    migrated = {
        "version": 2,
        "name": document.get("name", ""),
        "disableSend": _or(document, "quickActionEnabled", False),
        "placeBeforeInput": _or(document, "placeBeforeInputEnabled", False),
        "injectInput": _or(document, "AutoInputInject", False),
        "color": _NO_COLOR,
        "onlyBorderColor": False,
    }
    items = []
    for index, slot in enumerate(document["quickReplySlots"]):
        slot = slot if isinstance(slot, dict) else {}
        item = {
            "id": index + 1,
            "icon": "",
            "showLabel": False,
            "label": _or(slot, "label", ""),
            "title": _or(slot, "title", ""),
            "message": _or(slot, "mes", ""),
            "contextList": [_v1_link(link) for link in as_list(slot.get("contextMenu")) if isinstance(link, dict)],
            "preventAutoExecute": True,
            "isHidden": _or(slot, "hidden", False),
        }
        item.update({v2: _or(slot, v1, False) for _, v2, v1 in _AUTO})
        item["automationId"] = _or(slot, "automationId", "")
        item.update({key: value for key, value in slot.items() if key not in _V1_SLOT and key not in item})
        items.append(item)
    migrated["qrList"] = items
    migrated["idIndex"] = 0  # QuickReplySet's own default: loadSets gives a migrated set no counter
    migrated.update({key: value for key, value in document.items() if key not in _V1_ONLY and key not in migrated})
    return migrated


def highest_issued_id(original: Escrow | None) -> int:
    """The highest quick-reply id SillyTavern may have handed out in the escrowed set: its
    counter `idIndex` and its items' ids. ST's addQuickReply numbers a new reply past both, so
    an id at or under this one may name a reply ST deleted (0 when nothing is escrowed)."""
    document = original.document if original is not None and original.format == FORMAT_ID else None
    if not isinstance(document, dict):
        return 0
    if is_v1(document):
        return len(document["quickReplySlots"])  # ST numbers v1 slots 1..n and keeps no counter for them
    ids = [as_int(item.get("id")) for item in as_list(document.get("qrList")) if isinstance(item, dict)]
    return max([number for number in ids + [as_int(document.get("idIndex"))] if number is not None], default=0)


def _set_id(name: Any) -> str:
    return piece_id_for(as_str(name), "", "set")


def _given_id(item: Any) -> int | None:
    """The id an item gives, when it is one a set can hold (a whole number from 0)."""
    number = as_int(item.get("id")) if isinstance(item, dict) else None
    return number if number is not None and number >= 0 else None


def st_ids(natives: list, id_index: Any) -> tuple[list[int], list[tuple[int, int | None]]]:
    """The item ids as read, and (index, id given) for each item given a fresh one.

    An item keeps its id unless an earlier item holds it or it has none. SillyTavern keeps
    such a set as it is (its lookups find the first of a repeated id); here the others are
    numbered as its addQuickReply numbers a new reply (QuickReplySet.js): two past the highest
    of the counter and every id, the counter becoming that id. So no item loses an id it holds,
    and no id SillyTavern may have handed out to a reply since deleted is taken again.
    """
    given = [_given_id(native) for native in natives]
    ids: list[int] = []
    taken: set[int] = set()
    for number in given:
        ids.append(-1 if number is None or number in taken else number)  # -1: numbered below
        if number is not None:
            taken.add(number)
    counter = max(_counter(id_index), *taken, 0)
    fresh: list[tuple[int, int | None]] = []
    for index, number in enumerate(ids):
        if number < 0:
            counter += 2  # `const id = Math.max(idIndex, ...ids) + 1; data.id = this.idIndex = id + 1`
            ids[index] = counter
            fresh.append((index, given[index]))
    return ids, fresh


def _counter(id_index: Any) -> int:
    """`idIndex` as a number; a set without one has QuickReplySet's default, 0."""
    return as_int(id_index, 0) or 0


def item_from_native(item: dict, item_id: int) -> QuickReply:
    links = item.get("contextList") if isinstance(item.get("contextList"), list) else []
    return QuickReply(
        id=item_id,
        label=as_str(item.get("label")),
        icon=as_str(item.get("icon")),
        show_label=_bool(item.get("showLabel")),
        title=as_str(item.get("title")),
        message=as_str(item.get("message")),
        hidden=_bool(item.get("isHidden")),
        auto_execute=[value for value, v2, _ in _AUTO if _bool(item.get(v2))],
        prevent_auto_execute=_bool(item.get("preventAutoExecute"), default=True),
        context_list=[
            ContextLink(set=_set_id(link.get("set")), chained=_bool(link.get("isChained")))
            for link in links
            if isinstance(link, dict) and link.get("set")
        ],
        automation_id=as_str(item.get("automationId")),
    )


def body_from_native(document: dict, warnings: list[str]) -> QuickReplySetBody:
    native = document.get("qrList") if isinstance(document.get("qrList"), list) else []
    ids, fresh = st_ids(native, document.get("idIndex"))
    for index, given in fresh:
        why = "has no id" if given is None else f"repeats id {given}"
        warnings.append(f"quick reply {index + 1} {why}; it is given id {ids[index]}, as SillyTavern numbers a new one")
    items = [item_from_native(raw if isinstance(raw, dict) else {}, ids[index]) for index, raw in enumerate(native)]
    color = as_str(document.get("color"))
    settings = QuickReplySettings(
        color="" if color == _NO_COLOR else color, **{field: _bool(document.get(key)) for field, key in _SETTINGS}
    )
    return QuickReplySetBody(settings=settings, items=items)


class SillyTavernQuickReplies(Adapter):
    format_id = FORMAT_ID
    label = "SillyTavern quick-reply set"
    engine = "sillytavern"  # a quick reply runs as STscript, macros expanded
    kinds = ("quickreply",)
    extensions = (".json",)
    container = "text"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not isinstance(parsed, dict):
            return 0.0
        if isinstance(parsed.get("qrList"), list) and "version" in parsed:
            return 0.95
        return 0.9 if is_v1(parsed) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if parsed is None:
            parsed = parse_text(data, name)
        if not isinstance(parsed, dict) or not (is_v1(parsed) or isinstance(parsed.get("qrList"), list)):
            raise BunzaiError(
                "invalid_input",
                f"{name or 'the file'} is not a SillyTavern quick-reply set",
                "a set has a qrList (v2) or quickReplySlots (v1)",
            )
        warnings: list[str] = []
        native = migrate_v1(parsed) if is_v1(parsed) else parsed
        title = as_str(native.get("name")) or PurePath(name).stem
        piece = QuickReplySet(
            id=piece_id_for(title, name, "quick-replies"),
            name=title,
            body=body_from_native(native, warnings),
            original=Escrow(format=FORMAT_ID, document=parsed),
        )
        return Decoded(pieces=[piece], warnings=warnings)

    def write(self, piece: QuickReplySet, media: MediaSource) -> Encoded:
        losses: list[Loss] = []
        escrow = piece.original.document if piece.original and piece.original.format == FORMAT_ID else None
        if is_v1(escrow):
            losses.append(V1_UPGRADED.at("/original"))
            escrow = migrate_v1(escrow)
        base = dict(escrow) if isinstance(escrow, dict) else {}
        previous = body_from_native(base, []) if base else None
        document = base or {"version": 2}
        document["version"] = 2
        if not base or as_str(base.get("name")) != piece.name:
            document["name"] = piece.name
        settings = piece.body.settings
        for field, key in _SETTINGS:
            if previous is None or getattr(previous.settings, field) != getattr(settings, field):
                document[key] = getattr(settings, field)
        if previous is None or previous.settings.color != settings.color:
            document["color"] = settings.color or _NO_COLOR
        escrowed = base.get("qrList") if isinstance(base.get("qrList"), list) else []
        document["qrList"] = _items_out(piece, escrowed, st_ids(escrowed, base.get("idIndex"))[0], losses)
        counter = _next_counter(base, escrowed, piece)
        if counter is not None:
            document["idIndex"] = counter
        for field in ("description", "extensions"):
            if getattr(piece.body, field):
                losses.append(SET_FIELD_DROPPED[field].at(f"/body/{field}"))
        if not piece.name.strip():
            losses.append(NAME_EMPTY.at("/name"))
        for field in ("profiles", "assets"):
            if getattr(piece, field):
                losses.append(SET_FIELD_DROPPED[field].at(f"/{field}"))
        return Encoded(native_json_bytes(document), losses)


def _next_counter(base: dict, escrowed: list, piece: QuickReplySet) -> int | None:
    """The `idIndex` to write, or None to keep the escrowed one: SillyTavern's counter is the
    last id it handed out (addQuickReply), so it moves up to the highest id this write hands
    out, an id no escrowed item gave (a new reply, or one renumbered on read)."""
    given = {_given_id(item) for item in escrowed}
    issued = [item.id for item in piece.body.items if item.id not in given]
    counter = max([_counter(base.get("idIndex")), *issued])
    return None if base and counter == _counter(base.get("idIndex")) else counter


def _items_out(piece: QuickReplySet, escrowed: list, read_ids: list[int], losses: list[Loss]) -> list[dict]:
    """Each canonical item written over the escrowed item read with its id (`read_ids`)."""
    natives = [item if isinstance(item, dict) else {} for item in escrowed]
    by_id = dict(zip(read_ids, natives))
    names = _set_names(piece, natives)
    out = []
    for index, item in enumerate(piece.body.items):
        out.append(_item_out(item, dict(by_id.get(item.id) or {}), f"/body/items/{index}", losses, names))
    return out


def _set_names(piece: QuickReplySet, natives: list[dict]) -> dict[str, str]:
    """Set id -> the name SillyTavern finds the set by: the studio's set of that id as it is
    named now (LINKED_NAMES), else the name it was read from (escrowed links, then this
    set's own name), so a rewritten link keeps the name it had."""
    names = linked_names_of("quickreply")
    for native in natives:
        for link in as_list(native.get("contextList")):
            if isinstance(link, dict) and isinstance(link.get("set"), str) and link["set"]:
                names.setdefault(_set_id(link["set"]), link["set"])
    if piece.name:
        names.setdefault(_set_id(piece.name), piece.name)
    return names


def _set_renamed(item: QuickReply, native: dict) -> bool:
    """Whether a set the item's links offer goes by another name in the studio now than the
    name the file links it by (renamed since): SillyTavern would look for the old name."""
    linked = linked_names_of("quickreply")
    held = {link.get("set") for link in as_list(native.get("contextList")) if isinstance(link, dict)}
    return any(link.set in linked and linked[link.set] not in held for link in item.context_list)


def _item_out(item: QuickReply, native: dict, at: str, losses: list[Loss], names: dict[str, str]) -> dict:
    previous = item_from_native(native, item.id) if native else None  # an empty one is written whole

    def changed(field: str) -> bool:
        return previous is None or getattr(previous, field) != getattr(item, field)

    if _given_id(native) != item.id:  # written where the item does not give its id itself (a repeat, none)
        native["id"] = item.id
    for field, key in (
        ("icon", "icon"),
        ("show_label", "showLabel"),
        ("label", "label"),
        ("title", "title"),
        ("message", "message"),
    ):
        if changed(field):
            native[key] = getattr(item, field)
    if changed("context_list") or _set_renamed(item, native):
        native["contextList"] = [
            {"set": names.get(link.set, link.set), "isChained": link.chained} for link in item.context_list
        ]
        if any(link.set not in names for link in item.context_list):
            losses.append(CONTEXT_SET_BY_ID.at(f"{at}/context_list"))
    if changed("prevent_auto_execute"):
        native["preventAutoExecute"] = item.prevent_auto_execute
    if changed("hidden"):
        native["isHidden"] = item.hidden
    if changed("auto_execute"):
        native.update({v2: value in item.auto_execute for value, v2, _ in _AUTO})
        if item.auto_execute != [value for value, _, _ in _AUTO if value in item.auto_execute]:
            losses.append(AUTO_EXECUTE_NORMALISED.at(f"{at}/auto_execute"))
    if changed("automation_id"):
        native["automationId"] = item.automation_id
    return native


register(SillyTavernQuickReplies())
