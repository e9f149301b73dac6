"""A wheel built from this checkout, installed (not editable) in a fresh virtual environment,
answers `bunzai docs search` and `bunzai docs read` from the pages it ships.

The wheel is built from a copy of the sources, so the checkout gets no build/ folder. The
fresh environment borrows the dependencies (typer, pydantic ...) of the running one through
a .pth line, so nothing is downloaded; bunzai itself comes only from the wheel. Where the
wheel cannot be built here (no build backend to be had offline), the test is skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bunzai", "docs", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
UNAVAILABLE = (
    "No matching distribution",
    "Could not find a version",
    "Failed to establish a new connection",
    "No module named pip",
)


@pytest.fixture(scope="module")
def wheel_bunzai(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "src"
    source.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "shipped", "*.egg-info"))
        else:
            shutil.copy2(path, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-w", str(tmp / "dist"), "-q"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if built.returncode != 0:
        if any(sign in built.stdout + built.stderr for sign in UNAVAILABLE):
            pytest.skip(f"a wheel cannot be built here: {built.stderr.strip().splitlines()[-1:]}")
        raise AssertionError(f"building the wheel failed:\n{built.stdout}\n{built.stderr}")
    wheel = next((tmp / "dist").glob("bunzai-*.whl"))
    fresh = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(fresh)
    python = fresh / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stderr
    (site / "zz_borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return fresh / "bin" / "bunzai"


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
