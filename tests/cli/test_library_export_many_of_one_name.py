"""A library export of many cards of one name: SillyTavern's next names (`Alice1.png` ...) in
order, found by going on from the last name given, not by trying `Alice.png`, `Alice1.png` ...
again for each card (which made a library of one name quadratic: 3,000 cards, 4.5 million tries)."""

from __future__ import annotations

import json

from bunzai import library_export
from bunzai.library_export import export_library
from bunzai.store.studio import Studio


def card(name: str, description: str) -> str:
    data = {"name": name, "description": description, "first_mes": "", "personality": "", "scenario": ""}
    return json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data | {"mes_example": ""}})


def test_many_cards_of_one_name_take_the_next_names_each_tried_once(bunzai, tmp_path, monkeypatch):
    cards = tmp_path / "cards"
    cards.mkdir()
    count = 300
    for number in range(count):
        (cards / f"{number:03}.json").write_text(card("Alice", f"Alice number {number}."), encoding="utf-8")
    (cards / "twin.json").write_text(card("Alice", "Alice number 7."), encoding="utf-8")  # the 8th's bytes
    (cards / "named.json").write_text(card("Alice5", "Another card, named Alice5."), encoding="utf-8")
    drafts = bunzai("import", "--on-conflict", "suffix", str(cards), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    tries = []
    take = library_export._take
    monkeypatch.setattr(library_export, "_take", lambda *args: tries.append(args[1]) or take(*args))
    report = export_library(Studio(bunzai.studio), tmp_path / "out", "sillytavern").to_json()
    written = sorted(entry["path"] for entry in report["written"])
    # the twin's file is the 8th's (the same bytes); the card named Alice5 comes last (ids in order:
    # alice-2 ... before alice5) and finds Alice5.png to Alice59.png taken by the Alices
    assert len(written) == count + 1 and len(report["skipped_existing"]) == 1
    assert set(written) == {f"characters/Alice{n or ''}.png" for n in range(count)} | {"characters/Alice510.png"}
    assert len(tries) < 5 * (count + 2)
