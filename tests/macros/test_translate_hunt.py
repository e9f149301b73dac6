"""Translation bugs a daily user hit: stray braces, spaced separators, lost conditions, deep nesting.

Each case is written the way the platform itself reads it (SillyTavern's MacroLexer and
MacroCstWalker, RisuAI's parser.svelte.ts), and the RisuAI case runs RisuAI's own Airisu text.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bunzai.limits import MACRO_NESTING_MAX
from bunzai.macros.syntax import find_tokens
from bunzai.macros.translate import translate_text
from testkit import corpus_path


def _verdicts(result) -> list[tuple[str, str]]:
    return [(v["verdict"], v["token"]) for v in result.verdicts]


# --- a `{{` that never closes is text; the macros after it are still macros -------------------


def test_macros_after_a_stray_opener_are_translated() -> None:
    result = translate_text("type {{ to start, then {{random::a::b}}", "sillytavern", "agnai")
    assert result.text == "type {{ to start, then {{random: a, b}}"
    assert _verdicts(result) == [("portable", "{{random::a::b}}")]


def test_a_macro_inside_an_unclosed_opener_is_translated() -> None:
    result = translate_text("{{note {{setvar::x::1}}", "sillytavern", "lumiverse")
    assert result.text == "{{note {{setchatvar::x::1}}"


def test_triple_braces_hold_one_macro_as_sillytavern_reads_them() -> None:
    # MacroLexer: a `{` followed by `{{` is plain text, so `{{{x}}}` is a brace around `{{x}}`.
    result = translate_text("{{{random::a::b}}} and {{user}}", "sillytavern", "agnai")
    assert result.text == "{{{random: a, b}}} and {{user}}"
    assert [v["token"] for v in result.verdicts] == ["{{random::a::b}}", "{{user}}"]


@given(st.lists(st.sampled_from(["{{", "}}", "{", "}", "a", "::", " "]), max_size=40))
def test_tokens_are_whole_and_none_is_missed(pieces: list[str]) -> None:
    text = "".join(pieces)
    spans = find_tokens(text)
    rest, end = [], 0
    for a, b in spans:
        assert a >= end
        assert find_tokens(text[a:b]) == [(0, b - a)]  # a found token is one whole token
        rest.append(text[end:a])
        end = b
    rest.append(text[end:])
    assert not any(find_tokens(r) for r in rest)  # no closed token is left between them


def test_a_closed_macro_is_found_whatever_precedes_it() -> None:
    for prefix in ("{{", "{{{", "{{ {{", "}}{{", "{{x {{y"):
        text = prefix + " {{char}}"
        a, b = find_tokens(text)[-1]
        assert text[a:b] == "{{char}}"


# --- whitespace around separators, as SillyTavern skips it -------------------------------------


def test_space_before_the_separator_is_not_an_empty_argument() -> None:
    result = translate_text("{{random :: a :: b}}", "sillytavern", "risuai")
    assert result.text == "{{random::a::b}}"


def test_sillytavern_argument_whitespace_does_not_rename_a_variable() -> None:
    # SillyTavern reads {{setvar::mood:: happy }} as the value "happy"; RisuAI keeps spaces.
    result = translate_text("{{setvar::mood:: happy }}{{getvar:: mood}}", "sillytavern", "risuai")
    assert result.text == "{{setvar::mood::happy}}{{getvar::mood}}"


def test_the_legacy_engine_keeps_a_value_s_spaces() -> None:
    # variables.js trims the name only.
    result = translate_text("{{setvar::mood:: happy}}", "sillytavern-legacy", "risuai")
    assert result.text == "{{setvar::mood:: happy}}"


# --- a condition whose macro cannot cross is flattened, never judged on what is left -------------


def test_a_condition_losing_its_macro_is_flattened_not_judged() -> None:
    text = "{{#if {{equal::{{getvar::lang}}::ko}}}}(Korean){{/if}}"
    result = translate_text(text, "risuai", "sillytavern")
    assert "{{if 0}}" not in result.text and "{{if" not in result.text
    assert "(Korean)" in result.text
    assert ("flatten", "{{#if {{equal::{{getvar::lang}}::ko}}}}") in _verdicts(result)


def test_an_st_condition_on_a_macro_risuai_lacks_is_flattened() -> None:
    result = translate_text("{{if {{hasvar::x}}}}yes{{else}}no{{/if}}", "sillytavern", "risuai")
    assert result.text == "yes"
    assert [v["verdict"] for v in result.verdicts] == ["absent", "flatten"]
    assert "no equivalent" in result.verdicts[-1]["note"]


def test_a_condition_whose_macros_cross_is_still_carried() -> None:
    result = translate_text("{{#when {{getvar::x}}}}yes{{/when}}", "risuai", "sillytavern")
    assert result.text == "{{if {{getvar::x}}}}yes{{/if}}"


# --- RisuAI's {{? expr}} and {{// note}} ---------------------------------------------------------


def test_risuai_calc_shorthand_is_read_as_math() -> None:
    # parser.svelte.ts: `if(p1.startsWith('? '))` runs calcString before any lookup.
    result = translate_text("{{? 1+2}}", "risuai", "lumiverse")
    assert result.text == "{{calc::1+2}}"
    assert result.verdicts[0]["op"] == "math.calc"


def test_risuai_double_slash_is_reported_as_unknown() -> None:
    # RisuAI prints it (its `//` registry entry is doc-only); SillyTavern would hide it.
    result = translate_text("{{// keep me}}", "risuai", "sillytavern")
    assert result.text == "{{// keep me}}"
    assert result.verdicts[0]["verdict"] == "unknown"
    assert "sillytavern reads it as comment" in result.verdicts[0]["note"]


def test_airisu_conditions_are_flattened_and_reported() -> None:
    text = corpus_path("risuai", "airisu.cbs").read_text(encoding="utf-8")
    result = translate_text(text, "risuai", "sillytavern")
    assert "{{if 0}}" not in result.text
    assert "{{? " not in result.text
    flattened = [v["token"] for v in result.verdicts if v["verdict"] == "flatten"]
    assert any("metadata::language" in t for t in flattened)
    assert any("{{? maxcontext" in t for t in flattened)


# --- nesting past the limit is reported ---------------------------------------------------------


def test_macros_nested_past_the_limit_are_reported_unknown() -> None:
    depth = MACRO_NESTING_MAX + 4
    text = "{{setvar::x::" * depth + "v" + "}}" * depth
    result = translate_text(text, "sillytavern", "lumiverse")
    assert "{{setvar::" in result.text  # the deepest are left in SillyTavern's spelling ...
    deep = [v for v in result.verdicts if v["verdict"] == "unknown"]
    assert deep and "nested deeper" in deep[0]["note"]  # ... and said so
    assert deep[0]["token"] in result.text


# --- RisuAI's {{:else}}: only on a line of its own, and only in #when ----------------------------


def _risu_when_body(body: str, truth: bool) -> str:
    """RisuAI's blockEndMatcher for `#when` (parser.svelte.ts), on a body of several lines."""
    lines = body.split("\n")
    at = next((n for n, line in enumerate(lines) if line.strip() == "{{:else}}"), None)
    if at is None:
        kept = lines if truth else []
    else:
        kept = lines[:at] if truth else lines[at + 1 :]
    while kept and not kept[0].strip():
        kept.pop(0)
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept)


