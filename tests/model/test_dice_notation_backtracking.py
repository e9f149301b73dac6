"""A promptbook's dice notation is checked without runaway backtracking.

The old pattern let the spaces around an operator go to either of two ` *` runs, so a
notation of many spaced terms that fails at its end (a typo, or a hostile promptbook file)
made every read of the promptbook hang. The language the pattern accepts is unchanged.
"""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from bunzai.model.promptbook_library import DICE_NOTATION

# The pattern before the fix: same language, exponential on a failing spaced notation.
_SPACED_BOTH_SIDES = r"^ *([1-9][0-9]*)?[dD][1-9][0-9]* *( *[+-] *(([1-9][0-9]*)?[dD][1-9][0-9]*|[0-9]+) *)*$"


@given(st.text(alphabet="d1 0+-x6D", max_size=12))
def test_the_pattern_accepts_what_it_accepted_before(text: str) -> None:
    assert bool(re.fullmatch(DICE_NOTATION, text)) == bool(re.fullmatch(_SPACED_BOTH_SIDES, text))


def test_a_long_spaced_notation_that_fails_at_its_end_is_refused_promptly() -> None:
    # Run in a child so the unfixed pattern (which would run for ages) is killed, not waited on;
    # the bound is a hang guard: the fixed pattern answers in well under a millisecond.
    script = (
        "import pydantic\n"
        "from bunzai.model.promptbook_library import Dice\n"
        "try:\n"
        "    Dice(id='x', notation='d6' + ' +1     ' * 40 + 'x')\n"
        "except pydantic.ValidationError as error:\n"
        "    print('not dice notation' in str(error))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "True", done.stderr
