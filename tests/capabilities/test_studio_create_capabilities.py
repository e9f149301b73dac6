"""studio.<kind>.create: a new piece from a rich, typed input; the id from `id` or the name as a slug."""

from __future__ import annotations

import base64
import hashlib

import pytest

from bundle_support import PNG_1X1, preview, refusal

KINDS = ("character", "lorebook", "persona", "preset", "regex", "quickreply", "pack", "htmldoc")


def _blank(kind: str, piece_id: str, name: str) -> dict:
    from bunzai.model import dump_piece, piece_class

    return dump_piece(piece_class(kind)(id=piece_id, name=name))


@pytest.mark.parametrize("kind", KINDS)
def test_create_from_just_a_name_gives_the_kinds_defaults(kind) -> None:
    result = preview(f"studio.{kind}.create", None, {"name": "Ada Lovelace"})
    assert result.after == _blank(kind, "ada-lovelace", "Ada Lovelace")
    assert result.attachments == {}


@pytest.mark.parametrize("kind", KINDS)
def test_create_takes_an_explicit_id_and_refuses_a_name_without_a_slug(kind) -> None:
    assert preview(f"studio.{kind}.create", None, {"name": "Ада", "id": "ada"}).after["id"] == "ada"
    assert preview(f"studio.{kind}.create", None, {"name": "Ада"}).after["id"].startswith("ada-")
    error = refusal(f"studio.{kind}.create", None, {"name": "★☆"})
    assert error.code == "invalid_id" and '"id"' in error.hint
    assert refusal(f"studio.{kind}.create", None, {"name": "x", "id": "Bad Id"}).code == "invalid_id"


def test_create_inputs_are_typed_and_described() -> None:
    from bunzai.capabilities.discovery import find_capability

    for kind in KINDS:
        cap = find_capability(f"studio.{kind}.create")
        assert (cap.domain, cap.mode, cap.kind, cap.area, cap.action) == ("studio", "create", kind, kind, "create")
        schema = cap.input_model.model_json_schema()
        assert schema["required"] == ["name"]
        assert all("description" in prop for prop in schema["properties"].values()), kind


def test_character_create_with_greetings_and_an_embedded_book() -> None:
    result = preview(
        "studio.character.create",
        None,
        {
            "name": "Seraphina",
            "description": "A guardian of the forest.",
            "first_message": "Hello.",
            "alternate_greetings": ["Hi."],
            "book": {"entries": [{"keys": ["glade"], "content": "A clearing."}]},
        },
    )
    body = result.after["body"]
    assert (body["first_message"], body["alternate_greetings"]) == ("Hello.", ["Hi."])
    assert [(e["uid"], e["keys"], e["content"]) for e in body["book"]["entries"]] == [
        (0, [{"text": "glade", "regex": False, "flags": ""}], "A clearing.")
    ]
    assert result.warnings == []


def test_lorebook_create_with_literal_and_regex_triggers() -> None:
    result = preview(
        "studio.lorebook.create",
        None,
        {
            "name": "Eldoria",
            "entries": [
                {
                    "uid": 0,
                    "title": "Forest",
                    "keys": ["forest", {"text": "wood(s|land)", "regex": True, "flags": "i"}],
                    "content": "Ancient trees.",
                    "position": "at_depth",
                    "depth": 2,
                    "role": "assistant",
                },
                {"title": "Always", "constant": True, "content": "Magic is real."},
                {"title": "Nothing", "content": "never fires"},
            ],
        },
    )
    entries = result.after["body"]["entries"]
    assert [e["uid"] for e in entries] == [0, 1, 2]
    assert entries[0]["keys"][1] == {"text": "wood(s|land)", "regex": True, "flags": "i"}
    assert (entries[0]["position"], entries[0]["depth"], entries[0]["role"]) == ("at_depth", 2, "assistant")
    assert entries[1]["constant"] is True
    assert result.warnings == ["entry 2 (Nothing) has no keys and is not constant, so it never activates"]


