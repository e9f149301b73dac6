"""An unbound card's own book, in `export --into DIR --layout sillytavern`, stays inside the card: a
card's `character_book` lives only in the card until the user imports it in SillyTavern (world-info.js
importEmbeddedWorldInfo), which writes `worlds/<name>.json` and binds the card (`extensions.world`),
so a card whose book is not bound has no world file. A world file written for it met the card's own
book on import again, two books of one id, and the default policy refused the card. The card
carries its book as it is now (edited, renamed), unbound; a book a world file holds for another piece
(a persona bound to it) keeps that file."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from testkit import corpus_path, v2_card_png

from bunzai.adapters.common import png

CARDS = 48  # a third bound to a world of worlds/, a few without a book, the others unbound with their own book
BOUND = sum(1 for number in range(CARDS) if number % 3 == 0)
UNBOUND = sum(1 for number in range(CARDS) if number % 3 and number % 7)  # with a book of their own
OWN_BOOK = "the own book of a card bound to no world"


def _book(name: str, content: str) -> dict:
    entry = {"keys": [name.lower()], "content": content, "id": 0, "enabled": True, "insertion_order": 100}
    return {"name": name, "extensions": {}, "entries": [entry | {"extensions": {}}]}


def user_folder(root: Path) -> Path:
    """A SillyTavern user folder of CARDS cards: every third bound to its world (`World<n>`, whose file
    is in worlds/ and which the card holds a copy of), every seventh without a book, one whose book has
    no name, the rest holding a book of their own (`Book<n>`, also `Lore` once) bound to no world."""
    (root / "characters").mkdir(parents=True)
    (root / "worlds").mkdir()
    for number in range(CARDS):
        name, more = f"Card{number:02d}", {}
        if number % 3 == 0:
            world = f"World{number:02d}"
            content = f"{world} has a harbour."
            entries = {"0": {"uid": 0, "key": [world.lower()], "content": content, "comment": ""}}
            (root / "worlds" / f"{world}.json").write_text(json.dumps({"entries": entries}), encoding="utf-8")
            more = {"character_book": _book(world, content), "extensions": {"world": world}}
        elif number % 7 != 0:
            book = "" if number == 4 else "Lore" if number == 5 else f"Book{number:02d}"
            more = {"character_book": _book(book, f"{name} knows the tides.")}
        (root / "characters" / f"{name}.png").write_bytes(v2_card_png(name, seed=number, more=more))
    return root


def imported(bunzai, folder: Path) -> list[dict]:
    receipts = bunzai("apply", "--yes", input=bunzai("import", str(folder), check=True).stdout).lines
    assert receipts and {receipt["status"] for receipt in receipts} == {"applied"}, [
        receipt for receipt in receipts if receipt["status"] != "applied"
    ]
    return receipts


def pieces(studio: Path) -> dict[str, dict]:
    """Every character and lorebook of a studio by ref, as its canonical parts and escrowed document."""
    found = {}
    for kind in ("character", "lorebook"):
        for path in sorted((studio / kind).glob("*.json")):
            piece = json.loads(path.read_text(encoding="utf-8"))
            found[f"{kind}/{path.stem}"] = {
                "name": piece["name"],
                "body": piece["body"],
                "document": piece["original"]["document"],
            }
    return found


def card_data(path: Path) -> dict:
    chunks = {text.keyword: text.text for text in png.read_png(path.read_bytes()).text_chunks()}
    return json.loads(base64.b64decode(chunks["chara"]))["data"]


def another_studio(bunzai, tmp_path: Path):
    """`bunzai` in a second studio, made by `bunzai init` (a DIR named outranks BUNZAI_STUDIO)."""
    studio = tmp_path / "again"
    bunzai("init", str(studio), check=True)
    return type(bunzai)(bunzai.home, studio)


def test_a_library_of_dozens_of_cards_comes_back_whole_under_the_default_policy(bunzai, tmp_path):
    source = user_folder(tmp_path / "ST")
    imported(bunzai, source)
    before = pieces(bunzai.studio)
    own = {ref for ref, piece in before.items() if ref.startswith("lorebook/") and piece["document"].get("spec")}
    assert len(own) == UNBOUND and len(before) == CARDS + UNBOUND + BOUND

    out = tmp_path / "out"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True).json
    # worlds/ holds the bound cards' worlds only; each own book is named where it went: inside its card
    assert sorted(path.name for path in (out / "worlds").iterdir()) == sorted(
        path.name for path in (source / "worlds").iterdir()
    )
    assert {row["ref"] for row in report["not_written"]} == own
    assert all(row["reason"].startswith(OWN_BOOK) and len(row["inside"]) == 1 for row in report["not_written"])
    assert report["counts"] == {"written": CARDS + BOUND, "skipped_existing": 0, "not_written": UNBOUND}
    for number in range(CARDS):  # every card as it was read (the nameless book's too): the very file
        name = f"Card{number:02d}.png"
        assert (out / "characters" / name).read_bytes() == (source / "characters" / name).read_bytes(), name

    again = another_studio(bunzai, tmp_path)
    imported(again, out)  # nothing refused
    assert pieces(again.studio) == before  # nothing lost


def _saga(bunzai, tmp_path: Path) -> str:
    """Card05's own book, Lore, renamed Saga and edited on the shelf; its id."""
    imported(bunzai, user_folder(tmp_path / "ST"))
    [lore] = bunzai("read", "character/card05", "--pointer", "/body/links/lorebooks", check=True).json["value"]
    rename = bunzai("cap", "run", "lorebook.settings.update", lore, "--input", '{"name": "Saga"}', check=True)
    bunzai("apply", "--yes", input=rename.stdout, check=True)
    edit = json.dumps({"uid": 0, "set": {"content": "The tides turned."}})
    bunzai("apply", "--yes", input=bunzai("cap", "run", "lorebook.entries.update", lore, "--input", edit).stdout)
    return lore


