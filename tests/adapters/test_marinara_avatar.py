"""Today's Marinara exports carry the avatar beside the card or persona, as a data: URL
(buildNativeCharacterEnvelope; importCharacter and importPersona restore it with
saveAvatarFromDataUrl, which keeps a PNG, JPEG, GIF, WebP or AVIF and skips anything else). It is
read as the portrait and written from it; the sprites and gallery stay in the escrow."""

from __future__ import annotations

import base64
import json

import pytest
from marinara_support import character_export, persona_export, read

from bunzai.adapters.common.png import default_portrait
from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.model.base import AssetRef

PNG = default_portrait()
URL = "data:image/png;base64," + base64.b64encode(PNG).decode()
SPRITES = [{"filename": "happy.png", "data": URL}]


def with_avatar(document: bytes, avatar, **more) -> bytes:
    envelope = json.loads(document)
    holder = envelope["data"]
    keys = list(holder)
    at = keys.index("metadata") if "metadata" in keys else len(keys)
    rest = {key: holder.pop(key) for key in keys[at:]}
    holder.update({"avatar": avatar, **more, **rest})
    return json.dumps(envelope).encode()


def media_of(decoded):
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    return lambda ref: blobs[ref.sha256]


@pytest.mark.parametrize("export", [character_export, persona_export])
@pytest.mark.parametrize("avatar", [URL, base64.b64encode(PNG).decode()])  # a data: URL, or bare base64
def test_the_avatar_is_the_portrait_and_goes_back_as_the_file_had_it(export, avatar):
    data = with_avatar(export(), avatar, sprites=SPRITES)
    adapter, decoded = read(data)
    piece = decoded.pieces[0]
    assert piece.body.portrait is not None and piece.body.portrait.sha256 == decoded.blobs[0].sha256
    assert decoded.blobs[0].data == PNG and decoded.warnings == []
    crossing = convert_piece(piece, adapter.format_id, media_of(decoded))
    assert json.loads(crossing.data) == json.loads(data)
    assert not [loss for loss in crossing.losses if "portrait" in loss.pointer]


@pytest.mark.parametrize(
    ("avatar", "code"),
    [
        ("data:image/png;base64,@@@", "not_image"),  # Buffer.from skips what it cannot read
        ("DATA:image/png;base64," + base64.b64encode(PNG).decode(), "not_image"),  # `data:` is lower case there
        ("data:image/png;base64," + base64.b64encode(b"GIF8xx" + b"\0" * 10).decode(), "not_image"),
        ("data:text/plain;base64," + base64.b64encode(b"hello").decode(), "not_image"),
    ],
)
def test_an_avatar_marinara_would_skip_is_a_warning_and_stays_in_the_escrow(avatar, code):
    data = with_avatar(character_export(), avatar)
    adapter, decoded = read(data)
    assert decoded.pieces[0].body.portrait is None
    assert [w.split(":")[0] for w in decoded.warnings] == [f"marinara.character.avatar.{code}"]
    crossing = convert_piece(decoded.pieces[0], adapter.format_id, media_of(decoded))
    assert json.loads(crossing.data)["data"]["avatar"] == avatar


def test_a_marinara_character_crosses_to_a_sillytavern_png_with_its_avatar():
    _adapter, decoded = read(with_avatar(character_export(), URL))
    crossing = convert_piece(decoded.pieces[0], "sillytavern.card.png", media_of(decoded))
    assert crossing.data.startswith(PNG[:8])
    assert not [loss for loss in crossing.losses if loss.pointer == "/body/portrait"]


def test_a_png_card_crosses_into_marinara_with_its_portrait_as_the_avatar():
    _adapter, card = read(with_avatar(character_export(), URL))
    png = convert_piece(card.pieces[0], "sillytavern.card.png", media_of(card)).data
    _png_adapter, decoded = read_bytes(png, "card.png")
    crossing = convert_piece(decoded.pieces[0], "marinara.character", media_of(decoded))
    written = json.loads(crossing.data)["data"]
    assert list(written)[:4] == ["spec", "spec_version", "data", "avatar"]
    assert written["avatar"].startswith("data:image/png;base64,")
    portrait = decoded.pieces[0].body.portrait
    assert base64.b64decode(written["avatar"].partition(",")[2]) == media_of(decoded)(portrait)
    assert not [loss for loss in crossing.losses if loss.pointer == "/body/portrait"]


