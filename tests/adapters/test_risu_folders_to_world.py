"""RisuAI lorebook folders crossing to a SillyTavern world, which has no folders.

RisuAI keeps a folder in the entry list: mode 'folder', key '\\uf000folder:<uuid>', no content
(addLorebookFolder, src/ts/process/lorebook.svelte.ts); an entry in it names that key in `folder`.
"""

from __future__ import annotations

import json

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
