"""Marinara Engine lorebooks (`.marinara.json`, type `marinara_lorebook`) <-> a lorebook.

The native export (lorebooks.routes.ts GET /:id/export) is `data: {lorebook, entries,
folders}`: the rows as lorebooks.storage.ts parses them (real booleans, arrays), entries in
the storage's order. Marinara's import (marinara.importer.ts importLorebook) reads back what
is mapped here and more; what the canonical model does not name (category, tags, folders,
an entry's description, tag, locked, ephemeral, filters, relationships, schedule ...) stays
in the escrow and is written back on a Marinara export. Writing goes over the escrowed rows,
entry by entry (matched by the uid each row reads as), a key rewritten only where the
canonical value differs from what the row reads as; the written file is read back and every
difference is named.
"""

from __future__ import annotations

from typing import Any


from bunzai.adapters.common.book_losses import alike_recursion_delays
from bunzai.adapters.common.drift import as_count, as_int, as_str, as_str_list
from bunzai.adapters.common.losses import LossRule, readback_losses
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.marinara.envelope import (
    FIXED_EXPORTED_AT,
    compact_bytes,
    envelope_of,
    envelope_type,
    escrowed_envelope,
    new_envelope,
    row_id,
)
from bunzai.adapters.inspect import parse_text
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.model import dump_piece
from bunzai.model.lorebook import Lorebook

FORMAT_ID = "marinara.lorebook"
TYPE = "marinara_lorebook"
# Marinara's secondary-key logic since it took SillyTavern's four (its issue #2692, June 2026):
# keyword matching (testSecondaryKeys) reads `and` and `or` as any key, `and_all` as every key, `not`
# as none of them and `not_all` as not every one, and its import (resolveNativeSelectiveLogic) makes
# any other value, or none, `and`. Before, `and` was every key; Marinara reads old files so too now.
LOGIC_IN = {"and": "and_any", "or": "and_any", "and_all": "and_all", "not": "not_any", "not_all": "not_all"}
LOGIC_OUT = {"and_any": "and", "and_all": "and_all", "not_any": "not", "not_all": "not_all"}
# LorebookEntry.position: 0 before the character, 1 after it, 2 at a message depth, 7 the outlet
# `outletName` names. The import (resolveNativePosition) reads these names too; any other value is 0.
POSITION_IN = {0: "before_char", 1: "after_char", 2: "at_depth", 7: "outlet"}
POSITION_OUT = {value: key for key, value in POSITION_IN.items()}
POSITION_NAMES = {"after_char": 1, "at_depth": 2, "depth": 2, "outlet": 7}
# The compatible export's numbers (buildCompatibleLorebookExport), taken back to the rows they
# stand for, which are then read as any row is. Today's writes SillyTavern's numbers (stSelectiveLogic,
# stPosition; a position it never gives reads as Marinara's SillyTavern import reads it) with
# `useRegex`, the recursion flags and `outletName`, all added after Marinara's issues #2692 and
# #2704 (June 2026), in an order its sources do not show. The older one wrote its own three logics
# as 0 / 1 / 2, its positions as they are, and none of those keys. A file with any of them, or a
# number only SillyTavern's counting has, is read in SillyTavern's numbers; any other, in the older.
COMPATIBLE_LOGIC = {0: "and", 1: "not_all", 2: "not", 3: "and_all"}
COMPATIBLE_POSITIONS = {0: 0, 1: 1, 2: 0, 3: 1, 4: 2, 5: 0, 6: 1, 7: 7}
OLDER_COMPATIBLE_LOGIC = {0: "and", 1: "or", 2: "not"}
CURRENT_COMPATIBLE_KEYS = ("outletName", "useRegex", "preventRecursion", "excludeRecursion", "delayUntilRecursion")
# The book's bindings, which today's compatible export writes beside its name.
COMPATIBLE_BINDINGS = ("characterId", "personaId", "chatId")
COMPATIBLE_ROLES = {0: "system", 1: "user", 2: "assistant"}
COMPATIBLE_SOURCE = "Marinara Engine compatibility export"  # the mark's source
# additionalMatchingSources the canonical entry names.
SOURCES = (
    ("persona_description", "match_persona_description"),
    ("character_description", "match_character_description"),
    ("character_personality", "match_character_personality"),
    ("character_scenario", "match_scenario"),
)
ROLES = ("system", "user", "assistant")
# A scan depth of 0 is every message to Marinara (keyword-scanner.ts scans `messages.slice(-depth)`
# only for a depth above 0, and an entry's null takes the book's), but no message to the canonical
# model, which reads depths as SillyTavern does. "Every message" is said canonically with the deepest
# scan SillyTavern runs (world-info.js MAX_SCAN_DEPTH): it scans all it keeps there too.
SCAN_ALL = 1000
SCAN_NONE = LossRule(
    "",
    "translated",
    "marinara.lorebook.scan_depth.none",
    "Marinara reads a scan depth of 0 as every message and cannot scan none: it is written as 1, the last message only",
)

