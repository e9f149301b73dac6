"""A card's fields read the same through the compiled table, and through read_fields' inline
answers for the common cases, as by calling each row's reader."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.adapters.common import card_fields
from bunzai.adapters.common.drift import MISSING, as_bool, as_count, as_float, as_int, as_object, as_str
from bunzai.adapters.common.fieldmap import FieldMap

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 9),
    st.sampled_from([0, 1, 1_700_000_000, 1_700_000_000_000, 2**53 + 1, 0.5, -1.0, 1e300, float("nan")]),
    st.sampled_from(["", " ", "a, b,,c ", "true", " False", "0.7", "2", "system", " User", "assistant", "x"]),
)
VALUES = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=3),
    st.dictionaries(st.sampled_from(["en", "ja", "prompt", "depth", "role"]), SCALARS, max_size=3),
)
NATIVE_KEYS = tuple(key for key, _read in card_fields._PLAIN.values()) + ("name", "other")


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(NATIVE_KEYS), VALUES), st.booleans())
def test_the_compiled_card_table_reads_as_walking_its_rows_does(data, v3):
    fields = card_fields.V3_FIELDS if v3 else card_fields.V2_FIELDS
    table = card_fields._plain_map(fields)
    walked = FieldMap(table.rows, compiled=False, total=True)
    assert table.decode.__name__ == "decode"  # the generated function, not the row walk
    compiled = table.decode(data)
    assert list(compiled.items()) == list(walked.decode(data).items())  # the same values, in the same order
    assert MISSING not in compiled.values()


def _role(raw):  # the reader as it was before its inline answer for a role as written
    if isinstance(raw, str) and raw.strip().lower() in card_fields.ROLES:
        return raw.strip().lower()
    number = as_int(raw, 0)
    return card_fields.ROLES[number] if number in (0, 1, 2) else "system"


EXTENSIONS = st.dictionaries(
    st.sampled_from(["depth_prompt", "talkativeness", "fav", "regex_scripts", "world", "app"]),
    st.one_of(VALUES, st.lists(st.dictionaries(st.sampled_from(["scriptName", "x"]), SCALARS), max_size=2)),
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(EXTENSIONS, SCALARS))
def test_the_extensions_read_as_their_readers_called_one_by_one(ext):
    body = card_fields.read_fields({"extensions": ext}, card_fields.V2_FIELDS)
    native = as_object(ext)
    prompt = as_object(native.get("depth_prompt"))
    assert body["depth_prompt"] == {
        "text": as_str(prompt.get("prompt")),
        "depth": as_count(prompt.get("depth"), 4),
        "role": card_fields._role(prompt.get("role")),
    }
    assert body["settings"]["talkativeness"] == min(1.0, max(0.0, as_float(native.get("talkativeness"), 0.5)))
    assert body["settings"]["favorite"] is as_bool(native.get("fav"), False)
    assert body["behavior_scripts"] == card_fields._scripts(native.get("regex_scripts"))
    assert body["extensions"] == {k: v for k, v in native.items() if k not in card_fields.ST_CARD_EXTENSIONS}


@given(SCALARS)
def test_a_role_as_sillytavern_writes_it_reads_as_its_trimmed_lowercase(raw):
    assert card_fields._role(raw) == _role(raw)
