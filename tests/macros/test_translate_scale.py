"""Deep nesting costs work in proportion to the text, and mixed else forms do not trip the writer.

The work is counted, not timed, at two depths: every line of Python the translation runs
(`sys.settrace`), and every character it copies out of the text by slicing (a `str` subclass
that counts them). Text nested twice as deep should cost about twice of each; asking each
token about every block around it (the pairing's stack, the ancestors' kept ops, each block's
body, each moved else), copying the text around each else block, or pairing the text again
for each level of openers left unclosed made it four times, and 4,000 levels took seconds.
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


class _Counted(str):
    """A text that counts the characters sliced out of it."""

    sliced = 0

    def __getitem__(self, key):
        got = super().__getitem__(key)
        _Counted.sliced += len(got)
        return got


def _chars_copied(text: str, source: str, target: str) -> int:
    _Counted.sliced = 0
    translate_text(_Counted(text), source, target)
    return _Counted.sliced


_NESTED = [
    ("risuai", "sillytavern", "{{#when {{getvar::a}}}}x", "{{/when}}"),  # the pairing's stack
    ("risuai", "sillytavern", "{{#when a}}x\n{{:else}}\ny", "{{/when}}"),  # RisuAI's else lines
    ("sillytavern", "risuai", "{{if a}}x{{else}}y", "{{/if}}"),  # each block's body, ancestors
    ("agnai", "sillytavern", "{{#if a}}x{{#else}}e{{/else}}", "{{/if}}"),  # moved else blocks
    ("agnai", "risuai", "{{#if a}}x{{#else}}e{{/else}}", "{{/if}}"),  # moved, on lines of their own
    ("agnai", "sillytavern", "{{#if a}}x{{#else}}{{#if b}}y{{/if}}", "{{/else}}{{/if}}"),
    ("agnai", "sillytavern", "{{#if a}}x{{#else}}{{#if b}}y", "{{/if}}{{/else}}v{{/if}}"),  # left unclosed
    ("agnai", "sillytavern", "{{#if a}}x{{#else}}e{{/else}}{{/each}}", "{{/if}}"),  # closers of nothing
    ("agnai", "lumiverse", "{{#each msgs}}{{#if .isbot}}x", "{{/if}}{{/each}}"),
]


@pytest.mark.parametrize(("source", "target", "opener", "closer"), _NESTED)
def test_nesting_twice_as_deep_costs_about_twice_the_work(source: str, target: str, opener: str, closer: str) -> None:
    def nested(depth: int) -> str:
        return opener * depth + "y" + closer * depth

    for measure in (_lines_run, _chars_copied):
        shallow = measure(nested(DEPTH), source, target)
        deep = measure(nested(2 * DEPTH), source, target)
        assert deep / shallow < 2.5, f"{measure.__name__}: {deep} against {shallow}, growing faster than the text"


def test_openers_left_unclosed_are_read_exactly_to_the_bound_and_past_it_said_so(monkeypatch) -> None:
    # each pairing runs without the outermost openers an earlier one left unclosed, which may leave
    # others unclosed: one pairing a level, bounded. To the bound the reading is the unbounded one;
    # past it the openers still unclosed are text, what they hold is paired as if they were open,
    # and their verdicts say so
    from bunzai.limits import MACRO_UNCLOSED_NESTED_MAX as BOUND
    from bunzai.macros import syntax

    def nested(levels: int) -> str:
        return "{{#if a}}x{{#else}}{{#if b}}y" * levels + "y" + "{{/if}}{{/else}}v{{/if}}" * levels

    def both(levels: int):
        bounded = translate_text(nested(levels), "agnai", "sillytavern")
        with monkeypatch.context() as patch:
            patch.setattr(syntax, "MACRO_UNCLOSED_NESTED_MAX", 10 * BOUND)
            return bounded, translate_text(nested(levels), "agnai", "sillytavern")

    said = f"past {BOUND} openers agnai leaves unclosed, one inside another"
    within, unbounded = both(BOUND)
    assert (within.text, within.verdicts) == (unbounded.text, unbounded.verdicts)
    past, unbounded = both(BOUND + 1)
    noted = [v for v in past.verdicts if said in v.get("note", "")]
    assert len(noted) == 1 and noted[0]["verdict"] != "portable"
    assert past.verdicts != unbounded.verdicts  # the openers it holds are paired otherwise
    # an opener it holds that opens nothing there (an `{{#if}}` in an else) may open in Agnai, which
    # reads the else as text: said so, not "where no such block opens" (an `{{#if}}` takes one)
    held = [v for v in past.verdicts if v["verdict"] == "unknown" and v["token"] == "{{#if b}}"]
    assert len(held) == 1
    assert held[0]["note"].startswith("inside {{#else}} at ")
    assert f", which agnai leaves unclosed past {BOUND} such openers" in held[0]["note"]
    assert not any("where no such block opens" in v.get("note", "") for v in past.verdicts)
    opened = next(v for v in unbounded.verdicts if v["at"] == held[0]["at"])
    assert opened["op"] == "cond.if"  # as it is, read without the bound
    # an else held so (a block read only in a condition) is said so too
    deeper, _ = both(BOUND + 2)
    elses = [v for v in deeper.verdicts if v["token"] == "{{#else}}" and v["note"].startswith("inside {{#else}} at ")]
    assert elses and all(v["verdict"] == "unknown" for v in elses)


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


def test_inserts_each_holding_a_field_condition_cost_in_proportion_to_their_number() -> None:
    # Each insert asks whether a field condition in its body runs past its closer to an `{{/if}}`
    # (Agnai's InsertText stops there): looked up in one pass over the text for all of them, not
    # by scanning on from each condition, which was quadratic in the number of inserts
    def many(count: int) -> str:
        return "{{#insert 1}}{{#if .name}}{{/insert}}" * count + "{{/if}}"

    for measure in (_lines_run, _chars_copied):
        few = measure(many(DEPTH), "agnai", "sillytavern")
        more = measure(many(2 * DEPTH), "agnai", "sillytavern")
        assert more / few < 2.5, f"{measure.__name__}: {more} against {few}, growing faster than the text"


def test_the_same_opener_left_unclosed_again_and_again_is_read_in_one_pairing() -> None:
    # only the outermost openers left unclosed are text on each pairing, as one inside may open
    # once they are; but the same token right inside one cannot, so a chain of them goes at once:
    # no bound is reached, and the work is in proportion to the chain
    from bunzai.limits import MACRO_UNCLOSED_NESTED_MAX as BOUND

    def chain(count: int) -> str:
        return "{{#if a}}" * count + "x" + "{{/if}}" * 3

    out = translate_text(chain(4 * BOUND), "agnai", "sillytavern")
    assert [v["verdict"] for v in out.verdicts].count("portable") == 3
    assert not any("past" in v.get("note", "") for v in out.verdicts)
    for measure in (_lines_run, _chars_copied):
        few = measure(chain(DEPTH), "agnai", "sillytavern")
        more = measure(chain(2 * DEPTH), "agnai", "sillytavern")
        assert more / few < 2.5, f"{measure.__name__}: {more} against {few}, growing faster than the text"
