"""What Marinara's "Import embedded lorebook" keeps of a card's book, and what it loses.

Marinara keeps a character's `character_book` as written, but uses it only once the import
(characters.routes.ts -> importSTLorebook, as Marinara has it since it took SillyTavern's four
secondary-key logics in mid-2026) makes a Marinara lorebook of it. That import reads the book's
scan depth, token budget and recursion, and each entry's settings from the entry's top level
only, with its own defaults where a card book keeps a setting in `extensions`. So each written
entry is read here as that import reads it, and compared with the canonical entry it came from:
a difference in what the entry does is a loss, named at the entry's field.
"""

from __future__ import annotations

import math
from typing import Any

from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss
from bunzai.adapters.marinara.lorebook import COMPATIBLE_LOGIC, LOGIC_IN

BOOK_SCAN_NONE = LossRule(
    "",
    "translated",
    "marinara.character.book.scan_depth.none",
    "Marinara reads a book's scan depth of 0 as every message",
)
BOOK_ENTRY_DROPPED = LossRule(
    "", "dropped", "marinara.character.book.entry.dropped", "Marinara drops this setting of a card book entry"
)
BOOK_KEY_FLAGS = LossRule(
    "", "translated", "marinara.character.book.key.flags", "Marinara runs a card book's regex keys with its own flags"
)
KEY_FLAGS_WHY = "Marinara runs a regex key case-insensitively unless the entry is case-sensitive, with no other flags"

# resolveSelectiveLogic: SillyTavern's numbers (as the compatible export writes them), or one of
# Marinara's names; anything else is `and`.
_LOGIC_NUMBERS = {number: LOGIC_IN[name] for number, name in COMPATIBLE_LOGIC.items()}
# Canonical settings the import never reads, with what the Marinara entry does instead.
_NEVER_READ = (
    ("match_persona_description", "Marinara's entry scans the chat, not the persona's description"),
    ("match_character_description", "Marinara's entry scans the chat, not the character's description"),
    ("match_character_personality", "Marinara's entry scans the chat, not the character's personality"),
    ("match_character_depth_prompt", "Marinara's entry scans the chat, not the character's depth prompt"),
    ("match_scenario", "Marinara's entry scans the chat, not the scenario"),
    ("match_creator_notes", "Marinara's entry scans the chat, not the creator's notes"),
    ("triggers", "Marinara's entry may activate on every kind of generation"),
    ("ignore_budget", "Marinara's entry counts against the token budget"),
    ("character_filter", "Marinara's entry is not limited to or away from characters"),
    ("automation_id", "Marinara runs no quick reply when the entry activates"),
)


def book_losses(book: Any, written: Any) -> list[Loss]:
    """The losses of the canonical `book` once Marinara imports `written`, the card book as
    written for it (its entries in the canonical order)."""
    losses = [BOOK_SCAN_NONE.at("/body/book/settings/scan_depth")] if book.settings.scan_depth == 0 else []
    rows = written.get("entries") if isinstance(written, dict) else None
    rows = rows if isinstance(rows, list) else []
    recursive = book.settings.recursive_scanning is True
    for index, entry in enumerate(book.entries):
        if not entry.enabled:
            continue  # it does nothing in either
        row = rows[index] if index < len(rows) and isinstance(rows[index], dict) else {}
        where = f"/body/book/entries/{index}"
        read = imported(row)
        losses += [BOOK_ENTRY_DROPPED.at(f"{where}/{field}", why) for field, why in _drops(entry, read, recursive)]
        if entry.constant:
            continue  # its keys match nothing it needs
        fields = ("keys", "secondary_keys") if entry.selective else ("keys",)  # secondary keys filter only then
        losses += [
            BOOK_KEY_FLAGS.at(f"{where}/{field}", KEY_FLAGS_WHY)
            for field in fields
            if any(key.regex and _flags_differ(key.flags, read["case_sensitive"]) for key in getattr(entry, field))
        ]
    return losses


def imported(row: dict) -> dict:
    """The settings importSTLorebook gives a Marinara entry made from the card book entry `row`."""
    return {
        "case_sensitive": _truthy(_first(row, "caseSensitive", "case_sensitive")),
        "match_whole_words": _truthy(_first(row, "matchWholeWords", "match_whole_words")),
        "scan_depth": _number(_first(row, "scanDepth", "scan_depth")),
        "probability": _probability(row),
        "group": row.get("group") if row.get("group") is not None else "",
        "sticky": _number(row.get("sticky")),
        "cooldown": _number(row.get("cooldown")),
        "delay": _number(row.get("delay")),
        "selective_logic": _logic(row.get("selectiveLogic")),
        "prevent_recursion": True if row.get("preventRecursion") is None else _truthy(row["preventRecursion"]),
        "exclude_recursion": _truthy(row.get("excludeRecursion")),
        "delay_until_recursion": _truthy(row.get("delayUntilRecursion")),
    }


