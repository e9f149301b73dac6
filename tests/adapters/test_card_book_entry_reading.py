"""A card book entry written back with its own reading is unchanged: the field map reads and writes alike."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bunzai.adapters.common.card_book import (
    ENTRY_MAP,
    MATCH_FLAGS,
    ST_ENTRY_EXTENSIONS,
    _keys,
    read_entry,
    read_key,
    write_entry,
)
from bunzai.adapters.common.fieldmap import FieldMap

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 9),
    st.sampled_from([99, 100, 101, 2**53, 2**53 + 1, -(2**53) - 1]),  # the readers' bounds
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
def test_writing_an_entry_its_own_reading_changes_nothing(entry, ext, index):
    if ext is not None:
        entry["extensions"] = ext
    reading = read_entry(entry, index)
    written = write_entry(entry, reading, index)
    assert read_entry(written, index) == reading
    if ext is None or isinstance(ext, dict):
        assert written == entry


WALKED = FieldMap(ENTRY_MAP.rows, compiled=False)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.sampled_from(ENTRY_KEYS), VALUES),
    st.one_of(st.none(), st.just("not an object"), st.dictionaries(st.sampled_from(EXT_KEYS), VALUES)),
)
@example({}, {"probability": 101, "role": 3, "selectiveLogic": 4, "depth": -1, "sticky": 2**53 + 1})
@example({"insertion_order": True}, {"probability": 100, "role": 2, "selectiveLogic": 3, "depth": 0})
def test_the_compiled_table_reads_as_walking_its_rows_does(entry, ext):
    if ext is not None:
        entry["extensions"] = ext
    assert list(read_entry(entry, 0).items()) == list(WALKED.decode(entry).items())


def test_the_readers_the_compiled_table_inlines_answer_absent_and_null_with_the_inlined_default():
    from bunzai.adapters.common import drift, fieldmap  # noqa: F401 - fieldmap marks drift's readers
    from bunzai.adapters.common.drift import MISSING

    for reader in (drift.as_str, drift.as_bool, drift.as_int, drift.as_count):
        _test, default = reader.kept_as_is
        for absent in (MISSING, None):
            assert reader(absent) == default and type(reader(absent)) is type(default), reader.__name__


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(SCALARS, st.text(max_size=5), st.sampled_from(["/a/", "/a\\/b/g", "//", "/x/q"])), max_size=5)
)
def test_keys_read_as_read_key_reads_each(raw):
    # _keys answers a plain key (not starting with /) without calling read_key: the same keys.
    assert _keys(raw) == [read_key(text) for text in raw if isinstance(text, str)]
