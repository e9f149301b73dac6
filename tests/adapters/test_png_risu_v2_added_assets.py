"""Assets added to a RisuAI V2 PNG card reach RisuAI.

Such a card is written as `chara` alone (RisuAI's V2 export), and RisuAI's V2 import reads
emotions and additional assets only from `extensions.risuai` (importCharacterCardSpec), never
`data.assets`. So an added emotion or x-risu-asset link is also listed there, as RisuAI's V2
export lists it (`[name, "__asset:N"]`, `[name, "__asset:N", ext]`, the bytes in the
`chara-ext-asset_:N` chunk), and bunzai reads that mirror back as the asset link it came from.
"""

from __future__ import annotations

import json
from pathlib import Path

from cards_support import edit_body, read
from hypothesis import given
from hypothesis import strategies as st
from test_charx_risu_v2_assets import BGM, JOY, SAD, SETTINGS, v2_png
from test_png_risu_v2_ccv3 import keywords, risu_import

from bunzai.adapters.common.charx_members import file_type
from bunzai.adapters.contract import Blob
from bunzai.convert import convert_piece

ANGRY = JOY + b"angry"
SONG = b"OggS fake song"


def added(*links: tuple[str, str, str, bytes]):
    """The piece read from `data`, with `links` (role, name, ext, bytes) added, and its media."""

    def build(data: bytes):
        _adapter, decoded, _media = read(data, "vee.png")
        piece = decoded.pieces[0]
        blobs = {blob.sha256: blob.data for blob in decoded.blobs}
        new = []
        for role, name, ext, payload in links:
            blob = Blob(payload, *file_type(ext, ""))  # as a chunk reads back: typed by its ext
            blobs[blob.sha256] = payload
            new.append({"role": role, "name": name, "ext": ext, "asset": blob.ref_json(), "uri": None})
        assets = [link.model_dump(mode="json") for link in piece.assets] + new
        piece = piece.model_validate(piece.model_dump(mode="json") | {"assets": assets})
        return piece, (lambda ref: blobs[ref.sha256])

    return build


def write(piece, media):
    return convert_piece(piece, "sillytavern.card.png", media)


def same_piece(data: bytes, piece) -> None:
    _adapter, back, _media = read(data, "vee.png")
    again = back.pieces[0]
    assert again.body == piece.body
    assert [link.model_dump(mode="json") for link in again.assets] == [
        link.model_dump(mode="json") for link in piece.assets
    ]


def test_an_added_emotion_is_shown_by_risuai_with_its_bytes():
    piece, media = added(("emotion", "angry", "png", ANGRY))(v2_png())
    written = write(piece, media)
    assert "ccv3" not in keywords(written.data)
    found = risu_import(written.data)
    assert found["spec"] == "chara_card_v2"
    assert found["emotions"] == [("joy", JOY), ("sad", SAD), ("angry", ANGRY)]
    assert found["additional"] == [("bgm.mp3", BGM, "mp3")]
    assert written.losses == []


def test_an_added_additional_asset_is_shown_with_its_ext():
    piece, media = added(("x-risu-asset", "song", "ogg", SONG))(v2_png())
    written = write(piece, media)
    assert risu_import(written.data)["additional"] == [("bgm.mp3", BGM, "mp3"), ("song", SONG, "ogg")]


def test_the_written_card_reads_back_as_the_same_piece_and_is_written_back_as_itself():
    piece, media = added(("emotion", "angry", "png", ANGRY), ("x-risu-asset", "song", "ogg", SONG))(v2_png())
    written = write(piece, media).data
    same_piece(written, piece)
    _adapter, back, back_media = read(written, "vee.png")
    assert convert_piece(back.pieces[0], "sillytavern.card.png", back_media).data == written
    # edited again: the added assets keep their chunks, RisuAI still shows each once
    edited = edit_body(description="changed")(back.pieces[0])
    again = convert_piece(edited, "sillytavern.card.png", back_media).data
    assert risu_import(again)["emotions"] == [("joy", JOY), ("sad", SAD), ("angry", ANGRY)]
    assert risu_import(again)["additional"] == [("bgm.mp3", BGM, "mp3"), ("song", SONG, "ogg")]
    same_piece(again, edited)


