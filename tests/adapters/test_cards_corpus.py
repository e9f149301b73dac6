"""Every corpus card reads, round-trips to its own format unchanged, and names what other formats lose."""

from __future__ import annotations

import json

import pytest
from cards_support import cross, edit_body, not_carried, png_documents, read
from testkit import corpus_path

from bunzai.adapters.common import png
from bunzai.errors import BunzaiError

PNG_CARDS = ["default_Seraphina.png", "default_Seraphina.v2-only.png"]
JSON_CARDS = [
    ("sillytavern", "characters", "extracted", "seraphina.chara.json"),
    ("sillytavern", "characters", "extracted", "seraphina.ccv3.json"),
    ("sillytavern", "characters", "extracted", "seraphina.v2-only.chara.json"),
    ("card-architect", "test-card.json"),
    ("card-architect", "test-ccv2-amanda.json"),
    ("card-architect", "test-ccv3-jem.json"),
]
CARD_FORMATS = ["sillytavern.card.png", "sillytavern.card.json", "ccv1.json", "ccv2.json", "ccv3.json"]


def _png(name: str) -> bytes:
    return corpus_path("sillytavern", "characters", name).read_bytes()


@pytest.mark.parametrize("name", PNG_CARDS)
def test_png_card_reads_as_character_and_linked_book(name):
    adapter, decoded, _media = read(_png(name), name)
    character, book = decoded.pieces
    assert adapter.format_id == "sillytavern.card.png"
    assert (character.kind, character.id, character.name) == ("character", "seraphina", "Seraphina")
    assert book.kind == "lorebook" and book.id == "eldoria"
    assert character.body.links.lorebooks == ["eldoria"]
    assert character.body.book.entries == book.body.entries
    assert character.body.portrait is not None
    assert {blob.sha256 for blob in decoded.blobs} >= {
        character.body.portrait.sha256,
        character.original.files["card.png"].sha256,
    }


def test_the_ccv3_chunk_wins_and_both_chunks_are_escrowed():
    _adapter, decoded, _media = read(_png("default_Seraphina.png"), "s.png")
    assert set(decoded.pieces[0].original.document) == {"chara", "ccv3"}
    assert decoded.pieces[0].original.document["ccv3"]["spec"] == "chara_card_v3"


@pytest.mark.parametrize("name", PNG_CARDS)
def test_unchanged_png_card_writes_back_the_original_file(name):
    crossing = cross(_png(name), name)
    assert crossing.data == _png(name)
    assert crossing.losses == []


@pytest.mark.parametrize("name", PNG_CARDS)
def test_edited_png_card_keeps_every_other_chunk_and_key(name):
    data = _png(name)
    crossing = cross(data, name, edit=edit_body(description="changed"))
    assert not_carried(crossing) == []
    before, after = png.read_png(data), png.read_png(crossing.data)
    others = lambda image: [image.data[c.start : c.end] for c in image.chunks if c.type not in png.TEXT_TYPES]  # noqa: E731
    assert others(before) == others(after)
    old, new = png_documents(data), png_documents(crossing.data)
    for keyword in new:
        expected = json.loads(json.dumps(old.get(keyword, old["chara"])))
        expected["data"]["description"] = expected["description"] = "changed"
        if keyword == "ccv3":
            expected["spec"], expected["spec_version"] = "chara_card_v3", "3.0"
        assert new[keyword] == expected


@pytest.mark.parametrize("parts", JSON_CARDS, ids=lambda parts: parts[-1])
def test_json_card_reads_and_round_trips_json_equal(parts):
    data = corpus_path(*parts).read_bytes()
    crossing = cross(data, parts[-1])
    assert json.loads(crossing.data) == json.loads(data)
    assert crossing.losses == []


@pytest.mark.parametrize("parts", JSON_CARDS, ids=lambda parts: parts[-1])
@pytest.mark.parametrize("target", CARD_FORMATS)
def test_every_crossing_names_its_losses(parts, target):
    crossing = cross(corpus_path(*parts).read_bytes(), parts[-1], target)
    assert not_carried(crossing) == []


def test_v3_card_with_media_reports_assets_lost_in_v2_and_keeps_their_uris_in_png():
    data = corpus_path("card-architect", "test-ccv3-jem.json").read_bytes()
    _adapter, decoded, _media = read(data, "jem.json")
    assert len(decoded.pieces[0].assets) == 45 and decoded.pieces[0].assets[0].uri.startswith("/storage/")
    for target in ("ccv2.json", "ccv1.json"):
        codes = {loss.code for loss in cross(data, "jem.json", target).losses}
        assert "card.assets.not_carried" in codes
    # The PNG card's ccv3 chunk is a V3 card: its asset list keeps each uri as written.
    crossing = cross(data, "jem.json", "sillytavern.card.png")
    assert not [loss for loss in crossing.losses if loss.pointer.startswith("/assets")]
    _adapter, back, _media = read(crossing.data, "jem.png")
    assert back.pieces[0].assets == decoded.pieces[0].assets


