"""The written-out entry reader reads every entry as the field table the writer uses does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.adapters.common.card_book import MATCH_FLAGS, ST_ENTRY_EXTENSIONS, read_entry, read_entry_by_table

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 9),
    st.sampled_from([0.5, 2.0, -1.0, 1e300]),
    st.sampled_from(
        ["", "true", "False", "0", "2", "0.5", " 3 ", "a, b", "/x+/i", "system", "user", "normal", "swipe"]
    ),
)
VALUES = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=3),
    st.fixed_dictionaries({}, optional={"isExclude": SCALARS, "names": st.lists(SCALARS, max_size=2), "tags": SCALARS}),
)
ENTRY_KEYS = (
    "comment",
    "name",
    "keys",
    "secondary_keys",
    "selective",
    "content",
    "enabled",
    "constant",
    "insertion_order",
    "priority",
    "position",
    "case_sensitive",
    "character_filter",
    "id",
)
EXT_KEYS = tuple(sorted(ST_ENTRY_EXTENSIONS | set(MATCH_FLAGS))) + ("app_data", "other")


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(st.sampled_from(ENTRY_KEYS), VALUES),
    st.one_of(st.none(), st.just("not an object"), st.dictionaries(st.sampled_from(EXT_KEYS), VALUES)),
    st.integers(0, 5),
)
def test_read_entry_is_the_table_reading(entry, ext, index):
    if ext is not None:
        entry["extensions"] = ext
    assert read_entry(entry, index) == read_entry_by_table(entry, index)
    assert list(read_entry(entry, index)) == list(read_entry_by_table(entry, index))
