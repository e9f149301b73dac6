"""from-examples: the shape candidate reads letters and digits as JavaScript will, in any script."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.regexlab.examples import from_examples
from bunzai.regexlab.lab import parse_find


def _shape(built: dict) -> dict:
    return next(row for row in built["candidates"] if row["how"] == "shape")


def test_shape_generalises_names_and_numbers_outside_ascii() -> None:
    built = from_examples(["Привет 12", "Пока 3"], ["Пока"])
    assert built["how"] == "shape" and built["score"] == 1.0 and built["flags"] == "gu"


def test_shape_of_arabic_indic_digits_matches_them() -> None:
    assert _shape(from_examples(["x=٣", "x=4"]))["score"] == 1.0


def test_ascii_examples_keep_the_plain_classes_and_flags() -> None:
    shape = _shape(from_examples(["HP: 12/20", "HP: 3/20"]))
    assert shape["pattern"] == r"HP: \d+\/20" and shape["flags"] == "g"


@settings(max_examples=60)
@given(st.text(alphabet=list("aZé Ж中9٣²_-:\t"), min_size=1, max_size=12))
def test_a_shape_candidate_always_finds_its_own_example(text: str) -> None:
    built = from_examples([text])
    rows = [row for row in built["candidates"] if row["how"] == "shape"]
    assert all(row["score"] == 1.0 for row in rows), rows


@settings(max_examples=60)
@given(st.lists(st.text(alphabet=list("ab/\\*\r\n\u2028 1"), min_size=1, max_size=8), min_size=1, max_size=3))
def test_sillytavern_reads_every_candidate_find_as_its_pattern_and_flags(matches: list[str]) -> None:
    for row in from_examples(matches)["candidates"]:
        read = parse_find(row["find"], "sillytavern")
        assert (read["pattern"], read["flags"]) == (row["pattern"], row["flags"]), row["find"]


def test_a_carriage_return_in_an_example_is_written_out() -> None:
    built = from_examples(["a\r\nb"])
    assert "\r" not in built["find"] and built["score"] == 1.0
