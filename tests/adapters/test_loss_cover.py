"""`Cover` answers exactly what the rule of `covered` answers (a loss covers its pointer and everything
under it; a loss at "" covers the piece), with a set lookup per "/" instead of a pass over
every loss; `not_carried` and a crossing's lost pointers use it, so a big lorebook's
crossing is not quadratic in its entries."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bunzai.adapters.common.losses import NOT_CARRIED, Cover, covered, not_carried


def _covered(pointer: str, losses: list) -> bool:
    """The rule as written before `Cover`: a pass over every loss (the oracle here)."""
    return any(
        pointer == loss.pointer or pointer.startswith(loss.pointer.rstrip("/") + "/") or loss.pointer == ""
        for loss in losses
    )


# Pointers from a small alphabet, so that prefixes, trailing "/", empty tokens and the root
# meet often.
_POINTERS = st.lists(st.sampled_from(["a", "b", "1", "", "~1", "a~0"]), max_size=4).map(
    lambda tokens: "".join("/" + token for token in tokens)
) | st.sampled_from(["", "/", "//", "/a/", "/a//"])


@given(st.lists(_POINTERS, max_size=6), st.lists(_POINTERS, min_size=1, max_size=12))
def test_cover_answers_as_covered(loss_pointers: list[str], pointers: list[str]) -> None:
    losses = [NOT_CARRIED.at(pointer) for pointer in loss_pointers]
    cover = Cover(losses)
    for pointer in pointers:
        assert cover(pointer) == _covered(pointer, losses) == covered(pointer, losses), (pointer, loss_pointers)


@given(st.lists(_POINTERS, max_size=8), st.lists(_POINTERS, min_size=1, max_size=12), st.lists(_POINTERS, max_size=3))
def test_first_finds_the_first_loss_that_covers(
    loss_pointers: list[str], pointers: list[str], added: list[str]
) -> None:
    # each loss told apart by its sentence, so that the first of two at one pointer is checked
    losses = [NOT_CARRIED.at(pointer, str(place)) for place, pointer in enumerate(loss_pointers)]
    cover = Cover(losses)
    for pointer in added:  # pointers added later cover, but have no loss to give
        cover.add(pointer)
    for pointer in pointers:
        assert cover.first(pointer) is next((loss for loss in losses if _covered(pointer, [loss])), None), pointer


@given(st.lists(_POINTERS, max_size=12))
def test_not_carried_keeps_the_first_of_each_covered_run(pointers: list[str]) -> None:
    found = not_carried(pointers, "X")
    # the slow definition: a pointer is kept when no loss kept before it covers it
    kept: list = []
    for pointer in pointers:
        if not _covered(pointer, kept):
            kept.append(NOT_CARRIED.at(pointer))
    assert [loss.pointer for loss in found] == [loss.pointer for loss in kept]


def test_examples() -> None:
    cover = Cover([NOT_CARRIED.at("/body/entries/3"), NOT_CARRIED.at("/body/name/")])
    assert cover("/body/entries/3") and cover("/body/entries/3/content")
    assert not cover("/body/entries/30") and not cover("/body/entries")
    assert cover("/body/name/x") and not cover("/body/names")
    assert Cover([NOT_CARRIED.at("")])("/anything") and Cover([NOT_CARRIED.at("")])("anything")
    assert not Cover([])("/body")
