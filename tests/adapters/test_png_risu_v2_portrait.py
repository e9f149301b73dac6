"""A RisuAI V2 PNG card's portrait leaves out the asset chunks its `extensions.risuai` names.

RisuAI's V2 export names each emotion, additional asset and voice `__asset:N` (the PNG's
`chara-ext-asset_:N` chunk); its import keeps the image without any text chunk. The portrait
does the same, and nothing is lost: the file itself keeps the chunks, a write on the escrowed
image leaves them in place, and a write on another image takes them from the escrowed one.
"""

from __future__ import annotations

import base64
import json

from cards_support import cross, edit_body, read
from hypothesis import given
from hypothesis import strategies as st
from test_charx_risu_v2_assets import BGM, CHUNKS, IMAGE, JOY, RISU, SAD, SETTINGS, opened, v2_png

from bunzai.adapters.common import png
from bunzai.adapters.contract import Blob
from bunzai.convert import convert_piece
from bunzai.model.base import AssetLink

VOICE = b"onnx voice"
WITH_VOICE = RISU | {"vits": {"model.onnx": "__asset:4"}}
CHUNKS_WITH_VOICE = CHUNKS | {"4": VOICE}


def asset_chunks(data: bytes) -> dict[str, bytes]:
    """key -> bytes of each `chara-ext-asset_:N` chunk of the PNG."""
    image = png.read_png(data)
    return {
        key: base64.b64decode(png.text_of(image.data, chunk).text) for key, chunk in png.asset_chunks(image).items()
    }


def chara_risu(data: bytes) -> dict:
    chara = json.loads(base64.b64decode(png.find_text(png.read_png(data), "chara").text))
    return chara["data"]["extensions"]["risuai"]


def test_the_portrait_holds_none_of_the_chunks_extensions_risuai_names():
    data = v2_png(WITH_VOICE, CHUNKS_WITH_VOICE | {"9": b"named by nothing"})
    _adapter, decoded, media = read(data, "vee.png")
    portrait = media(decoded.pieces[0].body.portrait)
    assert asset_chunks(portrait) == {"9": b"named by nothing"}  # a chunk nothing names stays in the image
    assert png.replace_text(png.read_png(portrait), {"chara-ext-asset_:9"}, []) == IMAGE


def test_an_unchanged_card_is_written_back_as_the_original_file():
    data = v2_png(WITH_VOICE, CHUNKS_WITH_VOICE)
    crossing = cross(data, "vee.png")
    assert crossing.data == data
    assert crossing.losses == []


def test_an_edited_card_keeps_the_chunks_and_reads_back_with_the_same_extensions():
    data = v2_png(WITH_VOICE, CHUNKS_WITH_VOICE)
    _adapter, decoded, _media = read(data, "vee.png")
    crossing = cross(data, "vee.png", edit=edit_body(description="changed"))
    assert asset_chunks(crossing.data) == CHUNKS_WITH_VOICE
    assert chara_risu(crossing.data) == chara_risu(data)
    _adapter, back, back_media = read(crossing.data, "vee.png")
    piece = back.pieces[0]
    assert piece.body.description == "changed"
    assert piece.body.extensions["risuai"] == decoded.pieces[0].body.extensions["risuai"]
    assert back_media(piece.body.portrait) == IMAGE


def test_a_card_on_a_new_portrait_takes_the_chunks_from_the_escrowed_file():
    _adapter, decoded, media = read(v2_png(WITH_VOICE, CHUNKS_WITH_VOICE), "vee.png")
    # the new image holds a chunk under a key the card names: the escrowed one is written instead
    other = png.replace_text(png.read_png(IMAGE), set(), [("chara-ext-asset_:1", base64.b64encode(b"stale"))])
    portrait = Blob(other, "png", "image/png")
    piece = decoded.pieces[0]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"portrait": portrait.ref()})})
    crossing = convert_piece(piece, "sillytavern.card.png", lambda ref: other if ref == portrait.ref() else media(ref))
    assert asset_chunks(crossing.data) == CHUNKS_WITH_VOICE
    keywords = [chunk.keyword for chunk in png.read_png(crossing.data).chunks if chunk.keyword]
    assert len(keywords) == len(set(keywords))  # the image's own `:1` is gone, not shadowed
    _adapter, back, back_media = read(crossing.data, "vee.png")
    assert back_media(back.pieces[0].body.portrait) == IMAGE
    assert back.pieces[0].body.extensions["risuai"] == decoded.pieces[0].body.extensions["risuai"]


