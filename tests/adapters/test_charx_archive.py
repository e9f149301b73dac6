"""CHARX archives: what reads, what a round trip keeps byte for byte, what crossings report."""

from __future__ import annotations

import copy
import io
import json
import zipfile

import pytest
from cards_support import cross, edit_body, not_carried, read
from testkit import corpus_path

from bunzai import limits
from bunzai.adapters.common import png
from bunzai.adapters.inspect import read_bytes
from bunzai.errors import BunzaiError

ICON = png.default_portrait()
JOY = png.replace_text(png.read_png(ICON), set(), [("Comment", b"joy")])
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + b"\x00" * 64 + b"\xff\xd9"


def card(**data) -> dict:
    base = {
        "name": "Ada",
        "description": "d",
        "personality": "p",
        "scenario": "",
        "first_mes": "hi",
        "mes_example": "",
        "creator_notes": "",
        "system_prompt": "",
        "post_history_instructions": "",
        "alternate_greetings": [],
        "tags": ["t"],
        "creator": "c",
        "character_version": "1",
        "extensions": {"risuai": {"bias": []}},
        "group_only_greetings": [],
        "nickname": "",
        "character_book": {
            "name": "Lore",
            "extensions": {},
            "entries": [
                {
                    "keys": ["k"],
                    "content": "c",
                    "extensions": {},
                    "enabled": True,
                    "insertion_order": 1,
                    "use_regex": False,
                    "id": 1,
                }
            ],
        },
        "assets": [
            {"type": "icon", "uri": "embeded://assets/icon/images/main.png", "name": "main", "ext": "png"},
            {"type": "emotion", "uri": "embeded://assets/emotion/image/joy.png", "name": "joy", "ext": "png"},
            {"type": "background", "uri": "https://example.com/bg.jpg", "name": "main", "ext": "jpg"},
            {"type": "x-risu-asset", "uri": "data:text/plain;base64,aGk=", "name": "note", "ext": "txt"},
        ],
    }
    return {"spec": "chara_card_v3", "spec_version": "3.0", "data": base | data}


def members(document: dict | None = None) -> list[tuple[str, bytes]]:
    """RisuAI's order: assets and x_meta, then module.risum, then card.json; plus an app file and a stray."""
    return [
        ("assets/icon/images/main.png", ICON),
        ("assets/emotion/image/joy.png", JOY),
        ("x_meta/main.json", b'{"type":"PNG"}'),
        ("module.risum", b"\x6f\x00\x04\x00\x00\x00fake\x00"),
        ("lumiverse_modules.json", b'{"modules": []}\n'),
        ("extras/readme.txt", b"not named by the card"),
        ("card.json", json.dumps(document or card(), indent=4).encode()),
    ]


