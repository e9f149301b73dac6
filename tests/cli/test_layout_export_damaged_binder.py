"""`export --into DIR --layout sillytavern`: an unbound card's own book stays inside the card only where
no other piece binds it. A damaged piece file (one that does not read as a piece) that may name the
book could bind it: the book then keeps its world file, as for any other binder, and the report's
notes name the file, so nothing such a piece may bind goes missing without a word."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from testkit import v2_card_png

from bunzai.adapters.common import png

BOOK = {
    "name": "Lore",
    "extensions": {},
    "entries": [{"keys": ["tides"], "content": "Ann knows the tides.", "id": 0, "enabled": True, "extensions": {}}],
}


def studio_with_ann(bunzai, tmp_path: Path) -> None:
    """Ann, imported from a user folder, holding her own book Lore (`lorebook/lore`), bound to no world."""
    source = tmp_path / "ST"
    (source / "characters").mkdir(parents=True)
    (source / "worlds").mkdir()
    (source / "characters" / "Ann.png").write_bytes(v2_card_png("Ann", more={"character_book": BOOK}))
    bunzai("apply", "--yes", input=bunzai("import", str(source), check=True).stdout, check=True)


def damage(bunzai, kind: str, piece_id: str, text: str) -> None:
    (bunzai.studio / kind / f"{piece_id}.json").write_text(text, encoding="utf-8")


def card_data(path: Path) -> dict:
    chunks = {text.keyword: text.text for text in png.read_png(path.read_bytes()).text_chunks()}
    return json.loads(base64.b64decode(chunks["chara"]))["data"]


def exported_beside_damage(bunzai, tmp_path: Path, kind: str, piece_id: str, text: str, *refs: str):
    """(the export folder, its report): Ann's studio with the piece file `kind/piece_id` holding
    `text`, exported as a SillyTavern user folder (the pieces `refs` names, else all)."""
    studio_with_ann(bunzai, tmp_path)
    damage(bunzai, kind, piece_id, text)
    out = tmp_path / "out"
    return out, bunzai("export", "--into", str(out), "--layout", "sillytavern", *refs).json


def test_a_damaged_piece_that_may_bind_the_own_book_keeps_its_world_file(bunzai, tmp_path):
    # the damaged persona was passed over: Lore went inside Ann only, and the world file the persona
    # names was dropped without a word
    out, report = exported_beside_damage(
        bunzai, tmp_path, "persona", "ada", '{"kind": "persona", "id": "ada", "body": {"lorebook": "lore", '
    )
    assert (out / "worlds" / "Lore.json").is_file()
    assert "lorebook/lore" in {row["ref"] for row in report["written"]}
    assert "lorebook/lore" not in {row["ref"] for row in report["not_written"]}
    [note] = [note for note in report["notes"] if note.startswith("lorebook/lore ")]
    assert "persona/ada cannot be read and may bind it" in note and "character/ann" in note
    # the card is bound to the world file written for its book (its book as read, the file written again)
    data = card_data(out / "characters" / "Ann.png")
    assert data["extensions"]["world"] == "Lore" and data["character_book"]["name"] == "Lore"
    assert {"ref": "persona/ada"}.items() <= next(r for r in report["not_written"] if r["ref"] == "persona/ada").items()


def test_a_damaged_piece_that_cannot_name_the_book_leaves_it_inside_its_card(bunzai, tmp_path):
    out, report = exported_beside_damage(
        bunzai, tmp_path, "persona", "ada", '{"kind": "persona", "id": "ada", "body": {"lorebook": "saga", '
    )
    assert not (out / "worlds" / "Lore.json").exists()
    assert next(row for row in report["not_written"] if row["ref"] == "lorebook/lore")["inside"] == ["character/ann"]
    assert not [note for note in report["notes"] if note.startswith("lorebook/lore ")]


def test_a_damaged_card_that_may_link_the_book_keeps_it_too(bunzai, tmp_path):
    out, report = exported_beside_damage(
        bunzai, tmp_path, "character", "broken", '{"kind": "character", "body": {"links": {"lorebooks": ["lore"'
    )
    assert (out / "worlds" / "Lore.json").is_file()
    assert any("character/broken cannot be read and may bind it" in note for note in report["notes"])


def test_the_note_says_what_the_card_holds_when_the_book_is_not_exported(bunzai, tmp_path):
    # named alone, Ann is exported without her book: no world file is written, she is bound to none,
    # and the note said "written to worlds/ ... bound to it there" all the same
    out, report = exported_beside_damage(
        bunzai,
        tmp_path,
        "persona",
        "ada",
        '{"kind": "persona", "id": "ada", "body": {"lorebook": "lore", ',
        "character/ann",
    )
    assert not (out / "worlds" / "Lore.json").exists()
    [note] = [note for note in report["notes"] if note.startswith("lorebook/lore ")]
    assert "not in this export, so it stays inside character/ann as imported" in note and "bound to it" not in note
    data = card_data(out / "characters" / "Ann.png")
    assert not data["extensions"].get("world") and data["character_book"]["name"] == "Lore"