def test_a_card_whose_lists_were_absent_gets_them_and_reads_back_without_them():
    voice_only = {"vits": {"model.onnx": "__asset:1"}}
    piece, media = added(("emotion", "angry", "png", ANGRY))(v2_png(voice_only, {"1": b"onnx"}))
    written = write(piece, media)
    assert risu_import(written.data)["emotions"] == [("angry", ANGRY)]
    assert written.losses == []
    same_piece(written.data, piece)


def test_an_emptied_list_reads_back_absent_and_is_named():
    risu = {"emotions": [], "additionalAssets": [["bgm.mp3", "__asset:3", "mp3"]]}
    piece, media = added(("emotion", "angry", "png", ANGRY))(v2_png(risu, {"3": BGM}))
    written = write(piece, media)
    assert risu_import(written.data)["emotions"] == [("angry", ANGRY)]
    assert [(loss.pointer, loss.code) for loss in written.losses] == [
        ("/body/extensions/risuai/emotions", "card.png.risu_v2_list_filled")
    ]
    _adapter, back, _media = read(written.data, "vee.png")
    assert "emotions" not in back.pieces[0].body.extensions["risuai"]


def test_assets_risuai_s_v2_import_cannot_show_are_named_lost_and_kept_for_bunzai():
    piece, media = added(("background", "bg", "png", SAD + b"bg"), ("icon", "alt", "png", JOY + b"alt"))(v2_png())
    written = write(piece, media)
    assert [(loss.pointer, loss.code) for loss in written.losses] == [
        ("/assets/0", "card.png.risu_v2_asset_not_shown"),
        ("/assets/1", "card.png.risu_v2_asset_not_shown"),
    ]
    found = risu_import(written.data)
    assert [name for name, _data in found["emotions"]] == ["joy", "sad"]
    same_piece(written.data, piece)


def test_an_unchanged_card_is_still_written_back_byte_for_byte():
    data = v2_png()
    _adapter, decoded, media = read(data, "vee.png")
    assert write(decoded.pieces[0], media).data == data


def test_a_card_without_v2_lists_keeps_its_emotion_in_ccv3_data_assets():
    piece, media = added(("emotion", "angry", "png", ANGRY))(v2_png({}, {}))
    written = write(piece, media)
    assert keywords(written.data)[-2:] == ["chara", "ccv3"]
    found = risu_import(written.data)
    assert (found["chunk"], found["emotions"]) == ("ccv3", [("angry", ANGRY)])


ROLES = st.sampled_from(["emotion", "x-risu-asset", "background", "icon"])
PAYLOADS = st.sampled_from([JOY, SAD, ANGRY, SONG, BGM])


@SETTINGS
@given(
    st.lists(
        st.tuples(ROLES, st.sampled_from(["a", "joy", "b c"]), st.sampled_from(["png", "mp3", ""]), PAYLOADS),
        max_size=4,
    )
)
def test_any_added_assets_read_back_as_the_same_piece_and_risuai_shows_each_it_can(links):
    piece, media = added(*links)(v2_png())
    written = write(piece, media)
    same_piece(written.data, piece)
    found = risu_import(written.data)
    assert found["emotions"][2:] == [(name, data) for role, name, _ext, data in links if role == "emotion"]
    assert found["additional"][1:] == [(name, data, ext) for role, name, ext, data in links if role == "x-risu-asset"]
    lost = {loss.pointer for loss in written.losses if loss.code == "card.png.risu_v2_asset_not_shown"}
    assert lost == {f"/assets/{n}" for n, (role, *_rest) in enumerate(links) if role not in ("emotion", "x-risu-asset")}


def test_an_expression_added_with_the_cli_reaches_risuai_from_the_exported_card(bunzai, tmp_path):
    card, angry = tmp_path / "vee.png", tmp_path / "angry.png"
    card.write_bytes(v2_png())
    angry.write_bytes(ANGRY)
    bunzai("apply", "--yes", input=bunzai("import", str(card), check=True).stdout, check=True)
    media = {"additional_media": [{"role": "expression", "name": "angry", "media": f"@{angry}"}]}
    draft = bunzai("cap", "run", "character.media.update", "character/vee", "--input", json.dumps(media), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    receipt = bunzai("export", "character/vee", "--to", "sillytavern.card.png", check=True).json
    assert receipt["losses"] == []
    found = risu_import((Path(bunzai.studio) / receipt["path"]).read_bytes())
    assert (found["chunk"], found["emotions"]) == ("chara", [("joy", JOY), ("sad", SAD), ("angry", ANGRY)])