def test_v3_to_v1_reports_everything_v1_lacks():
    data = corpus_path("card-architect", "test-card.json").read_bytes()
    losses = cross(data, "luna.json", "ccv1.json").losses
    pointers = {loss.pointer for loss in losses if loss.code in ("card.v1.not_carried", "card.v2.not_carried")}
    assert {"/body/book", "/body/links", "/body/alternate_greetings", "/body/tags", "/body/creator"} <= pointers
    assert not_carried(cross(data, "luna.json", "ccv1.json")) == []


def test_v3_only_fields_are_reported_when_crossing_to_v2():
    data = corpus_path("card-architect", "test-card.json").read_bytes()
    crossing = cross(
        data,
        "luna.json",
        "ccv2.json",
        edit=edit_body(nickname="Lu", source=["https://example.org"], creation_date=1700000000),
    )
    lost = {loss.pointer for loss in crossing.losses if loss.code == "card.v2.not_carried"}
    assert lost == {"/body/nickname", "/body/source", "/body/creation_date"}
    assert not_carried(crossing) == []


def test_book_mirror_link_adds_no_world_binding():
    data = corpus_path("card-architect", "test-card.json").read_bytes()
    crossing = cross(data, "luna.json", "ccv3.json", edit=edit_body(description="x"))
    assert "world" not in json.loads(crossing.data)["data"]["extensions"]


def test_st_entry_extensions_map_to_canonical_fields():
    _adapter, decoded, _media = read(_png("default_Seraphina.png"), "s.png")
    entry = decoded.pieces[0].body.book.entries[0]
    assert (entry.uid, entry.title, entry.position, entry.use_probability, entry.selective_logic) == (
        0,
        "eldoria",
        "before_char",
        True,
        "and_any",
    )
    assert [key.text for key in entry.keys][:2] == ["eldoria", "wood"]
    assert decoded.pieces[0].body.settings.talkativeness == 0.5  # written as the string "0.5"


def test_v1_card_reads_its_six_fields_and_writes_only_them():
    v1 = {
        "name": "Ada",
        "description": "d",
        "personality": "p",
        "scenario": "s",
        "first_mes": "hi",
        "mes_example": "<START>",
        "chat": "x",
    }
    adapter, decoded, _media = read(json.dumps(v1).encode(), "ada.json")
    assert adapter.format_id == "ccv1.json" and decoded.pieces[0].body.first_message == "hi"
    assert json.loads(cross(json.dumps(v1).encode(), "ada.json").data) == v1


def test_hybrid_v2_with_fields_at_the_top_reads_and_keeps_its_shape():
    hybrid = {"spec": "chara_card_v2", "spec_version": "2.0", "name": "Ada", "description": "d", "first_mes": "hi"}
    adapter, decoded, _media = read(json.dumps(hybrid).encode(), "ada.json")
    assert adapter.format_id == "ccv2.json" and decoded.pieces[0].body.description == "d"
    assert json.loads(cross(json.dumps(hybrid).encode(), "ada.json").data) == hybrid


def test_millisecond_dates_read_as_seconds():
    card = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {"name": "Ada", "creation_date": 1700000000123, "modification_date": 1700000001},
    }
    _adapter, decoded, _media = read(json.dumps(card).encode(), "ada.json")
    assert (decoded.pieces[0].body.creation_date, decoded.pieces[0].body.modification_date) == (1700000000, 1700000001)


def test_regex_scripts_are_sealed_and_data_uri_assets_become_blobs():
    script = {"scriptName": "tidy", "findRegex": "/a/g", "replaceString": "b"}
    card = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {
            "name": "Ada",
            "extensions": {"regex_scripts": [script], "app": {"x": 1}},
            "assets": [{"type": "icon", "name": "main", "ext": "png", "uri": "data:image/png;base64,iVBORw0KGgo="}],
        },
    }
    _adapter, decoded, media = read(json.dumps(card).encode(), "ada.json")
    body = decoded.pieces[0].body
    assert body.behavior_scripts[0].model_dump() == {"format": "sillytavern.regex", "name": "tidy", "payload": script}
    assert body.extensions == {"app": {"x": 1}}
    assert media(decoded.pieces[0].assets[0].asset) == b"\x89PNG\r\n\x1a\n" and body.portrait is not None
    assert json.loads(cross(json.dumps(card).encode(), "ada.json").data) == card


def test_bad_data_uri_is_corrupt():
    card = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {"name": "Ada", "assets": [{"type": "icon", "uri": "data:image/png;base64,@@@"}]},
    }
    with pytest.raises(BunzaiError) as caught:
        read(json.dumps(card).encode(), "ada.json")
    assert caught.value.code == "corrupt_file"
