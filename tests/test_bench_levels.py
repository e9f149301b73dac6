"""bench/levels.py: each process prints its blocks and the ratio of its fastest one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "levels.py"


def test_each_process_prints_its_blocks_and_its_fastest_ratio():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--processes", "2", "--blocks", "3", "--reads", "2"],
        capture_output=True,
        text=True,
        check=True,
    )
    header, *rows = done.stdout.strip().splitlines()
    assert header.startswith("small: microseconds per read, bunzai/floor, 3 blocks of 2 reads")
    assert len(rows) == 2
    for row in rows:
        assert re.fullmatch(r"(\d+/\d+ ){3}\| its fastest block \d+\.\d\dx the floor's beside it", row), row
