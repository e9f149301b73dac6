"""A promptbook's dice rolled for a rehearsal forecast: NdS terms plus or minus dice or numbers.

The notation is checked by the model (bunzai.model.promptbook_library.DICE_NOTATION); this
reads it. A roll is a forecast drawn from a seeded generator, so the same seed always shows
the same numbers; a real run rolls again. The model cannot hold the size bounds (it imports
nothing of bunzai, limits included), so they are checked here: a notation past them is an
`error` in the forecast, {"code": "too_large", "message"}, and the rest of the rehearsal stands.
"""

from __future__ import annotations

import random
import re

from bunzai import limits

_TERM = re.compile(r"([+-]?)\s*(?:(\d*)[dD](\d+)|(\d+))")
# Characters of the notation quoted in an error: a term of thousands of digits is cut.
_QUOTED_CHARS = 40


def roll(notation: str, rng: random.Random) -> dict:
    """{"total", "rolls": [[die results] per dice term]}, or {"error": {"code", "message"}} past
    limits.RENDER_DICE_MAX dice or a term past limits.RENDER_DICE_MAX_SIDES (too_large)."""
    terms = [
        (sign, _whole(count or "1") if sides else None, _whole(sides) if sides else None, _whole(number or "0"))
        for sign, count, sides, number in _TERM.findall(notation.replace(" ", ""))
    ]
    problem = _unrollable(terms)
    if problem:
        code, why = problem
        quoted = notation if len(notation) <= _QUOTED_CHARS else notation[: _QUOTED_CHARS - 1] + "…"
        return {"error": {"code": code, "message": f"{quoted} {why}"}}
    total, rolls = 0, []
    for sign, count, sides, number in terms:
        if sides is None:
            value = number
        else:
            faces = [rng.randint(1, sides) for _ in range(count)]
            rolls.append(faces)
            value = sum(faces)
        total += -value if sign == "-" else value
    return {"total": total, "rolls": rolls}


def _whole(digits: str) -> int:
    """The number `digits` spell, or one past RENDER_DICE_MAX_SIDES when longer than it: a
    term of thousands of digits is never converted (Python refuses past 4,300 digits)."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(limits.RENDER_DICE_MAX_SIDES)):
        return limits.RENDER_DICE_MAX_SIDES + 1
    return int(digits)


def _unrollable(terms: list[tuple]) -> tuple[str, str] | None:
    """(error code, why) when the terms cannot be rolled in a rehearsal, else None."""
    most = limits.RENDER_DICE_MAX_SIDES
    if any(sides == 0 for _, _, sides, _ in terms):  # the model refuses it; a caller of roll() may not
        return "invalid_input", "has a die of 0 sides; a die has 1 or more"
    if any(value > most for _, _, sides, number in terms for value in (sides or 0, number)):
        return "too_large", f"has a die or a number over {most:,}; a rehearsal rolls dice of at most {most:,} sides"
    if sum(count for _, count, _, _ in terms if count) > limits.RENDER_DICE_MAX:
        return "too_large", f"throws more than {limits.RENDER_DICE_MAX:,} dice; a rehearsal rolls at most that many"
    return None
