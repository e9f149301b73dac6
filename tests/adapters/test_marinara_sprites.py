"""A Marinara export's sprites are the piece's expression images (assets of role `emotion`).

Today's export lists the sprite folder as `sprites: [{filename, data}]` (readSpritesForId); the
import (restoreSprites) keeps each image it would keep as an avatar and names it by the file's
stem made safe. Those names are read as the assets' names, so a sprite crosses to CHARX, CCv3
and RisuAI as an expression and back."""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import given, settings, strategies as st
from marinara_support import character_export, persona_export, read

from bunzai import limits
from bunzai.adapters.common.png import default_portrait
from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.marinara.sprites import read_sprites, safe_stem
from bunzai.convert import convert_piece
from bunzai.model.base import AssetRef

PNG = default_portrait()
GIF = b"GIF89a" + b"\x01\x00\x01\x00\x00\x00\x00;"
URL = "data:image/png;base64," + base64.b64encode(PNG).decode()
GIF_URL = "data:image/gif;base64," + base64.b64encode(GIF).decode()
EXPORTS = {"marinara.character": character_export, "marinara.persona": persona_export}


def with_sprites(document: bytes, sprites, gallery=None, avatar=None) -> bytes:
    envelope = json.loads(document)
    holder = envelope["data"]
    keys = list(holder)
    at = keys.index("metadata") if "metadata" in keys else len(keys)
    rest = {key: holder.pop(key) for key in keys[at:]}
    if avatar is not None:
        holder["avatar"] = avatar
    holder["sprites"] = sprites
    if gallery is not None:
        holder["gallery"] = gallery
    holder.update(rest)
    return json.dumps(envelope).encode()


def media_of(decoded):
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    return lambda ref: blobs[ref.sha256]


def sprites_of(data: bytes) -> list:
    return json.loads(data)["data"].get("sprites")


@pytest.mark.parametrize("format_id", list(EXPORTS))
def test_sprites_are_expressions_named_as_marinara_names_them(format_id):
    sprites = [
        {"filename": "happy.png", "data": URL},
        {"filename": "sad!.png", "data": GIF_URL},  # the stem made safe; the extension from the bytes
        {"filename": "sad?.gif", "data": GIF_URL},  # the same safe name: suffixed
        {"filename": "dir\\angry.v2.png", "data": URL},  # the last path part, its last extension cut
        {"filename": "broken.png", "data": "data:image/png;base64,AAAA"},  # skipped, as Marinara skips it
    ]
    adapter, decoded = read(with_sprites(EXPORTS[format_id](), sprites))
    piece = decoded.pieces[0]
    assert adapter.format_id == format_id
    assert [(a.role, a.name, a.ext) for a in piece.assets] == [
        ("emotion", "happy", "png"),
        ("emotion", "sad_", "gif"),
        ("emotion", "sad_-1", "gif"),
        ("emotion", "angry_v2", "png"),
    ]
    media = media_of(decoded)
    assert [media(a.asset) for a in piece.assets] == [PNG, GIF, GIF, PNG]
    assert [w.split(":")[0] for w in decoded.warnings] == [f"{format_id}.sprite.not_image"]
    assert "sprite 4 (broken.png)" in decoded.warnings[0]


@pytest.mark.parametrize("format_id", list(EXPORTS))
def test_an_unedited_export_goes_back_as_it_was_sprites_gallery_and_unread_entries_too(format_id):
    sprites = [{"filename": "happy.png", "data": URL}, {"filename": "x", "data": 7}, "junk"]
    gallery = [{"filename": "g.png", "data": URL, "prompt": "a kitchen"}]
    data = with_sprites(EXPORTS[format_id](), sprites, gallery)
    adapter, decoded = read(data)
    crossing = convert_piece(decoded.pieces[0], format_id, media_of(decoded))
    assert json.loads(crossing.data) == json.loads(data)
    assert crossing.losses == []


