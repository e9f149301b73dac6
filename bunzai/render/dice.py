"""A promptbook's dice rolled for a rehearsal forecast: NdS terms plus or minus dice or numbers.

The notation is checked by the model (bunzai.model.promptbook_library.DICE_NOTATION); this
reads it. A roll is a forecast drawn from a seeded generator, so the same seed always shows
the same numbers; a real run rolls again.
"""

from __future__ import annotations

import random
import re

from bunzai import limits

_TERM = re.compile(r"([+-]?)\s*(?:(\d*)[dD](\d+)|(\d+))")


def roll(notation: str, rng: random.Random) -> dict:
    """{"total", "rolls": [[die results] per dice term]}, or {"error"} past limits.RENDER_DICE_MAX dice."""
    terms = [
        (sign, int(count or 1) if sides else None, int(sides) if sides else None, int(number or 0))
        for sign, count, sides, number in _TERM.findall(notation.replace(" ", ""))
    ]
    thrown = sum(count for _, count, _, _ in terms if count)
    if thrown > limits.RENDER_DICE_MAX:
        return {"error": f"{notation} throws {thrown} dice; a rehearsal rolls at most {limits.RENDER_DICE_MAX}"}
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
