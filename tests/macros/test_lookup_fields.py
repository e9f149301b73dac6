"""macro-lookup says where a form is read when its engine reads it only in some fields (catalog
`fields:`), and how exactly it must be written (`bare:`, `exact_case:`): Agnai's `{{name}}` is a
regular expression's match (prompt.ts BOT_REPLACE) run over some card fields only, and its
grammar matches `#if` in lower case alone (common/grammar.ts `"#if"`, no `i`)."""

from __future__ import annotations

from bunzai.macros.catalog import catalog_for
from bunzai.macros.lookup import macro_lookup


def _only(doc: dict) -> dict:
    [row] = doc["items"]
    return row


def test_a_field_limited_form_names_its_fields() -> None:
    # `{{name}}` is also a field of `{{#each msg}}` (read there alone); the card-text form is the one with fields
    [form] = [f for f in _only(macro_lookup("name", "agnai"))["forms"] if "fields" in f]
    [entry] = [e for e in catalog_for("agnai").entries if e.name == "name"]
    assert form["fields"] == list(entry.fields)
    assert "character:/body/scenario" in form["fields"] and "character:/body/description" not in form["fields"]
    assert form["bare"] is True


def test_a_form_read_everywhere_names_no_fields() -> None:
    [form] = _only(macro_lookup("char", "agnai"))["forms"]
    assert "fields" not in form and "bare" not in form


def test_a_case_bound_keyword_says_so() -> None:
    [form] = _only(macro_lookup("#if", "agnai"))["forms"]
    assert form["exact_case"] is True


def test_a_target_form_read_only_in_some_fields_says_where() -> None:
    [fate] = _only(macro_lookup("char", "sillytavern", "agnai"))["on"]["forms"]
    assert "{{name}}" in fate["target_forms"]
    assert fate["target_fields"] == {
        "{{name}}": list(next(e for e in catalog_for("agnai").entries if e.name == "name").fields)
    }


def test_the_cli_prints_the_fields(bare_bunzai) -> None:
    doc = bare_bunzai("macro-lookup", "name", "--engine", "agnai", check=True).json
    assert "lorebook:/body/entries/*/content" in doc["items"][0]["forms"][0]["fields"]