LOSS_RULES = (
    LossRule(
        r"/body/entries/\d+/(?:keys|secondary_keys)",
        "translated",
        "marinara.lorebook.keys.regex_per_entry",
        "Marinara reads every key of an entry as a regex (useRegex) or none, with no flags of its own",
    ),
    LossRule(
        r"/body/entries/\d+/position",
        "translated",
        "marinara.lorebook.entry.position",
        "Marinara places an entry before or after the character, at a depth or in an outlet",
    ),
    LossRule(
        r"/body/entries/\d+/delay_until_recursion",
        "translated",
        "marinara.lorebook.entry.recursion_level",
        "Marinara delays an entry until recursion or not, from no particular level",
    ),
    LossRule(
        r"/body/entries/\d+/depth",
        "translated",
        "marinara.lorebook.entry.depth_zero",
        "Marinara injects an entry at a depth of 1 or more and never sends one at depth 0, so it is written at "
        "depth 1, just before the last message",
    ),
    LossRule(
        r"/body/entries/\d+/(?:case_sensitive|match_whole_words)",
        "translated",
        "marinara.lorebook.entry.match",
        "a Marinara entry sets its own matching; it has no book default",
    ),
    LossRule(
        r"/body/entries/\d+/(?:probability|use_probability)",
        "translated",
        "marinara.lorebook.entry.probability",
        "a Marinara entry has a probability or none",
    ),
    LossRule(
        r"/body/entries/\d+/group",
        "translated",
        "marinara.lorebook.entry.group",
        "a Marinara entry is in one group with a weight, and has no override or scoring flag",
    ),
    LossRule(
        r"/body/entries/\d+/uid",
        "translated",
        "marinara.lorebook.entry.id",
        "Marinara entry ids are strings; another id gets a new one",
    ),
    LossRule(
        r"/body/entries/\d+/[^/]+",
        "dropped",
        "marinara.lorebook.entry.not_carried",
        "a Marinara lorebook entry has no such setting",
    ),
    LossRule("/body/entries", "translated", "marinara.lorebook.entries.changed", "the entries read back differently"),
    LossRule(
        "/body/settings/[^/]+",
        "dropped",
        "marinara.lorebook.settings.dropped",
        "a Marinara lorebook has scan depth, token budget, recursion and its depth only",
    ),
    LossRule(
        "/body/extensions",
        "dropped",
        "marinara.lorebook.extensions.dropped",
        "a Marinara lorebook keeps no extensions object",
    ),
    LossRule("/assets", "dropped", "marinara.lorebook.assets.dropped", "a Marinara lorebook carries no media"),
    LossRule(
        "/profiles", "dropped", "marinara.lorebook.profiles.dropped", "a Marinara lorebook has no per-platform profiles"
    ),
)
FALLBACK = LossRule(
    "", "dropped", "marinara.lorebook.not_carried", "a Marinara lorebook does not carry this value as it is"
)


def rows(value: Any) -> list[dict]:
    return [row for row in value if isinstance(row, dict)] if isinstance(value, list) else []


def _flag(value: Any, default: bool = False) -> bool:
    return value if isinstance(value, bool) else (value == "true" if isinstance(value, str) else default)


def _optional_count(value: Any) -> int | None:
    return None if value is None else as_count(value, None)


def _scan_depth_in(value: Any) -> int | None:
    depth = _optional_count(value)
    return SCAN_ALL if depth == 0 else depth


def _scan_depth_out(depth: int) -> int:
    return 0 if depth == SCAN_ALL else max(depth, 1)


