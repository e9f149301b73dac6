"""Marinara Engine's "compatible" persona export (characters.routes.ts buildCompatiblePersonaExport:
the personas row at the top level, no dates, an `extensions.marinara` mark), which Marinara's own
persona import dialog takes, reads as the native export does and is written back native; a
whole-install profile is refused by name."""

from __future__ import annotations

import json

import pytest
from marinara_support import no_media, persona_export, read

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError

MARK = {"marinara": {"exportedAt": "2026-05-06T10:00:00.000Z", "source": "Marinara Engine compatibility export"}}


def compatible_persona() -> bytes:
    row = {key: value for key, value in json.loads(persona_export())["data"].items() if key != "metadata"}
    return json.dumps(row | {"extensions": MARK}, ensure_ascii=False, indent=2).encode("utf-8")


def test_a_compatible_persona_export_reads_as_the_native_one():
    adapter, decoded = read(compatible_persona(), "Luca.json")
    _native_adapter, native = read(persona_export())
    assert adapter.format_id == "marinara.persona"
    piece, twin = decoded.pieces[0], native.pieces[0]
    assert (piece.id, piece.name, piece.body) == (twin.id, twin.name, twin.body)


def test_a_compatible_persona_export_is_written_back_as_a_native_export():
    _adapter, decoded = read(compatible_persona(), "Luca.json")
    crossing = convert_piece(decoded.pieces[0], "marinara.persona", no_media)
    written = json.loads(crossing.data)
    row = json.loads(compatible_persona())
    del row["extensions"]
    assert (written["type"], written["version"], written["exportedAt"]) == (
        "marinara_persona",
        1,
        MARK["marinara"]["exportedAt"],
    )
    assert written["data"] == row and crossing.losses == []


def test_the_compatible_lorebook_export_is_not_taken_for_a_persona():
    # lorebooks.routes.ts buildCompatibleLorebookExport: an ST world with the same mark
    world = {"name": "Italy", "extensions": MARK, "entries": {"0": {"uid": 0, "key": ["rome"], "content": "A city."}}}
    adapter, _decoded = read_bytes(json.dumps(world).encode(), "Italy.json")
    assert adapter.format_id == "sillytavern.world"


def test_a_bare_persona_row_from_the_compatible_profile_zip_reads_too():
    # backup.routes.ts buildCompatibleProfileZip writes personas/<name>.json without the mark
    row = json.loads(compatible_persona())
    del row["extensions"]
    adapter, decoded = read(json.dumps(row, indent=2).encode(), "Luca.json")
    _native_adapter, native = read(persona_export())
    assert adapter.format_id == "marinara.persona" and decoded.pieces[0].body == native.pieces[0].body
    written = json.loads(convert_piece(decoded.pieces[0], "marinara.persona", no_media).data)
    assert written["type"] == "marinara_persona" and written["data"] == row


def test_a_profile_backup_is_refused_as_what_it_is():
    # backup.routes.ts buildProfileExportEnvelope, saved as marinara-profile.json
    profile = {
        "type": "marinara_profile",
        "version": 1,
        "exportedAt": "2026-05-05T10:00:00.000Z",
        "data": {"characters": [], "personas": [], "lorebooks": [], "presets": [], "agents": [], "themes": []},
    }
    with pytest.raises(BunzaiError) as refused:
        read(json.dumps(profile, indent=2).encode(), "marinara-profile.json")
    assert refused.value.code == "unsupported" and "Marinara Engine profile" in refused.value.message
