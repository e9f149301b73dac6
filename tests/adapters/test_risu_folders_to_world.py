"""RisuAI lorebook folders crossing to a SillyTavern world, which has no folders.

RisuAI keeps a folder in the entry list: mode 'folder', key '\\uf000folder:<uuid>', no content
(addLorebookFolder, src/ts/process/lorebook.svelte.ts); an entry in it names that key in `folder`.
"""

from __future__ import annotations

import io
import json
import zipfile

from cards_support import read

from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece

FOLDER_KEY = "\uf000folder:abc-123"
LORE = [
    {
        "key": FOLDER_KEY,
        "secondkey": "",
        "insertorder": 100,
        "comment": "Places",
        "content": "",
        "mode": "folder",
        "alwaysActive": False,
        "selective": False,
    },
    {
        "key": "castle, keep",
        "secondkey": "",
        "insertorder": 100,
        "comment": "Castle",
        "content": "A grey castle.",
        "mode": "normal",
        "alwaysActive": False,
        "selective": False,
        "folder": FOLDER_KEY,
    },
    {
        "key": "river",
        "secondkey": "",
        "insertorder": 90,
        "comment": "River",
        "content": "A cold river.",
        "mode": "normal",
        "alwaysActive": False,
        "selective": False,
    },
]


def _export(lore: list[dict]) -> bytes:
    return json.dumps({"type": "risu", "ver": 1, "data": lore}, separators=(",", ":")).encode()


def _to_world():
    _adapter, decoded, media = read(_export(LORE), "lorebook_export.json")
    return convert_piece(decoded.pieces[0], "sillytavern.world", media)


def test_a_folder_is_a_disabled_entry_in_the_world_and_said_so():
    crossing = _to_world()
    entries = json.loads(crossing.data)["entries"]
    assert [(entry["comment"], entry["disable"]) for entry in entries.values()] == [
        ("Places", True),
        ("Castle", False),
        ("River", False),
    ]
    [folder] = [loss for loss in crossing.losses if loss.code == "book.entry.risu_folder"]
    assert (folder.pointer, folder.action) == ("/body/entries/0", "flattened")
    assert "'Places'" in folder.why and "'Castle'" in folder.why and "River" not in folder.why
    # nothing else is said of the folder, and the entry in it keeps its folder for the way back
    assert [loss.code for loss in crossing.losses if loss.pointer.startswith("/body/entries/")] == [folder.code]
    assert entries["1"]["extensions"] == {"risuai": {"folder": FOLDER_KEY}}


def test_the_world_goes_back_to_risuai_with_its_folder():
    world = get_adapter("sillytavern.world").read(_to_world().data, "Places.json", None).pieces[0]
    back = json.loads(convert_piece(world, "risu.lorebook", lambda ref: b"").data)
    assert back["data"] == LORE


def test_a_world_holding_a_folder_entry_is_written_back_as_it_is():
    world = get_adapter("sillytavern.world").read(_to_world().data, "Places.json", None).pieces[0]
    again = convert_piece(world, "sillytavern.world", lambda ref: b"")
    assert json.loads(again.data) == json.loads(_to_world().data)
    assert "book.entry.risu_folder" not in [loss.code for loss in again.losses]


def _risu_card() -> bytes:
    """A V3 card's book as RisuAI exports it (createBaseV3): `mode` and `folder` beside the spec keys."""
    entry = {"content": "", "extensions": {}, "enabled": True, "insertion_order": 100, "constant": False}
    folder = entry | {"keys": [FOLDER_KEY], "name": "Places", "comment": "Places", "mode": "folder"}
    castle = entry | {"keys": ["castle"], "content": "A grey castle.", "comment": "Castle", "mode": "normal"}
    data = {
        "name": "Risu Girl",
        "first_mes": "hi",
        "character_book": {"entries": [folder, castle | {"folder": FOLDER_KEY}]},
    }
    return json.dumps({"spec": "chara_card_v3", "spec_version": "3.0", "data": data}).encode()


