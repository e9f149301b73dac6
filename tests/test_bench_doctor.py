"""bench/doctor.py: a small studio built through the pipe, doctor with and without
--verify-assets timed beside the floor, and the ratios printed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "doctor.py"


def test_it_builds_the_studio_and_prints_the_ratios():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--side", "32", "4"], capture_output=True, text=True, check=True
    )
    row, summary = done.stdout.strip().splitlines()
    figures = json.loads(row)
    assert figures["cards"] == 4 and figures["side"] == 32
    assert all(figures[f"{name}_cpu_s"] > 0 for name in ("start", "floor", "doctor", "verify"))
    assert re.fullmatch(
        r"doctor: --verify-assets's extra over plain doctor -?\d+\.\d\dx the floor .* \(4 cards, [\d.]+ MB of assets\)",
        summary,
    )
