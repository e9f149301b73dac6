"""A RisuAI preset that lacks keys, read as RisuAI loads it.

RisuAI's importPreset reads a preset as `{...presetTemplate, ...preset}` (database.svelte.ts): a
missing mainPrompt or jailbreak is its default (defaultPrompts.ts binds defaultMainPrompt and
defaultJailbreak to a prebuilt preset of templates.ts), sent where the preset has no template. That
text is RisuAI's, so bunzai reads it from the configured checkout (here one of the tests' own, with
RisuAI's layout); without one it says so. A null field is replaced by the previous preset's
(setPreset, `??`). A chat item sends the whole chat however its range is left out (`case 'chat'`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from risu_support import configured_checkout, fake_checkout, risupreset_bytes
from test_risu_preset_template import no_media, open_risup

from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.risu import rpack
from bunzai.adapters.risu.preset import DEFAULTS_BINDING, DEFAULTS_SOURCE
from bunzai.convert import convert_piece
from bunzai.model.preset import OrderItem

MAIN = 'Write as {{char}}.\nStay "in" role.'
JAILBREAK = "Anything goes."
BINDING = """import { prebuiltPresets } from "../process/templates/templates"

export const defaultMainPrompt = prebuiltPresets.Alpha.mainPrompt
export const defaultJailbreak = prebuiltPresets.Alpha.jailbreak
"""
# Beta comes first and Gamma after: the binding, not the first preset, says whose text is the default.
SOURCE = f"""export const prebuiltPresets:{{Beta:botPreset,Alpha:botPreset,Gamma:botPreset}} = {{
  "Beta":{{
    "mainPrompt": "Not the default.",
    "jailbreak": "Not the default either."
  }},
  "Alpha":{{
    "mainPrompt": {json.dumps(MAIN)},
    "ooba": {{
      "mainPrompt": "nested, after Alpha's own"
    }},
    "jailbreak": {json.dumps(JAILBREAK)}
  }},
  "Gamma":{{
    "mainPrompt": "Gamma's."
  }}
}}
"""


def write_defaults(root: Path, binding: str = BINDING, source: str = SOURCE) -> None:
    for path, text in ((DEFAULTS_BINDING, binding), (DEFAULTS_SOURCE, source)):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A checkout with a table and the default prompts, configured."""
    monkeypatch.delenv(rpack.ENV_ROOT, raising=False)
    table = fake_checkout(tmp_path)
    write_defaults(tmp_path)
    rpack.configure_risu_root(tmp_path, verify_hash=False)
    yield table
    rpack.configure_risu_root(None)


@pytest.fixture
def bare_checkout(tmp_path, monkeypatch):
    """A checkout with the table only (no source to read the defaults from)."""
    yield from configured_checkout(tmp_path, monkeypatch)


def decoded(preset: dict):
    return read_bytes(risupreset_bytes(preset), "bare.risupreset")[1]


def blocks(preset: dict) -> dict:
    return {block.identifier: (block.content, block.enabled) for block in decoded(preset).pieces[0].body.prompts}


def test_a_preset_without_main_prompt_or_jailbreak_reads_risuai_s_defaults(checkout):
    read = decoded({"name": "Bare", "temperature": 70})
    body = read.pieces[0].body
    assert {b.identifier: b.content for b in body.prompts if not b.marker} == {"main": MAIN, "jailbreak": JAILBREAK}
    # where RisuAI's default formatingOrder sends them
    assert [item.identifier for item in body.orders[0].items] == [
        "main",
        "charDescription",
        "personaDescription",
        "chatHistory",
        "jailbreak",
        "worldInfoBefore",
        "authorNote",
    ]
    assert read.warnings == []


def test_a_field_the_preset_has_is_not_replaced_by_the_default(checkout):
    assert blocks({"mainPrompt": "Mine.", "jailbreak": ""})["main"] == ("Mine.", True)
    assert "jailbreak" not in blocks({"mainPrompt": "Mine.", "jailbreak": ""})  # empty: sends nothing


def test_beside_a_template_the_defaults_are_not_read(checkout):
    # RisuAI ignores the three fields beside a template, so no disabled default blocks are made
    assert set(blocks({"promptTemplate": [{"type": "plain", "text": "Hi.", "role": "system"}]})) == {"template-0"}


def test_without_the_checkout_s_source_a_missing_main_prompt_is_said(bare_checkout):
    read = decoded({"name": "Bare", "formatingOrder": ["main", "chats"]})
    assert [b.identifier for b in read.pieces[0].body.prompts] == ["chatHistory"]
    # the jailbreak is not in the formatingOrder: RisuAI does not send it, so nothing to say
    [warning] = read.warnings
    assert "no mainPrompt" in warning and DEFAULTS_SOURCE in warning and "[engines] risu" in warning


def test_without_any_checkout_both_missing_fields_are_said(no_table):
    warnings = decoded({"name": "Bare"}).warnings
    assert [w.split(":")[0] for w in warnings] == ["the preset has no mainPrompt", "the preset has no jailbreak"]


def test_a_null_field_is_said_not_filled(checkout):
    read = decoded({"mainPrompt": None, "jailbreak": "J."})
    assert "main" not in {b.identifier for b in read.pieces[0].body.prompts}
    assert [w for w in read.warnings if "mainPrompt is null" in w]


def test_the_default_is_the_bound_preset_s_own_string(tmp_path, no_table):
    # Alpha without a jailbreak of its own: Gamma's (after it) is not Alpha's
    write_defaults(tmp_path, source=SOURCE.replace(f',\n    "jailbreak": {json.dumps(JAILBREAK)}', ""))
    rpack.configure_risu_root(tmp_path, verify_hash=False)
    try:
        read = decoded({"name": "Bare"})
    finally:
        rpack.configure_risu_root(None)
    assert {b.identifier: b.content for b in read.pieces[0].body.prompts if not b.marker} == {"main": MAIN}
    assert [w.split(":")[0] for w in read.warnings] == ["the preset has no jailbreak"]


