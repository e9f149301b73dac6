"""The clause reader never crashes: any text either reads (clauses, samples, shapes) or is a
PatternSyntaxError, which callers turn into saying less."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.regexlab import syntax

PATTERN_TEXT = st.text(alphabet="ab()[]|*+?{}^$.\\-:<>=!,0123dwsxuPpk", max_size=30)


@settings(max_examples=400, deadline=None)
@given(PATTERN_TEXT)
def test_any_text_reads_or_is_a_syntax_error(text: str) -> None:
    try:
        tree = syntax.parse(text)
    except syntax.PatternSyntaxError:
        return
    assert isinstance(syntax.clauses(tree), list)
    assert all(isinstance(s, str) for s in syntax.samples(tree, 4))
    syntax.nested_quantifiers(tree)
    syntax.uses(tree)


@settings(max_examples=150, deadline=None)
@given(PATTERN_TEXT, st.sampled_from(["", "g", "gi", "u", "gmsy"]))
def test_explain_and_lint_answer_for_any_text(text: str, flags: str) -> None:
    from bunzai.regexlab.explain import explain_pattern
    from bunzai.regexlab.lint import lint_set

    told = explain_pattern(text, flags=flags)
    assert told["compiles"] in (True, False)
    rule = {"name": "r", "pattern": text, "flags": flags, "replacement": "$1", "placements": ["ai_output"]}
    report = lint_set({"kind": "regex", "id": "p", "body": {"rules": [rule, dict(rule, name="s")]}})
    assert isinstance(report["findings"], list)