def charx(items: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in items:
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def opened(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def test_a_charx_reads_as_a_character_and_its_linked_lorebook():
    adapter, decoded, _media = read(charx(members()), "ada.charx")
    character, book = decoded.pieces
    assert adapter.format_id == "charx"
    assert (character.kind, book.kind) == ("character", "lorebook")
    assert character.body.links.lorebooks == [book.id]
    assert [link.role for link in character.assets] == ["icon", "emotion", "background", "x-risu-asset"]
    icon, joy, background, note = character.assets
    assert icon.asset is not None and icon.uri is None
    assert joy.asset is not None  # Risu's singular `image` folder reads
    assert background.uri == "https://example.com/bg.jpg" and background.asset is None
    assert note.asset is not None  # a data: uri is decoded as the card spokes do
    assert character.body.portrait == icon.asset
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    assert blobs[icon.asset.sha256] == ICON and blobs[note.asset.sha256] == b"hi"
    assert all(ref.sha256 in blobs for ref in character.asset_refs())


def test_every_member_but_card_json_is_kept_in_the_escrow_under_its_name():
    _adapter, decoded, _media = read(charx(members()), "ada.charx")
    escrow = decoded.pieces[0].original
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    assert escrow.format == "charx"
    assert escrow.document == card()
    assert {name: blobs[ref.sha256] for name, ref in escrow.files.items()} == dict(members()[:-1])
    assert any("module.risum" in warning for warning in decoded.warnings)


def test_a_dangling_embedded_uri_resolves_by_basename():
    document = card()
    document["data"]["assets"][0]["uri"] = "embeded://assets/icon/image/main.png"  # the member is under images/
    document["data"]["assets"][1]["uri"] = "embeded://assets/emotion/image/jo:y.png"  # Risu sanitized jo:y -> jo_y
    items = [
        ("assets/icon/images/main.png", ICON),
        ("assets/emotion/image/jo_y.png", JOY),
        ("card.json", json.dumps(document).encode()),
    ]
    _adapter, decoded, _media = read(charx(items), "ada.charx")
    icon, joy = decoded.pieces[0].assets[:2]
    assert icon.asset is not None and joy.asset is not None
    assert joy.asset.sha256 != icon.asset.sha256


def test_an_unresolvable_embedded_uri_is_kept_as_a_uri_with_a_warning():
    document = card()
    document["data"]["assets"][1]["uri"] = "embeded://assets/emotion/images/missing.png"
    _adapter, decoded, _media = read(charx(members(document)), "ada.charx")
    assert decoded.pieces[0].assets[1].uri == "embeded://assets/emotion/images/missing.png"
    assert any("missing.png" in warning for warning in decoded.warnings)


def test_a_jpeg_followed_by_the_zip_reads_as_a_charx():
    adapter, decoded, _media = read(JPEG + charx(members()), "ada.jpg")
    assert adapter.format_id == "charx"
    assert decoded.pieces[0].name == "Ada"
    assert not any("polyglot" in warning for warning in decoded.warnings)


def test_a_jpeg_zip_polyglot_keeps_its_jpeg_cover_on_the_way_back():
    import zipfile

    source = JPEG + charx(members())
    for edit in (None, lambda piece: piece.model_copy(update={"name": "Ada B."})):
        crossing = cross(source, "ada.jpg", "charx", edit)
        assert crossing.data.startswith(JPEG) and crossing.data[len(JPEG) : len(JPEG) + 4] == b"PK\x03\x04"
        assert zipfile.ZipFile(io.BytesIO(crossing.data)).testzip() is None
        _adapter, again, _media = read(crossing.data, "again.jpg")
        assert again.pieces[0].name == ("Ada" if edit is None else "Ada B.")
    plain = cross(source, "ada.jpg", "ccv3.json")
    assert not plain.data.startswith(JPEG)


def test_a_same_format_round_trip_keeps_card_json_and_every_member():
    crossing = cross(charx(members()), "ada.charx")
    written = opened(crossing.data)
    assert crossing.losses == []
    assert json.loads(written.pop("card.json")) == card()
    assert written == dict(members()[:-1])


def test_an_edit_changes_only_its_field_in_card_json():
    crossing = cross(charx(members()), "ada.charx", edit=edit_body(description="edited"))
    expected = card()
    expected["data"]["description"] = "edited"
    assert json.loads(opened(crossing.data)["card.json"]) == expected
    assert not_carried(crossing) == []


def test_writing_is_deterministic_with_ascii_names_and_no_encryption():
    first, second = cross(charx(members()), "ada.charx"), cross(charx(members()), "ada.charx")
    assert first.data == second.data
    with zipfile.ZipFile(io.BytesIO(first.data)) as archive:
        assert archive.namelist()[0] == "card.json"
        assert all(info.filename.isascii() and not info.flag_bits & 0x1 for info in archive.infolist())


def test_a_non_ascii_member_name_is_written_back_under_its_utf8_name_and_still_resolves():
    document = card()
    document["data"]["assets"][1] |= {"uri": "embeded://assets/emotion/image/기쁨.png", "name": "기쁨"}
    items = [(name.replace("joy.png", "기쁨.png"), data) for name, data in members(document)]
    crossing = cross(charx(items), "ada.charx")
    with zipfile.ZipFile(io.BytesIO(crossing.data)) as archive:
        info = archive.getinfo("assets/emotion/image/기쁨.png")  # UTF-8 with the flag, as RisuAI's fflate writes
        assert info.flag_bits & 0x800
    assert crossing.losses == []
    _adapter, again, _media = read(crossing.data, "ada.charx")
    assert again.pieces[0].assets[1].asset is not None


def test_a_replaced_icon_is_written_as_a_new_member_and_the_old_one_dropped():
    _adapter, decoded, media = read(charx(members()), "ada.charx")
    piece = decoded.pieces[0]
    joy = piece.assets[1]
    assets = [piece.assets[0].model_copy(update={"asset": joy.asset}), *piece.assets[1:]]
    piece = piece.model_copy(update={"assets": assets, "body": piece.body.model_copy(update={"portrait": joy.asset})})
    from bunzai.convert import convert_piece

    crossing = convert_piece(piece, "charx", media)
    written = opened(crossing.data)
    assert "assets/icon/images/main.png" not in written  # nothing names it any more
    uris = [entry["uri"] for entry in json.loads(written["card.json"])["data"]["assets"]]
    assert uris[0] == uris[1] == "embeded://assets/emotion/image/joy.png"  # the same bytes are written once
    assert not_carried(crossing) == []


def test_crossing_to_ccv3_json_carries_the_assets_as_data_uris():
    crossing = cross(charx(members()), "ada.charx", "ccv3.json")
    document = json.loads(crossing.data)
    assert [entry["uri"][:15] for entry in document["data"]["assets"][:2]] == ["data:image/png;"] * 2
    assert [loss.code for loss in crossing.losses if loss.code != "card.key.rewritten"] == ["escrow.other_format"]
    rewritten = [loss.pointer for loss in crossing.losses if loss.code == "card.key.rewritten"]
    assert rewritten and all(p.startswith("/original/document/data/assets/") for p in rewritten)
    assert not_carried(crossing) == []


def test_crossing_to_a_png_card_carries_the_stored_assets_in_asset_chunks():
    crossing = cross(charx(members()), "ada.charx", "sillytavern.card.png")
    assert [(loss.pointer, loss.code) for loss in crossing.losses if loss.pointer.startswith("/assets")] == [
        ("/assets/0", "card.png.icon_as_default"),  # the main icon is the PNG itself: `ccdefault:`
        ("/assets/3", "card.png.asset_type_inferred"),  # text/plain: a chunk keeps the bytes, the type is its ext
    ]
    assert not_carried(crossing) == []
    _adapter, back, media = read(crossing.data, "ada.png")
    assert [link.uri for link in back.pieces[0].assets] == ["ccdefault:", None, "https://example.com/bg.jpg", None]
    assert media(back.pieces[0].assets[1].asset) == JOY and media(back.pieces[0].assets[3].asset) == b"hi"


def test_a_json_card_crossing_to_charx_stores_its_media_as_members():
    json_card = json.dumps(
        card(
            assets=[
                {
                    "type": "icon",
                    "uri": "data:image/png;base64," + __import__("base64").b64encode(ICON).decode(),
                    "name": "main",
                    "ext": "png",
                }
            ]
        )
    ).encode()
    crossing = cross(json_card, "ada.json", "charx")
    written = opened(crossing.data)
    assert written["assets/icon/images/main.png"] == ICON
    assert json.loads(written["card.json"])["data"]["assets"][0]["uri"] == "embeded://assets/icon/images/main.png"
    assert not_carried(crossing) == []


def test_a_png_card_crossing_to_charx_keeps_its_portrait_as_the_main_icon():
    png_card = cross(charx(members()), "ada.charx", "sillytavern.card.png").data
    crossing = cross(png_card, "ada.png", "charx")
    assert "charx.portrait.as_icon" in [loss.code for loss in crossing.losses]
    assert not_carried(crossing) == []
    _adapter, again, _media = read(crossing.data, "ada.charx")
    assert again.pieces[0].body.portrait is not None


def test_a_corpus_v3_card_packed_as_charx_round_trips():
    document = json.loads(corpus_path("card-architect", "test-ccv3-jem.json").read_bytes())
    crossing = cross(charx([("card.json", json.dumps(document).encode())]), "jem.charx")
    assert json.loads(opened(crossing.data)["card.json"]) == document
    assert not_carried(crossing) == []


def _hostile() -> dict[str, tuple[bytes, tuple[str, ...]]]:
    good = json.dumps(card()).encode()
    duplicated = io.BytesIO()
    with zipfile.ZipFile(duplicated, "w") as archive, pytest.warns(UserWarning):
        archive.writestr("card.json", good)
        archive.writestr("card.json", good)
    stored = zipfile.ZipInfo("assets/other/other/big.bin")
    big = io.BytesIO()
    with zipfile.ZipFile(big, "w") as archive:
        archive.writestr("card.json", good)
        archive.writestr(stored, b"\x01" * (limits.ASSET_MAX_BYTES + 1), compress_type=zipfile.ZIP_STORED)
    whole = charx(members())
    return {
        "bomb": (charx([("card.json", good), ("assets/bomb.bin", b"\x00" * (20 * 1024 * 1024))]), ("unsafe_archive",)),
        "oversized-member": (big.getvalue(), ("unsafe_archive",)),
        "dotdot": (charx([("card.json", good), ("../escape.txt", b"x")]), ("unsafe_archive",)),
        "absolute": (charx([("card.json", good), ("/etc/passwd", b"x")]), ("unsafe_archive",)),
        "duplicated": (duplicated.getvalue(), ("unsafe_archive",)),
        "jpeg-without-zip": (JPEG, ("unrecognized_file",)),
        "no-card-json": (charx([("readme.txt", b"no card here")]), ("unrecognized_file",)),
        "card-json-not-json": (charx([("card.json", b"{not json")]), ("invalid_json",)),
        "card-json-a-list": (charx([("card.json", b"[]")]), ("corrupt_file",)),
        "truncated": (whole[: len(whole) // 2], ("corrupt_file", "unrecognized_file")),
    }


HOSTILE = _hostile()


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_or_broken_charx_gives_a_coded_error(name):
    data, codes = HOSTILE[name]
    with pytest.raises(BunzaiError) as sniffed:
        read_bytes(data, name + ".charx")
    assert sniffed.value.code in codes
    if name != "jpeg-without-zip":
        with pytest.raises(BunzaiError) as named:
            read_bytes(data, name + ".charx", "charx")
        assert named.value.code in codes + ("corrupt_file",)


def test_a_jpeg_without_a_zip_read_as_charx_is_refused_with_a_code():
    with pytest.raises(BunzaiError) as error:
        read_bytes(JPEG, "photo.jpg", "charx")
    assert error.value.code == "unrecognized_file"


@pytest.mark.parametrize("name", ["bomb", "dotdot", "duplicated", "no-card-json", "truncated"])
def test_importing_a_hostile_charx_writes_nothing(bunzai, tmp_path, name):
    path = tmp_path / f"{name}.charx"
    path.write_bytes(HOSTILE[name][0])
    before = sorted(
        p.relative_to(bunzai.studio).as_posix() for p in bunzai.studio.rglob("*") if ".bunzai/locks" not in p.as_posix()
    )
    done = bunzai("import", str(path))
    assert done.code == 1 and "Traceback" not in done.stderr
    assert done.json["error"]["code"] in HOSTILE[name][1]
    after = sorted(
        p.relative_to(bunzai.studio).as_posix() for p in bunzai.studio.rglob("*") if ".bunzai/locks" not in p.as_posix()
    )
    assert after == before


def test_a_copy_of_the_card_is_not_mutated_by_reading():
    document = card()
    kept = copy.deepcopy(document)
    read(charx(members(document)), "ada.charx")
    assert document == kept
