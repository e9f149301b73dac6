"""A SillyTavern world entry reads the same through the compiled table (its `group` object a
nested dict display) as by walking the table's rows one by one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.adapters.common.drift import MISSING
from bunzai.adapters.common.fieldmap import FieldMap
from bunzai.adapters.sillytavern.world_entry import ENTRY_FIELDS

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 9),
    st.sampled_from([99, 100, 101, 2**53, 2**53 + 1, -(2**53), -(2**53) - 1]),  # the readers' bounds
    st.sampled_from([0.5, 2.0, -1.0, 1e300]),
    st.sampled_from(["", "true", "0", "2", " 3 ", "a, b", "/x+/i", "system", "user", "normal", "swipe"]),
)
VALUES = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=3),
    st.fixed_dictionaries({}, optional={"isExclude": SCALARS, "names": st.lists(SCALARS, max_size=2), "tags": SCALARS}),
)
NATIVE_KEYS = tuple(row.native for row in ENTRY_FIELDS.rows) + ("uid", "addMemo", "other")
WALKED = FieldMap(ENTRY_FIELDS.rows, compiled=False)


def test_the_world_table_is_compiled_with_its_group_nested() -> None:
    assert ENTRY_FIELDS.decode.__name__ == "decode"  # the generated function, not the row walk
    assert ENTRY_FIELDS.decode({})["group"] == {
        "names": [],
        "override": False,
        "weight": 100,
        "use_group_scoring": None,
    }


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(NATIVE_KEYS), VALUES))
def test_the_compiled_world_table_reads_as_walking_its_rows_does(entry):
    compiled, walked = ENTRY_FIELDS.decode(entry), WALKED.decode(entry)
    assert list(compiled.items()) == list(walked.items())  # the same values, keys in the same order
    assert list(compiled["group"].items()) == list(walked["group"].items())
    assert MISSING not in compiled.values()  # `total`: every reader gives a value


def test_a_table_whose_paths_clash_is_walked_not_compiled() -> None:
    from bunzai.adapters.common.drift import as_str
    from bunzai.adapters.common.fieldmap import Field

    clash = FieldMap([Field("a", ("group",), as_str), Field("b", ("group", "names"), as_str)], total=True)
    assert clash.decode.__name__ == "_decode_nested"  # "group" cannot be a value and an object at once
    nested_not_total = FieldMap([Field("b", ("group", "names"), as_str)])
    assert nested_not_total.decode.__name__ == "_decode_nested"  # absent values must be left out: walked


KEYS = st.one_of(
    st.text(max_size=6),
    st.sampled_from(["/dra(g|k)on/i", "/a\\/b/", "/a/b/", "//", "/x/q", " /x/", "/"]),
    st.builds(lambda body, flags: f"/{body}/{flags}", st.text(max_size=4), st.sampled_from(["", "i", "gim", "z"])),
    SCALARS,
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(KEYS, max_size=5), KEYS))
def test_keys_read_as_each_key_is_read_one_by_one(value):
    # decode_keys answers plain text keys without calling decode_key: the same keys as calling it.
    from bunzai.adapters.sillytavern.world_keys import decode_key, decode_keys

    items = value if isinstance(value, list) else []  # a bare string is no key list (Array.isArray)
    assert decode_keys(value) == [key for key in map(decode_key, items) if key is not None]
