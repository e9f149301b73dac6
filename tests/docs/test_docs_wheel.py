"""A wheel built from this checkout, installed (not editable) in a fresh virtual environment,
answers `bunzai docs search` and `bunzai docs read` from the pages it ships.

`bench/installed.py` builds the wheel from a copy of the sources, so the checkout gets no
build/ folder. The fresh environment borrows the dependencies (typer, pydantic ...) of the
running one through a .pth line, so nothing is downloaded; bunzai itself comes only from the
wheel. Where the wheel cannot be built here (no build backend to be had offline), the test is
skipped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from installed import WheelNotBuilt, installed_bin  # noqa: E402 - the bench's helper, beside the tests' tree

UNAVAILABLE = (
    "No matching distribution",
    "Could not find a version",
    "Failed to establish a new connection",
    "No module named pip",
)


@pytest.fixture(scope="module")
def wheel_bunzai(tmp_path_factory) -> Path:
    try:
        return installed_bin(tmp_path_factory.mktemp("wheel")) / "bunzai"
    except WheelNotBuilt as error:
        output = str(error)
        if any(sign in output for sign in UNAVAILABLE):
            pytest.skip(f"a wheel cannot be built here: {output.strip().splitlines()[-1:]}")
        raise AssertionError(f"building the wheel failed:\n{output}") from None


def run(bunzai: Path, tmp_path: Path, *args: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BUNZAI_", "PYTHON"))}
    env["HOME"] = str(tmp_path)
    proc = subprocess.run([str(bunzai), *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


def test_the_installed_package_is_the_wheel_not_the_checkout(wheel_bunzai: Path, tmp_path: Path) -> None:
    python = wheel_bunzai.with_name("python")
    where = subprocess.run(
        [str(python), "-c", "import bunzai.docs.pages as p; print(p.__file__); print(p.docs_root())"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=True,
    ).stdout.split()
    venv_root = wheel_bunzai.parents[1]
    assert all(Path(line).is_relative_to(venv_root) for line in where), where
    assert where[1].endswith("shipped")


def test_a_wheel_install_answers_docs_search_and_read(wheel_bunzai: Path, tmp_path: Path) -> None:
    hits = run(wheel_bunzai, tmp_path, "docs", "search", "export containment")["items"]
    assert hits[0]["page"] == "commands/export"
    read = run(wheel_bunzai, tmp_path, "docs", "read", "commands/export", "--limit", "12000")
    assert read["text"] == (ROOT / "docs" / "commands" / "export.md").read_text(encoding="utf-8")[: len(read["text"])]
    assert read["text"].startswith("# bunzai export")
