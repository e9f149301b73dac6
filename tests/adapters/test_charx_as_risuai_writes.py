"""CHARX archives as RisuAI writes and reads them, and as SillyTavern picks their card:
unnamed assets, `/` in a name, the JPEG cover's escrow key, card.json's place, an empty ZIP."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest
from cards_support import cross, read
from risu_support import opened, zip_of

from bunzai.adapters.common import png
from bunzai.adapters.common.zipsafe import open_archive
from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from bunzai.model.character import Character

ICON = png.default_portrait()
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + b"\x00" * 64 + b"\xff\xd9"
CARD = {"spec": "chara_card_v3", "spec_version": "3.0", "data": {"name": "Ada", "first_mes": "hi"}}


def _stored(*payloads: bytes) -> tuple[list[dict], dict[str, bytes]]:
    refs = [{"sha256": hashlib.sha256(data).hexdigest(), "ext": "png"} for data in payloads]
    return refs, {ref["sha256"]: data for ref, data in zip(refs, payloads)}


def _sillytavern_card(names: list[str]) -> str | None:
    """What SillyTavern's CHARX import reads as the card (src/charx.js, extractFileFromZipBuffer):
    the first member, in archive order, whose name ends in `card.json`."""
    return next((name for name in names if name.endswith("card.json") and not name.startswith("__MACOSX")), None)


def _written(assets: list[dict], stored: dict[str, bytes], target: str) -> list[str]:
    piece = Character(id="ada", name="Ada", assets=assets)
    return [name for name, _data in opened(convert_piece(piece, target, lambda ref: stored[ref.sha256]).data)]


# --- 1. an asset with no name ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "folder"), [("risu.charx", "assets/emotion/image"), ("charx", "assets/emotion/images")]
)
def test_an_unnamed_asset_is_named_as_risuai_names_it(no_table, target, folder):
    """RisuAI's export names it `asset_<n>`, n counting the files it writes from 1: a linked
    (http) asset writes no file and is not counted."""
    refs, stored = _stored(ICON, ICON + b"2")
    assets = [
        {"role": "emotion", "name": "", "ext": "png", "asset": refs[0]},
        {"role": "emotion", "name": "far", "ext": "png", "uri": "https://example.com/far.png"},
        {"role": "emotion", "name": "", "ext": "png", "asset": refs[1]},
    ]
    names = _written(assets, stored, target)
    assert f"{folder}/asset_1.png" in names and f"{folder}/asset_2.png" in names


# --- 2. `/` in a new asset's name --------------------------------------------------------------


def test_a_slash_in_a_new_asset_s_name_is_a_folder_as_risuai_writes_it(no_table):
    refs, stored = _stored(ICON, ICON + b"2", ICON + b"3")
    assets = [
        {"role": "emotion", "name": "happy/1", "ext": "png", "asset": refs[0]},
        {"role": "emotion", "name": "../up//x", "ext": "png", "asset": refs[1]},
        {"role": "emotion", "name": "Hi?.", "ext": "png", "asset": refs[2]},
    ]
    piece = Character(id="ada", name="Ada", assets=assets)
    data = convert_piece(piece, "risu.charx", lambda ref: stored[ref.sha256]).data
    names = [name for name, _data in opened(data)]
    assert names[:2] == ["x_meta/happy/1.json", "assets/emotion/image/happy/1.png"]
    # a folder a reader refuses (`..`, empty) is `_`; a trailing dot of the name stays, as in RisuAI
    assert "assets/emotion/image/_/up/_/x.png" in names and "assets/emotion/image/Hi_..png" in names
    open_archive(data)  # bunzai's own reader takes every name
    _adapter, decoded, _media = read(data, "ada.charx")
    assert [link.name for link in decoded.pieces[0].assets] == ["happy/1", "../up//x", "Hi?."]
    assert all(link.asset is not None for link in decoded.pieces[0].assets)


# --- 4. a member named like the cover's old escrow key ---------------------------------------


def test_a_member_named_cover_jpg_stays_a_member_and_is_no_cover():
    source = zip_of([("card.json", json.dumps(CARD).encode()), ("#cover.jpg", JPEG)])
    crossing = cross(source, "ada.charx", "charx")
    assert crossing.data.startswith(b"PK\x03\x04")  # no cover put before the archive
    assert dict(opened(crossing.data))["#cover.jpg"] == JPEG  # under its own name, as RisuAI would keep it
    assert [loss for loss in crossing.losses if loss.code == "charx.member.renamed"] == []
    again = cross(crossing.data, "ada.charx", "charx")  # read back, it is still a member and no cover
    assert again.data == crossing.data


def test_a_polyglot_holding_a_member_named_cover_jpg_keeps_both():
    source = JPEG + zip_of([("card.json", json.dumps(CARD).encode()), ("#cover.jpg", JPEG + b"member")])
    crossing = cross(source, "ada.jpg", "charx")
    assert crossing.data.startswith(JPEG + b"PK\x03\x04")
    assert dict(opened(crossing.data))["#cover.jpg"] == JPEG + b"member"


def test_a_member_named_cover_jpg_survives_the_studio(bunzai, tmp_path):
    """The empty cover escrowed beside such a member is stored and read back like any asset."""
    path = tmp_path / "ada.charx"
    path.write_bytes(zip_of([("card.json", json.dumps(CARD).encode()), ("#cover.jpg", JPEG)]))
    drafts = bunzai("import", str(path), check=True).stdout
    [receipt] = [json.loads(line) for line in bunzai("apply", "--yes", input=drafts, check=True).stdout.splitlines()]
    exported = bunzai("export", receipt["target"]["id"], "--to", "charx", check=True).json
    data = (bunzai.studio / exported["path"]).read_bytes()
    assert data.startswith(b"PK\x03\x04") and dict(opened(data))["#cover.jpg"] == JPEG


def test_an_escrow_holding_the_cover_under_the_old_key_still_writes_it():
    member = b"icon bytes"
    refs = {data: {"sha256": hashlib.sha256(data).hexdigest(), "ext": "jpg"} for data in (JPEG, member)}
    blobs = {ref["sha256"]: data for data, ref in refs.items()}
    piece = Character(
        id="ada",
        name="Ada",
        original={
            "format": "charx",
            "document": CARD,
            "files": {"#cover.jpg": refs[JPEG], "extra/notes.jpg": refs[member]},
        },
    )
    written = convert_piece(piece, "charx", lambda ref: blobs[ref.sha256]).data
    assert written.startswith(JPEG + b"PK\x03\x04")
    assert dict(opened(written[len(JPEG) :]))["extra/notes.jpg"] == member


# --- 6. card.json where SillyTavern looks for it ---------------------------------------------


def test_card_json_goes_first_when_a_note_s_name_ends_in_card_json(no_table):
    """RisuAI writes card.json last, and the note of an asset named `postcard` is
    x_meta/postcard.json: SillyTavern reads the first member ending in card.json as the card."""
    refs, stored = _stored(ICON, ICON + b"2")
    postcard = [{"role": "emotion", "name": "postcard", "ext": "png", "asset": refs[0]}]
    names = _written(postcard, stored, "risu.charx")
    assert "x_meta/postcard.json" in names and _sillytavern_card(names) == "card.json"
    joy = [{"role": "emotion", "name": "joy", "ext": "png", "asset": refs[1]}]
    assert _written(joy, stored, "risu.charx")[-1] == "card.json"  # otherwise RisuAI's order


def test_a_risuai_file_whose_note_sillytavern_would_read_is_read_with_a_warning_and_fixed(no_table):
    card = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {
            "name": "Ada",
            "extensions": {"risuai": {}},
            "assets": [
                {
                    "type": "emotion",
                    "uri": "embeded://assets/emotion/image/postcard.png",
                    "name": "postcard",
                    "ext": "png",
                }
            ],
        },
    }
    items = [
        ("x_meta/postcard.json", b'{"type":"PNG"}'),
        ("assets/emotion/image/postcard.png", ICON),
        ("card.json", json.dumps(card, indent=4).encode()),
    ]
    adapter, decoded, media = read(zip_of(items), "ada.charx")
    assert adapter.format_id == "risu.charx" and decoded.pieces[0].name == "Ada"
    assert any("x_meta/postcard.json" in warning and "SillyTavern" in warning for warning in decoded.warnings)
    written = opened(convert_piece(decoded.pieces[0], "risu.charx", media).data)
    assert written[0][0] == "card.json" and dict(written) == dict(items) | {"card.json": dict(written)["card.json"]}


# --- 7. an empty ZIP with --format ------------------------------------------------------------


def _empty_zip() -> bytes:
    buffer = io.BytesIO()
    zipfile.ZipFile(buffer, "w").close()
    return buffer.getvalue()


@pytest.mark.parametrize("format_id", ["risu.charx", "charx", "backyard.byaf", "ccv3.json"])
def test_an_empty_zip_read_with_a_format_is_named_an_empty_archive(format_id):
    with pytest.raises(BunzaiError) as raised:
        read_bytes(_empty_zip(), "ada.charx", format_id)
    assert raised.value.code == "unrecognized_file" and "empty ZIP archive" in raised.value.message


def test_importing_an_empty_zip_as_risu_charx_says_it_is_empty(bunzai, tmp_path):
    path = tmp_path / "ada.charx"
    path.write_bytes(_empty_zip())
    done = bunzai("import", str(path), "--format", "risu.charx")
    assert done.code == 1 and "empty ZIP archive" in done.json["error"]["message"]
