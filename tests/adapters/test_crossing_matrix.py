"""Every pair of card formats: a rich character crosses out and back, and every field that
did not survive is named in the outbound crossing's loss report. docs/crossings.md is current."""

from __future__ import annotations

from pathlib import Path

import pytest

from bunzai.crossings import card_formats, crossing_cell, markdown, matrix, rich_character

PAIRS = [(a, b) for a in card_formats() for b in card_formats()]


@pytest.fixture(scope="module")
def rich():
    return rich_character()


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_every_field_lost_between_two_card_formats_is_reported(source, target, rich):
    cell = crossing_cell(source, target, *rich)
    assert cell.error == ""
    assert cell.unreported == [], f"{source} -> {target} lost without saying: {cell.unreported}"


def test_no_crossing_names_one_loss_twice(rich):
    # two layers of a writer (the card's, the platform's import) may both know a loss: the report
    # keeps one per code and pointer (a text's macros are each their own loss, at one pointer)
    for cell in matrix():
        named = [(loss["pointer"], loss["code"]) for loss in cell.losses if not loss["code"].startswith("macro.")]
        assert len(named) == len(set(named)), f"{cell.source} -> {cell.target}: {sorted(named)}"


def test_a_format_crossing_to_itself_loses_nothing(rich):
    for fmt in card_formats():
        assert crossing_cell(fmt, fmt, *rich).losses == [], fmt


def test_the_crossing_matrix_page_is_current():
    page = Path(__file__).resolve().parents[2] / "docs" / "crossings.md"
    assert page.read_text(encoding="utf-8") == markdown(matrix()), (
        "run `python -m bunzai.crossings > docs/crossings.md`"
    )