def test_a_folder_in_a_risuai_card_s_book_is_off_in_a_sillytavern_card():
    from cards_support import png_documents

    _adapter, decoded, media = read(_risu_card(), "risu.json")
    character = decoded.pieces[0]
    for target in ("sillytavern.card.json", "sillytavern.card.png"):
        crossing = convert_piece(character, target, media)
        card = png_documents(crossing.data)["chara"] if target.endswith("png") else json.loads(crossing.data)
        # SillyTavern's convertCharacterBook reads `enabled` as the world entry's `disable`
        assert [entry["enabled"] for entry in card["data"]["character_book"]["entries"]] == [False, True], target
        [folder] = [loss for loss in crossing.losses if loss.code == "book.entry.risu_folder"]
        assert folder.pointer == "/body/book/entries/0" and "'Places'" in folder.why
        # RisuAI reads `mode` and `folder` back from the card (and never `enabled`)
        name = "Risu Girl.png" if target.endswith("png") else "Risu Girl.json"
        back = get_adapter(target).read(crossing.data, name, None).pieces[0]
        charx = convert_piece(back, "ccv3.json", lambda ref: b"")
        entries = json.loads(charx.data)["data"]["character_book"]["entries"]
        assert [(entry.get("mode"), entry.get("folder")) for entry in entries] == [
            ("folder", None),
            ("normal", FOLDER_KEY),
        ]


def test_a_risuai_lorebook_in_a_card_s_book_keeps_its_folders_where_risuai_s_import_reads_them():
    from bunzai.model.character import Character

    _adapter, decoded, media = read(_export(LORE), "lorebook_export.json")
    book = decoded.pieces[0].body.model_dump(mode="json") | {"name": "Places"}
    character = Character(id="linker", name="Linker", body={"first_message": "hi", "book": book})
    for target in ("ccv3.json", "risu.charx"):
        data = convert_piece(character, target, media).data
        card = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("card.json") if target.endswith("charx") else data)
        entries = card["data"]["character_book"]["entries"]
        # convertCharbook (characterCards.ts): mode: book.mode ?? "normal", folder: book.folder
        assert [(entry.get("mode", "normal"), entry.get("folder")) for entry in entries] == [
            ("folder", None),
            ("normal", FOLDER_KEY),
            ("normal", None),
        ], target


def test_a_folder_is_said_once_on_a_sillytavern_card_not_again_as_a_rewritten_key():
    _adapter, decoded, media = read(_risu_card(), "risu.json")
    for target in ("sillytavern.card.json", "sillytavern.card.png"):
        losses = convert_piece(decoded.pieces[0], target, media).losses
        # the folder written disabled is book.entry.risu_folder's to say, not a key of the escrowed card's
        assert [loss.code for loss in losses if "entries/0" in loss.pointer] == ["book.entry.risu_folder"], target


def test_a_folder_back_from_the_world_is_a_folder_again_and_its_enabled_no_loss():
    """The world holds the folder disabled; RisuAI has no enabled flag, and a folder (no content)
    inserts nothing whether it fires: written back as the folder, nothing is lost."""
    world = get_adapter("sillytavern.world").read(_to_world().data, "Places.json", None).pieces[0]
    assert world.body.entries[0].enabled is False
    crossing = convert_piece(world, "risu.lorebook", lambda ref: b"")
    assert [(loss.code, loss.pointer) for loss in crossing.losses] == [("escrow.other_format", "/original")]


def test_a_disabled_entry_that_is_no_empty_folder_still_loses_its_flag_in_risuai():
    world = get_adapter("sillytavern.world").read(_to_world().data, "Places.json", None).pieces[0]
    entries = list(world.body.entries)
    entries[0] = entries[0].model_copy(update={"content": "Said whenever the folder fires."})
    entries[2] = entries[2].model_copy(update={"enabled": False})
    edited = world.model_copy(update={"body": world.body.model_copy(update={"entries": entries})})
    losses = convert_piece(edited, "risu.lorebook", lambda ref: b"").losses
    assert [(loss.code, loss.pointer) for loss in losses if loss.pointer.endswith("/enabled")] == [
        ("risu.entry.not_carried", "/body/entries/0/enabled"),
        ("risu.entry.not_carried", "/body/entries/2/enabled"),
    ]
