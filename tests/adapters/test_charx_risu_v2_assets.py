"""A RisuAI V2 card's emotions and additional assets cross into a CHARX as RisuAI's own export carries them.

RisuAI's V2 card keeps them in extensions.risuai (`[name, "__asset:N"]`, the PNG's
`chara-ext-asset_:N` chunk); its CHARX export (createBaseV3) writes them as V3 `assets`
entries: additional assets (`x-risu-asset`, ext the item's third value or png), then emotions
(`emotion`, png), then the main icon; extensions.risuai keeps neither list, and `vits: {}`.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile

import pytest
from cards_support import cross, not_carried, read
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.adapters.common import png
from bunzai.adapters.common.card_fields import v2_data_template
from bunzai.convert import convert_piece

IMAGE = png.default_portrait()
JOY = IMAGE + b"joy"  # any bytes: the chunk's base64 is what RisuAI reads
SAD = IMAGE + b"sad"
BGM = b"ID3\x03\x00\x00\x00fake mp3"
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def v2_card(risu: dict) -> dict:
    data = v2_data_template() | {"name": "Vee", "description": "d", "first_mes": "hi"}
    data["extensions"] = {"risuai": {"bias": [], "viewScreen": "emotion", **risu}}
    return {"spec": "chara_card_v2", "spec_version": "2.0", "data": data}


RISU = {
    "emotions": [["joy", "__asset:1"], ["sad", "__asset:2"]],
    "additionalAssets": [["bgm.mp3", "__asset:3", "mp3"]],
    "vits": {},
}
CHUNKS = {"1": JOY, "2": SAD, "3": BGM}


def v2_png(risu: dict = RISU, chunks: dict[str, bytes] = CHUNKS) -> bytes:
    """A PNG as RisuAI's V2 export wrote it: the asset chunks, then `chara` alone, before IEND."""
    added = [(f"chara-ext-asset_:{key}", base64.b64encode(data)) for key, data in chunks.items()]
    added.append(("chara", base64.b64encode(json.dumps(v2_card(risu)).encode())))
    return png.replace_text(png.read_png(IMAGE), set(), added)


