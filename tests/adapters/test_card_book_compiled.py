"""A card book entry (CCv2/CCv3 with SillyTavern's extensions) reads the same through the
compiled table as by walking the table's rows one by one: the rows answered inline (a value
already of its type, an enum's int, a plain-text key) give what their readers give."""

from __future__ import annotations

import operator

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bunzai.adapters.common.card_book import ENTRY_MAP, _keys, read_key
from bunzai.adapters.common.fieldmap import Field, FieldMap

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 9),
    st.sampled_from([99, 100, 101, 2**53, 2**53 + 1, -(2**53) - 1]),
    st.sampled_from([0.5, 2.0, -1.0, 1e300]),
    st.sampled_from(["", "true", "0", "2", " 3 ", "a, b", "/x+/i", "system", "user", "assistant", "normal"]),
)
VALUES = st.one_of(
    SCALARS, st.lists(SCALARS, max_size=3), st.dictionaries(st.sampled_from(["isExclude", "names", "tags"]), SCALARS)
)
TOP = tuple(row.native for row in ENTRY_MAP.rows if isinstance(row, Field) and isinstance(row.native, str))
TOP += ("comment", "name", "position", "case_sensitive", "character_filter", "id", "other")
EXTENSION_KEYS = tuple(
    row.native[-1] for row in ENTRY_MAP.rows if isinstance(row, Field) and not isinstance(row.native, str)
)
EXTENSION_KEYS += ("position", "group", "group_override", "group_weight", "use_group_scoring", "case_sensitive", "app")
WALKED = FieldMap(ENTRY_MAP.rows, equal=operator.eq, compiled=False)


def test_the_card_entry_table_is_compiled() -> None:
    assert ENTRY_MAP.decode.__name__ == "decode"  # the generated function, not the row walk


EXTENSIONS = st.fixed_dictionaries({}, optional={key: st.one_of(SCALARS, VALUES) for key in EXTENSION_KEYS})


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(st.sampled_from(TOP), VALUES),
    st.one_of(st.none(), SCALARS, EXTENSIONS),
)
@example({}, {"probability": 101, "role": 3, "selectiveLogic": 4, "depth": -1, "sticky": 2**53 + 1})
@example({"insertion_order": True}, {"probability": 100, "role": 2, "selectiveLogic": 3, "depth": 0})
def test_the_compiled_card_entry_table_reads_as_walking_its_rows_does(entry, extensions):
    if extensions is not None:
        entry["extensions"] = extensions
    compiled, walked = ENTRY_MAP.decode(entry), WALKED.decode(entry)
    assert list(compiled.items()) == list(walked.items())  # the same values, keys in the same order


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(SCALARS, st.text(max_size=5), st.sampled_from(["/a/", "/a\\/b/g", "//", "/x/q"])), max_size=5)
)
def test_keys_read_as_read_key_reads_each(raw):
    assert _keys(raw) == [read_key(text) for text in raw if isinstance(text, str)]