def entry_of(row: dict, index: int) -> dict:
    regex = _flag(row.get("useRegex"))
    logic = row.get("selectiveLogic")  # resolveNativeSelectiveLogic: an exact name, else `and`
    logic = LOGIC_IN.get(logic, "and_any") if isinstance(logic, str) else "and_any"
    keys = [{"text": key, "regex": regex} for key in as_str_list(row.get("keys"))]
    secondary = [{"text": key, "regex": regex} for key in as_str_list(row.get("secondaryKeys"))]
    probability = as_int(row.get("probability"), None)
    group = as_str(row.get("group"))
    weight = as_count(row.get("groupWeight"), None)
    sources = set(as_str_list(row.get("additionalMatchingSources")))
    entry = {
        "uid": as_str(row.get("id")) or f"entry-{index}",
        "title": as_str(row.get("name")),
        "keys": keys,
        "secondary_keys": secondary,
        "selective": _flag(row.get("selective")),
        "selective_logic": logic,
        "content": as_str(row.get("content")),
        "enabled": _flag(row.get("enabled"), True),
        "constant": _flag(row.get("constant")),
        "order": as_int(row.get("order"), 100),
        "position": _position_in(row.get("position")),
        "outlet": as_str(row.get("outletName")),
        "depth": as_count(row.get("depth"), 4),
        "role": row.get("role") if row.get("role") in ROLES else "system",
        "probability": min(max(probability, 0), 100) if probability is not None else 100,
        "use_probability": probability is not None,
        "group": {"names": [group] if group else [], "weight": weight if weight is not None else 100},
        "sticky": _optional_count(row.get("sticky")),
        "cooldown": _optional_count(row.get("cooldown")),
        "delay": _optional_count(row.get("delay")),
        "prevent_recursion": _flag(row.get("preventRecursion"), True),  # the import's default when missing
        "exclude_recursion": _flag(row.get("excludeRecursion")),
        "delay_until_recursion": _flag(row.get("delayUntilRecursion")),
        "scan_depth": _scan_depth_in(row.get("scanDepth")),
        "case_sensitive": _flag(row.get("caseSensitive")),
        "match_whole_words": _flag(row.get("matchWholeWords")),
    }
    for source, field in SOURCES:
        entry[field] = source in sources
    return entry


def _position_in(value: Any) -> str:
    """resolveNativePosition: a name, or one of the numbers; anything else is before the character."""
    if isinstance(value, str):
        return POSITION_IN[POSITION_NAMES.get(value, 0)]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value in POSITION_IN:  # 2.0 is 2
        return POSITION_IN[int(value)]
    return "before_char"


def body_of(data: dict) -> dict:
    book = data.get("lorebook") if isinstance(data.get("lorebook"), dict) else {}
    settings = {
        "scan_depth": _scan_depth_in(book.get("scanDepth")),
        "token_budget": _optional_count(book.get("tokenBudget")),
        "recursive_scanning": _flag(book.get("recursiveScanning")),
        "max_recursion_steps": _optional_count(book.get("maxRecursionDepth")),
    }
    return {
        "description": as_str(book.get("description")),
        "settings": settings,
        "entries": _unique_uids(rows(data.get("entries"))),
    }


def _unique_uids(native: list[dict]) -> list[dict]:
    """The entries of the rows `native`, with unique uids: each id the file gives is the uid of the
    first row that gives it; a row without one, or repeating one (a hand-edited file), is read by
    its place, `entry-N` (counted from 0), or `entry-N-2` ... where the file or an earlier row has
    that name. The written row keeps the id the file gave it (a write matches rows by the escrow's
    reading, which is this one)."""
    given = [as_str(row.get("id")) for row in native]
    taken, seen = set(filter(None, given)), set()
    entries = [entry_of(row, index) for index, row in enumerate(native)]
    for index, (entry, uid) in enumerate(zip(entries, given)):
        if uid and uid not in seen:
            seen.add(uid)
            continue
        name, more = f"entry-{index}", 1
        while name in taken:
            more += 1
            name = f"entry-{index}-{more}"
        taken.add(name)
        entry["uid"] = name
    return entries


def new_book_row(book_id: str, name: str = "") -> dict:
    """A lorebooks row with its column defaults (db/schema/lorebooks.ts), parsed as the export sends it."""
    return {
        "id": book_id,
        "name": name,
        "description": "",
        "category": "uncategorized",
        "scanDepth": 2,
        "tokenBudget": 2048,
        "recursiveScanning": False,
        "maxRecursionDepth": 3,
        "characterId": None,
        "personaId": None,
        "chatId": None,
        "enabled": True,
        "tags": [],
        "generatedBy": None,
        "sourceAgentId": None,
        "createdAt": FIXED_EXPORTED_AT,
        "updatedAt": FIXED_EXPORTED_AT,
    }


