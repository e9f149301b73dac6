"""bench/compiled.py: its trees are copies of the working tree, read like it, and a failed compile is said."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))
import compiled  # noqa: E402 - the bench script, beside the tests' tree


def test_a_copied_tree_reads_a_card_as_the_checkout_does(tmp_path):
    tree = compiled.copy_tree(tmp_path / "plain")
    assert not list((tree / "bunzai").rglob("__pycache__"))
    card = tmp_path / "small.png"
    card.write_bytes(compiled.compare.small_card())
    copied, checkout = (compiled.reading(root, card, tmp_path) for root in (tree, compiled.ab.ROOT))
    assert copied["png"].startswith(str(tree))  # imported from the copy, not the checkout
    assert copied["pieces"][0]["name"] == "Mira Vale"
    assert {**copied, "png": ""} == {**checkout, "png": ""}


def test_every_read_path_module_exists():
    for module in compiled.READ_PATH:
        assert (compiled.compare.ROOT / "bunzai" / module).is_file(), module


@pytest.mark.skipif(importlib.util.find_spec("Cython") is not None, reason="Cython is importable here")
def test_a_compile_without_cython_is_reported_not_raised(tmp_path):
    tree = compiled.copy_tree(tmp_path / "plain")
    problem = compiled.compile_tree(tree, tmp_path / "no-cython-here")
    assert problem and "Cython" in problem
