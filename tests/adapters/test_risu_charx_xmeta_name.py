"""RisuAI names an asset's x_meta note after the asset's name, not after bunzai's member name."""

from __future__ import annotations

import hashlib
import json

from cards_support import cross
from risu_support import opened, zip_of

from bunzai.adapters.common import png
from bunzai.convert import convert_piece
from bunzai.model.character import Character

ICON = png.default_portrait()
CONFIG = b'{"volume": 3}'


def _written(name: str, ext: str) -> list[str]:
    refs = [{"sha256": hashlib.sha256(data).hexdigest(), "ext": e} for data, e in ((ICON, "png"), (CONFIG, ext))]
    stored = {ref["sha256"]: data for ref, data in zip(refs, (ICON, CONFIG))}
    piece = Character(
        id="ada",
        name="Ada",
        assets=[
            {"role": "icon", "name": "main", "ext": "png", "asset": refs[0]},
            {"role": "other", "name": name, "ext": ext, "asset": refs[1]},
        ],
    )
    return [member for member, _data in opened(convert_piece(piece, "risu.charx", lambda ref: stored[ref.sha256]).data)]


def test_a_json_asset_renamed_to_bin_keeps_the_note_risuai_writes_for_its_name():
    """characterCards.ts writes `x_meta/${name}.json`: `config` with ext json gets x_meta/config.json,
    though bunzai writes its member as config.json.bin (charx.member.renamed)."""
    members = _written("config", "json")
    assert "assets/other/other/config.json.bin" in members
    assert "x_meta/config.json" in members and "x_meta/config.json.json" not in members
    assert members.index("x_meta/config.json") == members.index("assets/other/other/config.json.bin") - 1


def test_an_asset_whose_name_ends_in_json_keeps_that_in_its_note():
    """An asset named `notes.json` with ext bin is written at notes.json.bin by RisuAI too, and its
    note is x_meta/notes.json.json: only bunzai's own `.bin` is not part of the name."""
    members = _written("notes.json", "bin")
    assert "assets/other/other/notes.json.bin" in members
    assert "x_meta/notes.json.json" in members


def test_a_risuai_file_with_a_json_asset_keeps_its_one_note_beside_the_renamed_member(no_table):
    """RisuAI's own export of `config` (ext json): x_meta/config.json beside assets/other/other/config.json.
    Crossed back, the member becomes config.json.bin and its note keeps that name, with no second one."""
    card = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {
            "name": "Ada",
            "first_mes": "hi",
            "extensions": {"risuai": {}},
            "assets": [
                {"type": "icon", "uri": "embeded://assets/icon/image/main.png", "name": "main", "ext": "png"},
                {"type": "other", "uri": "embeded://assets/other/other/config.json", "name": "config", "ext": "json"},
            ],
        },
    }
    items = [
        ("x_meta/main.json", b'{"type":"PNG"}'),
        ("assets/icon/image/main.png", ICON),
        ("x_meta/config.json", b'{"type":"kept"}'),
        ("assets/other/other/config.json", CONFIG),
        ("card.json", json.dumps(card, indent=4).encode()),
    ]
    written = opened(cross(zip_of(items), "ada.charx").data)
    members = [name for name, _data in written]
    assert [name for name in members if name.startswith("x_meta/")] == ["x_meta/main.json", "x_meta/config.json"]
    assert members.index("x_meta/config.json") == members.index("assets/other/other/config.json.bin") - 1