@pytest.mark.parametrize("format_id", list(EXPORTS))
def test_sprites_that_are_not_a_list_are_named_and_kept(format_id):
    data = with_sprites(EXPORTS[format_id](), {"happy": URL})
    _adapter, decoded = read(data)
    assert decoded.pieces[0].assets == []
    assert decoded.warnings == [f"{format_id}.sprite.not_list: x.marinara.json's sprites are not a list; not imported"]
    crossing = convert_piece(decoded.pieces[0], format_id, media_of(decoded))
    assert json.loads(crossing.data) == json.loads(data)


def test_a_character_crosses_to_charx_and_back_with_its_sprites():
    sprites = [{"filename": "happy.png", "data": URL}, {"filename": "sad.gif", "data": GIF_URL}]
    data = with_sprites(character_export(), sprites, avatar=URL)
    _adapter, decoded = read(data)
    charx = convert_piece(decoded.pieces[0], "charx", media_of(decoded))
    _adapter, again = read_bytes(charx.data, "mari.charx")
    piece = again.pieces[0]
    assert [(a.role, a.name) for a in piece.assets if a.role == "emotion"] == [("emotion", "happy"), ("emotion", "sad")]
    back = convert_piece(piece, "marinara.character", media_of(again))
    written = sprites_of(back.data)
    assert [entry["filename"] for entry in written] == ["happy.png", "sad.gif"]
    assert written[1]["data"] == GIF_URL
    # the CHARX's icon is the portrait, which goes as the avatar: only its place in the media list is lost
    assert [(loss.code, loss.pointer) for loss in back.losses if loss.pointer.startswith("/assets")] == [
        ("card.assets.not_carried", "/assets/2")
    ]


def test_a_ccv3_card_gets_the_sprites_as_emotion_assets():
    data = with_sprites(character_export(), [{"filename": "happy.png", "data": URL}])
    _adapter, decoded = read(data)
    crossing = convert_piece(decoded.pieces[0], "ccv3.json", media_of(decoded))
    assets = json.loads(crossing.data)["data"]["assets"]
    assert [(a["type"], a["name"], a["ext"], a["uri"]) for a in assets] == [("emotion", "happy", "png", URL)]


@pytest.mark.parametrize("format_id", list(EXPORTS))
def test_edits_write_the_sprites_anew_and_name_what_marinara_keeps_otherwise(format_id):
    sprites = [{"filename": "happy.png", "data": URL, "kept": 1}, {"filename": "x", "data": 7}]
    _adapter, decoded = read(with_sprites(EXPORTS[format_id](), sprites))
    piece = decoded.pieces[0]
    happy = piece.assets[0]
    edited = piece.model_copy(
        update={
            "assets": [
                happy.model_copy(update={"name": "très bien"}),
                happy.model_copy(update={"role": "background"}),
                happy,  # the entry as the file had it, moved
            ]
        }
    )
    crossing = convert_piece(edited, format_id, media_of(decoded))
    assert sprites_of(crossing.data) == [
        {"filename": "très bien.png", "data": URL},
        {"filename": "happy.png", "data": URL, "kept": 1},
        {"filename": "x", "data": 7},  # never read as an image: left, after the sprites
    ]
    prefix = "card" if format_id == "marinara.character" else "marinara.persona"
    dropped = "card.assets.not_carried" if prefix == "card" else "marinara.persona.assets.dropped"
    assert [(loss.code, loss.pointer) for loss in crossing.losses] == [
        (f"{format_id}.sprites.listed", "/assets"),  # the third asset reads back second
        (f"{format_id}.sprite.renamed", "/assets/0/name"),
        (dropped, "/assets/1"),
    ]
    assert "imported as 'tr_s bien'" in crossing.losses[1].why