def test_an_own_book_renamed_and_edited_in_the_studio_goes_inside_its_card_unbound(bunzai, tmp_path):
    # Lore -> Saga on the shelf: the card was bound to Saga while its book kept the name Lore (the own
    # book was found by its name alone), and Saga.json was written beside it with the edit
    lore = _saga(bunzai, tmp_path)
    out = tmp_path / "out"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True).json
    assert not (out / "worlds" / "Saga.json").exists() and not (out / "worlds" / "Lore.json").exists()
    assert {"ref": f"lorebook/{lore}", "inside": ["character/card05"]}.items() <= next(
        row for row in report["not_written"] if row["ref"] == f"lorebook/{lore}"
    ).items()
    data = card_data(out / "characters" / "Card05.png")
    assert not data["extensions"].get("world")
    assert data["character_book"]["name"] == "Saga"
    assert [entry["content"] for entry in data["character_book"]["entries"]] == ["The tides turned."]

    again = another_studio(bunzai, tmp_path)
    imported(again, out)
    book = again("read", "lorebook/saga", check=True).json["piece"]
    assert book["body"]["entries"][0]["content"] == "The tides turned."
    assert again("read", "character/card05", "--pointer", "/body/links/lorebooks", check=True).json["value"] == ["saga"]


def test_a_card_exported_without_its_book_carries_the_book_as_it_is_now(bunzai, tmp_path):
    # the export names the card alone: its own book still goes inside it, edits and new name included
    _saga(bunzai, tmp_path)
    out = tmp_path / "out"
    bunzai("export", "--into", str(out), "--layout", "sillytavern", "character/card05", check=True)
    data = card_data(out / "characters" / "Card05.png")
    assert not data["extensions"].get("world") and data["character_book"]["name"] == "Saga"
    assert [entry["content"] for entry in data["character_book"]["entries"]] == ["The tides turned."]
    assert not any((out / "worlds").iterdir())


def test_a_book_exported_without_its_card_is_written_as_a_world(bunzai, tmp_path):
    # named alone, the lorebook is what was asked for: SillyTavern keeps a lorebook as a world file
    lore = _saga(bunzai, tmp_path)
    out = tmp_path / "out"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", f"lorebook/{lore}", check=True).json
    assert (out / "worlds" / "Saga.json").is_file() and not report["not_written"]


def two_lores(bunzai, tmp_path: Path) -> Path:
    """Ann and Bea, each holding a book of her own called Lore, imported with --on-conflict suffix
    (Bea's book is `lore-2`)."""
    source = tmp_path / "ST"
    (source / "characters").mkdir(parents=True)
    (source / "worlds").mkdir()
    for number, name in enumerate(("Ann", "Bea")):
        more = {"character_book": _book("Lore", f"{name} knows the tides.")}
        (source / "characters" / f"{name}.png").write_bytes(v2_card_png(name, seed=number, more=more))
    drafts = bunzai("import", "--on-conflict", "suffix", str(source), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    assert bunzai("read", "character/bea", "--pointer", "/body/links/lorebooks").json["value"] == ["lore-2"]
    return source


def test_cards_whose_own_books_share_a_name_are_written_as_read_and_come_back_under_suffix(bunzai, tmp_path):
    # the import suffixed the second book's id (lore-2): the card, bound to nothing, still holds its own
    # book, so its file is the one it was read from (it was written again, gaining a ccv3 chunk)
    source = two_lores(bunzai, tmp_path)
    before = pieces(bunzai.studio)
    assert sorted(ref for ref in before if ref.startswith("lorebook/")) == ["lorebook/lore", "lorebook/lore-2"]
    out = tmp_path / "out"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True).json
    assert [row["losses"] for row in report["written"]] == [[], []]
    assert list(out.glob("worlds/*")) == []
    for name in ("Ann.png", "Bea.png"):
        assert (out / "characters" / name).read_bytes() == (source / "characters" / name).read_bytes(), name
    again = another_studio(bunzai, tmp_path)
    bunzai_again = again("import", "--on-conflict", "suffix", str(out), check=True).stdout
    again("apply", "--yes", input=bunzai_again, check=True)
    assert pieces(again.studio) == before