def compatible_envelope(parsed: Any) -> dict | None:
    """The native envelope a "Compatible JSON" lorebook export stands for, or None for another document.

    buildCompatibleLorebookExport (lorebooks.routes.ts, backup.routes.ts) writes a SillyTavern
    world marked `extensions.marinara.source`, in SillyTavern's numbers but for `probability`
    (null: no roll) where an entry shows it (see COMPATIBLE_LOGIC), else in the older Marinara's
    own: `position` 0/1/2 before/after the character/at a depth (2 is the Author's Note top to
    SillyTavern), `selectiveLogic` 0/1/2 and/or/not. `role` is SillyTavern's numbering in both.
    The file carries no entry ids, folders or book settings: the rows get Marinara's column
    defaults (and ids derived from the book and uid); today's also names the book's bindings.
    """
    if not isinstance(parsed, dict) or "type" in parsed or not isinstance(parsed.get("entries"), dict):
        return None
    extensions = parsed.get("extensions")
    mark = extensions.get("marinara") if isinstance(extensions, dict) else None
    if not (isinstance(mark, dict) and mark.get("source") == COMPATIBLE_SOURCE):
        return None
    name = as_str(parsed.get("name"))
    book_id = row_id("compatible-lorebook", name)
    given = [(key, entry) for key, entry in parsed["entries"].items() if isinstance(entry, dict)]
    current = any(_sillytavern_numbered(entry) for _key, entry in given)
    entries = [_compatible_entry(entry, book_id, key, current) for key, entry in given]
    book = new_book_row(book_id, name)
    for field in COMPATIBLE_BINDINGS:
        if isinstance(parsed.get(field), str):
            book[field] = parsed[field]
    envelope = new_envelope(TYPE, {"lorebook": book, "entries": entries, "folders": []})
    if isinstance(mark.get("exportedAt"), str):
        envelope["exportedAt"] = mark["exportedAt"]
    return envelope


def _sillytavern_numbered(entry: dict) -> bool:
    """Whether an entry of the compatible export shows it was written in SillyTavern's numbers."""
    if any(key in entry for key in CURRENT_COMPATIBLE_KEYS):
        return True
    return as_int(entry.get("position"), 0) in (3, 4, 5, 6, 7) or as_int(entry.get("selectiveLogic"), 0) == 3


def _compatible_entry(entry: dict, book_id: str, key: str, current: bool) -> dict:
    """A lorebookEntries row from an entry of the compatible export, read in Marinara's terms
    (`current`: in SillyTavern's numbers)."""
    row = _new_row({"uid": row_id("compatible-entry", book_id, key)}, book_id, "")
    logic = as_int(entry.get("selectiveLogic"), 0)
    row.update(
        {
            "name": as_str(entry.get("comment")),
            "content": as_str(entry.get("content")),
            "keys": as_str_list(entry.get("key")),
            "secondaryKeys": as_str_list(entry.get("keysecondary")),
            "enabled": entry.get("disable") is not True,
            "constant": entry.get("constant") is True,
            "selective": entry.get("selective") is True,
            "selectiveLogic": (COMPATIBLE_LOGIC if current else OLDER_COMPATIBLE_LOGIC).get(logic, "and"),
            "role": COMPATIBLE_ROLES.get(as_int(entry.get("role"), 0), "system"),
            "matchWholeWords": entry.get("matchWholeWords") is True,
            "caseSensitive": entry.get("caseSensitive") is True,
            "group": as_str(entry.get("group")),
        }
    )
    for field in ("order", "position", "depth"):
        row[field] = as_int(entry.get(field), row[field])
    if current:
        row["position"] = COMPATIBLE_POSITIONS.get(row["position"], 0)
        row["outletName"] = as_str(entry.get("outletName"))
        for field in ("useRegex", "excludeRecursion", "delayUntilRecursion"):
            row[field] = entry.get(field) is True
    # Marinara's import makes a missing preventRecursion true, as its column's default is
    row["preventRecursion"] = _flag(entry.get("preventRecursion"), True) if current else True
    for field in ("probability", "scanDepth", "groupWeight", "sticky", "cooldown", "delay"):
        value = entry.get(field)
        row[field] = value if isinstance(value, int) and not isinstance(value, bool) else None
    return row