def test_a_portrait_taken_away_takes_the_avatar_out_and_a_new_one_replaces_it():
    data = with_avatar(character_export(), URL, sprites=SPRITES)
    adapter, decoded = read(data)
    piece = decoded.pieces[0]
    gone = piece.model_copy(update={"body": piece.body.model_copy(update={"portrait": None})})
    written = json.loads(convert_piece(gone, adapter.format_id, media_of(decoded)).data)["data"]
    assert "avatar" not in written and written["sprites"] == SPRITES
    other = b"GIF89a" + b"\0" * 20
    ref = piece.body.portrait.model_copy(update={"sha256": "f" * 64, "ext": "gif", "mime": "image/gif"})
    new = piece.model_copy(update={"body": piece.body.model_copy(update={"portrait": ref})})
    written = json.loads(convert_piece(new, adapter.format_id, lambda r: other).data)["data"]
    assert written["avatar"] == "data:image/gif;base64," + base64.b64encode(other).decode()
    assert list(written).index("avatar") < list(written).index("sprites") < list(written).index("metadata")


def test_a_portrait_marinara_would_not_keep_stays_a_loss():
    _adapter, decoded = read(with_avatar(character_export(), URL))
    piece = decoded.pieces[0]
    ref = piece.body.portrait.model_copy(update={"sha256": "e" * 64, "ext": "bmp", "mime": "image/bmp"})
    new = piece.model_copy(update={"body": piece.body.model_copy(update={"portrait": ref})})
    crossing = convert_piece(new, "marinara.character", lambda r: b"BM" + b"\0" * 30)
    found = [(loss.code, loss.why) for loss in crossing.losses if loss.pointer == "/body/portrait"]
    assert found == [("card.portrait.not_carried", "Marinara keeps a PNG, JPEG, GIF, WebP or AVIF avatar only")]
    assert "avatar" not in json.loads(crossing.data)["data"]  # the old one is no longer the portrait


AVIF = b"\0\0\0\x1cftypavif" + b"\0" * 20


@pytest.mark.parametrize(
    ("header", "read"),
    [
        ("data:image/avif;base64,", True),
        ("data:image/AVIF;base64,", True),  # isAllowedImageBuffer compares the hint in lower case
        ("data:image/avif+xml;base64,", True),  # decodeImageDataUrl cuts "+xml" from it
        ("data:image/png;base64,", False),
        ("data:image/avif;charset=x;base64,", False),  # no hint: its regex wants ;base64, after the type
    ],
)
def test_an_avif_avatar_is_kept_where_its_url_says_so(header, read):
    # isAllowedImageBuffer takes AVIF only as the data: URL declares it
    _adapter, decoded = read_bytes(with_avatar(character_export(), header + base64.b64encode(AVIF).decode()), "x.json")
    assert (decoded.pieces[0].body.portrait is not None) is read


def test_lenient_base64_reads_as_node_reads_it():
    unpadded = base64.urlsafe_b64encode(PNG).decode().rstrip("=")
    _adapter, decoded = read(with_avatar(character_export(), "data:image/png;base64," + unpadded))
    assert decoded.blobs[0].data == PNG and decoded.warnings == []


def test_a_profiles_bare_avif_avatar_is_read():
    from marinara_profile_support import character_row, profile_bytes

    _adapter, decoded = read_bytes(
        profile_bytes(characters=[character_row(avatarBase64=base64.b64encode(AVIF).decode())]), "profile.json"
    )
    (character,) = [piece for piece in decoded.pieces if piece.kind == "character"]
    assert character.body.portrait is not None and character.body.portrait.ext == "avif"


def test_a_portrait_that_cannot_be_an_avatar_leaves_an_avatar_never_read_as_it_was():
    data = with_avatar(character_export(), "data:text/plain;base64,aGVsbG8=")
    _adapter, decoded = read(data)
    piece = decoded.pieces[0]
    ref = AssetRef(sha256="e" * 64, ext="bmp", mime="image/bmp")
    new = piece.model_copy(update={"body": piece.body.model_copy(update={"portrait": ref})})
    crossing = convert_piece(new, "marinara.character", lambda r: b"BM" + b"\0" * 30)
    assert json.loads(crossing.data)["data"]["avatar"] == "data:text/plain;base64,aGVsbG8="


def test_an_avif_named_among_its_compatible_brands_is_an_avif():
    mif1 = b"\0\0\0\x1cftypmif1\0\0\0\0mif1avifmiaf" + b"\0" * 20
    url = "data:image/avif;base64," + base64.b64encode(mif1).decode()
    _adapter, decoded = read_bytes(with_avatar(character_export(), url), "x.json")
    assert decoded.pieces[0].body.portrait is not None and decoded.blobs[0].ext == "avif"


def test_a_character_past_latin_1_in_the_base64_is_read_by_its_low_byte_as_node_does():
    text = base64.b64encode(PNG).decode()
    assert "A" in text
    # U+0141 has the low byte 0x41, "A": Node reads it as that letter
    spoiled = text.replace("A", "\u0141", 1)
    _adapter, decoded = read(with_avatar(character_export(), "data:image/png;base64," + spoiled))
    assert decoded.blobs[0].data == PNG
