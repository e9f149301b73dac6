"""Three translation gaps: SillyTavern's inline `{{if cond::text}}`, RisuAI's literal blocks
(`#pure`, `#puredisplay`, `#escape`: parser.svelte.ts prints their bodies, macros not run), and
a value's trailing spaces in an engine that keeps them (SillyTavern's legacy regex engine)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bunzai.macros.syntax import find_tokens
from bunzai.macros.translate import translate_text


def _verdicts(result) -> list[tuple[str, str]]:
    return [(v["verdict"], v["token"]) for v in result.verdicts]


# --- 1. `{{if cond::text}}` (SillyTavern 2.0) is the block `{{if cond}}text{{/if}}` --------------

_CONDITIONS = st.sampled_from(
    ["description", "!description", ".mood", "!.mood", "$flag", "persona", "!persona", "yes", "0", "charVersion"]
)
_TEXTS = st.sampled_from(["x", "two words", "{{char}} smiles", "a{{else}}b", "{{getvar::x}}"])


@given(_CONDITIONS, _TEXTS, st.sampled_from(["risuai", "agnai", "marinara", "sillytavern-legacy", "lumiverse"]))
def test_an_inline_if_crosses_as_its_block_form_does(condition: str, body: str, target: str) -> None:
    inline = translate_text("{{if " + condition + "::" + body + "}}", "sillytavern", target)
    block = translate_text("{{if " + condition + "}}" + body + "{{/if}}", "sillytavern", target)
    assert inline.text == block.text
    assert [v["verdict"] for v in inline.verdicts] == [v["verdict"] for v in block.verdicts]
    # never removed: the text is kept, under its condition or flattened
    assert inline.verdicts[0]["token"].startswith("{{if ") or inline.verdicts[0]["op"] != "cond.if"
    assert all(v["verdict"] != "absent" for v in inline.verdicts if v["op"] == "cond.if")


def test_an_inline_if_into_risu_is_a_when_block_with_the_condition_carried() -> None:
    result = translate_text("{{if yes::shown}} {{if !yes::hidden}}", "sillytavern", "risuai")
    assert result.text == "{{#when 1}}shown{{/when}} {{#when 0}}hidden{{/when}}"
    assert _verdicts(result) == [("portable", "{{if yes::shown}}"), ("portable", "{{if !yes::hidden}}")]


def test_an_inline_if_into_agnai_is_its_if_on_one_placeholder_or_flattened_and_reported() -> None:
    result = translate_text("{{if persona::A persona.}}", "sillytavern", "agnai")
    assert result.text == "{{#if impersonating}}A persona.{{/if}}"
    negated = translate_text("{{if !persona::No persona.}}", "sillytavern", "agnai")
    assert negated.text == "No persona."
    assert negated.verdicts[0]["verdict"] == "flatten" and negated.verdicts[0]["condition"] == "!persona"


def test_an_inline_if_in_a_block_body_does_not_take_the_blocks_closer() -> None:
    # MacroCstWalker: an `if` that has all its arguments cannot take a body, so the closer is the outer one's
    result = translate_text("{{if yes}}{{if 0::b}}c{{/if}}", "sillytavern", "risuai")
    assert result.text == "{{#when 1}}{{#when 0}}b{{/when}}c{{/when}}"


# --- 2. RisuAI's literal blocks: their bodies are text, never translated ---------------------------

_BODY = st.lists(
    st.sampled_from(["{{char}}", "{{getvar::x}}", "{{random::a::b}}", "{{", "}}", "{", "}", "\\", "a", " ", "::"]),
    max_size=12,
)


def _st_prints(text: str) -> str:
    """SillyTavern 2.0's last step on text holding no macro: `\\{` and `\\}` lose the backslash."""
    return re.sub(r"\\([{}])", r"\1", text)


def _risu_prints(name: str, body: str) -> str:
    """parser.svelte.ts blockEndMatcher: the body trimmed; #puredisplay then backslashes `{{` and `}}`."""
    if name == "#puredisplay":
        return body.strip().replace("{{", "\\{\\{").replace("}}", "\\}\\}")
    return body.strip()


@given(_BODY, st.sampled_from(["#pure", "#puredisplay", "#escape"]))
def test_a_literal_body_reaches_sillytavern_as_the_text_risu_prints(pieces: list[str], name: str) -> None:
    body = "".join(pieces)
    result = translate_text("{{" + name + "}}" + body + "{{/" + name.lstrip("#") + "}}", "risuai", "sillytavern")
    comment, _, printed = result.text.partition("}}")
    assert comment.startswith("{{// ")
    assert find_tokens(printed) == []  # nothing in it is a macro to SillyTavern
    assert _st_prints(printed) == _risu_prints(name, body)
    assert [v["verdict"] for v in result.verdicts] == ["flatten"]


def test_a_literal_body_is_not_translated_where_the_target_cannot_escape_and_that_is_said() -> None:
    result = translate_text("{{#pure}}{{random::a::b}} {{char}}{{/pure}} {{random::a::b}}", "risuai", "agnai")
    assert result.text == "{{random::a::b}} {{char}} {{random: a, b}}"
    raw = result.verdicts[0]
    # Agnai runs both: its grammar reads `{{random::a::b}}` as a random pick of the one item ":a::b"
    assert raw["verdict"] == "flatten" and raw["runs"] == ["{{random::a::b}}", "{{char}}"]
    assert _verdicts(result)[1:] == [("portable", "{{random::a::b}}")]  # only the one outside the block


def test_a_literal_body_stays_a_literal_block_in_risu() -> None:
    result = translate_text("{{#escape}}{{getvar::x}}{{/escape}}", "risuai", "risuai")
    assert result.text == "{{#escape}}{{getvar::x}}{{/escape}}"
    assert _verdicts(result) == [("portable", "{{#escape}}")]


# --- 3. a value keeps its spaces where the source engine keeps them --------------------------------

_VALUE = st.text(alphabet=" ab", min_size=1, max_size=8).filter(str.strip)


@given(_VALUE, st.sampled_from(["risuai", "sillytavern-legacy"]))
def test_a_legacy_value_keeps_every_space(value: str, target: str) -> None:
    result = translate_text("{{setvar::x::" + value + "}}", "sillytavern-legacy", target)
    assert result.text == "{{setvar::x::" + value + "}}"


def test_a_legacy_variable_name_is_trimmed_as_the_legacy_engine_trims_it() -> None:
    # variables.js: name.trim(), value as written
    result = translate_text("{{getvar:: x }} {{setvar:: y :: v }}", "sillytavern-legacy", "risuai")
    assert result.text == "{{getvar::x}} {{setvar::y:: v }}"


def test_spaces_a_trimming_target_loses_are_said() -> None:
    result = translate_text("{{setvar::x::v  }}", "risuai", "sillytavern")
    assert "the spaces around 'v  ' are lost" in result.verdicts[0]["note"]
    assert "note" not in translate_text("{{setvar::x::v}}", "risuai", "sillytavern").verdicts[0]
