"""RisuAI's native loreBook entries <-> canonical lorebook entries.

A Risu entry: `{key: "a, b", secondkey, insertorder, comment, content, mode, alwaysActive,
selective, extentions (sic) {risu_case_sensitive}, activationPercent, useRegex, loreCache,
bookVersion, id, folder}`. Keys are one comma-joined string (a key holding a comma becomes
two keys); with `useRegex` every key is `/pattern/flags` (the canonical text is the pattern as
JavaScript reads it, `\\/` as `/`; written with its slashes escaped, see card_book).
Decorators (`@@depth 2` ...) stay in `content` as written. Every native key the canonical
entry does not name (`mode`, `folder`, `loreCache`, `bookVersion`, `id`, unknown keys)
travels in the entry's `extensions.risuai`, so it survives crossings that keep entry
extensions, and writing starts from the escrowed entry so a same-format round trip is JSON-equal.
"""

from __future__ import annotations

import re
from typing import Any

from bunzai.adapters.common.card_book import escape_slashes, unescape_slashes
from bunzai.adapters.common.drift import MISSING, as_bool, as_int, as_object, as_str
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss
from bunzai.jsondoc.values import copied

EXT_KEY = "risuai"
_MAPPED = (
    "key",
    "secondkey",
    "insertorder",
    "comment",
    "content",
    "alwaysActive",
    "selective",
    "activationPercent",
    "useRegex",
)
_REGEX_KEY = re.compile(r"^/(.*)/([a-z]*)$", re.S)
_JS_FLAGS = set("dgimsuvy")
_CASE = "risu_case_sensitive"
# Canonical entry fields a Risu entry has no place for (decorators could say some; bunzai does not rewrite text).
_NOT_CARRIED = (
    "enabled",
    "vectorized",
    "priority",
    "position",
    "depth",
    "role",
    "outlet",
    "group",
    "sticky",
    "cooldown",
    "delay",
    "exclude_recursion",
    "prevent_recursion",
    "delay_until_recursion",
    "scan_depth",
    "match_whole_words",
    "triggers",
    "ignore_budget",
    "match_persona_description",
    "match_character_description",
    "match_character_personality",
    "match_character_depth_prompt",
    "match_scenario",
    "match_creator_notes",
    "automation_id",
    "character_filter",
    "display_index",
    "selective_logic",
)


def split_keys(raw: Any, regex: bool) -> list[dict]:
    keys = []
    for part in as_str(raw).split(","):
        text = part.strip()
        if not text:
            continue
        found = _REGEX_KEY.match(text) if regex else None
        if found:
            flags = "".join(dict.fromkeys(flag for flag in found.group(2) if flag in _JS_FLAGS))
            keys.append({"text": unescape_slashes(found.group(1)), "regex": True, "flags": flags})
        else:
            keys.append({"text": text, "regex": regex, "flags": ""})
    return keys


def join_keys(keys: list[dict]) -> str:
    return ", ".join(f"/{escape_slashes(key['text'])}/{key['flags']}" if key["regex"] else key["text"] for key in keys)


def _percent(raw: Any) -> int | None:
    number = as_int(raw, None)
    return None if number is None else min(100, max(0, number))


def read_entry(native: Any, index: int) -> dict:
    """One native entry -> a canonical LoreEntry (JSON form); uid is the entry's index."""
    entry = as_object(native)
    regex = as_bool(entry.get("useRegex"), False)
    extras = {key: copied(value) for key, value in entry.items() if key not in _MAPPED}
    ext_native = as_object(extras.get("extentions"))
    case = ext_native.get(_CASE, MISSING)
    if isinstance(extras.get("extentions"), dict):
        rest = {key: value for key, value in ext_native.items() if key != _CASE}
        extras["extentions"] = rest
    percent = _percent(entry.get("activationPercent"))
    return {
        "uid": index,
        "title": as_str(entry.get("comment")),
        "content": as_str(entry.get("content")),
        "keys": split_keys(entry.get("key"), regex),
        "secondary_keys": split_keys(entry.get("secondkey"), regex),
        "selective": as_bool(entry.get("selective"), False),
        "constant": as_bool(entry.get("alwaysActive"), False),
        "order": as_int(entry.get("insertorder"), 100),
        "probability": 100 if percent is None else percent,
        "use_probability": percent is not None,
        "case_sensitive": as_bool(case, None),
        "extensions": {EXT_KEY: extras} if extras else {},
    }


