"""Which `{{:else}}` RisuAI reads as a branch (parser.svelte.ts at 460ecae, blockEndMatcher): only
in a `#when` (the deprecated `#if` and `#if_pure` print it), only written exactly `{{:else}}`, and
only one: in a body of one line the first, in a body of several the first standing alone on its
line. Any other is text to RisuAI: left as written, and reported, not made the target's else."""

from __future__ import annotations

import pytest

from bunzai.macros.translate import translate_text

PRINTED = [
    ("{{#if {{char}}}}a{{:else}}b{{/if}}", "its #if has no else"),
    ("{{#if_pure {{char}}}}a{{:else}}b{{/if_pure}}", "its #if_pure has no else"),
    ("{{#when {{char}}}}a{{:ELSE}}b{{/when}}", "written exactly so"),
    ("{{#when {{char}}}}a{{ :else }}b{{/when}}", "written exactly so"),
    ("{{#when {{char}}}}\na {{:else}} x\nb\n{{/when}}", "on a line of its own"),
]


@pytest.mark.parametrize(("text", "why"), PRINTED)
def test_an_else_risuai_prints_is_left_as_written_and_reported(text: str, why: str) -> None:
    result = translate_text(text, "risuai", "sillytavern")
    marker = next(v for v in result.verdicts if "else" in v["token"].lower())
    assert marker["verdict"] == "unknown" and why in marker["note"]
    assert marker["token"] in result.text  # printed there as here: not SillyTavern's {{else}}
    assert "{{else}}" not in result.text


@pytest.mark.parametrize(
    "text",
    [
        "{{#when {{char}}}}a{{:else}}b{{/when}}",
        "{{#when {{char}}}}\na\n  {{:else}}\t\nb\n{{/when}}",  # alone on its line, white space around
        "{{#when::{{char}}}}a{{:else}}b{{/when}}",
    ],
)
def test_the_else_risuai_reads_becomes_the_targets_else(text: str) -> None:
    result = translate_text(text, "risuai", "sillytavern")
    assert "{{else}}" in result.text and ":else" not in result.text


def test_only_the_first_else_of_a_when_is_its_branch() -> None:
    result = translate_text("{{#when {{char}}}}\na\n{{:else}}\nb\n{{:else}}\nc\n{{/when}}", "risuai", "sillytavern")
    assert result.text.count("{{else}}") == 1 and result.text.count("{{:else}}") == 1
    assert [v["note"] for v in result.verdicts if v["token"] == "{{:else}}"][0].startswith(
        "risuai reads this as text, not a branch: a #when takes its first else only"
    )
