"""A group that creates one piece twice is refused before anything is written: no change is
logged, so `changes` and `revert` have nothing to undo (a late refusal used to log a create
and its undoing delete)."""

from __future__ import annotations

import json


def test_a_group_creating_one_piece_twice_writes_and_logs_nothing(bunzai) -> None:
    draft = bunzai("create", "persona", "--input", json.dumps({"name": "Gx"}), check=True).json
    lines = [json.dumps(dict(draft, group={"id": "g1", "index": index, "size": 2})) for index in (0, 1)]
    applied = bunzai("apply", "--yes", input="\n".join(lines) + "\n")
    assert applied.code == 1
    receipts = [json.loads(line) for line in applied.stdout.splitlines()]
    assert [(r["status"], r["reason"]) for r in receipts] == [("stale", "group"), ("stale", "occupied")]
    assert not (bunzai.studio / "persona" / "gx.json").exists()
    assert bunzai("changes", check=True).json["head"] == 0  # the change log holds nothing
