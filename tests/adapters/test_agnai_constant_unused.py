"""Agnai keeps an entry's `constant` but its memory search (common/memory.ts) never reads it: a
constant entry is inserted only when a keyword matches, and never without one. A crossing into
Agnai says so; a book read from Agnai does not."""

from __future__ import annotations

import json

_CODE = "agnai.entry.constant_unused"


def test_a_constant_entry_into_agnai_is_reported_and_one_from_agnai_is_not(bunzai, tmp_path) -> None:
    world = tmp_path / "world.json"
    entries = {
        "0": {"uid": 0, "key": ["sword"], "constant": True, "content": "Always, in SillyTavern."},
        "1": {"uid": 1, "key": [], "constant": True, "content": "No keyword at all."},
        "2": {"uid": 2, "key": ["shield"], "constant": False, "content": "On its keyword."},
    }
    world.write_text(json.dumps({"entries": entries}), "utf-8")
    out = tmp_path / "book.agnai.json"
    report = bunzai("convert", str(world), "--to", "agnai.memory.json", "-o", str(out), check=True).json
    found = {loss["pointer"]: loss["why"] for loss in report["losses"] if loss["code"] == _CODE}
    assert list(found) == ["/body/entries/0/constant", "/body/entries/1/constant"]
    assert "never" in found["/body/entries/1/constant"]
    assert [entry.get("constant", False) for entry in json.loads(out.read_text("utf-8"))["entries"]] == [
        True,
        True,
        False,
    ]
    again = bunzai("convert", str(out), "--to", "agnai.memory.json", "-o", str(tmp_path / "again.json"), check=True)
    assert [loss for loss in again.json["losses"] if loss["code"] == _CODE] == []
