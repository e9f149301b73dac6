"""The one loss path: a loss is named by a rule read against what the written file reads back as.

A writer reads its own output back and compares the canonical piece before and after;
each difference is named by the first rule whose pattern (a regular expression over RFC
6901 pointers, matched from the start up to a segment boundary) matches its pointer. So
the declared losses are exactly what the file does not carry, each with a stable code.

`convert` runs the same read-back once more over every crossing, as the safety net: what
a spoke did not declare is named here by the `NOT_CARRIED` rule (and a file that does not
read back at all by `UNREADABLE`), so no field leaves silently. `covered` is the one test
of "a declared loss already names this pointer" both use.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bunzai.adapters.contract import Loss, LossAction
from bunzai.jsondoc.values import differences, equal

COMPARED = ("name", "body", "assets", "profiles")
same = equal  # the one JSON equality (bunzai.jsondoc.values); spokes import it by this name


@dataclass(frozen=True)
class LossRule:
    pattern: str
    action: LossAction
    code: str
    why: str

    def at(self, pointer: str, why: str | None = None) -> Loss:
        """This rule's loss at `pointer` (with a sentence naming the case, when given)."""
        return Loss(pointer, self.action, self.why if why is None else why, self.code)


# The safety net's rules (their sentences name the format, so each loss gives its own).
NOT_CARRIED = LossRule("", "dropped", "crossing.not_carried", "the format does not carry this value as it is")
UNREADABLE = LossRule("", "dropped", "crossing.unreadable", "the written file does not read back")
# The crossing's own rules: macros the target engine cannot run, and the escrow of another format.
MACRO_ABSENT = LossRule("", "dropped", "macro.absent", "the target engine has no such macro; removed")
MACRO_COLLISION = LossRule(
    "", "dropped", "macro.collision", "the target engine reads this macro, left as written, as another; it will not run"
)
MACRO_FLATTENED = LossRule(
    "", "flattened", "macro.flatten", "the target engine cannot express this block; its first branch was kept"
)
MACRO_IN_KEY = LossRule(
    "",
    "dropped",
    "macro.in_key",
    "one engine expands the macros in lorebook keys and the other matches keys as written; the key was left as written",
)
# A regex rule's replacement read by another platform's rules (bunzai.regexlab.replacement).
REPLACEMENT_TRANSLATED = LossRule(
    "",
    "translated",
    "regex.replacement.translated",
    "the replacement was respelled for the target platform's reading of $ references and {{match}}",
)
REPLACEMENT_LOST = LossRule(
    "", "dropped", "regex.replacement.lost", "the target platform cannot express this part of the replacement"
)
# Where an ESCROW_OTHER_FORMAT loss says the rest of the original stays: a crossing of a stored
# piece (transfer, export) keeps it in the studio; a one-off convert has no studio (no_studio).
IN_STUDIO_ESCROW = "stays in the studio's escrow"
ESCROW_OTHER_FORMAT = LossRule(
    "/original",
    "kept_in_escrow",
    "escrow.other_format",
    f"what another format's file held beyond the canonical fields {IN_STUDIO_ESCROW} and is not written",
)


def escrow_why(source_format: str, target: str, held: str = "") -> str:
    """The sentence of an ESCROW_OTHER_FORMAT loss: what the `source_format` file held (`held`
    says more of it) is not written to `target`, and stays in the studio's escrow."""
    return (
        f"what the {source_format} file held beyond the canonical fields{held} {IN_STUDIO_ESCROW} "
        f"and is not written to {target}"
    )


def no_studio(loss: Loss) -> Loss:
    """`loss` as a crossing with no studio (a one-off convert) has it: an escrow loss is then a
    drop, nothing keeping the rest of the original but the file converted; other losses as they are."""
    if loss.code != ESCROW_OTHER_FORMAT.code or IN_STUDIO_ESCROW not in loss.why:
        return loss
    why = loss.why.replace(f" {IN_STUDIO_ESCROW} and", "", 1)
    return Loss(loss.pointer, "dropped", f"{why}: with no studio, only the file converted keeps it", loss.code)


def covered(pointer: str, losses: Sequence[Loss]) -> bool:
    """A loss at /a/b covers /a/b and everything under it (a loss at "" covers the piece)."""
    return Cover(losses)(pointer)


class Cover:
    """Which pointers a set of losses covers (the rule of `covered`), asked of many pointers:
    a dict lookup per "/" of the pointer, not a pass over every loss. A 4,000-entry lorebook
    crossing to a format that drops four fields an entry checks 16,000 pointers against
    16,000 losses; a pass made that 256 million comparisons."""

    def __init__(self, losses: Sequence[Loss] = ()) -> None:
        # pointer -> the place of the first loss there, and the same by stem (a loss's pointer
        # without trailing "/": it covers stem + "/...")
        self._exact: dict[str, int] = {}
        self._stems: dict[str, int] = {}
        self._added = 0
        self._losses = list(losses)
        for loss in self._losses:
            self.add(loss.pointer)

    def add(self, pointer: str) -> None:
        self._exact.setdefault(pointer, self._added)
        self._stems.setdefault(pointer.rstrip("/"), self._added)
        self._added += 1

    def __call__(self, pointer: str) -> bool:
        if "" in self._exact or pointer in self._exact:
            return True
        cut = pointer.find("/")
        while cut != -1:
            if pointer[:cut] in self._stems:
                return True
            cut = pointer.find("/", cut + 1)
        return False

    def first(self, pointer: str) -> Loss | None:
        """The first of the losses given (in their order) that covers `pointer`, or None:
        what `next(loss for loss in losses if covered(pointer, [loss]))` finds, by lookups."""
        places = [self._exact.get(""), self._exact.get(pointer)]
        cut = pointer.find("/")
        while cut != -1:
            places.append(self._stems.get(pointer[:cut]))
            cut = pointer.find("/", cut + 1)
        found = [place for place in places if place is not None and place < len(self._losses)]
        return self._losses[min(found)] if found else None


def superseded(losses: Sequence[Loss], by: Sequence[Loss]) -> list[Loss]:
    """`losses` less those `by` reports again (the same code at the same pointer): where two
    layers of a writer name one loss, the report keeps the one that says more."""
    again = {(loss.pointer, loss.code) for loss in by}
    return [loss for loss in losses if (loss.pointer, loss.code) not in again]


def not_carried(pointers: Sequence[str], label: str, declared: Sequence[Loss] = ()) -> list[Loss]:
    """The safety net's losses: one per lost pointer no declared loss (nor an earlier one here) covers."""
    found: list[Loss] = []
    cover = Cover(declared)
    for pointer in pointers:
        if not cover(pointer):
            found.append(NOT_CARRIED.at(pointer, f"{label} does not carry this value as it is"))
            cover.add(pointer)
    return found


def readback_losses(
    before: dict, after: dict, rules: Sequence[LossRule], fallback: LossRule, declared: Sequence[Loss] = ()
) -> list[Loss]:
    """Losses covering every difference between two dumped pieces not covered by `declared`."""
    losses: dict[tuple[str, str], Loss] = {}
    cover = Cover(declared)
    for part in COMPARED:
        for pointer in differences(before.get(part), after.get(part), f"/{part}"):
            if cover(pointer):
                continue
            rule, where = _match(pointer, rules, fallback)
            losses.setdefault((where, rule.code), rule.at(where))
    return list(losses.values())


def _match(pointer: str, rules: Sequence[LossRule], fallback: LossRule) -> tuple[LossRule, str]:
    for rule in rules:
        found = re.match(rule.pattern + r"(?=/|$)", pointer)
        if found:
            return rule, found.group(0)
    return fallback, pointer