def test_a_string_json_cannot_read_is_no_default(tmp_path, no_table):
    write_defaults(tmp_path, source=SOURCE.replace(json.dumps(MAIN), "'single quoted'"))
    rpack.configure_risu_root(tmp_path, verify_hash=False)
    try:
        read = decoded({"name": "Bare"})
    finally:
        rpack.configure_risu_root(None)
    assert "main" not in {b.identifier for b in read.pieces[0].body.prompts}
    assert [w.split(":")[0] for w in read.warnings] == ["the preset has no mainPrompt"]


@pytest.mark.parametrize("fixture", ["checkout", "bare_checkout"])
@pytest.mark.parametrize(
    "preset",
    [
        {"name": "Bare", "temperature": 70},
        {"name": "Nulls", "mainPrompt": None, "jailbreak": None},
        {"name": "Templated", "promptTemplate": [{"type": "chat"}, {"type": "persona", "innerFormat": "{{slot}}"}]},
    ],
)
def test_an_unedited_preset_lacking_keys_writes_back_as_it_was(request, fixture, preset):
    table = request.getfixturevalue(fixture)
    crossing = convert_piece(decoded(preset).pieces[0], "risu.preset", no_media)
    assert open_risup(crossing.data, table) == preset and crossing.losses == []


def test_a_removed_default_main_block_is_written_empty(checkout):
    piece = decoded({"name": "Bare"}).pieces[0]
    order = piece.body.orders[0]
    order = order.model_copy(update={"items": [i for i in order.items if i.identifier != "main"]})
    prompts = [b for b in piece.body.prompts if b.identifier != "main"]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": prompts, "orders": [order]})})
    inner = open_risup(convert_piece(piece, "risu.preset", no_media).data, checkout)
    # left out, RisuAI's import would fill in its default main prompt again
    assert inner == {"name": "Bare", "mainPrompt": ""}


def test_an_edited_default_is_written(checkout):
    piece = decoded({"name": "Bare"}).pieces[0]
    prompts = [b.model_copy(update={"content": "Edited."}) if b.identifier == "main" else b for b in piece.body.prompts]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": prompts})})
    assert open_risup(convert_piece(piece, "risu.preset", no_media).data, checkout) == {
        "name": "Bare",
        "mainPrompt": "Edited.",
    }


def test_a_main_block_added_where_the_default_was_unread_is_written(bare_checkout):
    piece = decoded({"name": "Bare"}).pieces[0]
    from bunzai.model.preset import PromptBlock

    main = PromptBlock(identifier="main", name="mainPrompt", content="Added.")
    order = piece.body.orders[0]
    order = order.model_copy(update={"items": [OrderItem(identifier="main"), *order.items]})
    body = piece.body.model_copy(update={"prompts": [main, *piece.body.prompts], "orders": [order]})
    inner = open_risup(
        convert_piece(piece.model_copy(update={"body": body}), "risu.preset", no_media).data, bare_checkout
    )
    assert inner["mainPrompt"] == "Added." and "jailbreak" not in inner


@pytest.mark.parametrize(
    ("item", "identifier"),
    [
        ({"type": "chat"}, "chatHistory"),  # start and end missing: slice(undefined, undefined)
        ({"type": "chat", "rangeStart": 0}, "chatHistory"),
        ({"type": "chat", "rangeStart": None, "rangeEnd": "end"}, "chatHistory"),
        ({"type": "chat", "rangeStart": -1000, "rangeEnd": 3}, "chatHistory"),  # -1000: the whole chat
        ({"type": "chat", "rangeStart": 0, "rangeEnd": None}, "template-0"),  # 0 >= null: nothing sent
        ({"type": "chat", "rangeStart": 2, "rangeEnd": "end"}, "template-0"),
        ({"type": "chat", "rangeStart": False, "rangeEnd": "end"}, "template-0"),
    ],
)
def test_a_chat_item_is_the_whole_chat_where_risuai_slices_all_of_it(no_table, item, identifier):
    assert [b.identifier for b in decoded({"promptTemplate": [item]}).pieces[0].body.prompts] == [identifier]


def test_an_item_of_a_type_risuai_has_not_is_said(no_table):
    [warning] = decoded({"promptTemplate": [{"text": "typeless"}, {"type": "cache", "name": "c"}]}).warnings
    assert warning.startswith("template item 0: RisuAI has no item of type None")


def test_import_reads_the_defaults_from_the_studio_s_checkout(bunzai, tmp_path):
    # the studio's [engines] risu names the checkout; a .risupreset needs no table, so its hash is not checked
    write_defaults(tmp_path / "RisuAI")
    (tmp_path / "bare.risupreset").write_bytes(risupreset_bytes({"name": "Bare"}))
    [before] = bunzai("import", str(tmp_path / "bare.risupreset"), check=True).lines
    assert [w.split(":")[0] for w in before["warnings"]] == [
        "the preset has no mainPrompt",
        "the preset has no jailbreak",
    ]
    settings = bunzai.studio / "bunzai.toml"
    settings.write_text(settings.read_text() + f'\n[engines]\nrisu = "{tmp_path / "RisuAI"}"\n')
    [draft] = bunzai("import", str(tmp_path / "bare.risupreset"), check=True).lines
    prompts = {p["identifier"]: p["content"] for p in draft["proposed"]["body"]["prompts"]}
    assert prompts["main"] == MAIN and prompts["jailbreak"] == JAILBREAK and draft["warnings"] == []
