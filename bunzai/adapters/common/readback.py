"""Name a write's losses from what the written file reads back as (any spoke may use it).

A writer reads its own output back and compares the canonical piece before and after;
each difference is named by the first rule whose pattern (a regular expression over RFC
6901 pointers, matched from the start up to a segment boundary) matches its pointer. So
the declared losses are exactly what the file does not carry, each with a stable code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bunzai.adapters.contract import Loss, LossAction

COMPARED = ("name", "body", "assets", "profiles")


@dataclass(frozen=True)
class LossRule:
    pattern: str
    action: LossAction
    code: str
    why: str


def same(a: Any, b: Any) -> bool:
    """JSON equality that tells true from 1 (and treats 1 and 1.0 as the same number)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def readback_losses(before: dict, after: dict, rules: Sequence[LossRule], fallback: LossRule,
                    declared: Sequence[Loss] = ()) -> list[Loss]:
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


def differences(before: Any, after: Any, pointer: str) -> Iterator[str]:
    """Pointers where two JSON values differ; a list that changes length differs as a whole."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(before.keys() | after.keys()):
            if key not in before or key not in after:
                yield f"{pointer}/{_escape(key)}"
            else:
                yield from differences(before[key], after[key], f"{pointer}/{_escape(key)}")
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (old, new) in enumerate(zip(before, after)):
            yield from differences(old, new, f"{pointer}/{index}")
    elif not same(before, after):
        yield pointer


def _escape(key: str) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")
