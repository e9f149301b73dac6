"""bench/ab.py imports each tree from its own folder, and refuses a run that imported another."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))
import ab  # noqa: E402 - the bench script, beside the tests' tree

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None
    or subprocess.run(["git", "-C", str(ab.ROOT), "rev-parse", "HEAD"], capture_output=True).returncode,
    reason="bench/ab.py unpacks a revision with git; this tree is not a git checkout",
)


@pytest.fixture(scope="module")
def old_tree(tmp_path_factory) -> Path:
    return ab.unpack("HEAD", tmp_path_factory.mktemp("ab"))


def test_each_tree_is_read_from_its_own_folder(old_tree, tmp_path):
    card = tmp_path / "small.png"
    card.write_bytes(ab.compare.small_card())
    for tree in (old_tree, ab.ROOT):
        assert ab.timed(tree, card, 20, tmp_path) > 0  # refused (SystemExit) had it imported another tree


def test_a_run_in_the_checkout_imports_the_checkout_and_is_refused(old_tree, tmp_path):
    # `python -c` puts its working directory first on sys.path, before PYTHONPATH: the pitfall.
    card = tmp_path / "small.png"
    card.write_bytes(ab.compare.small_card())
    command = [sys.executable, "-c", ab.DRIVER, "bunzai", str(card), "2", str(ab.BLOCKS)]
    done = ab._run(command, old_tree, ab.ROOT)
    with pytest.raises(SystemExit, match="imported .*, not the tree under"):
        ab._checked(done, old_tree)


def test_an_unknown_revision_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="git archive"):
        ab.unpack("no-such-revision-here", tmp_path)
