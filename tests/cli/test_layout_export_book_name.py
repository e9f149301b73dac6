"""A card's embedded book, in `export --into DIR --layout sillytavern`, goes by the name of the world
it is bound to: SillyTavern rebuilds the book from the bound world on every save
(charaFormatData: `character_book` = convertWorldInfoToCharacterBook(data.world, ...), whose `name`
is the world's), so a card naming its world one way and its book another is no card it writes."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from testkit import st_bob_library

from bunzai.adapters.common import png

BOOK = {"name": "Lore", "extensions": {}, "entries": [{"keys": ["bob"], "content": "Bob's lore", "id": 0}]}
WORLD = {"entries": {"0": {"uid": 0, "key": ["bob"], "content": "Bob's lore", "comment": ""}}}


def library(tmp_path: Path, bound: bool = True) -> Path:
    return st_bob_library(tmp_path, BOOK, WORLD, bound=bound)


def card_data(path: Path) -> dict:
    [chunk] = [text for text in png.read_png(path.read_bytes()).text_chunks() if text.keyword == "chara"]
    return json.loads(base64.b64decode(chunk.text))["data"]


def imported(bunzai, tmp_path: Path) -> str:
    drafts = bunzai("import", str(library(tmp_path)), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    character = bunzai("read", "character/bob", check=True).json["piece"]
    return character["body"]["links"]["lorebooks"][0]


def test_a_card_bound_to_a_renamed_world_names_its_book_as_the_world(bunzai, tmp_path):
    world = imported(bunzai, tmp_path)
    draft = bunzai("cap", "run", "lorebook.settings.update", world, "--input", '{"name": "Saga"}', check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    out = tmp_path / "out"
    bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True)
    data = card_data(out / "characters" / "Bob.png")
    assert data["extensions"]["world"] == "Saga" and (out / "worlds" / "Saga.json").is_file()
    assert data["character_book"]["name"] == "Saga"
    assert [entry["content"] for entry in data["character_book"]["entries"]] == ["Bob's lore"]


def test_a_card_whose_world_is_written_under_another_file_names_its_book_as_that_file(bunzai, tmp_path):
    # another world of the same name, made in the studio, leaves one of the two a next file name
    # (Lore1.json): the card's book names the file its world is written to, as its binding does
    imported(bunzai, tmp_path)
    other = {"name": "Lore", "entries": [{"uid": 0, "keys": [{"text": "sea"}], "content": "Another."}]}
    draft = bunzai("create", "lorebook", "--id", "a-lore", "--input", json.dumps(other), check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    out = tmp_path / "out"
    bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True)
    [stem] = [path.stem for path in (out / "worlds").iterdir() if "Bob's lore" in path.read_text(encoding="utf-8")]
    assert sorted(path.stem for path in (out / "worlds").iterdir()) == ["Lore", "Lore1"]
    data = card_data(out / "characters" / "Bob.png")
    assert data["extensions"]["world"] == data["character_book"]["name"] == stem


def test_an_unrenamed_world_leaves_the_card_as_imported(bunzai, tmp_path):
    imported(bunzai, tmp_path)
    out = tmp_path / "out"
    bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True)
    assert card_data(out / "characters" / "Bob.png") == card_data(tmp_path / "ST" / "characters" / "Bob.png")


def test_a_card_bound_to_no_world_keeps_its_own_books_name_beside_a_world_of_that_name(bunzai, tmp_path):
    # the unbound card's own book is drafted apart from the world it only shares a name with; it
    # has no world file (SillyTavern keeps it inside the card), so only the world Lore is written,
    # and the card as it was read: no binding, its book still called Lore
    root = library(tmp_path, bound=False)
    bunzai(
        "apply", "--yes", input=bunzai("import", "--on-conflict", "suffix", str(root), check=True).stdout, check=True
    )
    out = tmp_path / "out"
    bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True)
    data = card_data(out / "characters" / "Bob.png")
    assert sorted(path.stem for path in (out / "worlds").iterdir()) == ["Lore"]
    assert data["character_book"]["name"] == "Lore" and not data["extensions"].get("world")
    assert data == card_data(root / "characters" / "Bob.png")