def _drops(entry: Any, read: dict, recursive: bool) -> list[tuple[str, str]]:
    """(field, why) for each setting of `entry` that the imported entry `read` does otherwise."""
    drops = []
    filtering = [] if entry.constant else entry.keys + (entry.secondary_keys if entry.selective else [])
    # a regex key runs by its own flags, not by the entry's case or whole words; a constant entry's keys by none
    literal = any(not key.regex for key in filtering)
    if literal and bool(entry.case_sensitive) != read["case_sensitive"]:
        drops.append(
            (
                "case_sensitive",
                "Marinara's entry matches keys in any case"
                if entry.case_sensitive
                else "Marinara's entry matches keys case-sensitively",
            )
        )
    if literal and bool(entry.match_whole_words) != read["match_whole_words"]:
        drops.append(("match_whole_words", "Marinara's entry matches keys inside words"))
    if not entry.constant and entry.scan_depth != read["scan_depth"]:
        drops.append(("scan_depth", "Marinara's entry scans the lorebook's depth"))
    chance = entry.probability if entry.use_probability and entry.probability < 100 else None
    if chance != (read["probability"] if read["probability"] is not None and read["probability"] < 100 else None):
        drops.append(("probability", "Marinara's entry fires every time its keys match"))
    if entry.group.names and ",".join(entry.group.names) != read["group"]:
        drops.append(("group", "Marinara's entry is in no group"))
    for field in ("sticky", "cooldown", "delay"):
        if (getattr(entry, field) or None) != (read[field] or None):
            drops.append((field, f"Marinara's entry has no {field}"))
    count = len(entry.secondary_keys) if entry.selective and not entry.constant else 0
    if count and _effect(entry.selective_logic, count) != _effect(read["selective_logic"], count):
        drops.append(("selective_logic", "Marinara's entry needs any one of its secondary keys"))
    if bool(entry.delay_until_recursion) != read["delay_until_recursion"]:
        drops.append(("delay_until_recursion", "Marinara's entry is not held back until recursion"))
    if recursive and entry.exclude_recursion != read["exclude_recursion"]:
        drops.append(("exclude_recursion", "Marinara's entry may be activated by other entries"))
    if recursive and entry.prevent_recursion != read["prevent_recursion"]:  # a missing preventRecursion is true
        drops.append(("prevent_recursion", "Marinara's entry activates no other entry"))
    # the matching sources are what its keys are matched against: nothing to a constant entry
    drops += [
        (field, why)
        for field, why in _NEVER_READ
        if _set(getattr(entry, field)) and not (entry.constant and field.startswith("match_"))
    ]
    return drops


def _set(value: Any) -> bool:
    """Whether a setting does anything: a character filter only when it names someone."""
    if hasattr(value, "names"):
        return bool(value.names or value.tags)
    return bool(value)


def _effect(logic: str, count: int) -> str:
    """What a logic asks of `count` secondary keys: with one key, all is any, and not all is none."""
    if count == 1:
        return {"and_all": "and_any", "not_all": "not_any"}.get(logic, logic)
    return logic


def _flags_differ(flags: str, case_sensitive: bool) -> bool:
    """Whether Marinara's flags (`gi`, or `g` for a case-sensitive entry) run a key otherwise than its own."""
    return ("i" in flags) == case_sensitive or bool(set(flags) - set("gi"))


def _first(row: dict, *keys: str) -> Any:
    """JavaScript's `row.a ?? row.b`: the first that is neither missing nor null."""
    for key in keys:
        if row.get(key) is not None:
            return row[key]
    return None


def _truthy(value: Any) -> bool:
    """JavaScript's truthiness of a JSON value (a list or an object is true, "" and 0 are not)."""
    return value is not None and (isinstance(value, (list, dict)) or bool(value))


def _number(value: Any) -> float | None:
    """asNullableNumber: a number, or a numeric string; else null."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str) and value.strip():
        try:
            number = float(value)
        except ValueError:
            return None
        return number if math.isfinite(number) else None  # Number.isFinite
    return None


def _probability(row: dict) -> float | None:
    """resolveProbability: no roll when use_probability is false, else the probability within 0 to 100."""
    if _first(row, "useProbability", "use_probability") is False:
        return None
    value = _number(row.get("probability"))
    return None if value is None else min(max(value, 0), 100)


def _logic(value: Any) -> str:
    if isinstance(value, str):
        return LOGIC_IN.get(value, "and_any")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _LOGIC_NUMBERS.get(value, "and_any")
    return "and_any"
