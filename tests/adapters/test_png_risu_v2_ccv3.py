"""An edited RisuAI V2 PNG card keeps its emotions, additional assets and voices in RisuAI.

RisuAI's PNG import reads `ccv3` before `chara`, and reads `extensions.risuai` emotions,
additionalAssets and vits only from a `chara_card_v2` card (importCharacterCardSpec). So a
card read as V2 with such lists is written as RisuAI's V2 export writes it: `chara` alone.
Every other card still gets both chunks.
"""

from __future__ import annotations

import base64
import json

from cards_support import card_png, cross, edit_body, read
from hypothesis import given
from hypothesis import strategies as st
from test_charx_risu_v2_assets import BGM, CHUNKS, JOY, RISU, SAD, SETTINGS, v2_card, v2_png
from test_png_risu_v2_portrait import CHUNKS_WITH_VOICE, VOICE, WITH_VOICE

from bunzai.adapters.common import png


def risu_import(data: bytes) -> dict:
    """What RisuAI's PNG import takes: the chunk it reads (`ccv3` over `chara`), the spec, and the
    emotions, additional assets and voices it finds there, each with the bytes of its chunk."""
    image = png.read_png(data)
    texts = {text.keyword: text.text for text in image.text_chunks()}
    chunks = {key.split(":", 1)[1]: base64.b64decode(text) for key, text in texts.items() if ":" in key}
    keyword = "ccv3" if "ccv3" in texts else "chara"
    card = json.loads(base64.b64decode(texts[keyword]))

    def file(uri: str) -> bytes:
        return chunks[uri.removeprefix("__asset:")]

    found: dict = {"chunk": keyword, "spec": card["spec"], "emotions": [], "additional": [], "voices": {}}
    risu = card["data"]["extensions"].get("risuai", {})
    if card["spec"] == "chara_card_v2":
        found["emotions"] = [(name, file(uri)) for name, uri in risu.get("emotions", [])]
        found["additional"] = [(item[0], file(item[1]), item[2]) for item in risu.get("additionalAssets", [])]
        found["voices"] = {name: file(uri) for name, uri in risu.get("vits", {}).items()}
    else:  # V3: data.assets alone; RisuAI's V3 import reads no voices
        for asset in card["data"].get("assets", []):
            if asset["type"] == "emotion":
                found["emotions"].append((asset["name"], file(asset["uri"])))
            elif asset["type"] == "x-risu-asset":
                found["additional"].append((asset["name"], file(asset["uri"]), asset["ext"]))
    return found


def keywords(data: bytes) -> list[str]:
    return [text.keyword for text in png.read_png(data).text_chunks()]


def test_an_edited_risu_v2_card_is_read_by_risuai_as_v2_with_its_emotions_assets_and_voices():
    data = v2_png(WITH_VOICE, CHUNKS_WITH_VOICE)
    assert risu_import(data)["emotions"] == [("joy", JOY), ("sad", SAD)]  # as RisuAI wrote it
    crossing = cross(data, "vee.png", edit=edit_body(description="changed"))
    assert "ccv3" not in keywords(crossing.data)
    assert risu_import(crossing.data) == {
        "chunk": "chara",
        "spec": "chara_card_v2",
        "emotions": [("joy", JOY), ("sad", SAD)],
        "additional": [("bgm.mp3", BGM, "mp3")],
        "voices": {"model.onnx": VOICE},
    }
    assert crossing.losses == []


def test_the_edited_card_reads_back_in_bunzai_as_it_was_written():
    data = v2_png(WITH_VOICE, CHUNKS_WITH_VOICE)
    edit = edit_body(description="changed", first_message="hello")
    _adapter, decoded, _media = read(data, "vee.png")
    edited = edit(decoded.pieces[0])
    crossing = cross(data, "vee.png", edit=edit)
    _adapter, back, _media = read(crossing.data, "vee.png")
    assert back.pieces[0].body == edited.body
    assert back.pieces[0].assets == edited.assets
    assert cross(crossing.data, "vee.png").data == crossing.data  # and is written back as itself


def test_a_v3_only_field_set_on_such_a_card_is_named_lost():
    crossing = cross(v2_png(), "vee.png", edit=edit_body(nickname="V", description="changed"))
    assert "ccv3" not in keywords(crossing.data)
    assert [(loss.pointer, loss.code) for loss in crossing.losses] == [("/body/nickname", "card.v2.not_carried")]
    _adapter, back, _media = read(crossing.data, "vee.png")
    assert back.pieces[0].body.nickname == ""


def test_a_card_without_v2_lists_still_gets_ccv3():
    for risu in ({}, {"emotions": [], "additionalAssets": [], "vits": {}}):
        crossing = cross(v2_png(risu, {}), "vee.png", edit=edit_body(description="changed"))
        assert keywords(crossing.data)[-2:] == ["chara", "ccv3"]
        assert risu_import(crossing.data)["chunk"] == "ccv3"


def test_a_v3_card_holding_such_lists_keeps_its_ccv3():
    """RisuAI never read the lists from a V3 card: the card stays V3."""
    v3 = v2_card(RISU) | {"spec": "chara_card_v3", "spec_version": "3.0"}
    data = card_png({"chara": v2_card(RISU), "ccv3": v3})
    crossing = cross(data, "vee.png", edit=edit_body(description="changed"))
    assert keywords(crossing.data)[-2:] == ["chara", "ccv3"]


def test_an_unchanged_card_is_written_back_byte_for_byte():
    for data in (v2_png(), v2_png(WITH_VOICE, CHUNKS_WITH_VOICE), v2_png({}, {})):
        assert cross(data, "vee.png").data == data


def test_a_v2_json_card_with_base64_emotions_crossed_to_png_is_v2_too():
    risu = {"emotions": [["joy", base64.b64encode(JOY).decode()]]}
    crossing = cross(json.dumps(v2_card(risu)).encode(), "vee.json", "sillytavern.card.png")
    chara = json.loads(base64.b64decode(png.find_text(png.read_png(crossing.data), "chara").text))
    assert "ccv3" not in keywords(crossing.data)
    assert chara["data"]["extensions"]["risuai"]["emotions"] == risu["emotions"]


KEYS = st.sampled_from(sorted(CHUNKS))


@SETTINGS
@given(emotions=st.lists(KEYS, max_size=3), extra=st.lists(KEYS, max_size=2), voices=st.lists(KEYS, max_size=2))
def test_any_edited_risu_v2_card_shows_risuai_every_item_it_lists(emotions, extra, voices):
    risu = {
        "emotions": [[f"e{n}", f"__asset:{key}"] for n, key in enumerate(emotions)],
        "additionalAssets": [[f"a{n}", f"__asset:{key}", "png"] for n, key in enumerate(extra)],
        "vits": {f"v{n}": f"__asset:{key}" for n, key in enumerate(voices)},
    }
    written = cross(v2_png(risu, CHUNKS), "vee.png", edit=edit_body(description="changed")).data
    found = risu_import(written)
    assert found["chunk"] == ("chara" if emotions or extra or voices else "ccv3")
    assert found["emotions"] == [(f"e{n}", CHUNKS[key]) for n, key in enumerate(emotions)]
    assert found["additional"] == [(f"a{n}", CHUNKS[key], "png") for n, key in enumerate(extra)]
    if emotions or extra or voices:
        assert found["voices"] == {f"v{n}": CHUNKS[key] for n, key in enumerate(voices)}