def opened(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def codes(crossing) -> set[tuple[str, str]]:
    return {(loss.pointer, loss.code) for loss in crossing.losses}


def test_emotions_and_an_additional_asset_become_risuai_s_v3_assets_in_a_risu_charx(no_table):
    crossing = cross(v2_png(), "vee.png", "risu.charx")
    files = opened(crossing.data)
    card = json.loads(files["card.json"])
    assets = card["data"]["assets"]
    assert [(a["type"], a["name"], a["ext"], a["uri"]) for a in assets] == [
        ("x-risu-asset", "bgm.mp3", "mp3", "embeded://assets/other/audio/bgm.mp3.mp3"),
        ("emotion", "joy", "png", "embeded://assets/emotion/image/joy.png"),
        ("emotion", "sad", "png", "embeded://assets/emotion/image/sad.png"),
        ("icon", "main", "png", "embeded://assets/icon/image/main.png"),
    ]
    assert files["assets/emotion/image/joy.png"] == JOY
    assert files["assets/emotion/image/sad.png"] == SAD
    assert files["assets/other/audio/bgm.mp3.mp3"] == BGM
    assert {"x_meta/joy.json", "x_meta/sad.json", "x_meta/bgm.mp3.json"} <= set(files)
    risu = card["data"]["extensions"]["risuai"]
    assert "emotions" not in risu and "additionalAssets" not in risu
    assert risu["viewScreen"] == "emotion"
    named = codes(crossing)
    assert ("/body/extensions/risuai/emotions", "charx.risu_v2.as_assets") in named
    assert ("/body/extensions/risuai/additionalAssets", "charx.risu_v2.as_assets") in named
    assert not [code for _pointer, code in named if code == "risu.import.v2_assets"]
    assert not_carried(crossing) == []
    # the writer named the move: the card's own key is not also said to be dropped
    assert not [p for p, code in named if code.startswith("card.key.") and "/extensions/risuai/" in p]


def test_the_risu_charx_reads_back_with_the_same_assets(no_table):
    crossing = cross(v2_png(), "vee.png", "risu.charx")
    _adapter, decoded, media = read(crossing.data, "vee.charx")
    piece = decoded.pieces[0]
    got = [(link.role, link.name, link.ext, link.asset.sha256 if link.asset else None) for link in piece.assets]
    assert got[:3] == [
        ("x-risu-asset", "bgm.mp3", "mp3", sha(BGM)),
        ("emotion", "joy", "png", sha(JOY)),
        ("emotion", "sad", "png", sha(SAD)),
    ]
    assert got[3][:2] == ("icon", "main")
    assert media(piece.assets[1].asset) == JOY


def test_the_generic_charx_carries_them_too_under_the_spec_s_folders(no_table):
    crossing = cross(v2_png(), "vee.png", "charx")
    files = opened(crossing.data)
    assets = json.loads(files["card.json"])["data"]["assets"]
    assert [(a["type"], a["name"], a["uri"]) for a in assets[:3]] == [
        ("x-risu-asset", "bgm.mp3", "embeded://assets/x-risu-asset/audio/bgm.mp3.mp3"),
        ("emotion", "joy", "embeded://assets/emotion/images/joy.png"),
        ("emotion", "sad", "embeded://assets/emotion/images/sad.png"),
    ]
    assert files["assets/emotion/images/joy.png"] == JOY
    assert ("/body/extensions/risuai/emotions", "charx.risu_v2.as_assets") in codes(crossing)
    assert not_carried(crossing) == []


def test_a_v2_json_card_s_base64_emotions_cross_too(no_table):
    """RisuAI's V2 JSON holds each file as base64 (its import: Buffer.from(value, 'base64'))."""
    risu = {"emotions": [["joy", base64.b64encode(JOY).decode()]], "additionalAssets": [["bg", "data:image/png;base64,"
            + base64.b64encode(SAD).decode()]]}  # fmt: skip
    crossing = cross(json.dumps(v2_card(risu)).encode(), "vee.json", "risu.charx")
    files = opened(crossing.data)
    assets = json.loads(files["card.json"])["data"]["assets"]
    assert [(a["type"], a["name"], a["ext"]) for a in assets] == [
        ("x-risu-asset", "bg", "png"),
        ("emotion", "joy", "png"),
    ]
    assert files["assets/emotion/image/joy.png"] == JOY
    assert files["assets/other/image/bg.png"] == SAD


def test_voices_and_an_emotion_whose_chunk_is_missing_stay_in_extensions_and_are_named(no_table):
    risu = RISU | {"emotions": RISU["emotions"] + [["gone", "__asset:9"]], "vits": {"voice": "__asset:3"}}
    crossing = cross(v2_png(risu), "vee.png", "risu.charx")
    card = json.loads(opened(crossing.data)["card.json"])
    assert [a["name"] for a in card["data"]["assets"] if a["type"] == "emotion"] == ["joy", "sad"]
    assert card["data"]["extensions"]["risuai"]["emotions"] == [["gone", "__asset:9"]]
    assert card["data"]["extensions"]["risuai"]["vits"] == {"voice": "__asset:3"}
    named = codes(crossing)
    assert ("/body/extensions/risuai/emotions", "risu.import.v2_assets") in named
    assert ("/body/extensions/risuai/vits", "risu.import.v2_assets") in named
    assert ("/body/extensions/risuai/emotions", "charx.risu_v2.as_assets") in named


def test_a_charx_holding_v2_style_emotions_is_written_back_as_it_was(no_table):
    """A same-format write moves nothing: card.json stays JSON-equal."""
    first = cross(v2_png(), "vee.png", "charx")
    files = opened(first.data)
    card = json.loads(files["card.json"])
    card["data"]["extensions"]["risuai"]["emotions"] = [["joy", base64.b64encode(JOY).decode()]]
    files["card.json"] = json.dumps(card).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    again = cross(buffer.getvalue(), "vee.charx", "charx")
    assert json.loads(opened(again.data)["card.json"]) == card


def test_the_charx_crossed_back_to_a_png_keeps_the_emotions_as_ccv3_assets(no_table):
    """RisuAI reads ccv3 before chara, so its V3 import takes the emotions from data.assets."""
    _adapter, decoded, media = read(cross(v2_png(), "vee.png", "risu.charx").data, "vee.charx")
    crossing = convert_piece(decoded.pieces[0], "sillytavern.card.png", media)
    image = png.read_png(crossing.data)
    ccv3 = json.loads(base64.b64decode(png.find_text(image, "ccv3").text))
    entries = [a for a in ccv3["data"]["assets"] if a["type"] in ("emotion", "x-risu-asset")]
    chunks = {
        text.keyword.split(":", 1)[1]: base64.b64decode(text.text)
        for text in image.text_chunks()
        if text.keyword.startswith("chara-ext-asset_:")
    }
    assert [(a["name"], chunks[a["uri"].removeprefix("__asset:")]) for a in entries] == [
        ("bgm.mp3", BGM),
        ("joy", JOY),
        ("sad", SAD),
    ]


NAMES = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12) | st.sampled_from(
    ["joy", "a/b", "/", "..", "기쁨"]
)


@SETTINGS
@given(
    emotions=st.lists(st.tuples(NAMES, st.integers(0, 3)), min_size=1, max_size=6),
)
def test_any_emotion_names_cross_with_each_image_once_and_read_back_named_as_risuai_names_them(emotions):
    images = [IMAGE + bytes([n]) * (n + 1) for n in range(4)]
    risu = {"emotions": [[name, f"__asset:{image}"] for name, image in emotions]}
    crossing = cross(v2_png(risu, dict(enumerate(images))), "vee.png", "risu.charx")
    files = opened(crossing.data)
    used = {images[image] for _name, image in emotions}
    members = [data for name, data in files.items() if name.startswith("assets/emotion/")]
    assert sorted(members) == sorted(used)  # each image once, whatever the names
    _adapter, decoded, _media = read(crossing.data, "vee.charx")
    links = [link for link in decoded.pieces[0].assets if link.role == "emotion"]
    # RisuAI's V3 import names each emotion by its entry's name, as written
    assert [(link.name, link.asset.sha256) for link in links] == [(name, sha(images[i])) for name, i in emotions]
    assert not_carried(crossing) == []


@pytest.mark.parametrize("target", ["risu.charx", "charx"])
def test_a_card_without_risu_lists_is_untouched(target, no_table):
    crossing = cross(v2_png({}, {}), "vee.png", target)
    assets = json.loads(opened(crossing.data)["card.json"])["data"]["assets"]
    assert [a["name"] for a in assets] == ["main"]
    assert "charx.risu_v2.as_assets" not in {code for _pointer, code in codes(crossing)}
