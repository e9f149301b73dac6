"""The recipes behave as a SillyTavern user expects them to, on texts beyond their samples."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.regexlab import engine
from bunzai.regexlab.lab import try_pattern
from bunzai.regexlab.recipes import RECIPES


def _recipe(name: str) -> dict:
    return next(r for r in RECIPES if r["name"] == name)


def _run(name: str, text: str) -> str:
    recipe = _recipe(name)
    return try_pattern(recipe["find"], text, replace=recipe["replace"], platform="sillytavern")["result"]


_MARKS = set('.!?*")}]`$。！？”）】’」_')


def _emoji(chars: list[str]) -> list[bool]:
    pattern = r"^(?:\p{Emoji_Presentation}|\p{Extended_Pictographic})$"
    return engine.call({"op": "test", "pattern": pattern, "flags": "u", "texts": chars})["results"]


def _st_trim_to_end_sentence(text: str) -> str:
    """SillyTavern's trimToEndSentence (public/scripts/utils.js), read into Python as the oracle."""
    chars = list(text)
    emoji = _emoji(chars) if chars else []
    for i in range(len(chars) - 1, -1, -1):
        if chars[i] in _MARKS or emoji[i]:
            last = i - 1 if not emoji[i] and i > 0 and chars[i - 1].isspace() else i
            return "".join(chars[: last + 1]).rstrip()
    return text.rstrip()


@pytest.mark.parametrize(
    "text",
    [
        "I'm so happy! 😊",
        "她点了点头。然后她转身",
        "She hums a tune (softly)",
        'She nods. "Then',
        "She waits for you [OOC: go on]",
        "It’s fine, isn’t it’",
        "She nods. Then she turns and",
    ],
)
def test_trim_unfinished_sentence_cuts_where_sillytaverns_own_trim_does(text: str) -> None:
    assert _run("trim-unfinished-sentence", text) == _st_trim_to_end_sentence(text)


@settings(max_examples=60)
@given(st.text(alphabet=list('ab .!?*")」。😊✨\n'), max_size=30))
def test_trim_unfinished_sentence_agrees_with_sillytaverns_trim(text: str) -> None:
    assert _run("trim-unfinished-sentence", text).rstrip() == _st_trim_to_end_sentence(text)


def test_curly_quotes_leave_the_quotes_of_html_attributes_straight() -> None:
    narrated = _run("italic-narration", '*She smiles.* "Come in," she says. <div class="box">ok</div>')
    curled = _run("curly-quotes", narrated)
    assert curled == ('<em class="narration">She smiles.</em> \u201cCome in,\u201d she says. <div class="box">ok</div>')


def test_italic_narration_leaves_bold_text_to_markdown() -> None:
    assert _run("italic-narration", "**Stop!** she cries. *Waves.*") == (
        '**Stop!** she cries. <em class="narration">Waves.</em>'
    )


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Go on. (OOC: see [note]) Then", "Go on. Then"),
        ("Go on. [OOC: a (b) c] Then", "Go on. Then"),
        ("Go on. (OOC: x (y) z) Then (softly)", "Go on. Then (softly)"),
        ("Go on. (OOC: not closed] Then", "Go on. (OOC: not closed] Then"),  # a bracket closes its own kind only
    ],
)
def test_ooc_removal_takes_a_note_whole_with_brackets_inside(text: str, kept: str) -> None:
    assert _run("ooc-removal", text) == kept


def test_ooc_removal_runs_over_a_long_run_of_spaces_within_the_engine_limit() -> None:
    # a leading \s* tried from every space of the run backtracked quadratically: 20,000 spaces took 1 s
    assert _run("ooc-removal", "x" + " " * 50_000 + "y (OOC: z)") == "x" + " " * 50_000 + "y"