def test_an_own_book_a_persona_binds_keeps_its_world_file_and_its_card_is_bound_to_it(bunzai, tmp_path):
    # the persona finds the book by its world's name, so the world file stays; the card is bound to it, as
    # SillyTavern's Import Card Lore binds a card to the world it writes (world-info.js
    # importEmbeddedWorldInfo), its book named as that world (renamed Saga, Bea was once bound to Saga
    # while her book kept the name Lore), its entries as imported, as a card bound at import keeps them.
    # Left unbound beside Saga.json, Bea's own book Saga met the world again on import, one id twice, and
    # the default policy refused her; in SillyTavern, importing her card's lore would have written her
    # copy over Saga.json
    two_lores(bunzai, tmp_path)
    rename = bunzai("cap", "run", "lorebook.settings.update", "lore-2", "--input", '{"name": "Saga"}', check=True)
    bunzai("apply", "--yes", input=rename.stdout, check=True)
    edit = json.dumps({"uid": 0, "set": {"content": "The tides turned."}})
    bunzai("apply", "--yes", input=bunzai("cap", "run", "lorebook.entries.update", "lore-2", "--input", edit).stdout)
    bunzai("apply", "--yes", input=bunzai("create", "persona", "--input", '{"name": "Ada"}', check=True).stdout)
    bind = bunzai("cap", "run", "persona.injection.update", "ada", "--input", '{"lorebook": "lore-2"}', check=True)
    bunzai("apply", "--yes", input=bind.stdout, check=True)
    out = tmp_path / "out"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True).json
    written = {row["ref"]: row for row in report["written"]}
    assert written["lorebook/lore-2"]["path"] == "worlds/Saga.json" and written["character/bea"]["losses"] == []
    assert [row["ref"] for row in report["not_written"]] == ["lorebook/lore"]  # Ann's, inside her card
    data = card_data(out / "characters" / "Bea.png")
    assert data["extensions"]["world"] == "Saga" and data["character_book"]["name"] == "Saga"
    # its copy as imported, as a card bound at import keeps it (SillyTavern rebuilds it from the world)
    assert [entry["content"] for entry in data["character_book"]["entries"]] == ["Bea knows the tides."]
    assert not card_data(out / "characters" / "Ann.png")["extensions"].get("world")

    again = another_studio(bunzai, tmp_path)
    imported(again, out)  # nothing refused
    assert again("read", "character/bea", "--pointer", "/body/links/lorebooks", check=True).json["value"] == ["saga"]
    saga = again("read", "lorebook/saga", check=True).json["piece"]
    assert [entry["content"] for entry in saga["body"]["entries"]] == ["The tides turned."]
    assert again("read", "persona/ada", "--pointer", "/body/lorebook", check=True).json["value"] == "saga"


def test_cards_alone_with_their_sprites_come_back_as_a_user_folder(bunzai, tmp_path):
    # with its own book kept inside it, a card and its sprites may be all an export holds: worlds/ is
    # made beside characters/ (SillyTavern makes it in every user folder), so importing the export
    # again reads a user folder, and the card is shown its sprites again (media.pack was lost)
    sprite = corpus_path("sillytavern", "characters", "sprites", "Seraphina", "joy.png").read_bytes()
    source = tmp_path / "ST"
    (source / "characters" / "Bob").mkdir(parents=True)
    (source / "worlds").mkdir()
    more = {"character_book": _book("Lore", "Bob knows the tides.")}
    (source / "characters" / "Bob.png").write_bytes(v2_card_png("Bob", more=more))
    (source / "characters" / "Bob" / "joy.png").write_bytes(sprite)
    imported(bunzai, source)
    assert bunzai("read", "character/bob", "--pointer", "/body/media/pack", check=True).json["value"] == "bob"
    out = tmp_path / "out"
    bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True)
    assert sorted(path.name for path in out.iterdir()) == ["characters", "worlds"]
    again = another_studio(bunzai, tmp_path)
    imported(again, out)
    assert again("read", "character/bob", "--pointer", "/body/media/pack", check=True).json["value"] == "bob"
    assert pieces(again.studio) == pieces(bunzai.studio)