def test_lorebook_create_checks_regex_key_flags_and_patterns() -> None:
    entry = {"keys": [{"text": "(a+)+", "regex": True, "flags": "ii"}], "content": "x"}
    assert "given twice" in refusal("studio.lorebook.create", None, {"name": "B", "entries": [entry]}).message
    entry["keys"][0]["flags"] = "i"
    assert preview("studio.lorebook.create", None, {"name": "B", "entries": [entry]}).warnings == [
        "entry 0 (untitled) key: the pattern nests quantifiers (like (a+)+), which can backtrack catastrophically"
    ]


def test_preset_create_with_blocks_and_samplers_gets_a_global_order() -> None:
    result = preview(
        "studio.preset.create",
        None,
        {
            "name": "Lean",
            "samplers": {"temperature": 0.8, "min_p": 0.05},
            "prompts": [
                {"name": "Main", "content": "Be brief."},
                {"identifier": "chatHistory", "name": "Chat History", "marker": True},
            ],
        },
    )
    body = result.after["body"]
    assert (body["samplers"]["temperature"], body["samplers"]["min_p"]) == (0.8, 0.05)
    assert [b["identifier"] for b in body["prompts"]] == ["main", "chatHistory"]
    assert body["orders"] == [
        {
            "target": "global",
            "items": [{"identifier": "main", "enabled": True}, {"identifier": "chatHistory", "enabled": True}],
        }
    ]
    assert result.warnings == ["block 'Main' was given the identifier 'main'"]


def test_pack_create_with_a_data_uri_a_url_an_asset_and_a_default_face() -> None:
    sha = hashlib.sha256(PNG_1X1).hexdigest()
    ref = {"sha256": "b" * 64, "ext": "webp", "mime": "image/webp"}
    result = preview(
        "studio.pack.create",
        None,
        {
            "name": "Mira faces",
            "default_face": "neutral",
            "items": [
                {"label": "neutral", "media": "data:image/png;base64," + base64.b64encode(PNG_1X1).decode()},
                {"id": "joy-1", "label": "joy", "media": "https://example.com/joy.gif"},
                {"label": "sad", "media": ref},
            ],
            "groups": [{"name": "Happy", "items": ["joy-1"]}],
        },
    )
    body = result.after["body"]
    assert body["items"] == [
        {
            "id": "neutral",
            "label": "neutral",
            "asset": {"sha256": sha, "ext": "png", "mime": "image/png"},
            "mime": "image/png",
        },
        {"id": "joy-1", "label": "joy", "asset": None, "mime": "image/gif"},
        {"id": "sad", "label": "sad", "asset": ref, "mime": "image/webp"},
    ]
    assert body["default_face"] == "neutral" and body["groups"] == [{"name": "Happy", "items": ["joy-1"]}]
    assert result.after["assets"] == [
        {"role": "emotion", "name": "joy-1", "ext": "gif", "asset": None, "uri": "https://example.com/joy.gif"}
    ]
    assert list(result.attachments) == [sha]
    assert base64.b64decode(result.attachments[sha]["base64"]) == PNG_1X1


def test_pack_create_refuses_a_default_face_no_item_has() -> None:
    error = refusal("studio.pack.create", None, {"name": "P", "default_face": "joy", "items": [{"label": "sad"}]})
    assert error.code == "invalid_input" and "default_face" in error.message


def test_regex_and_quickreply_create_fill_ids() -> None:
    regex = preview(
        "studio.regex.create",
        None,
        {"name": "R", "rules": [{"name": "Trim", "pattern": "\\s+$", "placements": ["ai_output"]}]},
    )
    assert regex.after["body"]["rules"][0]["id"] == "trim" and regex.warnings == []
    qr = preview("studio.quickreply.create", None, {"name": "Q", "items": [{"label": "A", "id": 1}, {"label": "B"}]})
    assert [i["id"] for i in qr.after["body"]["items"]] == [1, 2]


def test_create_accepts_the_nested_body_form() -> None:
    result = preview(
        "studio.htmldoc.create", None, {"name": "Map", "body": {"markup": "<p>x</p>", "summary": "A map."}}
    )
    assert (result.after["body"]["markup"], result.after["body"]["summary"]) == ("<p>x</p>", "A map.")
