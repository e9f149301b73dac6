"""lint: each planted fault is named (one of each kind), and clean sets get no finding."""

from __future__ import annotations

import json

import pytest
from testkit import CORPUS

from bunzai.model.regex import RegexRule
from bunzai.regexlab.lint import lint_set
from bunzai.regexlab.recipes import RECIPES, recipe_rule


def rule(name: str, pattern: str, flags: str = "g", replacement: str = "", **fields) -> dict:
    return RegexRule(
        name=name,
        pattern=pattern,
        flags=flags,
        replacement=replacement,
        placements=fields.pop("placements", ["ai_output"]),
        **fields,
    ).model_dump(mode="json")


def regex_set(*rules: dict, fmt: str | None = None) -> dict:
    piece = {"kind": "regex", "id": "planted", "name": "planted", "body": {"rules": list(rules)}}
    if fmt:
        piece["original"] = {"format": fmt, "document": None}
    return piece


PLANTED = regex_set(
    rule("strip tags", "<[^>]+>"),
    rule("bold", "<b>(.+?)</b>", replacement="**$1**"),  # never_matches: tags are gone
    rule("broken", "(unclosed"),  # does_not_compile
    rule("runaway", "(a+)+$"),  # catastrophic_backtracking
    rule("digits", "\\d+", flags="gi"),  # flag_does_nothing (i)
    rule("swap", "(\\w+)@(\\w+)", replacement="$3"),  # missing_group
    rule("nowhere", "zzz", placements=[]),  # runs_on_nothing (placement)
    rule("too deep", "qqq", min_depth=5, max_depth=2),  # runs_on_nothing (depth)
)


def kinds_by_rule(report: dict) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for finding in report["findings"]:
        found.setdefault(finding["name"], set()).add(finding["kind"])
    return found


def test_every_planted_fault_is_named_on_its_rule() -> None:
    found = kinds_by_rule(lint_set(PLANTED))
    assert found == {
        "bold": {"never_matches"},
        "broken": {"does_not_compile"},
        "runaway": {"catastrophic_backtracking"},
        "digits": {"flag_does_nothing"},
        "swap": {"missing_group"},
        "nowhere": {"runs_on_nothing"},
        "too deep": {"runs_on_nothing"},
    }


def test_the_catastrophic_finding_carries_the_input_that_ran_out_of_time() -> None:
    finding = next(f for f in lint_set(PLANTED)["findings"] if f["kind"] == "catastrophic_backtracking")
    assert finding["input"].startswith("a" * 30) and "(a+)+" in finding["message"]


@pytest.mark.parametrize(
    "flags,pattern,word", [("m", "abc", "'m'"), ("s", "a+", "'s'"), ("d", "a", "'d'"), ("g", "^a", "'g'")]
)
def test_flags_that_do_nothing(flags, pattern, word) -> None:
    report = lint_set(regex_set(rule("r", pattern, flags=flags)))
    assert [f["kind"] for f in report["findings"]] == ["flag_does_nothing"] and word in report["findings"][0]["message"]


def test_risu_sets_read_references_as_javascript_does() -> None:
    ok = lint_set(regex_set(rule("r", "(a)", replacement="$1$&$$ $<x>"), fmt="risu.regex"))
    assert ok["platform"] == "risuai" and [f["kind"] for f in ok["findings"]] == ["missing_group"]
    assert lint_set(regex_set(rule("r", "(a)", replacement="$1$&$$"), fmt="risu.regex"))["clean"]


def test_a_later_rule_on_other_texts_is_not_shadowed() -> None:
    report = lint_set(regex_set(rule("strip", "<[^>]+>"), rule("bold", "<b>(.+?)</b>", placements=["user_input"])))
    assert report["clean"]


def test_our_recipe_catalog_as_one_set_is_clean() -> None:
    report = lint_set(regex_set(*[RegexRule(**recipe_rule(r)).model_dump(mode="json") for r in RECIPES]))
    assert report["findings"] == []


CLEAN_ST_SCRIPTS = [
    {
        "scriptName": "Narration",
        "findRegex": "/\\*([^*\\n]+)\\*/g",
        "replaceString": "<em>$1</em>",
        "placement": [2],
        "markdownOnly": True,
        "trimStrings": [],
    },
    {
        "scriptName": "OOC",
        "findRegex": "/\\s*\\(OOC:[^)]*\\)/gi",
        "replaceString": "",
        "placement": [1, 2],
        "promptOnly": True,
        "trimStrings": [],
    },
    {
        "scriptName": "Name",
        "findRegex": "/^{{char}}:\\s*/",
        "replaceString": "",
        "placement": [2],
        "substituteRegex": 2,
        "trimStrings": [],
    },
    {
        "scriptName": "Thinking",
        "findRegex": "/<think>[\\s\\S]*?<\\/think>\\s*/g",
        "replaceString": "",
        "placement": [2],
        "minDepth": 1,
        "maxDepth": 10,
        "trimStrings": [],
    },
]


def test_a_clean_sillytavern_file_gets_no_finding(tmp_path) -> None:
    from bunzai.adapters.inspect import read_bytes
    from bunzai.model import dump_piece

    data = json.dumps(CLEAN_ST_SCRIPTS).encode()
    _, decoded = read_bytes(data, "clean.json")
    assert lint_set(dump_piece(decoded.pieces[0]))["findings"] == []


def corpus_regex_files() -> list:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*.json") if "regex" in p.name.lower() or "regex" in p.parent.name.lower())


def test_corpus_regex_files_lint_without_false_findings() -> None:
    files = corpus_regex_files()
    if not files:
        pytest.skip("the shared corpus holds no regex script files (sillytavern/ and risuai/ have none today)")
    from bunzai.adapters.inspect import read_bytes
    from bunzai.model import dump_piece

    for path in files:
        _, decoded = read_bytes(path.read_bytes(), path.name)
        for piece in decoded.pieces:
            if piece.kind == "regex":
                report = lint_set(dump_piece(piece))
                assert not [
                    f for f in report["findings"] if f["kind"] in ("does_not_compile", "catastrophic_backtracking")
                ], path


def test_a_pattern_with_macros_expanded_first_is_judged_with_a_word_in_their_place() -> None:
    report = lint_set(regex_set(rule("name", "^{{char}}:\\s*", flags="u", substitute_macros="escaped")))
    assert report["findings"] == []
    assert lint_set(regex_set(rule("name", "^{{char}}:\\s*", flags="u")))["findings"][0]["kind"] == "does_not_compile"


def test_a_rule_sillytavern_fails_on_is_a_finding_not_the_end_of_the_lint() -> None:
    """$4 past a named pattern's capture reaches the named-groups object: SillyTavern throws
    there, and the shadow check of the next rule used to stop the whole set with it."""
    found = lint_set(regex_set(rule("named", "(?<n>b)", replacement="[$4]"), rule("later", r"\[b")))
    assert [(f["name"], f["kind"]) for f in found["findings"]] == [("named", "missing_group")]
    assert "fails" in found["findings"][0]["message"]
