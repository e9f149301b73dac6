"""Shared fixtures: the installed `bunzai` command run in a fresh studio with a private HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))  # so test modules can import testkit

from testkit import bunzai_executable  # noqa: E402

from bunzai.store.studio import init_studio  # noqa: E402

# No test asserts on time (the machine is shared and its load moves every timing), so no
# Hypothesis example has a deadline. Under pytest-xdist each worker keeps its own example
# database, so two workers never write the same entries at once; a run without xdist keeps
# the default folder.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER:
    from hypothesis.database import DirectoryBasedExampleDatabase

    settings.register_profile(
        "bunzai",
        deadline=None,
        database=DirectoryBasedExampleDatabase(
            str(Path(__file__).resolve().parents[1] / ".hypothesis" / f"examples-{_WORKER}")
        ),
    )
else:
    settings.register_profile("bunzai", deadline=None)
settings.load_profile("bunzai")


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str

    @property
    def json(self):
        return json.loads(self.stdout)

    @property
    def lines(self) -> list:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]


class Bunzai:
    """Runs the real command, as a person would, in its own session (no terminal)."""

    def __init__(self, home: Path, studio: Path | None = None) -> None:
        self.home = home
        self.studio = studio
        self.cwd = home

    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")}
        env["HOME"] = str(self.home)
        if self.studio is not None:
            env["BUNZAI_STUDIO"] = str(self.studio)
        return env

    def __call__(self, *args: str, input: str | bytes | None = None, check: bool = False) -> Result:
        data = input.encode("utf-8") if isinstance(input, str) else input
        proc = subprocess.run(
            bunzai_executable() + list(args),
            input=data,
            capture_output=True,
            env=self.env(),
            cwd=self.cwd,
            start_new_session=True,  # no controlling terminal: prompts must refuse, not hang
            timeout=60,
        )
        result = Result(proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8"))
        if check and result.code != 0:
            raise AssertionError(f"bunzai {' '.join(args)} exited {result.code}: {result.stdout} {result.stderr}")
        return result


@pytest.fixture
def bunzai(tmp_path: Path) -> Bunzai:
    """`bunzai` in a fresh, initialised studio (BUNZAI_STUDIO points at it)."""
    home = tmp_path / "home"
    home.mkdir()
    studio = tmp_path / "studio"
    # Made in process: `bunzai init` is what it runs, and a subprocess per test (0.26 s of CPU,
    # 339 tests) is about a fifteenth of the suite; the command itself is tested on its own.
    init_studio(studio)
    return Bunzai(home, studio)


@pytest.fixture
def bare_bunzai(tmp_path: Path) -> Bunzai:
    """`bunzai` with a private HOME and no studio chosen."""
    home = tmp_path / "home"
    home.mkdir()
    return Bunzai(home)