def test_a_new_stored_asset_on_a_new_portrait_takes_no_key_extensions_risuai_names():
    chunks = {"0": JOY, "1": SAD}  # 0 is the smallest free key but for the emotion's chunk
    _adapter, decoded, media = read(
        v2_png({"emotions": [["joy", "__asset:0"], ["sad", "__asset:1"]]}, chunks), "vee.png"
    )
    extra = Blob(b"new sprite", "png", "image/png")
    portrait = Blob(png.replace_text(png.read_png(IMAGE), set(), [("Comment", b"a new image")]), "png", "image/png")
    piece = decoded.pieces[0]
    link = {"role": "emotion", "name": "new", "ext": "png", "asset": extra.ref_json(), "uri": None}
    piece = piece.model_copy(update={"assets": [AssetLink.model_validate(link)]})
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"portrait": portrait.ref()})})
    files = {extra.sha256: extra.data, portrait.sha256: portrait.data}
    crossing = convert_piece(piece, "sillytavern.card.png", lambda ref: files.get(ref.sha256) or media(ref))
    # a card with emotions is written as `chara` alone (test_png_risu_v2_ccv3), its asset list there
    chara = json.loads(base64.b64decode(png.find_text(png.read_png(crossing.data), "chara").text))
    assert chara["data"]["assets"][0]["uri"] == "__asset:2"
    assert asset_chunks(crossing.data) == chunks | {"2": b"new sprite"}


def test_a_charx_s_main_image_holds_no_asset_chunk_and_the_emotions_still_cross(no_table):
    data = v2_png()
    for target, folder in (("risu.charx", "image"), ("charx", "images")):
        files = opened(cross(data, "vee.png", target).data)
        main = [body for name, body in files.items() if name.startswith("assets/icon/")]
        assert [asset_chunks(body) for body in main] == [{}]
        assert files[f"assets/emotion/{folder}/joy.png"] == JOY
        assert files[f"assets/emotion/{folder}/sad.png"] == SAD
        assert BGM in files.values()
    assert len(opened(cross(data, "vee.png", "risu.charx").data)["x_meta/main.json"]) < len(base64.b64encode(JOY))


def test_a_v2_card_with_no_risu_lists_and_no_assets_never_walks_for_asset_chunks(monkeypatch):
    def refuse(*_args):
        raise AssertionError("the chunks were walked for assets")

    data = v2_png({}, {})
    monkeypatch.setattr(png, "asset_chunks", refuse)
    _adapter, decoded, _media = read(data, "vee.png")
    assert decoded.pieces[0].assets == []


KEYS = st.sampled_from(["0", "1", "2", "7", "10"])


@SETTINGS
@given(
    emotions=st.lists(KEYS, max_size=4),
    extra=st.lists(KEYS, max_size=3),
    voices=st.lists(KEYS, max_size=2),
    stored=st.sets(KEYS, min_size=1),
)
def test_any_named_chunks_leave_the_portrait_and_every_write_keeps_them(emotions, extra, voices, stored):
    risu = {
        "emotions": [[f"e{n}", f"__asset:{key}"] for n, key in enumerate(emotions)],
        "additionalAssets": [[f"a{n}", f"__asset:{key}", "png"] for n, key in enumerate(extra)],
        "vits": {f"v{n}": f"__asset:{key}" for n, key in enumerate(voices)},
    }
    chunks = {key: IMAGE + key.encode() for key in sorted(stored)}
    data = v2_png(risu, chunks)
    _adapter, decoded, media = read(data, "vee.png")
    named = set(emotions) | set(extra) | set(voices)
    assert set(asset_chunks(media(decoded.pieces[0].body.portrait))) == set(chunks) - named
    assert cross(data, "vee.png").data == data
    edited = cross(data, "vee.png", edit=edit_body(description="changed")).data
    assert asset_chunks(edited) == chunks
    assert chara_risu(edited) == chara_risu(data)