def write_entry(base: Any, canonical: dict, index: int) -> dict:
    """A native entry for `canonical`, over `base` (an escrowed entry) when there is one."""
    entry = (
        copied(base)
        if isinstance(base, dict)
        else {
            "key": "",
            "secondkey": "",
            "insertorder": 100,
            "comment": "",
            "content": "",
            "mode": "normal",
            "alwaysActive": False,
            "selective": False,
        }
    )
    extras = as_object(canonical["extensions"].get(EXT_KEY))
    for key in [key for key in entry if key not in _MAPPED and key not in extras]:
        del entry[key]
    for key, value in extras.items():
        if key not in _MAPPED:
            if key == "extentions" and isinstance(entry.get(key), dict) and _CASE in entry[key]:
                entry[key] = copied(value) | {_CASE: entry[key][_CASE]}
            elif entry.get(key, MISSING) != value:
                entry[key] = copied(value)
    regex = any(key["regex"] for key in canonical["keys"] + canonical["secondary_keys"])
    current = read_entry(entry, index)
    if (
        current["keys"] != canonical["keys"]
        or current["secondary_keys"] != canonical["secondary_keys"]
        or as_bool(entry.get("useRegex"), False) != regex
    ):
        if regex or "useRegex" in entry:
            entry["useRegex"] = regex
        entry["key"] = join_keys(canonical["keys"])
        entry["secondkey"] = join_keys(canonical["secondary_keys"])
    simple = {
        "title": ("comment", canonical["title"]),
        "content": ("content", canonical["content"]),
        "selective": ("selective", canonical["selective"]),
        "constant": ("alwaysActive", canonical["constant"]),
        "order": ("insertorder", canonical["order"]),
    }
    for field, (key, value) in simple.items():
        if current[field] != value:
            entry[key] = value
    percent = canonical["probability"] if canonical["use_probability"] else None
    if (current["probability"] if current["use_probability"] else None) != percent:
        if percent is None:
            entry.pop("activationPercent", None)
        else:
            entry["activationPercent"] = percent
    if current["case_sensitive"] != canonical["case_sensitive"]:
        ext = entry["extentions"] if isinstance(entry.get("extentions"), dict) else {}
        if canonical["case_sensitive"] is None:
            ext.pop(_CASE, None)
        else:
            ext[_CASE] = canonical["case_sensitive"]
        entry["extentions"] = ext
    return entry


# What entry_losses names, at a lorebook body's entries (/body/entries/<n>/...).
_ENTRY = r"/body/entries/\d+"
ENTRY_NOT_CARRIED = LossRule(
    _ENTRY + "/(?:" + "|".join(_NOT_CARRIED) + ")",
    "dropped",
    "risu.entry.not_carried",
    "a RisuAI lore entry has no such field (RisuAI says such "
    "things with decorators in the content, which bunzai does not write)",
)
KEY_COMMA_SPLIT = LossRule(
    _ENTRY + "/(?:keys|secondary_keys)",
    "translated",
    "risu.key.comma_split",
    "RisuAI keeps keys as one comma-joined string, so a key holding a comma becomes two keys",
)
KEY_REGEX_MIXED = LossRule(
    _ENTRY + "/(?:keys|secondary_keys)",
    "flattened",
    "risu.key.regex_mixed",
    "RisuAI makes every key of an entry a regex or none (useRegex)",
)
ENTRY_UID_IS_INDEX = LossRule(
    _ENTRY + "/uid",
    "translated",
    "risu.entry.uid_is_index",
    "RisuAI entries have no uid: an entry's uid is its place in the list",
)
ENTRY_EXTENSIONS = LossRule(
    _ENTRY + "/extensions",
    "dropped",
    "risu.entry.extensions",
    "a RisuAI lore entry keeps only its own keys (extensions.risuai); other app data has no place",
)


def entry_losses(canonical: dict, index: int, prefix: str, default: dict) -> list[Loss]:
    """What a Risu entry cannot carry of `canonical` (pointer prefix e.g. /body/entries)."""
    losses = []
    at = f"{prefix}/{index}"
    for field in _NOT_CARRIED:
        if canonical[field] != default[field]:
            why = (
                f"a RisuAI lore entry has no {field} (RisuAI says such "
                "things with decorators in the content, which bunzai does not write)"
            )
            losses.append(ENTRY_NOT_CARRIED.at(f"{at}/{field}", why))
    for name in ("keys", "secondary_keys"):
        keys = canonical[name]
        if any("," in key["text"] for key in keys):
            losses.append(KEY_COMMA_SPLIT.at(f"{at}/{name}"))
        elif (
            any(key["regex"] for key in keys)
            and not all(key["regex"] for key in keys)
            or any(not key["regex"] and key["text"] != key["text"].strip() for key in keys)
            or any(not key["regex"] and key["flags"] for key in keys)
        ):
            why = "RisuAI makes every key of an entry a regex or none (useRegex), and trims literal keys"
            losses.append(KEY_REGEX_MIXED.at(f"{at}/{name}", why))
    mixed = [key["regex"] for key in canonical["keys"] + canonical["secondary_keys"]]
    if mixed and any(mixed) and not all(mixed) and not any(loss.code == "risu.key.regex_mixed" for loss in losses):
        losses.append(KEY_REGEX_MIXED.at(f"{at}/secondary_keys"))
    if isinstance(canonical["uid"], str) or canonical["uid"] != index:
        losses.append(ENTRY_UID_IS_INDEX.at(f"{at}/uid"))
    other = {key: value for key, value in canonical["extensions"].items() if key != EXT_KEY}
    if other:
        losses.append(ENTRY_EXTENSIONS.at(f"{at}/extensions"))
    return losses
