"""bench/translate.py: each target's translation time beside the floor's, and their ratio."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "translate.py"
sys.path.insert(0, str(SCRIPT.parent))

import translate as bench  # noqa: E402 - the bench script, from its folder


def test_each_target_is_timed_beside_the_floor():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--kb", "2", "--rounds", "1"], capture_output=True, text=True, check=True
    )
    loaded, *rows = done.stdout.strip().splitlines()
    assert loaded.startswith("catalogs loaded in ")
    assert len(rows) >= 5  # every engine but the source
    for row in rows:
        assert re.fullmatch(
            r"2 KB sillytavern -> \S+ +\d+\.\d{4} s, floor \d+\.\d{4} s: \d+\.\dx the floor \(\d+ verdicts\)", row
        ), row


def test_the_floor_replaces_every_macro_of_the_text():
    # it does the least a translation does: each token found and looked up, none left as it was
    done = bench.floor(bench.PROMPT)
    assert done != bench.PROMPT
    assert all(token.upper() in done for token in bench._TOKEN.findall(bench.PROMPT))
