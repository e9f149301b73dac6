"""Backyard AI: BYAF archives and legacy PNGs read; BYAF round-trips member for member, is written
within its strict schemas, and crossings into it name every field it drops."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.model.character import Character
from testkit import corpus_path

SCHEMAS = {
    "manifest": "byaf-manifest.schema.json",
    "character": "byaf-character.schema.json",
    "scenario": "byaf-scenario.schema.json",
}


def media_of(decoded):
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    return lambda ref: blobs[ref.sha256]


def members(data: bytes) -> dict[str, bytes]:
    archive = zipfile.ZipFile(io.BytesIO(data))
    return {name: archive.read(name) for name in archive.namelist() if not name.endswith("/")}


def schema(name: str) -> dict:
    return json.loads(corpus_path("backyard-byaf", SCHEMAS[name]).read_text())


def schema_problems(value, node: dict, where: str = "") -> list[str]:
    """A small JSON Schema check for the draft-07 subset the BYAF schemas use."""
    if "oneOf" in node:
        fits = [schema_problems(value, option, where) for option in node["oneOf"]]
        return [] if sum(not f for f in fits) == 1 else [f"{where}: matches {sum(not f for f in fits)} oneOf branches"]
    problems = []
    types = node.get("type")
    kinds = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
    if types is not None:
        names = types if isinstance(types, list) else [types]
        ok = any(
            isinstance(value, (int, float)) and not isinstance(value, bool)
            if t == "number"
            else isinstance(value, int) and not isinstance(value, bool)
            if t == "integer"
            else isinstance(value, kinds[t])
            for t in names
        )
        if not ok:
            return [f"{where}: {value!r} is not {types}"]
    if "const" in node and value != node["const"]:
        problems.append(f"{where}: {value!r} is not {node['const']!r}")
    if "enum" in node and value not in node["enum"]:
        problems.append(f"{where}: {value!r} not in {node['enum']}")
    if isinstance(value, str) and "pattern" in node and not re.search(node["pattern"], value):
        problems.append(f"{where}: {value!r} does not match {node['pattern']}")
    if isinstance(value, dict):
        properties = node.get("properties", {})
        problems += [f"{where}: missing {key}" for key in node.get("required", []) if key not in value]
        if node.get("additionalProperties") is False:
            problems += [f"{where}: unknown key {key}" for key in value if key not in properties]
        for key, item in value.items():
            if key in properties:
                problems += schema_problems(item, properties[key], f"{where}/{key}")
    if isinstance(value, list):
        if len(value) < node.get("minItems", 0) or len(value) > node.get("maxItems", len(value)):
            problems.append(f"{where}: {len(value)} items")
        for index, item in enumerate(value):
            problems += schema_problems(item, node.get("items", {}), f"{where}/{index}")
    return problems


def byaf_problems(data: bytes) -> list[str]:
    files = members(data)
    manifest = json.loads(files["manifest.json"])
    problems = schema_problems(manifest, schema("manifest"), "manifest.json")
    for path in manifest["characters"]:
        problems += schema_problems(json.loads(files[path]), schema("character"), path)
        character = json.loads(files[path])
        folder = path.rsplit("/", 1)[0]
        problems += [f"missing image {i['path']}" for i in character["images"] if f"{folder}/{i['path']}" not in files]
    for path in manifest["scenarios"]:
        problems += schema_problems(json.loads(files[path]), schema("scenario"), path)
    return problems


BACKYARD_FILES = ("1.byaf", "3.byaf", "legacy-faraday-v1.png", "legacy-backyard-v4.png")


def test_every_backyard_corpus_file_imports():
    folder = corpus_path("backyard-byaf")
    for path in sorted(folder.iterdir()):
        if path.suffix == ".md" or path.name.endswith(".schema.json"):
            # SOURCES.md is provenance; the JSON Schemas describe BYAF members and are no pieces:
            # the tests below use them to check what bunzai writes.
            continue
        adapter, decoded = read_bytes(path.read_bytes(), path.name)
        assert adapter.format_id in ("backyard.byaf", "backyard.png"), path.name
        assert decoded.pieces[0].kind == "character" and decoded.pieces[0].name
    assert {p.name for p in folder.iterdir()} >= set(BACKYARD_FILES)


def test_a_byaf_reads_its_character_first_scenario_and_images():
    adapter, decoded = read_bytes(corpus_path("backyard-byaf", "3.byaf").read_bytes(), "3.byaf")
    piece = decoded.pieces[0]
    assert (piece.name, piece.body.nickname, piece.body.description) == ("Test Bot", "TestBot", "A test character")
    assert piece.body.first_message == "Hello, I am a test bot!" and piece.body.scenario == "A test scenario"
    assert piece.body.system_prompt == "You are a test bot"
    assert [e.keys[0].text for e in piece.body.book.entries] == ["test"]
    assert [link.name for link in piece.assets] == ["avatar", "image1", ""]
    assert piece.body.portrait == piece.assets[0].asset
    assert "scenarios/scenario2.json" in piece.original.document  # the second scenario stays in escrow


@pytest.mark.parametrize("name", ["1.byaf", "3.byaf"])
def test_a_same_format_round_trip_gives_every_member_byte_for_byte(name):
    raw = corpus_path("backyard-byaf", name).read_bytes()
    _, decoded = read_bytes(raw, name)
    crossing = convert_piece(decoded.pieces[0], "backyard.byaf", media_of(decoded))
    assert crossing.losses == []
    assert members(crossing.data) == members(raw)


def test_an_edit_changes_only_its_member_and_stays_within_the_schemas():
    raw = corpus_path("backyard-byaf", "3.byaf").read_bytes()
    _, decoded = read_bytes(raw, "3.byaf")
    piece = decoded.pieces[0]
    body = piece.body.model_copy(deep=True)
    body.first_message = "Hi {user}, I am {character}."
    out = convert_piece(piece.model_copy(update={"body": body}), "backyard.byaf", media_of(decoded))
    before, after = members(raw), members(out.data)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"scenarios/scenario1.json"}
    assert json.loads(after["scenarios/scenario1.json"])["firstMessages"][0]["text"] == "Hi {user}, I am {character}."
    assert byaf_problems(out.data) == []


def test_byaf_allows_no_unknown_keys_so_they_are_reported_not_written():
    # The BYAF schemas say additionalProperties: false everywhere, so no unknown key may
    # travel in a BYAF file (the hypothesis property of other formats does not apply here).
    raw = corpus_path("backyard-byaf", "1.byaf").read_bytes()
    files = members(raw)
    character = json.loads(files["characters/test123/character.json"])
    character["x_unknown"] = {"kept": False}
    files["characters/test123/character.json"] = json.dumps(character, indent=2).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for member, data in files.items():
            archive.writestr(member, data)
    _, decoded = read_bytes(buffer.getvalue(), "extra.byaf")
    out = convert_piece(decoded.pieces[0], "backyard.byaf", media_of(decoded))
    assert [loss.code for loss in out.losses] == ["backyard.schema.unknown_key"]
    assert "x_unknown" not in json.loads(members(out.data)["characters/test123/character.json"])
    assert byaf_problems(out.data) == []


def rich_character() -> tuple[Character, dict]:
    from bunzai.adapters.contract import Blob
    from bunzai.adapters.common.png import default_portrait

    portrait = Blob(default_portrait(), "png", "image/png")
    background = Blob(b"\x89PNG-not-really-a-background", "png", "image/png")
    piece = Character.model_validate(
        {
            "id": "mira",
            "name": "Mira Vale",
            "body": {
                "nickname": "Mira",
                "tagline": "Lighthouse keeper",
                "description": "{{char}} keeps the light.",
                "personality": "calm",
                "scenario": "A storm night with {{user}}.",
                "first_message": "Come in, {{user}}.",
                "alternate_greetings": ["Another greeting"],
                "group_only_greetings": ["Hello all"],
                "example_messages": (
                    "<START>\n{{user}}: hi\n{{char}}: hello\n<START>\n{{user}}: bye\n{{char}}: farewell"
                ),
                "system_prompt": "Write as {{char}}.",
                "post_history_instructions": "Stay in character.",
                "creator_notes": "notes",
                "tags": ["sea"],
                "creator": "someone",
                "version": "2",
                "rating": "unrated",
                "creation_date": 1700000000,
                "modification_date": None,
                "portrait": portrait.ref().model_dump(mode="json"),
                "depth_prompt": {"text": "depth note", "depth": 2, "role": "system"},
                "settings": {"talkativeness": 0.9, "favorite": True},
                "extensions": {"x_app": {"a": 1}},
                "book": {
                    "name": "Lore",
                    "description": "a book",
                    "entries": [
                        {
                            "uid": 7,
                            "keys": [{"text": "light"}, {"text": "lamp"}],
                            "secondary_keys": [{"text": "night"}],
                            "content": "The light turns.",
                            "position": "at_depth",
                            "depth": 2,
                        },
                        {"uid": 9, "keys": [{"text": "storm"}], "content": "A storm.", "enabled": False},
                        {"uid": 11, "keys": [{"text": "boat"}], "content": "A boat for {{user}}."},
                    ],
                },
            },
            "assets": [
                {"role": "icon", "name": "main", "ext": "png", "asset": portrait.ref().model_dump(mode="json")},
                {"role": "background", "name": "bg", "ext": "png", "asset": background.ref().model_dump(mode="json")},
            ],
            "profiles": {"risuai": {"x": 1}},
        }
    )
    return piece, {portrait.sha256: portrait.data, background.sha256: background.data}


def test_a_rich_character_crossing_into_byaf_lists_every_field_it_drops():
    piece, blobs = rich_character()
    out = convert_piece(piece, "backyard.byaf", lambda ref: blobs[ref.sha256])
    codes = {loss.pointer: loss.code for loss in out.losses}
    assert "crossing.not_carried" not in codes.values(), out.losses
    assert byaf_problems(out.data) == []
    for field in (
        "tagline",
        "personality",
        "alternate_greetings",
        "group_only_greetings",
        "post_history_instructions",
        "creator_notes",
        "tags",
        "creator",
        "version",
        "depth_prompt",
        "settings",
        "extensions",
    ):
        assert codes.get(f"/body/{field}") == "backyard.field.not_carried", field
    assert codes["/body/rating"] == "backyard.rating.binary"
    assert codes["/body/modification_date"] == "backyard.dates.required"
    assert codes["/body/book/entries/0/keys"] == "backyard.lore.one_key"
    assert codes["/body/book/entries/0/secondary_keys"] == "backyard.lore.secondary_keys"
    assert codes["/body/book/entries/1"] == "backyard.lore.disabled"
    assert codes["/body/book/entries/2/uid"] == "backyard.lore.renumbered"
    assert codes["/assets/1/name"] == "backyard.background.named_main"  # the background is the scenario's
    assert codes["/profiles"] == "backyard.profiles.dropped"
    notes = [loss for loss in out.losses if loss.code == "backyard.placeholders.double_brace"]
    assert {loss.pointer for loss in notes} >= {
        "/body/description",
        "/body/first_message",
        "/body/book/entries/2/content",
    }
    # placeholders are copied as written, never rewritten
    _, back = read_bytes(out.data, "mira.byaf")
    back = back.pieces[0]
    assert back.body.first_message == "Come in, {{user}}." and back.body.example_messages == piece.body.example_messages
    assert [e.keys[0].text for e in back.body.book.entries] == ["light", "boat"]


def test_single_brace_placeholders_are_reported_when_a_backyard_file_is_read():
    _, decoded = read_bytes(corpus_path("backyard-byaf", "legacy-faraday-v1.png").read_bytes(), "v1.png")
    assert any(w.startswith("backyard.placeholders.single_brace") for w in decoded.warnings)
    assert "{character}" in decoded.pieces[0].body.description


def test_legacy_pngs_read_plain_and_base64_documents():
    _, v1 = read_bytes(corpus_path("backyard-byaf", "legacy-faraday-v1.png").read_bytes(), "v1.png")
    _, v4 = read_bytes(corpus_path("backyard-byaf", "legacy-backyard-v4.png").read_bytes(), "v4.png")
    assert (v1.pieces[0].name, v1.pieces[0].body.nickname) == ("Faraday Assistant", "Faraday")
    assert v1.pieces[0].original.document["version"] == 1
    assert (v4.pieces[0].name, v4.pieces[0].body.nickname) == ("Kendrick", "Armstrong")
    assert v4.pieces[0].body.book.entries[0].keys[0].text == "timidus"
    assert v4.pieces[0].body.portrait is not None
    crossing = convert_piece(v4.pieces[0], "backyard.byaf", media_of(v4))
    assert byaf_problems(crossing.data) == []
    assert "crossing.not_carried" not in {loss.code for loss in crossing.losses}


def test_a_damaged_byaf_gives_a_coded_error():
    from bunzai.errors import BunzaiError

    raw = corpus_path("backyard-byaf", "1.byaf").read_bytes()
    with pytest.raises(BunzaiError) as error:
        read_bytes(raw[: len(raw) // 2], "cut.byaf", "backyard.byaf")
    assert error.value.code == "corrupt_file"


@pytest.mark.parametrize("name", ["1.byaf", "3.byaf"])
def test_a_round_trip_keeps_the_directory_entries_in_their_order(name):
    import io
    import zipfile

    raw = corpus_path("backyard-byaf", name).read_bytes()
    _, decoded = read_bytes(raw, name)
    edited = decoded.pieces[0].model_copy(update={"name": "Renamed"})
    for piece in (decoded.pieces[0], edited):
        crossing = convert_piece(piece, "backyard.byaf", media_of(decoded))
        listed = [info.filename for info in zipfile.ZipFile(io.BytesIO(crossing.data)).infolist()]
        original = [info.filename for info in zipfile.ZipFile(io.BytesIO(raw)).infolist()]
        assert [n for n in listed if n.endswith("/")] == [n for n in original if n.endswith("/")]
        assert listed == original
        assert all(
            info.is_dir()
            for info in zipfile.ZipFile(io.BytesIO(crossing.data)).infolist()
            if info.filename.endswith("/")
        )
