"""An `if` condition carried between SillyTavern and RisuAI is true exactly when it was:
the RisuAI condition bunzai writes is evaluated here with RisuAI's rules for every value."""

from __future__ import annotations

import re

import pytest

from hypothesis import given
from hypothesis import strategies as st

from bunzai.macros.conditions import risu_truthy, st_truthy
from bunzai.macros.translate import translate_text

_INNERMOST = re.compile(r"\{\{([^{}]*)\}\}")
_FUNCTIONS = {  # RisuAI's CBS functions the written condition uses (src/ts/cbs.ts): "1" or "0"
    "notequal": lambda a, b: a != b,
    "lower": lambda a: a.lower(),
    "trim": lambda a: a.strip(),
    "all": lambda *args: all(risu_truthy(a) for a in args),
    "not": lambda a: not risu_truthy(a),
}


def risu_value(text: str, description: str) -> str:
    """`text` with its CBS evaluated innermost first, as RisuAI's parser does."""
    while True:
        found = _INNERMOST.search(text)
        if found is None:
            return text
        name, *args = found.group(1).split("::")
        if name == "description":
            value = description
        else:
            value = _FUNCTIONS[name](*args)
            value = ("1" if value else "0") if isinstance(value, bool) else value
        text = text[: found.start()] + value + text[found.end() :]


def risu_shows(translated: str, description: str) -> bool:
    condition = translated.removeprefix("{{#when ").rsplit("}}x{{/when}}", 1)[0]
    return risu_truthy(risu_value(condition, description))


_VALUES = st.one_of(
    st.sampled_from(["", " ", "0", " 0 ", "OFF", "False", "false", "1", "true", "True", "yes", "null"]),
    st.text(alphabet="ab01 fT", max_size=6),
)


@given(_VALUES)
def test_a_sillytavern_condition_holds_in_risu_when_it_held_in_sillytavern(value: str) -> None:
    for negated in (False, True):
        text = "{{if " + ("!" if negated else "") + "description}}x{{/if}}"
        translated = translate_text(text, "sillytavern", "risuai").text
        assert risu_shows(translated, value) == (st_truthy(value) != negated)


def test_a_literal_condition_is_judged_by_the_source_engine() -> None:
    assert translate_text("{{if yes}}x{{/if}}", "sillytavern", "risuai").text == "{{#when 1}}x{{/when}}"
    assert translate_text("{{#when yes}}x{{/when}}", "risuai", "sillytavern").text == "{{if 0}}x{{/if}}"


def test_a_risu_comparison_sillytavern_cannot_say_is_flattened_and_reported() -> None:
    result = translate_text("{{#when::{{getvar::m}}::is::sad}}x{{/when}}", "risuai", "sillytavern")
    assert [v["verdict"] for v in result.verdicts][-1] == "flatten"


def test_a_bare_macro_name_risu_cannot_spell_is_flattened_not_judged_true() -> None:
    result = translate_text("{{if charVersion}}v{{else}}none{{/if}}", "sillytavern", "risuai")
    assert [v["verdict"] for v in result.verdicts][-1] == "flatten" and "#when 1" not in result.text


def test_risu_var_operator_reads_the_chat_variable() -> None:
    result = translate_text("{{#when::not::var::x}}x{{/when}}", "risuai", "sillytavern")
    assert result.text == "{{if !{{getvar::x}}}}x{{/if}}"


_CONDITIONS = st.sampled_from(["description", "!description", ".mood", "!.mood", "$flag", "!$flag", "char"])


@given(_CONDITIONS, st.sampled_from(["x", "a{{else}}b"]))
def test_a_sillytavern_condition_crosses_to_risu_and_back_unchanged(condition: str, body: str) -> None:
    # bunzai's spelled-out RisuAI condition is recognised on the way back: the `if` returns,
    # where SillyTavern lacking `all` and `notequal` would otherwise flatten it
    text = "{{if " + condition + "}}" + body + "{{/if}}"
    there = translate_text(text, "sillytavern", "risuai")
    back = translate_text(there.text, "risuai", "sillytavern")
    assert back.text.replace("\n", "") == text
    assert [v["verdict"] for v in back.verdicts] == ["portable"]


def test_a_risu_condition_like_bunzais_but_not_it_is_not_read_as_sillytavern_truth() -> None:
    # the second test says "no" where bunzai writes "off": RisuAI's condition is another one
    text = (
        "{{#when {{all::{{notequal::{{description}}::}}::{{notequal::{{lower::{{trim::{{description}}}}}}::no}}"
        "::{{notequal::{{lower::{{trim::{{description}}}}}}::false}}"
        "::{{notequal::{{lower::{{trim::{{description}}}}}}::0}}}}}}x{{/when}}"
    )
    back = translate_text(text, "risuai", "sillytavern")
    assert "{{if" not in back.text and back.verdicts[-1]["verdict"] == "flatten"


@pytest.mark.parametrize(
    "text",
    [
        "{{if::a}}A{{elseif::b}}B{{else}}C{{/if}}",
        "{{if::a}}A{{elif::b}}B{{/if}}",
        "{{if::{{getvar::x}}}}A{{elseif::{{getvar::y}}}}B{{else}}C{{/if}}",
        "{{if::a}}A{{elseif::b}}{{if::c}}X{{elseif::d}}Y{{/if}}{{else}}C{{/if}}",
    ],
)
def test_an_elseif_into_its_own_engine_is_kept_with_its_condition(text: str) -> None:
    # Lumiverse alone has elseif: into Lumiverse it reads as it did (it was flattened, losing the
    # other branches); into another engine it is still flattened and reported
    out = translate_text(text, "lumiverse", "lumiverse")
    assert out.text == text
    assert all(v["verdict"] == "portable" for v in out.verdicts)
    assert [v["token"] for v in out.verdicts if "getvar::y" in v["token"]] in ([], ["{{getvar::y}}"])
    elsewhere = translate_text(text, "lumiverse", "sillytavern")
    assert any(v["verdict"] == "flatten" and "has no elseif" in v.get("note", "") for v in elsewhere.verdicts)
