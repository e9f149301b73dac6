"""A RisuAI lore entry whose `extentions` holds only the case flag (as RisuAI's card import
makes every entry: `extentions: {...extensions, risu_case_sensitive}`) has no app data to keep:
it reads as case_sensitive alone, and an entry written with a case flag reads back the same."""

from __future__ import annotations

import json

from cards_support import read

from bunzai.convert import convert_piece
from bunzai.model.lorebook import Lorebook

ENTRY = {
    "key": "castle",
    "secondkey": "",
    "insertorder": 100,
    "comment": "Castle",
    "content": "A grey castle.",
    "mode": "normal",
    "alwaysActive": False,
    "selective": False,
    "extentions": {"risu_case_sensitive": True},
}


def _export(*entries: dict) -> bytes:
    return json.dumps({"type": "risu", "ver": 1, "data": list(entries)}, separators=(",", ":")).encode()


def test_the_case_flag_alone_reads_as_case_sensitive_and_no_app_data():
    data = _export(ENTRY, ENTRY | {"extentions": {}})
    _adapter, decoded, media = read(data, "lorebook_export.json")
    entries = decoded.pieces[0].body.entries
    assert [(entry.case_sensitive, entry.extensions) for entry in entries] == [(True, {}), (None, {})]
    assert convert_piece(decoded.pieces[0], "risu.lorebook", media).data == data  # byte for byte
    world = json.loads(convert_piece(decoded.pieces[0], "sillytavern.world", media).data)
    assert [entry.get("extensions") for entry in world["entries"].values()] == [None, None]


def test_an_entry_written_with_a_case_flag_reads_back_as_written():
    book = Lorebook(
        id="b", name="b", body={"entries": [{"uid": 0, "keys": [{"text": "castle"}], "case_sensitive": False}]}
    )
    crossing = convert_piece(book, "risu.lorebook", lambda ref: b"")
    assert json.loads(crossing.data)["data"][0]["extentions"] == {"risu_case_sensitive": False}
    assert [loss.code for loss in crossing.losses if loss.pointer.startswith("/body/entries")] == []
