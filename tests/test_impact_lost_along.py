"""A draft's impact walks down each changed pointer (`lost_along`) instead of comparing the
whole piece per format: it must name what the whole comparison (`lost_pointers`) names at,
above or under that pointer, and the first of them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.convert import lost_along, lost_pointers
from bunzai.jsondoc.values import join

KEYS = st.sampled_from(["a", "b", "0", "1", "a/b", "~x"])  # digit names and escapes on purpose
SCALARS = st.one_of(st.none(), st.booleans(), st.sampled_from([0, 1, 1.0, 2]), st.sampled_from(["", "x", "y"]))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=12,
)
PIECES = st.fixed_dictionaries({"name": SCALARS, "body": VALUES}, optional={"assets": VALUES, "profiles": VALUES})


def _pointers(value, pointer: str) -> list[str]:
    found = [pointer]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _pointers(item, join(pointer, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _pointers(item, join(pointer, index))
    return found


def _expected(before: dict, after: dict, pointer: str) -> str | None:
    lost = lost_pointers(before, after, [])
    related = [p for p in lost if p == pointer or p.startswith(pointer + "/") or pointer.startswith(p + "/")]
    return related[0] if related else None


@st.composite
def _similar(draw, piece: dict) -> dict:
    """`piece` with a few of its values replaced, so the two share most of their shape."""
    changed = dict(piece)
    for _ in range(draw(st.integers(0, 3))):
        body = changed.get("body")
        if isinstance(body, dict) and body and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(body)))
            changed["body"] = {**body, key: draw(VALUES)}
        elif isinstance(body, list) and body and draw(st.booleans()):
            changed["body"] = body[: draw(st.integers(0, len(body)))] + draw(st.lists(VALUES, max_size=2))
        else:
            changed[draw(st.sampled_from(["name", "body", "assets"]))] = draw(VALUES)
    return changed


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_lost_along_names_what_the_whole_comparison_names_along_the_pointer(data) -> None:
    before = data.draw(PIECES)
    after = data.draw(st.one_of(_similar(before), PIECES))
    pointers = {"/body/0/a", "/body/zz", "/profiles", "/id", "/original/document"}
    for part in ("name", "body", "assets", "profiles"):
        for document in (before, after):
            if part in document:
                pointers.update(_pointers(document[part], f"/{part}"))
    for pointer in sorted(pointers):
        assert lost_along(before, after, pointer) == _expected(before, after, pointer), pointer


def test_an_entry_the_format_dropped_is_lost_along_its_fields() -> None:
    before = {"name": "Harbour", "body": {"entries": [{"content": "a"}, {"content": "b"}]}}
    after = {"name": "Harbour", "body": {"entries": [{"content": "a"}]}}
    assert lost_along(before, after, "/body/entries/1/content") == "/body/entries/1"
    assert lost_along(before, after, "/body/entries/0/content") is None
    assert lost_along(after, before, "/body/entries/1/content") is None  # an entry the read-back gained


def test_a_key_the_read_back_added_is_lost_unless_it_names_an_item() -> None:
    before = {"name": "x", "body": {"settings": {}}}
    assert lost_along(before, {"name": "x", "body": {"settings": {"depth": 4}}}, "/body/settings/depth") == (
        "/body/settings/depth"
    )
    assert lost_along(before, {"name": "x", "body": {"settings": {"4": 4}}}, "/body/settings/4") is None
