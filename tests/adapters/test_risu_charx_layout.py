"""RisuAI CHARX layout: asset names holding `/`, numbered x_meta notes, the member count, an empty ZIP."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest
from cards_support import cross, read
from risu_support import module_bytes, opened, zip_of

from bunzai import limits
from bunzai.adapters.common import png
from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from bunzai.model.base import AssetRef
from bunzai.model.character import Character

ICON = png.default_portrait()
MODULE = {
    "name": "Ada Module",
    "description": "Module for Ada",
    "id": "m",
    "lorebook": [],
    "regex": [{"comment": "caps", "in": "a", "out": "A", "type": "editoutput"}],
    "trigger": [],
}


def slashed(module: bytes) -> list[tuple[str, bytes]]:
    """A CHARX as RisuAI's exportCharacterCard writes an emotion named `happy/1`: its writer
    sanitizes every path character but `/`, so the name becomes two path segments."""
    card = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {
            "name": "Ada",
            "first_mes": "hi",
            "extensions": {"risuai": {}},
            "assets": [
                {"type": "icon", "uri": "embeded://assets/icon/image/main.png", "name": "main", "ext": "png"},
                {
                    "type": "emotion",
                    "uri": "embeded://assets/emotion/image/happy/1.png",
                    "name": "happy/1",
                    "ext": "png",
                },
            ],
        },
    }
    return [
        ("x_meta/main.json", b'{"type":"PNG"}'),
        ("assets/icon/image/main.png", ICON),
        ("x_meta/happy/1.json", b'{"type":"PNG"}'),
        ("assets/emotion/image/happy/1.png", ICON + b"x"),
        ("module.risum", module),
        ("card.json", json.dumps(card, indent=4).encode()),
    ]


def test_an_asset_name_holding_a_slash_is_read_as_risuai_s_and_its_module_decoded(table):
    adapter, decoded = read_bytes(zip_of(slashed(module_bytes(MODULE, table))), "ada.charx")
    assert adapter.format_id == "risu.charx"
    character = decoded.pieces[0]
    assert [(s.format, s.name) for s in character.body.behavior_scripts] == [("risu.customscript", "caps")]
    assert [(link.name, link.asset is not None) for link in character.assets] == [("main", True), ("happy/1", True)]


def test_an_asset_name_holding_a_slash_goes_back_in_risuai_s_order(no_table):
    items = slashed(b"\x6f\x00\x00\x00\x00\x00\x00")
    crossing = cross(zip_of(items), "ada.charx")
    assert [name for name, _data in opened(crossing.data)] == [name for name, _data in items]


def _stored(*payloads: bytes) -> tuple[list[dict], dict[str, bytes]]:
    refs = [{"sha256": hashlib.sha256(data).hexdigest(), "ext": "png"} for data in payloads]
    return refs, {ref["sha256"]: data for ref, data in zip(refs, payloads)}


def test_a_second_new_asset_of_the_same_name_gets_its_own_numbered_note(no_table):
    """RisuAI's CharXWriter numbers a taken name: the second `joy` note is x_meta/joy_1.json."""
    refs, stored = _stored(ICON, ICON + b"bg")
    piece = Character(
        id="ada",
        name="Ada",
        assets=[
            {"role": "emotion", "name": "joy", "ext": "png", "asset": refs[0]},
            {"role": "background", "name": "joy", "ext": "png", "asset": refs[1]},
        ],
    )
    written = opened(convert_piece(piece, "risu.charx", lambda ref: stored[ref.sha256]).data)
    assert [name for name, _data in written] == [
        "x_meta/joy.json",
        "assets/emotion/image/joy.png",
        "x_meta/joy_1.json",
        "assets/background/image/joy.png",
        "card.json",
    ]


def test_a_new_asset_takes_the_note_of_the_asset_it_replaced(no_table):
    """The note left by an asset that is gone is written anew for the asset that takes its
    name, not kept stale beside a numbered one."""
    items = slashed(b"\x6f\x00\x00\x00\x00\x00\x00")
    tagged = png.replace_text(png.read_png(ICON), set(), [("Comment", b"new")])
    refs, stored = _stored(tagged)

    _adapter, decoded, media = read(zip_of(items), "ada.charx")
    piece = decoded.pieces[0]
    webp = AssetRef.model_validate(refs[0] | {"ext": "webp"})
    links = [piece.assets[0].model_copy(update={"ext": "webp", "asset": webp})] + list(piece.assets[1:])
    body = piece.body.model_copy(update={"portrait": webp})
    piece = piece.model_copy(update={"assets": links, "body": body})
    crossing = convert_piece(piece, "risu.charx", lambda ref: stored.get(ref.sha256) or media(ref))
    files = dict(opened(crossing.data))
    notes = sorted(name for name in files if name.startswith("x_meta/"))
    assert notes == ["x_meta/happy/1.json", "x_meta/main.json"]  # not main_1.json beside a stale main.json
    assert json.loads(files["x_meta/main.json"]) == {"Comment": "new"}
    names = [name for name, _data in opened(crossing.data)]
    assert names.index("x_meta/main.json") == names.index("assets/icon/image/main.webp") - 1


def test_a_card_whose_x_meta_notes_pass_the_member_limit_is_refused_saying_why(no_table, monkeypatch):
    """Each new asset brings its note: half the member limit in assets is too many for this
    layout, though the same card fits a generic CHARX (the limit made small: the rule, not the size)."""
    monkeypatch.setattr(limits, "ARCHIVE_MAX_MEMBERS", 64)
    count = limits.ARCHIVE_MAX_MEMBERS // 2 + 1
    payloads = [b"GIF89a" + index.to_bytes(4, "big") for index in range(count)]
    refs, stored = _stored(*payloads)
    assets = [{"role": "emotion", "name": f"e{index}", "ext": "gif", "asset": ref} for index, ref in enumerate(refs)]
    piece = Character(id="many", name="Many", assets=assets)
    assert convert_piece(piece, "charx", lambda ref: stored[ref.sha256]).data
    with pytest.raises(BunzaiError) as raised:
        convert_piece(piece, "risu.charx", lambda ref: stored[ref.sha256])
    assert raised.value.code == "too_large"
    assert "x_meta" in raised.value.message and f"{count} new notes" in raised.value.message


def _empty_zip() -> bytes:
    buffer = io.BytesIO()
    zipfile.ZipFile(buffer, "w").close()
    return buffer.getvalue()


@pytest.mark.parametrize("name", ["ada.charx", "ada.byaf", "pack.zip", ""])
def test_an_empty_zip_is_named_an_empty_archive(name):
    with pytest.raises(BunzaiError) as raised:
        read_bytes(_empty_zip(), name)
    assert raised.value.code == "unrecognized_file"
    assert "empty ZIP archive" in raised.value.message and "text" not in raised.value.message
