"""lint: a macro in a pattern whose macros the platform does not expand is named."""

from __future__ import annotations

import json

from bunzai.model.regex import RegexRule
from bunzai.macros.catalog import names_macro
from bunzai.regexlab.lint import lint_set


def _set(*rules: dict, fmt: str | None = None) -> dict:
    piece = {"kind": "regex", "id": "m", "name": "m", "body": {"rules": list(rules)}}
    if fmt:
        piece["original"] = {"format": fmt, "document": None}
    return piece


def _rule(pattern: str, **fields) -> dict:
    return RegexRule(name="r", pattern=pattern, flags="", placements=["ai_output"], **fields).model_dump(mode="json")


def _kinds(piece: dict) -> list[str]:
    return [f["kind"] for f in lint_set(piece, names_macro)["findings"]]


def test_a_name_macro_without_macros_in_find_regex_is_named() -> None:
    report = lint_set(_set(_rule("^{{char}}:\\s*")), names_macro)
    assert [f["kind"] for f in report["findings"]] == ["macro_not_expanded"]
    assert "{{char}}" in report["findings"][0]["message"] and "Macros in Find Regex" in report["findings"][0]["message"]


def test_expanded_escaped_or_unknown_braces_are_not_named() -> None:
    assert _kinds(_set(_rule("^{{char}}:\\s*", substitute_macros="escaped"))) == []
    assert _kinds(_set(_rule("\\{\\{char\\}\\}"))) == []  # looking for the macro's text on purpose
    assert _kinds(_set(_rule("{{not_a_macro_anywhere}}"))) == []


def test_risu_rules_are_told_of_the_cbs_flag_token() -> None:
    report = lint_set(_set(_rule("{{user}} smiles"), fmt="risu.regex"), names_macro)
    assert [f["kind"] for f in report["findings"]] == ["macro_not_expanded"] and "<cbs>" in report["findings"][0][
        "message"
    ]
    assert _kinds(_set(_rule("{{user}} smiles", substitute_macros="raw"), fmt="risu.regex")) == []


def test_cli_lint_of_a_sillytavern_file_names_the_macro(bunzai, tmp_path) -> None:
    script = {"scriptName": "Name", "findRegex": "/^{{char}}: /", "replaceString": "", "placement": [2]}
    path = tmp_path / "rules.json"
    path.write_text(json.dumps([script]))
    report = bunzai("regex-lab", "lint", str(path)).json
    assert [f["kind"] for f in report["findings"]] == ["macro_not_expanded"]


def test_without_the_catalog_no_pattern_is_checked_for_macros():
    """regex-lab stands below the macro catalogs: a caller that gives none gets no such finding."""
    assert "macro_not_expanded" not in [f["kind"] for f in lint_set(_set(_rule("^{{char}}:\\s*")))["findings"]]


def test_the_space_around_a_name_is_javascripts() -> None:
    # SillyTavern's lexer skips /\s+/ (MacroLexer.js WhiteSpace), JavaScript's set: U+FEFF included
    assert _kinds(_set(_rule("{{\ufeffchar\ufeff}} waves"))) == ["macro_not_expanded"]
    assert _kinds(_set(_rule("{{\u3000user}} waves"))) == ["macro_not_expanded"]
