"""RisuAI lorebook folders in a card's book, as RisuAI's card export writes them: `mode` and
`folder` beside the spec keys (createBaseV3, src/ts/characterCards.ts), read by its import
(convertCharbook: `mode: book.mode ?? "normal"`, `folder: book.folder`). They read into the
canonical entry as a RisuAI lorebook's own entries read (extensions.risuai), so they cross."""

from __future__ import annotations

import io
import json
import zipfile

from cards_support import read

from bunzai.convert import convert_piece

FOLDER_KEY = "\uf000folder:abc-123"


def _charx() -> bytes:
    entry = {"content": "", "extensions": {}, "enabled": True, "insertion_order": 100, "constant": False}
    folder = entry | {"keys": [FOLDER_KEY], "name": "Places", "comment": "Places", "mode": "folder"}
    castle = entry | {"keys": ["castle"], "content": "A grey castle.", "comment": "Castle", "mode": "normal"}
    river = entry | {"keys": ["river"], "content": "A cold river.", "comment": "River", "mode": "normal"}
    data = {
        "name": "Risu Girl",
        "first_mes": "hi",
        "character_book": {"entries": [folder, castle | {"folder": FOLDER_KEY}, river]},
    }
    card = {"spec": "chara_card_v3", "spec_version": "3.0", "data": data}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("card.json", json.dumps(card))
    return out.getvalue()


def _card_entries(data: bytes) -> list[dict]:
    card = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("card.json"))
    return card["data"]["character_book"]["entries"]


def test_a_charx_book_s_folders_read_as_a_risuai_lorebook_s():
    _adapter, decoded, _media = read(_charx(), "risu.charx")
    character, book = decoded.pieces
    expected = [{"risuai": {"mode": "folder"}}, {"risuai": {"folder": FOLDER_KEY}}, {}]
    assert [entry.extensions for entry in character.body.book.entries] == expected
    assert [entry.extensions for entry in book.body.entries] == expected


def test_a_charx_book_crosses_to_a_risuai_lorebook_with_its_folders_and_back():
    _adapter, decoded, media = read(_charx(), "risu.charx")
    crossing = convert_piece(decoded.pieces[1], "risu.lorebook", media)
    lore = json.loads(crossing.data)["data"]
    assert [(entry["mode"], entry.get("folder")) for entry in lore] == [
        ("folder", None),
        ("normal", FOLDER_KEY),
        ("normal", None),
    ]
    assert [loss.code for loss in crossing.losses] == ["escrow.other_format"]  # the folders are no loss
    # and the lorebook, back in a card, is filed where RisuAI's import reads it
    _adapter, again, media = read(crossing.data, "Places.json")
    character = decoded.pieces[0]
    body = character.body.model_copy(update={"book": character.body.book.model_copy(update={"entries": []})})
    book = again.pieces[0].body.model_dump(mode="json") | {"name": "Places"}
    body = body.model_copy(update={"book": type(character.body.book).model_validate(book)})
    written = convert_piece(character.model_copy(update={"body": body}), "risu.charx", media).data
    assert [(entry.get("mode"), entry.get("folder")) for entry in _card_entries(written)] == [
        ("folder", None),
        ("normal", FOLDER_KEY),
        ("normal", None),
    ]


def test_a_risuai_card_goes_back_as_it_was():
    _adapter, decoded, media = read(_charx(), "risu.charx")
    written = convert_piece(decoded.pieces[0], "charx", media)
    assert _card_entries(written.data) == _card_entries(_charx())  # no copy of the keys in extensions
    assert written.losses == []


def test_an_entry_taken_out_of_its_folder_is_written_out_of_it():
    _adapter, decoded, media = read(_charx(), "risu.charx")
    character = decoded.pieces[0]
    entries = list(character.body.book.entries)
    entries[0] = entries[0].model_copy(update={"extensions": {}})  # no folder now
    entries[1] = entries[1].model_copy(update={"extensions": {"risuai": {"folder": "\uf000folder:other"}}})
    entries[2] = entries[2].model_copy(update={"extensions": {"risuai": {"mode": "folder"}}})
    book = character.body.book.model_copy(update={"entries": entries})
    edited = character.model_copy(update={"body": character.body.model_copy(update={"book": book})})
    written = convert_piece(edited, "charx", media)
    assert [(entry.get("mode"), entry.get("folder"), entry["extensions"]) for entry in _card_entries(written.data)] == [
        ("normal", None, {}),
        ("normal", "\uf000folder:other", {}),
        ("folder", None, {}),
    ]
    assert written.losses == []


def test_risuai_s_keys_win_over_an_older_copy_in_extensions():
    """RisuAI carries a card entry's extensions along (extentions), so an entry moved in RisuAI may
    hold its old folder in extensions.risuai: RisuAI reads the keys beside the spec keys."""
    entry = {"keys": ["castle"], "content": "x", "extensions": {"risuai": {"folder": "\uf000folder:old"}}}
    moved = entry | {"mode": "normal", "folder": FOLDER_KEY}
    unfiled = {"keys": ["inn"], "content": "y", "mode": "normal", "extensions": {"risuai": {"mode": "folder"}}}
    data = {"name": "Risu Girl", "first_mes": "hi", "character_book": {"entries": [moved, unfiled]}}
    card = json.dumps({"spec": "chara_card_v3", "spec_version": "3.0", "data": data}).encode()
    _adapter, decoded, _media = read(card, "risu.json")
    assert [entry.extensions for entry in decoded.pieces[0].body.book.entries] == [
        {"risuai": {"folder": FOLDER_KEY}},
        {"risuai": {}},
    ]


def _saved_by_sillytavern() -> bytes:
    """A card bunzai wrote with RisuAI folders, saved again by SillyTavern: it keeps an entry's
    extensions (convertCharacterBook, `extensions: entry.extensions`) and drops the keys beside them."""
    entry = {"content": "", "enabled": True, "insertion_order": 100, "position": "before_char"}
    folder = entry | {"keys": [FOLDER_KEY], "comment": "Places", "extensions": {"risuai": {"mode": "folder"}}}
    castle = entry | {"keys": ["castle"], "content": "x", "extensions": {"risuai": {"folder": FOLDER_KEY}}}
    data = {"name": "Ada", "first_mes": "hi", "extensions": {}, "character_book": {"entries": [folder, castle]}}
    return json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode()


def test_a_card_holding_folders_in_extensions_alone_goes_back_as_it_was():
    adapter, decoded, media = read(_saved_by_sillytavern(), "Ada.json")
    for piece, target in ((decoded.pieces[0], adapter.format_id), (decoded.pieces[1], "lorebook_v3.json")):
        written = json.loads(convert_piece(piece, target, media).data)
        book = written["data"] if target == "lorebook_v3.json" else written["data"]["character_book"]
        assert book["entries"] == json.loads(_saved_by_sillytavern())["data"]["character_book"]["entries"], target


def test_such_a_card_crossing_to_another_card_gets_the_keys_risuai_reads():
    _adapter, decoded, media = read(_saved_by_sillytavern(), "Ada.json")
    written = convert_piece(decoded.pieces[0], "charx", media).data
    assert [(entry.get("mode"), entry.get("folder")) for entry in _card_entries(written)] == [
        ("folder", None),
        (None, FOLDER_KEY),
    ]
