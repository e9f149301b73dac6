"""Run a checked-in table of cases through a node script that does what a platform's own code
does, so a test can hold the table to it (the table's values are used alone where node is not)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest


def node_results(script: Path, cases: list[dict]) -> list[dict]:
    """What `script` prints for `cases` (given on its stdin as JSON); skips without node."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH: the table's checked-in values are used alone")
    proc = subprocess.run(
        [node, str(script)], input=json.dumps(cases), capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(proc.stdout)
