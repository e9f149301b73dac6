"""CHARX member names as RisuAI writes and reads them: UTF-8 names with the ZIP's UTF-8 flag
(RisuAI's fflate sets it; fflate and SillyTavern's yauzl read a name without it as Latin-1 or
code page 437), percent-encoded names bunzai wrote before, `unknown`-ext assets filed as
`image/<name>.png`, and a card.json that sits in a folder."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile

import pytest
from cards_support import cross, read
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from risu_support import zip_of

from bunzai.adapters.common import png
from bunzai.adapters.common.zipsafe import open_archive, write_archive
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from bunzai.model.character import Character

ICON = png.default_portrait()
UTF8_FLAG = 0x800


def _infos(data: bytes) -> dict[str, zipfile.ZipInfo]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: info for info in archive.infolist()}


def _card_json(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return json.loads(archive.read("card.json"))


def _character(*assets: dict) -> tuple[Character, dict[str, bytes]]:
    """A character whose assets are stored files (ICON, then ICON plus a byte per further one)."""
    stored, links = {}, []
    for number, link in enumerate(assets):
        data = ICON + bytes(number)
        sha = hashlib.sha256(data).hexdigest()
        stored[sha] = data
        links.append({"role": "emotion", "ext": "png", "asset": {"sha256": sha, "ext": "png"}} | link)
    return Character(id="ada", name="Ada", assets=links), stored


# --- 1. UTF-8 names ---------------------------------------------------------------------------


def test_the_writer_writes_a_non_ascii_name_in_utf8_with_the_flag_and_an_ascii_one_without():
    data = write_archive([("assets/emotion/image/기쁨.png", ICON), ("card.json", b"{}")])
    infos = _infos(data)
    assert infos["assets/emotion/image/기쁨.png"].flag_bits & UTF8_FLAG
    assert not infos["card.json"].flag_bits & UTF8_FLAG  # as fflate: the flag only where the name needs it
    assert "assets/emotion/image/기쁨.png".encode() in data  # the name's own UTF-8 bytes, not an escape
    assert open_archive(data).read("assets/emotion/image/기쁨.png") == ICON


@pytest.mark.parametrize("target", ["charx", "risu.charx"])
def test_a_new_asset_with_a_non_ascii_name_is_written_under_its_utf8_name(no_table, target):
    piece, stored = _character({"name": "기쁨"})
    written = convert_piece(piece, target, lambda ref: stored[ref.sha256]).data
    folder = "image" if target == "risu.charx" else "images"
    member = f"assets/emotion/{folder}/기쁨.png"
    assert _infos(written)[member].flag_bits & UTF8_FLAG
    assert _card_json(written)["data"]["assets"][0]["uri"] == "embeded://" + member
    if target == "risu.charx":  # RisuAI's note beside it is named as the asset is
        assert _infos(written)["x_meta/기쁨.json"].flag_bits & UTF8_FLAG
    _adapter, decoded, _media = read(written, "ada.charx")
    [link] = decoded.pieces[0].assets
    assert link.name == "기쁨" and link.asset is not None and link.asset.sha256 in stored


@pytest.mark.parametrize("folder", ["image", "images"])  # RisuAI's layout (risu.charx), the spec's (charx)
def test_a_percent_encoded_member_bunzai_wrote_before_reads_and_writes_back_unchanged(folder):
    member = f"assets/emotion/{folder}/%EA%B8%B0%EC%81%A8.png"  # how bunzai wrote 기쁨.png before
    card = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {
            "name": "Ada",
            "assets": [{"type": "emotion", "uri": "embeded://" + member, "name": "기쁨", "ext": "png"}],
        },
    }
    source = zip_of([("card.json", json.dumps(card, indent=4).encode()), (member, ICON)])
    _adapter, decoded, _media = read(source, "ada.charx")
    [link] = decoded.pieces[0].assets
    assert link.name == "기쁨" and link.asset is not None
    crossing = cross(source, "ada.charx")  # back to the format it read as (RisuAI's layout)
    assert member in _infos(crossing.data)  # not percent-encoded again (%25EA...)
    assert [loss.code for loss in crossing.losses if loss.code == "charx.member.renamed"] == []
    assert _card_json(crossing.data)["data"]["assets"][0]["uri"] == "embeded://" + member


def test_an_escrowed_non_ascii_member_keeps_its_name_and_needs_no_loss():
    card = {"spec": "chara_card_v3", "spec_version": "3.0", "data": {"name": "Ada"}}
    source = zip_of([("card.json", json.dumps(card).encode()), ("メモ/説明.txt", b"notes")])
    crossing = cross(source, "ada.charx", "charx")
    assert _infos(crossing.data)["メモ/説明.txt"].flag_bits & UTF8_FLAG
    assert crossing.losses == []


def test_a_name_is_cut_at_100_utf16_units_as_risuai_cuts_it(no_table):
    name = "x" + "😀" * 60  # the 100th UTF-16 unit is half an emoji: RisuAI's TextEncoder writes U+FFFD
    piece, stored = _character({"name": name})
    written = convert_piece(piece, "risu.charx", lambda ref: stored[ref.sha256]).data
    assert "assets/emotion/image/x" + "😀" * 49 + "\ufffd.png" in _infos(written)


@pytest.mark.parametrize(
    "name",
    ["../기쁨.png", "/기쁨.png", "a/../../기쁨.png", "기쁨\\..\\x.png"],
)
def test_a_hostile_utf8_name_with_the_flag_is_still_refused(name):
    data = zip_of([("card.json", b"{}"), (name, ICON)])
    assert _infos(data)[name].flag_bits & UTF8_FLAG
    with pytest.raises(BunzaiError) as caught:
        open_archive(data)
    assert caught.value.code == "unsafe_archive"


NAMES = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from("/\\.:?*%#"), max_size=120)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=NAMES, target=st.sampled_from(["charx", "risu.charx"]))
def test_whatever_an_asset_is_named_the_archive_opens_and_the_asset_reads_back(name, target):
    piece, stored = _character({"name": name})
    written = convert_piece(piece, target, lambda ref: stored[ref.sha256]).data
    archive = open_archive(written)  # every name written passes bunzai's own reader
    uri = _card_json(written)["data"]["assets"][0]["uri"]
    assert archive.has(uri.removeprefix("embeded://"))  # the uri names its member exactly, as RisuAI looks it up
    _adapter, decoded, _media = read(written, "ada.charx")
    [link] = decoded.pieces[0].assets
    assert link.name == name and link.asset is not None and link.asset.sha256 in stored


# --- 2. `unknown`-ext assets ------------------------------------------------------------------


def test_an_unknown_ext_asset_is_filed_as_risuai_files_it(no_table):
    # RisuAI's JSON export writes an asset's bytes as data:application/octet-stream, ext kept.
    uri = "data:application/octet-stream;base64," + base64.b64encode(ICON).decode()
    card = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {"name": "Ada", "assets": [{"type": "x-risu-asset", "uri": uri, "name": "map", "ext": "unknown"}]},
    }
    crossing = cross(json.dumps(card).encode(), "ada.json", "risu.charx")
    [entry] = _card_json(crossing.data)["data"]["assets"]
    assert entry["uri"] == "embeded://assets/other/image/map.png" and entry["ext"] == "unknown"
    assert open_archive(crossing.data).read("assets/other/image/map.png") == ICON


def test_risuai_s_unknown_ext_form_reads_back_to_the_same_asset_and_stays_put(no_table):
    member = "assets/other/image/map.png"
    card = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {
            "name": "Ada",
            "extensions": {"risuai": {}},
            "assets": [{"type": "x-risu-asset", "uri": "embeded://" + member, "name": "map", "ext": "unknown"}],
        },
    }
    source = zip_of([("x_meta/map.json", b'{"type":"PNG"}'), (member, ICON), ("card.json", json.dumps(card).encode())])
    adapter, decoded, media = read(source, "ada.charx")
    assert adapter.format_id == "risu.charx"
    [link] = decoded.pieces[0].assets
    assert link.ext == "unknown" and link.asset is not None and link.asset.sha256 == hashlib.sha256(ICON).hexdigest()
    # Through a format that keeps no archive (a JSON card) and back: written where RisuAI writes it.
    as_json = convert_piece(decoded.pieces[0], "ccv3.json", media)
    _adapter, again, media_again = read(as_json.data, "ada.json")
    back = convert_piece(again.pieces[0], "risu.charx", media_again)
    assert _card_json(back.data)["data"]["assets"][0]["uri"] == "embeded://" + member
    _adapter, last, _media = read(back.data, "ada.charx")
    assert last.pieces[0].assets[0].asset.sha256 == link.asset.sha256


# --- 3. card.json in a folder -----------------------------------------------------------------

FOLDERED = zip_of(
    [
        (
            "Ada/card.json",
            json.dumps({"spec": "chara_card_v3", "spec_version": "3.0", "data": {"name": "Ada"}}).encode(),
        ),
        ("Ada/assets/icon/images/main.png", ICON),
    ]
)


@pytest.mark.parametrize("format_id", [None, "charx", "risu.charx"])
def test_a_card_json_in_a_folder_is_refused_naming_where_it_is(format_id):
    with pytest.raises(BunzaiError) as caught:
        read(FOLDERED, "ada.charx", format_id)
    assert caught.value.code == "unrecognized_file"
    assert "'Ada/card.json'" in caught.value.message and "root" in caught.value.message
    assert "'Ada'" in caught.value.hint and "root" in caught.value.hint


def test_a_macos_resource_fork_of_card_json_is_not_taken_for_the_card():
    data = zip_of([("__MACOSX/Ada/._card.json", b"\x00\x05"), ("notes.txt", b"n")])
    with pytest.raises(BunzaiError) as caught:
        read(data, "ada.charx", "charx")
    assert "card.json is at" not in caught.value.message


def test_convert_refuses_a_foldered_charx_naming_its_card_json(bunzai, tmp_path):
    path = tmp_path / "ada.charx"
    path.write_bytes(FOLDERED)
    done = bunzai("convert", str(path), "--to", "ccv3.json", "-o", str(tmp_path / "ada.json"))
    assert done.code != 0
    error = done.json["error"]
    assert error["code"] == "unrecognized_file" and "'Ada/card.json'" in error["message"]
    assert not (tmp_path / "ada.json").exists()
