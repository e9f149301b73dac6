"""recipes, from-examples and explain."""

from __future__ import annotations

import pytest

from bunzai.errors import BunzaiError
from bunzai.regexlab.examples import from_examples
from bunzai.regexlab.explain import explain_pattern
from bunzai.regexlab.recipes import RECIPES, recipes, run_recipe


@pytest.mark.parametrize("recipe", RECIPES, ids=[r["name"] for r in RECIPES])
def test_each_recipe_turns_its_sample_into_its_result(recipe) -> None:
    assert run_recipe(recipe) == recipe["expected"]


def test_the_catalog_covers_the_common_roleplay_rules() -> None:
    names = {r["name"] for r in recipes()["items"]}
    assert {"italic-narration", "thoughts", "ooc-removal", "html-cleanup", "hide-tracker"} <= names


def test_one_recipe_carries_a_rule_ready_for_regex_rules_add() -> None:
    from bunzai.capabilities.discovery import find_capability

    one = recipes("ooc-removal")
    model = find_capability("regex.rules.add").input_model
    assert model.model_validate(one["input"]).rules[0].flags == "gi"


def test_an_unknown_recipe_names_the_known_ones() -> None:
    with pytest.raises(BunzaiError) as caught:
        recipes("nope")
    assert caught.value.code == "not_found" and "ooc-removal" in caught.value.hint


def test_from_examples_finds_the_delimiters_of_narration() -> None:
    built = from_examples(["*waves*", "*smiles softly*"], ["plain text", "a * b"])
    assert built["how"] == "wrapped" and built["score"] == 1.0 and built["find"] == r"/\*([^\*\n]+)\*/g"


def test_from_examples_keeps_shared_words_and_generalises_numbers() -> None:
    built = from_examples(["HP: 12/20", "HP: 3/20"], ["MP: 4/5"])
    assert built["score"] == 1.0 and any(
        c["how"] == "shape" and c["pattern"] == r"HP: \d+\/20" for c in built["candidates"]
    )


def test_from_examples_scores_honestly_when_examples_conflict() -> None:
    built = from_examples(["cat"], ["cat"])
    assert built["score"] == 0.5 and built["wrongly_matched"] == ["cat"]


def test_explain_reads_clauses_groups_and_flags() -> None:
    told = explain_pattern(r"/\[OOC:(?<note>.*?)\]/gi")
    assert told["compiles"] and told["group_count"] == 1 and told["group_names"] == ["note"]
    assert [c["clause"] for c in told["clauses"]] == ["\\[", "OOC:", "(?<note>.*?)", "\\]"]
    assert "lazy" in told["clauses"][2]["means"] and "ignore case" in told["flag_meanings"]["i"]


def test_explain_reads_alternatives_as_branches() -> None:
    told = explain_pattern("cat|dog")
    assert told["clauses"][0]["either"] == [
        [{"clause": "cat", "means": "the text 'cat'"}],
        [{"clause": "dog", "means": "the text 'dog'"}],
    ]


def test_explain_of_a_broken_pattern_says_so_without_refusing() -> None:
    told = explain_pattern("(unclosed")
    assert told["compiles"] is False and "error" in told


def test_explain_words_text_inside_groups() -> None:
    told = explain_pattern("(abc|de)x")
    assert told["clauses"][0]["means"] == "group 1 (captured): either (the text 'abc') or (the text 'de')"
