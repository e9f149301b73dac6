"""Marinara Engine's profile backup (marinara-profile.json) reads as the pieces its rows are: each
row as that row's own export reads, lorebooks bound to a character or persona as links, avatars
as portraits; rows it cannot read, agents and themes are named in coded warnings."""

from __future__ import annotations

import base64
import json

import pytest
from marinara_profile_support import (
    PNG,
    character_row,
    lorebook_row,
    persona_row,
    preset_row,
    profile,
    profile_bytes,
)
from marinara_support import character_export, envelope, lorebook_export, persona_export, read

from bunzai import limits
from bunzai.errors import BunzaiError


def pieces_of(data: bytes):
    adapter, decoded = read(data, "marinara-profile.json")
    assert adapter.format_id == "marinara.profile"
    return decoded


def by_kind(decoded, kind: str) -> list:
    return [piece for piece in decoded.pieces if piece.kind == kind]


def codes(decoded) -> list[str]:
    return [warning.split(":", 1)[0] for warning in decoded.warnings]


def test_each_row_reads_as_its_own_marinara_export_reads():
    decoded = pieces_of(profile_bytes())
    (character,) = by_kind(decoded, "character")
    (persona,) = by_kind(decoded, "persona")
    (book,) = by_kind(decoded, "lorebook")
    (preset,) = by_kind(decoded, "preset")
    _, alone = read(character_export())
    unlinked = {"links", "portrait", "book"}
    assert character.body.model_dump(exclude=unlinked) == alone.pieces[0].body.model_dump(exclude=unlinked)
    assert character.original.format == "marinara.character"
    assert character.original.document["data"] == json.loads(character_export())["data"]
    _, alone = read(persona_export())
    assert persona.body.model_dump(exclude={"lorebook", "portrait"}) == alone.pieces[0].body.model_dump(
        exclude={"lorebook", "portrait"}
    )
    assert persona.original.document["data"] == json.loads(persona_export())["data"]  # the persona route's envelope
    _, alone = read(lorebook_export())
    assert (book.id, book.body) == (alone.pieces[0].id, alone.pieces[0].body)
    _, alone = read(envelope("marinara_preset", _preset_envelope_data(preset_row())))
    assert (preset.name, preset.body) == (alone.pieces[0].name, alone.pieces[0].body)


def _preset_envelope_data(row: dict) -> dict:
    """prompts.routes.ts GET /:id/export: {preset, sections, groups, choiceBlocks}."""
    preset = {key: value for key, value in row.items() if key not in ("groups", "sections", "choices")}
    return {"preset": preset, "sections": row["sections"], "groups": row["groups"], "choiceBlocks": row["choices"]}


def test_lorebooks_bound_by_characterid_and_personaid_are_links_and_the_embedded_copy_is_not_a_second_piece():
    books = [lorebook_row("lb1", characterId="c1"), lorebook_row("lb2", name="Rome", personaId="p1")]
    decoded = pieces_of(profile_bytes(lorebooks=books))
    (character,) = by_kind(decoded, "character")
    (persona,) = by_kind(decoded, "persona")
    assert [book.id for book in by_kind(decoded, "lorebook")] == ["italy", "rome"]
    assert character.body.links.lorebooks == ["italy"]
    assert character.body.book is not None  # the card keeps its embedded book in its body
    assert persona.body.lorebook == "rome"


def test_an_embedded_book_no_row_stands_for_is_a_piece_with_an_id_of_its_own():
    kitchen = lorebook_row("lb9", name="Kitchen")  # a book of the same name, bound to nothing
    decoded = pieces_of(profile_bytes(lorebooks=[kitchen]))
    (character,) = by_kind(decoded, "character")
    assert sorted(book.id for book in by_kind(decoded, "lorebook")) == ["kitchen", "kitchen-2"]
    assert character.body.links.lorebooks == ["kitchen-2"]


