"""Addressing and checking the rules of a regex set.

Stored data; patterns are only probed, bounded, in the regex engine.
"""

from __future__ import annotations

from bunzai.capabilities.common.patching import refuse
from bunzai.capabilities.common.regex_checks import check_flags, pattern_warnings
from bunzai.regexlab.probe import pattern_probe_warnings

RULE_REF_DESCRIPTION = "The rule: its id, its name (when no id matches and the name is unique), or its 0-based index."


def rule_index(rules: list[dict], ref: str | int) -> int:
    """The index of the rule `ref` names; invalid_input listing the rules otherwise."""
    if isinstance(ref, int):
        if 0 <= ref < len(rules):
            return ref
        raise refuse(
            f"no rule at index {ref}; the set has {len(rules)} rule{'' if len(rules) == 1 else 's'}",
            "indexes count from 0; list the rules with: bunzai read REF --pointer /body/rules --outline",
        )
    by_id = [index for index, rule in enumerate(rules) if rule["id"] and rule["id"] == ref]
    if by_id:
        return by_id[0]
    by_name = [index for index, rule in enumerate(rules) if rule["name"] == ref]
    if len(by_name) == 1:
        return by_name[0]
    known = ", ".join(repr(rule["id"] or rule["name"]) for rule in rules) or "(none)"
    if by_name:
        raise refuse(f"{len(by_name)} rules are named {ref!r}", "name the rule by its id or index instead")
    raise refuse(f"no rule {ref!r}", f"rules: {known}")


def mints_rule_ids(doc: dict) -> bool:
    """Whether a new rule with no id gets one made from its name: not in a set read from RisuAI,
    whose scripts have no id, so a made one would be dropped, and reported lost, at every export."""
    original = doc.get("original") or {}
    return not str(original.get("format") or "").startswith("risu")


def rule_warnings(rule: dict) -> list[str]:
    """Refuse bad flags; warn about the pattern (its text, and a bounded probe in the regex
    engine: does it compile, does it run out of time), placements and depths."""
    what = f"rule {rule['name'] or rule['id'] or '(unnamed)'!r}"
    check_flags(rule["flags"], what)
    warnings = pattern_warnings(rule["pattern"], what)
    warnings += pattern_probe_warnings(rule["pattern"], rule["flags"], what, rule["substitute_macros"])
    if not rule["placements"] and not rule["disabled"]:
        warnings.append(f"{what} has no placement, so it runs on nothing")
    if len(set(rule["placements"])) != len(rule["placements"]):
        raise refuse(f"{what} lists a placement twice", "list each placement once")
    low, high = rule["min_depth"], rule["max_depth"]
    if low is not None and high is not None and low > high:
        warnings.append(f"{what}: min_depth {low} is above max_depth {high}, so it never runs")
    if rule["markdown_only"] and rule["prompt_only"]:
        warnings.append(f"{what} is both markdown_only and prompt_only; platforms treat that differently")
    return warnings
