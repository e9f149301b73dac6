"""Name a write's losses from what the written file reads back as (any spoke may use it).

A writer reads its own output back and compares the canonical piece before and after;
each difference is named by the first rule whose pattern (a regular expression over RFC
6901 pointers, matched from the start up to a segment boundary) matches its pointer. So
the declared losses are exactly what the file does not carry, each with a stable code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bunzai.adapters.contract import Loss, LossAction
from bunzai.jsondoc import differences, equal

COMPARED = ("name", "body", "assets", "profiles")
same = equal  # the one JSON equality (bunzai.jsondoc); spokes import it by this name


@dataclass(frozen=True)
class LossRule:
    pattern: str
    action: LossAction
    code: str
    why: str


def readback_losses(
    before: dict, after: dict, rules: Sequence[LossRule], fallback: LossRule, declared: Sequence[Loss] = ()
) -> list[Loss]:
    """Losses covering every difference between two dumped pieces not covered by `declared`."""
    losses: dict[tuple[str, str], Loss] = {}
    for part in COMPARED:
        for pointer in differences(before.get(part), after.get(part), f"/{part}"):
            if any(pointer == d.pointer or pointer.startswith(d.pointer.rstrip("/") + "/") for d in declared):
                continue
            rule, where = _match(pointer, rules, fallback)
            losses.setdefault((where, rule.code), Loss(where, rule.action, rule.why, rule.code))
    return list(losses.values())


def _match(pointer: str, rules: Sequence[LossRule], fallback: LossRule) -> tuple[LossRule, str]:
    for rule in rules:
        found = re.match(rule.pattern + r"(?=/|$)", pointer)
        if found:
            return rule, found.group(0)
    return fallback, pointer
