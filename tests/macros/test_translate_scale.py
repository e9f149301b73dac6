"""Deep nesting costs work in proportion to the text, and mixed else forms do not trip the writer.

The work is counted, not timed: every line of Python the translation runs (`sys.settrace`),
at two depths. Text nested twice as deep should cost about twice the lines; asking each
token about every block around it (the pairing's stack, the ancestors' kept ops, each block's
body, each moved else) made it four times, and 4,000 levels took seconds.
"""

from __future__ import annotations

import sys

import pytest

from bunzai.macros.translate import translate_text

DEPTH = 100


def _lines_run(text: str, source: str, target: str) -> int:
    count = 0

    def tracer(frame, event, arg):  # noqa: ARG001 - the settrace signature
        nonlocal count
        count += event == "line"
        return tracer

    previous = sys.gettrace()  # a coverage run's tracer is put back
    sys.settrace(tracer)
    try:
        translate_text(text, source, target)
    finally:
        sys.settrace(previous)
    return count


@pytest.mark.parametrize(
    ("source", "target", "opener", "closer"),
    [
        ("risuai", "sillytavern", "{{#when {{getvar::a}}}}x", "{{/when}}"),  # the pairing's stack
        ("sillytavern", "risuai", "{{if a}}x{{else}}y", "{{/if}}"),  # each block's body, ancestors
        ("agnai", "sillytavern", "{{#if a}}x{{#else}}e{{/else}}", "{{/if}}"),  # moved else blocks
        ("agnai", "sillytavern", "{{#if a}}x{{#else}}{{#if b}}y{{/if}}", "{{/else}}{{/if}}"),
        ("agnai", "sillytavern", "{{#if a}}x{{#else}}e{{/else}}{{/each}}", "{{/if}}"),  # closers of nothing
        ("agnai", "lumiverse", "{{#each msgs}}{{#if .isbot}}x", "{{/if}}{{/each}}"),
    ],
)
def test_nesting_twice_as_deep_costs_about_twice_the_work(source: str, target: str, opener: str, closer: str) -> None:
    def nested(depth: int) -> str:
        return opener * depth + "y" + closer * depth

    shallow = _lines_run(nested(DEPTH), source, target)
    deep = _lines_run(nested(2 * DEPTH), source, target)
    assert deep / shallow < 2.5, f"{deep} lines against {shallow}: the work grows faster than the text"


@pytest.mark.parametrize(
    ("source", "target"),
    [("lumiverse", "lumiverse"), ("sillytavern", "risuai"), ("sillytavern", "sillytavern")],
)
def test_an_else_block_beside_an_else_with_no_closer_flattens_and_says_why(source: str, target: str) -> None:
    # `{{#else}}...{{/else}}` then a bare `{{#else}}`: the writer took every else to have a closer
    # and failed on the bare one (found by a random differential run)
    out = translate_text("{{#if .isbot}}A{{#else}}B{{/else}}C{{#else}}D{{/if}}", source, target)
    assert out.text.endswith("AC")
    [verdict] = out.verdicts
    assert verdict["verdict"] == "flatten"
    assert "an else with no closer stands beside it" in verdict["note"]
