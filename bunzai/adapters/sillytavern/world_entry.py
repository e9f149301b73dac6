"""One SillyTavern world-info entry <-> one canonical LoreEntry, key by key.

A field is read as SillyTavern's scan (world-info.js checkWorldInfo) runs it: loadWorldInfo
hands the scan the file as stored, and only the editor fills missing fields in
(addMissingWorldInfoFields, from `newWorldInfoEntryDefinition`) when it shows the world. So a
sparse entry reads as the scan sees it (no `selective`: not selective), a flag by JavaScript
truthiness ("false" is true), and a null where the scan falls back to a global setting
(`entry.caseSensitive ?? world_info_case_sensitive`) as None. Where no reading differs, the
editor's default stands. Enums follow sillytavern-formats.md §2.3: positions 0-7,
selectiveLogic 0-3, roles 0-2 (null reads as system).
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.card_book import js_number, read_world_probability
from bunzai.adapters.common.fieldmap import (
    MISSING,
    Field,
    answered_inline,
    answered_when_absent,
    FieldMap,
    int_reader,
    str_reader,
    choice,
    omit_none,
    reverse,
)
from bunzai.adapters.sillytavern.world_keys import decode_keys, encode_keys
from bunzai.jsondoc.values import copied

POSITIONS = {
    0: "before_char",
    1: "after_char",
    2: "an_top",
    3: "an_bottom",
    4: "at_depth",
    5: "em_top",
    6: "em_bottom",
    7: "outlet",
}
SELECTIVE_LOGIC = {0: "and_any", 1: "not_all", 2: "not_any", 3: "and_all"}
ROLES = {0: "system", 1: "user", 2: "assistant", "system": "system", "user": "user", "assistant": "assistant"}
_ROLE_NUMBERS = {"system": 0, "user": 1, "assistant": 2}
TRIGGERS = ("normal", "continue", "impersonate", "swipe", "regenerate", "quiet")


def _group_names(value: Any) -> list[str]:
    if not isinstance(value, str):
        return []
    return [name.strip() for name in value.split(",") if name.strip()]


_recursion_level = int_reader(None, lo=0)


def _delay_until_recursion(value: Any) -> bool | int:
    # bool or a recursion level; 0/1 stay numbers so an int file keeps its ints.
    if isinstance(value, bool):
        return value
    level = _recursion_level(value)
    return False if level is None else level


def _triggers(value: Any) -> list[str]:
    return [item for item in value if item in TRIGGERS] if isinstance(value, list) else []


def _character_filter(value: Any) -> Any:
    if not isinstance(value, dict):
        return None
    return {
        "exclude": _truthy(value.get("isExclude")),  # `characterFilter.isExclude ? ...`
        "names": _strings(value.get("names")),
        "tags": _strings(value.get("tags")),
    }


def _strings(items: Any) -> list[str]:
    if not isinstance(items, list):
        return []
    return [str(item) for item in items if isinstance(item, (str, int)) and not isinstance(item, bool)]


def _encode_character_filter(value: Any) -> Any:
    if value is None:
        return MISSING
    return {"isExclude": value["exclude"], "names": value["names"], "tags": value["tags"]}


def _encode_role(value: str) -> int:
    return _ROLE_NUMBERS[value]


def _encode_extensions(value: dict) -> Any:
    return value or MISSING


def _probability(value: Any) -> int:
    """An absent `probability` reads 0, as a null does (read_world_probability): loadWorldInfo
    hands the file to the scan as it is (only the editor fills missing fields in,
    addMissingWorldInfoFields, when it shows the world), and verifyProbability's
    `Math.random() * 100 <= undefined` is false, so with `useProbability` it never fires."""
    return 0 if value is MISSING else read_world_probability(value)


answered_inline(_probability, "{v}.__class__ is _int and 0 <= v <= 100", 0)


def _truthy(value: Any) -> bool:
    """A flag as SillyTavern's scan tests it: JavaScript truthiness (`if (entry.constant)`,
    `entry.selective && ...`, `!entry.useProbability`), as the editor's checkboxes show it too.
    "false" and any other non-empty text, a list and an object are true; "", 0, null and an
    absent key are false (an absent `selective` too, though the editor would fill in true)."""
    if value is MISSING or value is None:
        return False
    if value.__class__ is float:
        return value == value and value != 0  # NaN is falsy
    return bool(value) if isinstance(value, (bool, int, str)) else True


answered_inline(_truthy, "{v}.__class__ is _bool", False)


def _setting_or_truthy(value: Any) -> bool | None:
    """null or absent = the global setting (`entry.caseSensitive ?? world_info_case_sensitive`),
    as SillyTavern writes it; any other value by truthiness, as `??` keeps it."""
    return None if value is MISSING or value is None else _truthy(value)


answered_inline(_setting_or_truthy, "{v}.__class__ is _bool", None)


def _enabled(value: Any) -> bool:
    """`disable` as the scan tests it, loosely (`entry.disable == true`): true, 1 and text reading
    as the number 1 turn the entry off; "true", 2 or anything else leave it on (the editor,
    testing `!entry.disable`, shows those off, but the scan fires them)."""
    return js_number(value) != 1


def _flag(native: str, path: str) -> Field:
    return Field(native, (path,), _truthy)


def _nullable_flag(native: str, *path: str) -> Field:
    # null = "use the global setting"; SillyTavern writes the null, and so do we.
    return Field(native, path, _setting_or_truthy)


def _app_data(raw: Any) -> dict:
    """The entry's `extensions` object, its own copy: the piece never shares it with the escrow."""
    return copied(raw) if isinstance(raw, dict) else {}