class MarinaraLorebook(Adapter):
    format_id = FORMAT_ID
    label = "Marinara Engine lorebook"
    kinds = ("lorebook",)
    extensions = (".marinara.json", ".json")
    container = "text"
    engine = "marinara"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if envelope_type(parsed) == TYPE and isinstance(parsed["data"].get("lorebook"), dict):
            return 0.95
        # above sillytavern.world (0.9): a marked world is Marinara's, in its own numbers
        return 0.95 if compatible_envelope(parsed) is not None else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if parsed is None:
            parsed = parse_text(data, name or "x.json")
        envelope = compatible_envelope(parsed) or envelope_of(data, name, parsed, TYPE)
        book = envelope["data"].get("lorebook")
        if not isinstance(book, dict):
            raise BunzaiError(
                "corrupt_file",
                f"{name or 'the file'} is a Marinara lorebook export without its lorebook",
                "export the lorebook again from Marinara Engine",
            )
        # importLorebook's `String(lb.name ?? "Imported Lorebook")`: only a missing name is replaced
        title = "Imported Lorebook" if book.get("name") is None else as_str(book.get("name"))
        original = {"format": FORMAT_ID, "document": envelope}
        hint = "check that value in the file"
        return Decoded(
            [read_piece(Lorebook, title, name, "lorebook", body_of(envelope["data"]), original, hint, mapped=True)]
        )

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        base = escrowed_envelope(piece, FORMAT_ID, TYPE)
        if base is not None and isinstance(base["data"].get("lorebook"), dict):
            envelope = copied(base)
        else:
            envelope = new_envelope(
                TYPE, {"lorebook": new_book_row(row_id("lorebook", piece.id)), "entries": [], "folders": []}
            )
        data = envelope["data"]
        book = data["lorebook"]
        twin = body_of(data)
        body = piece.body.model_dump(mode="json")
        if as_str(book.get("name")) != piece.name:
            book["name"] = piece.name
        if body["description"] != twin["description"]:
            book["description"] = body["description"]
        for field, native in (
            ("scan_depth", "scanDepth"),
            ("token_budget", "tokenBudget"),
            ("recursive_scanning", "recursiveScanning"),
            ("max_recursion_steps", "maxRecursionDepth"),
        ):
            value = body["settings"][field]
            if value is not None and value != twin["settings"][field]:
                book[native] = _scan_depth_out(value) if field == "scan_depth" else value
        old = {entry["uid"]: (row, entry) for row, entry in zip(rows(data.get("entries")), twin["entries"])}
        written = []
        for entry in body["entries"]:
            row, was = old.get(entry["uid"], (None, None)) if isinstance(entry["uid"], str) else (None, None)
            if row is None:
                row, was = _new_row(entry, as_str(book.get("id")), piece.id), None
            _patch(row, entry, was)
            written.append(row)
        if written != rows(data.get("entries")):
            data["entries"] = written
        out = compact_bytes(envelope)
        back = self.read(out, piece.id + self.extensions[0], None).pieces[0]
        declared = _scan_none_losses(body)
        before, after = dump_piece(piece), dump_piece(back)
        alike = alike_recursion_delays(before, after)  # Marinara's flag keeps levels 0 and 1
        found = readback_losses(before, after, LOSS_RULES, FALLBACK, declared)
        found = [loss for loss in found if loss.pointer not in alike]
        return Encoded(out, declared + found)


def _scan_none_losses(body: dict) -> list[Loss]:
    """A scan depth of 0 (no message) for the book or an entry: Marinara's 0 is every message."""
    pointers = ["/body/settings/scan_depth"] if body["settings"]["scan_depth"] == 0 else []
    pointers += [f"/body/entries/{index}/scan_depth" for index, e in enumerate(body["entries"]) if e["scan_depth"] == 0]
    return [SCAN_NONE.at(pointer) for pointer in pointers]