def test_an_else_into_risuai_stands_on_its_own_line() -> None:
    # {{description}} may hold several lines, which makes the body several lines at run time.
    result = translate_text("{{if .x}}{{description}}{{else}}none{{/if}}", "sillytavern", "risuai")
    opener_end = find_tokens(result.text)[0][1]
    body = result.text[opener_end:].removesuffix("{{/when}}")
    body = body.replace("{{description}}", "line one\nline two")
    assert _risu_when_body(body, True) == "line one\nline two"
    assert _risu_when_body(body, False) == "none"


def test_an_else_already_on_its_own_line_gets_no_blank_lines() -> None:
    result = translate_text("{{if .x}}\nA\n{{else}}\nB\n{{/if}}", "sillytavern", "risuai")
    assert "\nA\n{{:else}}\nB\n{{/when}}" in result.text


def test_a_block_with_an_else_is_written_as_risu_when_never_the_deprecated_if() -> None:
    # RisuAI's #if has no {{:else}}: a false #if drops both branches.
    result = translate_text("{{#if personality}}P{{#else}}none{{/else}}{{/if}}", "agnai", "risuai")
    assert result.text.startswith("{{#when ") and result.text.endswith("{{/when}}")
    assert "{{#if" not in result.text


# --- Agnai's #if tests a placeholder by name -------------------------------------------------------


def test_agnai_condition_names_a_placeholder_and_crosses_as_its_value() -> None:
    assert (
        translate_text("{{#if personality}}P{{#else}}N{{/else}}{{/if}}", "agnai", "risuai").text
        == "{{#when {{notequal::{{personality}}::}}}}P\n{{:else}}\nN{{/when}}"
    )


def test_agnai_if_on_an_alias_is_always_false_and_judged_so() -> None:
    # The grammar's `#if` takes the word as written: `persona` is no placeholder there.
    result = translate_text("{{#if persona}}P{{#else}}N{{/else}}{{/if}}", "agnai", "sillytavern")
    assert result.text == "{{if 0}}P{{else}}N{{/if}}"


def test_an_st_condition_crosses_to_agnai_as_the_placeholder_name() -> None:
    # SillyTavern's {{persona}} is the user's persona: Agnai's {{impersonating}}, not its {{persona}}.
    result = translate_text("{{if persona}}a{{else}}b{{/if}}", "sillytavern", "agnai")
    assert result.text == "{{#if impersonating}}a{{#else}}b{{/else}}{{/if}}"
    result = translate_text("{{if {{char}}}}a{{/if}}", "sillytavern", "agnai")
    assert result.text == "{{#if char}}a{{/if}}"


def test_an_st_condition_agnai_cannot_name_is_flattened() -> None:
    for text in ("{{if yes}}a{{/if}}", "{{if !scenario}}a{{/if}}", "{{if description}}a{{/if}}"):
        result = translate_text(text, "sillytavern", "agnai")
        assert result.text == "a" and result.verdicts[-1]["verdict"] == "flatten", text