answered_when_absent(_app_data, "{}")


ENTRY_FIELDS = FieldMap(
    (
        Field("key", ("keys",), decode_keys, encode_keys),
        Field("keysecondary", ("secondary_keys",), decode_keys, encode_keys),
        Field("comment", ("title",), str_reader("")),
        Field("content", ("content",), str_reader("")),
        _flag("constant", "constant"),
        _flag("vectorized", "vectorized"),
        _flag("selective", "selective"),
        Field("selectiveLogic", ("selective_logic",), choice(SELECTIVE_LOGIC, "and_any"), reverse(SELECTIVE_LOGIC)),
        Field("order", ("order",), int_reader(100)),
        Field("position", ("position",), choice(POSITIONS, "before_char"), reverse(POSITIONS)),
        Field("disable", ("enabled",), _enabled, lambda enabled: not enabled),
        _flag("ignoreBudget", "ignore_budget"),
        _flag("excludeRecursion", "exclude_recursion"),
        _flag("preventRecursion", "prevent_recursion"),
        _flag("matchPersonaDescription", "match_persona_description"),
        _flag("matchCharacterDescription", "match_character_description"),
        _flag("matchCharacterPersonality", "match_character_personality"),
        _flag("matchCharacterDepthPrompt", "match_character_depth_prompt"),
        _flag("matchScenario", "match_scenario"),
        _flag("matchCreatorNotes", "match_creator_notes"),
        Field("delayUntilRecursion", ("delay_until_recursion",), _delay_until_recursion),
        Field("probability", ("probability",), _probability),
        # `!entry.useProbability` skips the roll (verifyProbability): absent or null rolls no dice;
        # the editor's default `true` is only for new entries.
        Field("useProbability", ("use_probability",), _truthy),
        Field("depth", ("depth",), int_reader(4, lo=0)),
        Field("outletName", ("outlet",), str_reader("")),
        Field("group", ("group", "names"), _group_names, ",".join),
        Field("groupOverride", ("group", "override"), _truthy),
        Field("groupWeight", ("group", "weight"), int_reader(100, lo=0)),
        _nullable_flag("useGroupScoring", "group", "use_group_scoring"),
        Field("scanDepth", ("scan_depth",), int_reader(None, lo=0)),
        _nullable_flag("caseSensitive", "case_sensitive"),
        _nullable_flag("matchWholeWords", "match_whole_words"),
        Field("automationId", ("automation_id",), str_reader("")),
        Field("role", ("role",), choice(ROLES, "system"), _encode_role),
        Field("sticky", ("sticky",), int_reader(None, lo=0)),
        Field("cooldown", ("cooldown",), int_reader(None, lo=0)),
        Field("delay", ("delay",), int_reader(None, lo=0)),
        Field("triggers", ("triggers",), _triggers),
        Field("displayIndex", ("display_index",), int_reader(None), omit_none),
        Field("characterFilter", ("character_filter",), _character_filter, _encode_character_filter),
        Field("extensions", ("extensions",), _app_data, _encode_extensions),
    ),
    total=True,  # every reader gives a value (its default when the key is absent): compiled, group nested
)
"""In the order SillyTavern writes a new entry's keys."""


def fresh_entry_extras(entry: dict) -> dict:
    """Keys a new SillyTavern entry carries that the canonical entry does not name."""
    return {"addMemo": bool(entry.get("title"))}
