"""The review card shows a long string's change word by word, and `draft show --text` prints it."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from bunzai.changes.review import review_card
from bunzai.changes.word_diff import render, tokens, word_ops

LONG = (
    "In the heart of the ancient wood there lives a guardian, and she watches over the old quiet forest "
    "with care, tending every root and every bough for as long as anyone in the valley remembers."
)


def _card(before, after) -> str:
    change = {"op": "replace", "path": "/body/description", "before": before, "after": after}
    return review_card(
        {"mode": "update", "target": {"kind": "character", "id": "sera"}, "baseline": "r1", "changes": [change]}
    )


def test_a_one_word_change_in_a_long_description_is_visible() -> None:
    card = _card(LONG, LONG.replace("quiet", "gentle"))
    row = card.splitlines()[2]
    assert "[-quiet-]{+gentle+}" in row and "the old [-quiet-]{+gentle+} forest" in row
    assert row.startswith("  ~ /body/description (words): …") and row.endswith("…")
    assert "remembers" not in row and "heart" not in row  # unchanged text far from the change is left out


def test_changes_at_both_ends_keep_their_context_and_elide_the_middle() -> None:
    after = "At" + LONG[2:].replace("remembers.", "recalls.")
    row = _card(LONG, after).splitlines()[2]
    assert row.count("[-") == 2 and "[-In-]{+At+} the heart of" in row and "valley [-remembers.-]{+recalls.+}" in row
    assert "…" in row and "guardian" not in row


def test_short_values_and_non_strings_keep_the_before_after_row() -> None:
    assert '"Ada" -> "Countess"' in _card("Ada", "Countess")
    assert "[1, 2] -> [1, 3]" in _card([1, 2], [1, 3])
    assert "(words)" in _card("line one\nline two", "line one\nline 2")  # several lines count as long text


def test_a_huge_diff_is_cut_to_its_limit() -> None:
    from bunzai.limits import REVIEW_DIFF_CHARS

    before = " ".join(f"w{i}" for i in range(2000))
    after = " ".join(f"w{i}" if i % 3 else f"x{i}" for i in range(2000))
    row = _card(before, after).splitlines()[2]
    assert len(row) <= REVIEW_DIFF_CHARS + len("  ~ /body/description (words): ")


def test_a_rewrite_past_the_pairing_limit_is_one_deletion_and_one_insertion() -> None:
    from bunzai.limits import REVIEW_WORD_DIFF_MAX_WORDS

    count = REVIEW_WORD_DIFF_MAX_WORDS + 10
    before = "Intro. " + " ".join(f"w{i}" for i in range(count)) + " Outro."
    after = "Intro. " + " ".join(f"x{i}" for i in range(count)) + " Outro."
    ops = word_ops(before, after)
    assert [op for op, _ in ops] == ["equal", "delete", "insert", "equal"]
    assert ops[0][1] == "Intro. " and ops[-1][1] == " Outro."
    assert "".join(text for op, text in ops if op != "insert") == before


def test_a_word_added_at_the_end_is_an_insertion_only() -> None:
    assert render("a b c", "a b c d", 4) == "a b c{+ d+}"
    assert render("the quiet old forest", "the quiet young forest", 4) == "the quiet [-old-]{+young+} forest"


def test_tokens_join_back() -> None:
    assert "".join(tokens("  two  words\n")) == "  two  words\n"


_text = st.lists(
    st.sampled_from(["the", "old", "quiet", "forest", " ", "  ", "\n", "é", "gentle,", "a"]), max_size=40
).map("".join)


@given(_text, _text)
def test_word_ops_rebuild_before_and_after(before: str, after: str) -> None:
    ops = word_ops(before, after)
    assert "".join(text for op, text in ops if op != "insert") == before
    assert "".join(text for op, text in ops if op != "delete") == after


@given(_text, _text)
def test_the_uncut_rendering_applied_to_before_gives_after(before: str, after: str) -> None:
    shown = render(before, after, None)
    assert _apply(shown) == after and _apply(shown, keep="-") == before


def _apply(shown: str, keep: str = "+") -> str:
    """Reads a rendering back: keeps `{+...+}` (or `[-...-]`) text and drops the other side."""
    import re

    drop = r"\[-(.*?)-\]" if keep == "+" else r"\{\+(.*?)\+\}"
    take = r"\{\+(.*?)\+\}" if keep == "+" else r"\[-(.*?)-\]"
    return re.sub(take, r"\1", re.sub(drop, "", shown, flags=re.S), flags=re.S)


def test_draft_show_text_prints_the_review_of_a_one_word_edit(bunzai) -> None:
    bunzai(
        "apply",
        "--yes",
        input=bunzai("create", "character", "--input", json.dumps({"name": "Sera", "first_message": LONG})).stdout,
        check=True,
    )
    draft = bunzai(
        "cap",
        "run",
        "character.greetings.update",
        "sera",
        "--input",
        json.dumps({"first_message": LONG.replace("quiet", "gentle")}),
        check=True,
    )
    shown = bunzai("draft", "show", "--text", input=draft.stdout, check=True)
    assert shown.stdout.startswith("update character/sera\n") and "[-quiet-]{+gentle+}" in shown.stdout
    assert "{" not in shown.stdout.splitlines()[0]  # text, not JSON
    assert "[-quiet-]{+gentle+}" in bunzai("draft", "show", input=draft.stdout, check=True).json["review"]


HOSTILE = "\x1b]0;PWNED\x07\x1b[8mhidden\x1b[0m \x9b2J \u202eevil\u202c \u200bzw \r"


def _terminal_safe(card: str) -> bool:
    import re

    return re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b]", card) is None


def test_a_cards_terminal_escapes_are_shown_escaped_in_every_row() -> None:
    long_card = _card("Line one\n" + HOSTILE + " the old quiet forest", "Line one\nthe old gentle forest")
    assert _terminal_safe(long_card) and "\\x1b]0;PWNED\\x07\\x1b[8mhidden" in long_card
    assert "\\x9b2J" in long_card and "\\u202eevil\\u202c" in long_card and "\\u200bzw" in long_card
    assert "\\x0d" in long_card and "Line one\\n" in long_card
    short = _card("Ada\u202e", "A\x9bda")  # short values: JSON escapes C0, the card the rest
    assert _terminal_safe(short) and '"Ada\\u202e" -> "A\\x9bda"' in short
    draft = {
        "mode": "update",
        "target": {"kind": "character", "id": "sera"},
        "baseline": "r1",
        "changes": [{"op": "add", "path": "/body/extensions/\x1b[2Jk", "after": HOSTILE}],
        "warnings": [{"message": "kept " + HOSTILE}],
    }
    card = review_card(draft)
    assert _terminal_safe(card) and "/body/extensions/\\x1b[2Jk" in card and len(card.splitlines()) == 4


def test_a_cut_never_splits_an_escape_and_an_emoji_keeps_its_joiner() -> None:
    from bunzai.limits import REVIEW_DIFF_CHARS

    row = _card("x" * 300 + "\n", "x" * 300 + "\n" + "\x1b" * 200).splitlines()[2]
    words = row.split("(words): ", 1)[1]
    assert len(words) <= REVIEW_DIFF_CHARS and words.endswith("\\x1b…")
    assert "\u200d" in _card("a", "\U0001f469\u200d\U0001f4bb")  # woman technologist stays one emoji


@given(st.text(max_size=300), st.text(max_size=300))
def test_no_card_holds_a_raw_control_character(before: str, after: str) -> None:
    card = _card(before, after)
    assert _terminal_safe(card.replace("\n", ""))
