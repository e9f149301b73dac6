"""text-generation-webui characters written and read as textgen itself reads them (modules/chat.py
`load_character`, `replace_character_names`; PyYAML's YAML 1.1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agnai_textgen_support import media, rich_character
from cards_support import cross, edit_body, not_carried, read
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.adapters.common.yamltext import load_yaml_bytes
from bunzai.adapters.inspect import inspect_bytes
from bunzai.adapters.textgen.yaml_out import yaml_bytes
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError

# Plain scalars YAML 1.1 (PyYAML, textgen's reader) resolves to booleans and numbers, where
# YAML 1.2 (bunzai's reader) reads text.
NOT_TEXT_IN_YAML_1_1 = ["yes", "No", "on", "OFF", "Y", "1:30", "-1:30", "190:20:30.15", "1_000", "017", "0b101"]


def yaml_1_1(data: bytes):
    """The document as a YAML 1.1 reader, like textgen's PyYAML, reads it."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.version = (1, 1)
    return yaml.load(data.decode("utf-8"))


@pytest.mark.parametrize("text", NOT_TEXT_IN_YAML_1_1)
def test_text_yaml_1_1_reads_as_a_boolean_or_number_is_quoted(text):
    document = {"name": text, "greeting": text, "context": text, text: [text]}
    data = yaml_bytes(document)
    assert yaml_1_1(data) == document
    assert load_yaml_bytes(data, what="x") == document


def test_an_edited_greeting_of_yes_reaches_textgen_as_text():
    data = b"name: Ada\ngreeting: Hi\ncontext: Ada answers briefly.\n"
    crossing = cross(data, "Ada.yaml", edit=edit_body(first_message="Yes"))
    assert yaml_1_1(crossing.data)["greeting"] == "Yes"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(st.sampled_from(NOT_TEXT_IN_YAML_1_1) | st.text(max_size=20), min_size=3, max_size=3))
def test_every_written_string_reads_back_as_the_same_string_in_yaml_1_1(texts):
    document = dict(zip(("name", "greeting", "context"), texts, strict=True))
    assert yaml_1_1(yaml_bytes(document)) == document


# --- example_dialogue: ignored by textgen since August 2023 ------------------------------------

OLD_FILE = b"name: Ada\ngreeting: Hi\ncontext: Ada is kind.\nexample_dialogue: '{{user}}: hi'\n"


def test_an_old_files_example_dialogue_reads_as_the_example_messages():
    _adapter, decoded, _media = read(OLD_FILE, "Ada.yaml")
    assert decoded.pieces[0].body.example_messages == "{{user}}: hi"


def test_edited_examples_of_an_old_file_are_written_into_the_context_textgen_reads():
    crossing = cross(OLD_FILE, "Ada.yaml", edit=edit_body(example_messages="{{user}}: hello\n{{char}}: hey"))
    written = yaml_1_1(crossing.data)
    assert "example_dialogue" not in written
    assert written["context"] == "Ada is kind.\n\n{{user}}: hello\n{{char}}: hey"
    folded = {loss.pointer for loss in crossing.losses if loss.code == "textgen.context.folded"}
    assert folded == {"/body/example_messages", "/body/description"}
    assert not_carried(crossing) == []


# --- files textgen loads that bunzai refused -----------------------------------------------------


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"context: You answer briefly.\ngreeting: Hi\n", "Helper.yaml"),  # no name: textgen's settings name it
        (b"context: |\n  You answer briefly.\n", "Helper.yml"),
        (b"name: Bob\n", "Bob.yaml"),  # textgen's own writer leaves out an empty greeting and context
        (b"name: Bob\nyour_name: Ann\n", "Bob.yaml"),
        (json.dumps({"name": "Bob", "greeting": "Hi", "context": "Bob is tall."}).encode(), "Bob.json"),
    ],
)
def test_a_character_file_textgen_loads_is_read(data, name):
    assert inspect_bytes(data, name).adapter.format_id == "textgen.character.yaml"
    _adapter, decoded, _media = read(data, name)
    document = yaml_1_1(data)
    piece = decoded.pieces[0]
    assert piece.name == document.get("name", "")
    assert piece.body.description == document.get("context", "")
    assert piece.body.first_message == document.get("greeting", "")


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"name: Bob\nversion: 3\n", "Bob.yaml"),  # a name alone with a key textgen does not read: not claimed
        (json.dumps({"name": "Bob", "context": "x", "entries": {}}).encode(), "Bob.json"),
    ],
)
def test_files_with_other_keys_are_not_claimed_without_a_characters_shape(data, name):
    try:
        found = inspect_bytes(data, name)
    except BunzaiError as error:
        assert error.code == "unrecognized_file"
        return
    assert found.adapter.format_id != "textgen.character.yaml"


