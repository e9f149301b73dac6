"""text-generation-webui: YAML characters and the old Pygmalion JSON."""

from __future__ import annotations

import copy
import json

import pytest
from agnai_textgen_support import media, rich_character
from cards_support import cross, edit_body, not_carried, read
from testkit import CORPUS, corpus_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.adapters.common.yamltext import load_yaml_bytes
from bunzai.adapters.inspect import inspect_bytes
from bunzai.adapters.textgen.yaml_out import yaml_bytes
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError

FORMATS = {
    "Example.yaml": "textgen.character.yaml",
    "Assistant.yaml": "textgen.character.yaml",
    "Example.pygmalion.json": "textgen.pygmalion.json",
}
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _corpus(name: str) -> bytes:
    return corpus_path("text-generation-webui", name).read_bytes()


def test_every_file_in_the_textgen_corpus_is_a_known_piece():
    folder = CORPUS / "text-generation-webui"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent (../shared/corpus is not beside this checkout)")
    assert sorted(p.name for p in folder.iterdir() if p.suffix != ".md") == sorted(FORMATS)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_corpus_file_imports_and_round_trips_byte_equal(name):
    from bunzai.changes.imports import drafts_from_bytes

    data = _corpus(name)
    assert inspect_bytes(data, name).adapter.format_id == FORMATS[name]
    assert [d["proposed"]["kind"] for d in drafts_from_bytes(data, name)] == ["character"]
    crossing = cross(data, name)
    assert crossing.data == data and crossing.losses == []


def test_yaml_character_maps_context_to_description_and_greeting_to_first_message():
    _adapter, decoded, _media = read(_corpus("Example.yaml"), "Example.yaml")
    piece = decoded.pieces[0]
    assert piece.name == "Chiharu Yamada"
    assert piece.body.description.startswith("Chiharu Yamada's Persona:")
    assert piece.body.first_message.startswith("*Chiharu strides")


def test_pygmalion_fields_map_one_to_one():
    _adapter, decoded, _media = read(_corpus("Example.pygmalion.json"), "Example.json")
    body = decoded.pieces[0].body
    assert body.description.startswith("Chiharu Yamada is a young")
    assert body.example_messages.startswith("{{user}}: So how")
    assert body.scenario == ""


def test_edited_yaml_keeps_key_order_block_scalars_and_the_users_name():
    data = b"name: Ada\nyour_name: Bob\ncontext: |\n  line one\n  line two\ngreeting: Hi\nzz_extra: [1, 2]\n"
    crossing = cross(data, "ada.yaml", edit=edit_body(first_message="Hello\nthere"))
    text = crossing.data.decode()
    assert list(load_yaml_bytes(crossing.data, what="x")) == ["name", "your_name", "context", "greeting", "zz_extra"]
    assert "greeting: |-\n  Hello\n  there\n" in text and "context: |\n  line one\n" in text
    assert crossing.losses == []


def test_scenario_and_examples_are_folded_into_the_context_and_reported():
    crossing = cross(
        _corpus("Example.yaml"), "Example.yaml", edit=edit_body(scenario="A lab.", example_messages="{{user}}: hi")
    )
    context = load_yaml_bytes(crossing.data, what="x")["context"]
    assert context.endswith("\n\nScenario: A lab.\n\n{{user}}: hi")
    assert {loss.code for loss in crossing.losses} == {"textgen.context.folded"}
    assert not_carried(crossing) == []


@pytest.mark.parametrize("target", ["textgen.character.yaml", "textgen.pygmalion.json"])
def test_a_rich_character_crossing_into_textgen_names_every_field_it_drops(target):
    crossing = convert_piece(rich_character(), target, media)
    assert not_carried(crossing) == []
    codes = {loss.pointer: loss.code for loss in crossing.losses}
    assert codes["/body/personality"] == "textgen.personality.dropped"
    assert codes["/body/book"] == "textgen.field.not_carried"


def test_textgen_formats_have_no_macro_engine():
    from bunzai.adapters.registry import get_adapter

    assert get_adapter("textgen.character.yaml").engine is None
    assert get_adapter("textgen.pygmalion.json").engine is None


# --- unknown keys -----------------------------------------------------------------------------

LEAF = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.text(max_size=12))
VALUE = st.recursive(
    LEAF,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text("abc", min_size=1, max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
UNKNOWN = st.dictionaries(
    st.text("abcdefghij_", min_size=1, max_size=8).map(lambda key: "zz_" + key), VALUE, min_size=1, max_size=3
)


@SETTINGS
@given(extra=UNKNOWN, text=st.text(max_size=30))
def test_yaml_character_keeps_unknown_keys_and_any_text(extra, text):
    document = {"name": "Ada", "greeting": "Hi", "context": "line\nline2\n"} | extra
    data = yaml_bytes(document)
    crossing = cross(data, "ada.yaml", edit=edit_body(first_message=text))
    expected = copy.deepcopy(document) | {"greeting": text}
    assert load_yaml_bytes(crossing.data, what="x") == expected
    assert not_carried(crossing) == []


@SETTINGS
@given(extra=UNKNOWN)
def test_pygmalion_json_keeps_unknown_keys(extra):
    document = json.loads(_corpus("Example.pygmalion.json")) | extra
    crossing = cross(json.dumps(document).encode(), "x.json", edit=edit_body(scenario="edited"))
    assert json.loads(crossing.data) == document | {"world_scenario": "edited"}
    assert crossing.losses == []


# --- hostile input -----------------------------------------------------------------------------


def _alias_bomb() -> bytes:
    lines = ["name: x", 'a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    return "\n".join(lines).encode()


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (_alias_bomb(), "too_large"),
        (b"name: x\ncontext: &a [*a]\n", "too_deep"),
        (b"name: [unclosed\n", "invalid_json"),
        (b"- a list\n", "corrupt_file"),
        (b"name: x\ncontext: !!binary aGk=\n", "unsupported"),
    ],
)
def test_hostile_yaml_gives_a_coded_error(data, code):
    from bunzai.adapters.inspect import read_bytes

    with pytest.raises(BunzaiError) as error:
        read_bytes(data, "x.yaml", "textgen.character.yaml")
    assert error.value.code == code