@pytest.mark.parametrize("format_id", list(EXPORTS))
def test_no_expression_left_takes_the_sprites_out(format_id):
    data = with_sprites(EXPORTS[format_id](), [{"filename": "happy.png", "data": URL}])
    _adapter, decoded = read(data)
    crossing = convert_piece(decoded.pieces[0].model_copy(update={"assets": []}), format_id, media_of(decoded))
    assert "sprites" not in json.loads(crossing.data)["data"]


def test_sprites_written_anew_stand_before_the_gallery_and_metadata():
    _adapter, decoded = read(with_sprites(character_export(), [{"filename": "happy.png", "data": URL}]))
    piece = decoded.pieces[0]
    fresh = piece.model_copy(update={"original": None})
    keys = list(json.loads(convert_piece(fresh, "marinara.character", media_of(decoded)).data)["data"])
    assert keys.index("sprites") < keys.index("metadata")


# Marinara's stem, written out in JavaScript and run by the embedded engine: the oracle for safe_stem.
_JS_STEM = (
    "(name) => name.replace(/\\\\/g, '/').split('/').pop()"
    ".replace(/\\.[^.]+$/, '').replace(/[^a-zA-Z0-9_\\- ]/g, '_').slice(0, 80)"
)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab Z09_-./\\\n!é😀\u2028"), max_size=100))
def test_safe_stem_is_javascripts(filename):
    import _quickjs

    context = _quickjs.Context()
    stem = context.eval(f"({_JS_STEM})({json.dumps(filename)})")
    assert safe_stem(filename) == stem


@pytest.mark.parametrize("format_id", list(EXPORTS))
def test_a_name_marinara_makes_up_is_named_where_bunzai_writes_it_only(format_id):
    data = with_sprites(EXPORTS[format_id](), [{"filename": ".png", "data": URL}])  # no stem: nothing left
    _adapter, decoded = read(data)
    piece = decoded.pieces[0]
    assert [a.name for a in piece.assets] == [""]
    assert convert_piece(piece, format_id, media_of(decoded)).losses == []  # named by Marinara as before
    fresh = piece.model_copy(update={"original": None})
    crossing = convert_piece(fresh, format_id, media_of(decoded))
    renamed = [loss for loss in crossing.losses if loss.code == f"{format_id}.sprite.renamed"]
    assert [loss.pointer for loss in renamed] == ["/assets/0/name"]
    assert "a name it makes up" in renamed[0].why


def test_a_kept_sprite_its_neighbours_would_rename_is_written_under_its_own_name():
    gif_url = GIF_URL
    sprites = [
        {"filename": "happy.png", "data": URL},
        {"filename": "happy.png", "data": gif_url},  # a GIF: happy.gif, no clash
        {"filename": "happy.png", "data": URL},  # happy-1
    ]
    _adapter, decoded = read(with_sprites(character_export(), sprites))
    piece = decoded.pieces[0]
    assert [a.name for a in piece.assets] == ["happy", "happy", "happy-1"]
    edited = piece.model_copy(update={"assets": piece.assets[1:]})  # the first taken out
    crossing = convert_piece(edited, "marinara.character", media_of(decoded))
    assert [entry["filename"] for entry in sprites_of(crossing.data)] == ["happy.png", "happy-1.png"]
    assert not [loss for loss in crossing.losses if loss.code.endswith("renamed")]


@pytest.mark.parametrize("format_id", list(EXPORTS))
def test_an_ext_that_is_not_the_images_type_is_named(format_id):
    _adapter, decoded = read(with_sprites(EXPORTS[format_id](), [{"filename": "happy.png", "data": URL}]))
    piece = decoded.pieces[0]
    edited = piece.model_copy(update={"assets": [piece.assets[0].model_copy(update={"ext": "jpeg"})]})
    crossing = convert_piece(edited, format_id, media_of(decoded))
    assert [(loss.code, loss.pointer) for loss in crossing.losses] == [(f"{format_id}.sprite.renamed", "/assets/0/ext")]
    assert "ext 'jpeg' reads back as 'png'" in crossing.losses[0].why


