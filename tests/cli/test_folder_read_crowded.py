"""`folder read` of a folder holding more than WALK_MAX_ENTRIES entries at one level: a page is in
name order, so a small --limit would list and sort every entry all the same; the refusal says so,
and its hint names what does answer (reading a file by its path, importing the folder whole)."""

from __future__ import annotations

import json

from testkit import v2_card_png

from bunzai import files
from bunzai.cli.entry import run
from bunzai.folders import grant
from bunzai.store.studio import init_studio


def test_a_folder_too_crowded_to_page_says_why_a_small_limit_does_not_help_and_what_does(
    tmp_path, monkeypatch, capsys
) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    cards = tmp_path / "cards"
    cards.mkdir()
    for seed, name in enumerate(("Ada", "Bea", "Cy", "Dee", "Eve", "Fay")):
        (cards / f"{name}.png").write_bytes(v2_card_png(name, seed=seed))
    grant(studio, cards)
    monkeypatch.setattr(files, "WALK_MAX_ENTRIES", 5)
    assert run(["--studio", str(studio.root), "folder", "read", str(cards), "--limit", "1"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "too_large" and error["details"]["limit"] == 5
    assert error["message"] == (
        f"{cards} holds more than 5 entries at one level: a page is in name order, so every entry would be "
        "listed and sorted, however short a page is asked for"
    )
    assert f"bunzai folder read {cards}/NAME" in error["hint"] and f"bunzai folder import {cards}" in error["hint"]
    # what the hint offers answers
    assert run(["--studio", str(studio.root), "folder", "read", str(cards / "Fay.png")]) == 0
    assert json.loads(capsys.readouterr().out)["type"] == "binary"
    assert run(["--studio", str(studio.root), "folder", "import", str(cards)]) == 0
    drafts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(drafts) == 6