# --- <USER> and <BOT> ----------------------------------------------------------------------------

ANGLED = b"name: Ada\ngreeting: <BOT> waves at <USER>.\ncontext: <BOT> is kind to <USER>; <bot> stays.\n"


def test_user_and_bot_in_angle_brackets_read_as_the_macros_every_platform_fills_in():
    _adapter, decoded, _media = read(ANGLED, "Ada.yaml")
    body = decoded.pieces[0].body
    assert body.first_message == "{{char}} waves at {{user}}."
    assert body.description == "{{char}} is kind to {{user}}; <bot> stays."  # textgen's replacement is case-sensitive


def test_angle_bracket_names_survive_an_unchanged_round_trip_and_are_kept_where_unedited():
    assert cross(ANGLED, "Ada.yaml").data == ANGLED
    crossing = cross(ANGLED, "Ada.yaml", edit=edit_body(first_message="Hello, {{user}}."))
    written = yaml_1_1(crossing.data)
    assert written["context"] == "<BOT> is kind to <USER>; <bot> stays."
    assert written["greeting"] == "Hello, {{user}}."


def test_pygmalion_fields_read_angle_bracket_names_as_macros():
    document = {"char_name": "Ada", "char_persona": "<BOT> likes <USER>.", "char_greeting": "Hi <USER>"}
    data = json.dumps(document).encode()
    _adapter, decoded, _media = read(data, "Ada.json")
    body = decoded.pieces[0].body
    assert (body.description, body.first_message) == ("{{char}} likes {{user}}.", "Hi {{user}}")
    assert cross(data, "Ada.json").losses == []


@pytest.mark.parametrize("target", ["textgen.character.yaml", "textgen.pygmalion.json"])
def test_a_canonical_angle_bracket_name_is_reported_as_respelled(target):
    piece = rich_character()
    body = piece.body.model_copy(update={"first_message": "<BOT> bows.", "scenario": "", "example_messages": ""})
    crossing = convert_piece(piece.model_copy(update={"body": body}), target, media)
    assert not_carried(crossing) == []
    codes = {loss.pointer: loss.code for loss in crossing.losses}
    assert codes["/body/first_message"] == "textgen.names.respelled"


# --- end to end ----------------------------------------------------------------------------------


def test_import_and_export_of_a_nameless_character_gives_textgen_its_text(bunzai, tmp_path: Path):
    source = tmp_path / "Helper.yaml"
    source.write_bytes(b"context: <BOT> answers <USER> briefly.\ngreeting: 'yes'\n")
    draft = bunzai("import", str(source), check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    receipt = bunzai("export", "helper", "--to", "textgen.character.yaml", check=True).json
    written = bunzai.studio / receipt["path"]
    assert yaml_1_1(written.read_bytes()) == yaml_1_1(source.read_bytes())


# --- macros textgen does not fill in ---------------------------------------------------------------


@pytest.mark.parametrize("target", ["textgen.character.yaml", "textgen.pygmalion.json"])
def test_macros_textgen_shows_as_written_are_reported(target):
    piece = rich_character()
    body = piece.body.model_copy(
        update={"first_message": "Hi {{User}}, {{random::a::b}} and {{char}}.", "description": "{{user}} and {{char}}"}
    )
    crossing = convert_piece(piece.model_copy(update={"body": body, "original": None}), target, media)
    unfilled = {loss.pointer: loss.why for loss in crossing.losses if loss.code == "textgen.macro.not_filled"}
    assert list(unfilled) == ["/body/first_message"]
    assert "{{User}}, {{random::a::b}} reach" in unfilled["/body/first_message"]


def test_a_textgen_characters_own_braces_are_not_reported_on_its_way_back():
    data = b"name: Ada\ngreeting: Hi\ncontext: Ada writes {{time}} as it is.\n"
    crossing = cross(data, "Ada.yaml", edit=edit_body(first_message="Hello"))
    assert crossing.losses == []


@pytest.mark.parametrize("name", ["Bob.json", "Bob.yaml"])
def test_a_context_is_read_before_pygmalion_fields_as_textgen_reads_it(name):
    document = {"char_name": "Bob", "char_persona": "an old note", "context": "Bob is tall.", "greeting": "Hi"}
    _adapter, decoded, _media = read(json.dumps(document).encode(), name)
    piece = decoded.pieces[0]
    assert (piece.name, piece.body.description, piece.body.first_message) == ("Bob", "Bob is tall.", "Hi")