# restoreSprites's naming loop, written out in JavaScript: a taken name gets -1, -2 ... (an empty
# stem, which it names at random, is "" here).
_JS_NAMES = (
    "(names) => { const used = new Set(); return names.map((raw) => {"
    f" const stem = ({_JS_STEM})(raw); if (!stem) return '';"
    " let safe = `${stem}.png`; let suffix = 1;"
    " while (used.has(safe)) { safe = `${stem}-${suffix}.png`; suffix++; }"
    " used.add(safe); return safe.slice(0, -4); }); }"
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a.png", "a.gif", "a-1.png", "a-2.png", "a", "b!.png", "b?.png", ".png", "a-1-1.png"]),
        max_size=12,
    )
)
def test_sprite_names_are_marinaras(filenames):
    import _quickjs

    expected = json.loads(_quickjs.Context().eval(f"JSON.stringify(({_JS_NAMES})({json.dumps(filenames)}))"))
    links, _blobs, _warnings = read_sprites([{"filename": name, "data": URL} for name in filenames], "", "")
    assert [link["name"] for link in links] == expected


def test_many_sprites_of_one_name_are_named_in_linear_time():
    # 20,000 sprites named a.png: a, a-1 ... a-19999, as Marinara names them (quadratic before)
    links, _blobs, _warnings = read_sprites([{"filename": "a.png", "data": URL}] * 20_000, "", "")
    assert [link["name"] for link in links[:3]] == ["a", "a-1", "a-2"] and links[-1]["name"] == "a-19999"


def test_a_flood_of_sprites_marinara_would_skip_is_named_in_a_bounded_list():
    data = with_sprites(character_export(), [{"data": 1}] * 5_000)
    _adapter, decoded = read(data)
    assert len(decoded.warnings) == limits.SKIPPED_MEDIA_WARNINGS_MAX + 1
    assert decoded.warnings[-1] == (
        f"marinara.character.sprite.skipped: x.marinara.json: {5_000 - limits.SKIPPED_MEDIA_WARNINGS_MAX} more "
        "sprite(s) not imported, as above"
    )


def test_taking_out_the_first_of_a_chain_of_suffixed_names_keeps_every_other_name():
    # a, a, a-1, a, a-2 ...: read as a, a-1, a-1-1, a-2, a-2-1 ...; without the first, each kept
    # entry that would now read otherwise is written anew under its own name, in one walk
    files = ["a.png"] + [name for k in range(1, 100) for name in ("a.png", f"a-{k}.png")]
    _adapter, decoded = read(with_sprites(character_export(), [{"filename": f, "data": URL} for f in files]))
    piece = decoded.pieces[0]
    edited = piece.model_copy(update={"assets": piece.assets[1:]})
    crossing = convert_piece(edited, "marinara.character", media_of(decoded))
    _adapter, again = read(crossing.data)
    assert [a.name for a in again.pieces[0].assets] == [a.name for a in edited.assets]
    assert crossing.losses == []


def test_only_the_portraits_icon_is_said_to_go_as_the_avatar():
    _adapter, decoded = read(with_sprites(character_export(), [{"filename": "happy.png", "data": URL}], avatar=URL))
    piece = decoded.pieces[0]
    happy = piece.assets[0]
    icons = [happy.model_copy(update={"role": "icon", "name": "main"}), happy.model_copy(update={"role": "icon"})]
    other = AssetRef.model_validate({"sha256": "0" * 64, "ext": "png"})
    icons[1] = icons[1].model_copy(update={"asset": other, "name": "alt"})
    edited = piece.model_copy(update={"assets": [happy, *icons]})
    media = media_of(decoded)
    crossing = convert_piece(
        edited, "marinara.character", lambda ref: PNG if ref.sha256 == other.sha256 else media(ref)
    )
    whys = {loss.pointer: loss.why for loss in crossing.losses}
    assert whys["/assets/1"].endswith("not icon media (the portrait goes as the avatar)")
    assert whys["/assets/2"].endswith("not icon media")
