"""Lorebook entries given to a create capability: uids filled in, regex keys checked as data."""

from __future__ import annotations

from bunzai.capabilities.common.regex_checks import check_flags, pattern_warnings


def fill_uids(entries: list[dict]) -> None:
    """Give entries without a uid the lowest free integer uids, in order."""
    taken = {str(entry["uid"]) for entry in entries if "uid" in entry}
    next_uid = 0
    for entry in entries:
        if "uid" in entry:
            continue
        while str(next_uid) in taken:
            next_uid += 1
        entry["uid"] = next_uid
        taken.add(str(next_uid))


def entry_warnings(entries: list[dict]) -> list[str]:
    """Refuse bad regex-key flags; warn about regex-key patterns and entries that never activate."""
    warnings = []
    for entry in entries:
        what = f"entry {entry.get('uid')!r} ({entry.get('title') or 'untitled'})"
        for field in ("keys", "secondary_keys"):
            for key in entry.get(field, []):
                key = {"text": key} if isinstance(key, str) else key
                if key.get("regex"):
                    check_flags(key.get("flags", ""), f"{what} key {key.get('text', '')!r}")
                    warnings += pattern_warnings(key.get("text", ""), f"{what} key")
        if not entry.get("keys") and not entry.get("constant") and not entry.get("vectorized"):
            warnings.append(f"{what} has no keys and is not constant, so it never activates")
    return warnings
