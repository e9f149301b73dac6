"""Agnai's names for the character, as Agnai reads them.

Its template grammar (common/grammar.ts, peggy) has `Character = "char"i / "character"i / "bot"i`:
an ordered choice, so "char" wins on `{{character}}` and the placeholder then fails at "acter}}";
peggy never tries the other branch, and the token is printed as text (checked by compiling the
grammar with peggy 3: `{{character}}` parses to the string "{{character}}", `{{bot}}` to the
placeholder char). `{{name}}` is not in the grammar at all: prompt.ts's BOT_REPLACE,
/(\\{\\{char\\}\\}|\\{\\{name\\}\\})/gi, replaces it in a card's scenario (buildPromptParts), example
chat and greeting (`replace`), the chat's messages (fillPlaceholders) and memory-book entries
(memory.ts), and nowhere else (not in a persona, a system prompt or a preset's template).
"""

from __future__ import annotations

import pytest

from bunzai.macros.catalog import all_catalogs, catalog_for
from bunzai.macros.crossing import MACRO_FIELDS, translate_piece
from bunzai.macros.translate import translate_text
from bunzai.validate import validate_piece

_READS_NAME = {
    "/body/scenario",
    "/body/example_messages",
    "/body/first_message",
    "/body/alternate_greetings/*",
    "/body/book/entries/*/content",
}


@pytest.mark.parametrize("written", ["{{character}}", "{{Character}}", "{{CHARACTER}}"])
def test_character_is_text_in_agnai_and_crosses_as_text(written: str) -> None:
    out = translate_text(f"Hi {written}", "agnai", "sillytavern")
    assert out.text == f"Hi {written}"
    assert [v["verdict"] for v in out.verdicts] == ["unknown"]


def test_bot_is_still_char_in_agnai() -> None:
    assert translate_text("{{bot}}", "agnai", "sillytavern").text == "{{char}}"


def test_no_engine_is_said_to_read_character_as_agnai_char() -> None:
    # sillytavern has no {{character}}: the note must not claim Agnai reads it
    [verdict] = translate_text("{{character}}", "sillytavern", "agnai").verdicts
    assert "agnai reads it" not in verdict["note"]


def _card(text: str):
    body = {f: text for f in ("description", "personality", "scenario", "system_prompt")}
    body |= {f: text for f in ("post_history_instructions", "example_messages", "first_message")}
    body |= {"alternate_greetings": [text], "book": {"entries": [{"content": text, "keys": []}]}}
    return validate_piece({"kind": "character", "id": "ada", "name": "Ada", "body": body})


def test_name_is_the_character_only_in_the_fields_agnai_replaces_it_in() -> None:
    piece, report = translate_piece(_card("Hi {{name}}"), "agnai", "sillytavern")
    doc = piece.body.model_dump(mode="json")
    seen = {}
    for verdict in report.verdicts:
        pattern = "/".join("*" if p.isdigit() else p for p in verdict["pointer"].split("/"))
        seen[pattern] = verdict["verdict"]
    assert {p for p, v in seen.items() if v == "portable"} == _READS_NAME
    assert {p for p, v in seen.items() if v == "unknown"} == set(MACRO_FIELDS["character"]) & set(seen) - _READS_NAME
    assert doc["scenario"] == "Hi {{char}}"
    assert doc["book"]["entries"][0]["content"] == "Hi {{char}}"
    assert doc["description"] == doc["system_prompt"] == "Hi {{name}}"


def test_a_lorebook_entry_reads_name_and_a_preset_does_not() -> None:
    book = validate_piece({"kind": "lorebook", "id": "b", "name": "B", "body": {"entries": [{"content": "{{name}}"}]}})
    assert translate_piece(book, "agnai", "sillytavern")[0].body.entries[0].content == "{{char}}"
    # the text of no known field: the form is read, and its verdict says where Agnai reads it
    [verdict] = translate_text("{{name}}", "agnai", "sillytavern").verdicts
    assert verdict["verdict"] == "portable" and "scenario" in verdict["note"]


def test_every_field_a_catalog_entry_names_is_a_macro_field() -> None:
    known = {f"{kind}:{pattern}" for kind, patterns in MACRO_FIELDS.items() for pattern in patterns}
    named = {f for cat in all_catalogs().values() for e in cat.entries for f in e.fields or ()}
    assert named and named <= known


def test_agnai_catalog_has_no_character_alias() -> None:
    assert catalog_for("agnai").by_key.get("character") is None


def test_agnai_if_tests_no_placeholder_named_name() -> None:
    # template-parser.ts getPlaceholder has no case 'name': `{{#if name}}` is never true
    from bunzai.macros.conditions import _agnai_placeholder

    assert _agnai_placeholder("name") is None
    assert _agnai_placeholder("bot") == "char"
