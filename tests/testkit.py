"""Helpers test modules import (`from testkit import corpus_path`): paths to the shared
corpus and the installed command. They live here, not in conftest.py, because several
folders have a conftest.py and `from testkit import ...` would find whichever loaded first.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"


def corpus_path(*parts: str) -> Path:
    """A path in ../shared/corpus; the test is skipped, with the reason, where it is absent."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"corpus file {path} is absent (../shared/corpus is not beside this checkout)")
    return path


def bunzai_executable() -> list[str]:
    script = Path(sys.executable).with_name("bunzai")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bunzai"]