def _new_row(entry: dict, book_id: str, piece_id: str) -> dict:
    uid = (
        entry["uid"] if isinstance(entry["uid"], str) and entry["uid"] else row_id("entry", piece_id, str(entry["uid"]))
    )
    # lorebookEntries' column defaults (db/schema/lorebooks.ts), parsed as the export sends them.
    return {
        "id": uid,
        "lorebookId": book_id,
        "folderId": None,
        "name": "",
        "content": "",
        "description": "",
        "keys": [],
        "secondaryKeys": [],
        "enabled": True,
        "constant": False,
        "selective": False,
        "selectiveLogic": "and",
        "probability": None,
        "scanDepth": None,
        "matchWholeWords": False,
        "caseSensitive": False,
        "useRegex": False,
        "characterFilterMode": "any",
        "characterFilterIds": [],
        "characterTagFilterMode": "any",
        "characterTagFilters": [],
        "generationTriggerFilterMode": "any",
        "generationTriggerFilters": [],
        "additionalMatchingSources": [],
        "position": 0,
        "outletName": "",
        "depth": 4,
        "order": 100,
        "role": "system",
        "sticky": None,
        "cooldown": None,
        "delay": None,
        "ephemeral": None,
        "group": "",
        "groupWeight": None,
        "locked": False,
        "preventRecursion": True,
        "excludeRecursion": False,
        "delayUntilRecursion": False,
        "tag": "",
        "relationships": {},
        "dynamicState": {},
        "activationConditions": [],
        "schedule": None,
        "embedding": None,
        "createdAt": FIXED_EXPORTED_AT,
        "updatedAt": FIXED_EXPORTED_AT,
    }


def _patch(row: dict, entry: dict, was: dict | None) -> None:
    """Write `entry` over `row`, only where it differs from `was` (what the row read as)."""
    was = was or entry_of(row, 0)
    plain = (
        ("title", "name"),
        ("content", "content"),
        ("enabled", "enabled"),
        ("constant", "constant"),
        ("order", "order"),
        ("role", "role"),
        ("sticky", "sticky"),
        ("cooldown", "cooldown"),
        ("delay", "delay"),
        ("prevent_recursion", "preventRecursion"),
        ("exclude_recursion", "excludeRecursion"),
        ("delay_until_recursion", "delayUntilRecursion"),
        ("case_sensitive", "caseSensitive"),
        ("match_whole_words", "matchWholeWords"),
        ("outlet", "outletName"),
    )
    for field, native in plain:
        value = entry[field]
        if field in ("case_sensitive", "match_whole_words", "delay_until_recursion"):
            value = bool(value)  # a recursion level is on, its level lost (read back and named)
        if value != was[field]:
            row[native] = value
    if entry["scan_depth"] != was["scan_depth"]:
        row["scanDepth"] = None if entry["scan_depth"] is None else _scan_depth_out(entry["scan_depth"])
    depth = _written_depth(entry, was)
    if depth != was["depth"]:
        row["depth"] = depth
    for field, native in (("keys", "keys"), ("secondary_keys", "secondaryKeys")):
        if entry[field] != was[field]:
            row[native] = [key["text"] for key in entry[field]]
    regex = any(key["regex"] for key in entry["keys"] + entry["secondary_keys"])
    if [k["regex"] for k in entry["keys"] + entry["secondary_keys"]] != [
        k["regex"] for k in was["keys"] + was["secondary_keys"]
    ]:
        row["useRegex"] = regex
    if entry["selective"] != was["selective"]:
        row["selective"] = entry["selective"]
    if entry["selective_logic"] != was["selective_logic"]:
        row["selectiveLogic"] = LOGIC_OUT[entry["selective_logic"]]
    if entry["position"] != was["position"]:
        row["position"] = POSITION_OUT.get(entry["position"], 0)
    if (entry["probability"], entry["use_probability"]) != (was["probability"], was["use_probability"]):
        row["probability"] = entry["probability"] if entry["use_probability"] else None
    if entry["group"]["names"] != was["group"]["names"]:
        row["group"] = entry["group"]["names"][0] if entry["group"]["names"] else ""
    if entry["group"]["weight"] != was["group"]["weight"]:
        row["groupWeight"] = entry["group"]["weight"]
    sources = [s for s in as_str_list(row.get("additionalMatchingSources"))]
    for source, field in SOURCES:
        if entry[field] != was[field]:
            sources = [s for s in sources if s != source] + ([source] if entry[field] else [])
            row["additionalMatchingSources"] = sources


def _written_depth(entry: dict, was: dict) -> int:
    """The entry's depth, or 1 for an entry newly placed at depth 0: Marinara injects only from
    depth 1 (prompt-injector.ts getDepthInjectedEntries) and never sends one at 0. A row the
    file already held at depth 0 is left as it was."""
    placed = (entry["position"], entry["depth"])
    if placed[0] == "at_depth" and placed[1] < 1 and placed != (was["position"], was["depth"]):
        return 1
    return entry["depth"]


register(MarinaraLorebook())