def test_avatars_are_portraits_with_their_bytes_in_the_blobs():
    decoded = pieces_of(profile_bytes(personas=[persona_row(avatarBase64=base64.b64encode(PNG).decode())]))
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    for piece in by_kind(decoded, "character") + by_kind(decoded, "persona"):
        assert piece.body.portrait.ext == "png" and blobs[piece.body.portrait.sha256] == PNG


def test_agents_and_themes_are_named_as_not_carried():
    decoded = pieces_of(profile_bytes())
    assert "marinara.profile.agents.not_carried" in codes(decoded)
    assert "marinara.profile.themes.not_carried" in codes(decoded)
    quiet = pieces_of(profile_bytes(agents=[], themes=[]))
    assert not any(code.endswith("not_carried") for code in codes(quiet))


def test_rows_of_the_wrong_type_are_passed_over_by_place_and_the_rest_read():
    rows = [7, character_row("c2", data="not a card"), ["x"], character_row("c3")]
    decoded = pieces_of(profile_bytes(characters=rows, lorebooks=[lorebook_row(characterId="c3")]))
    skipped = [w for w in decoded.warnings if w.startswith("marinara.profile.row.skipped")]
    assert [w.split(": ")[1].split(" ")[0] for w in skipped] == ["characters[0]", "characters[1]", "characters[2]"]
    (character,) = by_kind(decoded, "character")
    assert character.body.links.lorebooks == ["italy"]


def test_duplicate_ids_and_names_give_distinct_pieces_and_a_warning():
    characters = [character_row("c1"), character_row("c1")]
    personas = [persona_row("p1"), persona_row("p2")]
    books = [lorebook_row("lb1", characterId="c1"), lorebook_row("lb1")]
    decoded = pieces_of(profile_bytes(characters=characters, personas=personas, lorebooks=books))
    assert [p.id for p in by_kind(decoded, "character")] == ["mari", "mari-2"]
    assert [p.id for p in by_kind(decoded, "persona")] == ["luca", "luca-2"]
    assert sorted(p.id for p in by_kind(decoded, "lorebook")) == ["italy", "italy-2", "kitchen"]
    first, second = by_kind(decoded, "character")
    assert first.body.links.lorebooks == ["italy"] and second.body.links.lorebooks == ["kitchen"]
    assert codes(decoded).count("marinara.profile.row.duplicate_id") == 2  # characters[1], lorebooks[1]
    ids = [(p.kind, p.id) for p in decoded.pieces]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(
    ("avatar", "code"),
    [
        ("@@not base64@@", "marinara.profile.avatar.not_image"),  # read as Node reads base64: no image
        (base64.b64encode(b"just text").decode(), "marinara.profile.avatar.not_image"),
        (base64.b64encode(PNG + b"\0" * 4096).decode(), "marinara.profile.avatar.too_large"),
    ],
)
def test_an_avatar_that_cannot_be_a_portrait_is_named_and_the_row_still_reads(monkeypatch, avatar, code):
    monkeypatch.setattr(limits, "ASSET_MAX_BYTES", 1024)
    decoded = pieces_of(profile_bytes(characters=[character_row(avatarBase64=avatar)]))
    (character,) = by_kind(decoded, "character")
    assert character.body.portrait is None and not decoded.blobs and code in codes(decoded)


def test_a_profile_of_more_rows_than_one_import_applies_together_is_refused_before_reading_them():
    rows = [{"id": f"p{n}"} for n in range(limits.DRAFT_GROUP_MAX + 1)]
    with pytest.raises(BunzaiError) as refused:
        read(json.dumps(profile(personas=rows)).encode(), "marinara-profile.json")
    assert refused.value.code == "too_large" and str(limits.DRAFT_GROUP_MAX) in refused.value.message


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"version": 2}, "unsupported"),
        ({"data": {"characters": "all of them"}}, "corrupt_file"),
        ({"data": {"characters": [], "agents": [{"id": "a"}]}}, "unrecognized_file"),
    ],
)
def test_a_profile_bunzai_cannot_read_is_refused_with_a_code(change, code):
    with pytest.raises(BunzaiError) as refused:
        read(json.dumps(profile() | change).encode(), "marinara-profile.json")
    assert refused.value.code == code
