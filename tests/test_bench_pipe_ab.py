"""bench/pipe_ab.py runs each tree's own bunzai through import and apply, and refuses another tree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))
import pipe_ab  # noqa: E402 - the bench script, beside the tests' tree


def test_a_pass_imports_and_applies_every_card(tmp_path):
    cards = tmp_path / "cards"
    pipe_ab.library.generate(cards, 3)
    imported, applied, drafts = pipe_ab.one_run(pipe_ab.ab.ROOT, cards, tmp_path, "new", 3)
    assert imported > 0 and applied > 0
    assert drafts.count(b'"type": "bunzai.draft"') + drafts.count(b'"type":"bunzai.draft"') == 3


def test_a_tree_that_is_not_imported_is_refused(tmp_path):
    elsewhere = tmp_path / "empty"
    elsewhere.mkdir()  # no bunzai here: the process imports the installed one
    with pytest.raises(SystemExit, match="imported"):
        pipe_ab.check_tree(elsewhere, tmp_path)


def test_a_tree_is_imported_from_its_folder(tmp_path):
    pipe_ab.check_tree(pipe_ab.ab.ROOT, tmp_path)
