"""`omitted.cut_chars` is every character a cut took away: a cut string's, and all a whole cut object
or list held (keys too; a number, true, false or null by its JSON text). So what the envelope
shows plus what it says it cut is what the value held."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from bunzai.mcp.envelope import CUT, clean, seal
from bunzai.tools.contract import untrusted


def chars(value) -> int:
    """The characters of `value` as the envelope shows them (a test's own count)."""
    if isinstance(value, str):
        return len(clean(value, {}))
    if isinstance(value, dict):
        return sum(len(clean(key, {})) + chars(item) for key, item in value.items())
    if isinstance(value, list):
        return sum(chars(item) for item in value)
    return len(json.dumps(value))


def marks(value) -> int:
    if value == CUT:
        return 1
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return sum(marks(item) for item in items)


def test_a_whole_object_cut_counts_all_it_held():
    doc, cut = seal({"p": untrusted({"name": "Ada", "book": {"entry": "abcdef", "depth": 12, "on": True}})}, 30)
    envelope = doc["p"]
    assert cut and envelope["data"]["name"] == "Ada" and envelope["data"]["book"] == CUT
    assert envelope["omitted"]["cut"] == 1
    assert envelope["omitted"]["cut_chars"] == len("entry") + 6 + len("depth") + 2 + len("on") + len("true")


def test_a_whole_list_cut_counts_its_items():
    doc, _ = seal({"p": untrusted(["abc", ["de", None]])}, 0)
    assert doc["p"]["data"] == CUT and doc["p"]["omitted"]["cut_chars"] == 3 + 2 + len("null")


def test_keys_equal_once_cleaned_count_the_dropped_value():
    doc, _ = seal({"d": untrusted({"name": "Ada", "na\u200bme": "Lovelace"})}, 10_000)
    assert doc["d"]["data"] == {"name": "Ada"}
    assert doc["d"]["omitted"]["cut"] == 1 and doc["d"]["omitted"]["cut_chars"] == len("name") + len("Lovelace")


KEYS = st.text(alphabet="abcdefgh", min_size=1, max_size=6)
LEAVES = (
    st.text(max_size=30).filter(lambda text: CUT not in text)
    | st.integers()
    | st.booleans()
    | st.none()
    | st.floats(allow_nan=False, allow_infinity=False)
)
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=5))


@given(VALUES, st.integers(min_value=0, max_value=400))
def test_shown_plus_cut_is_what_the_value_held(value, budget):
    doc, _ = seal({"v": untrusted(value)}, budget)
    envelope = doc["v"]
    shown = chars(envelope["data"]) - marks(envelope["data"])  # each mark `…` is one character of its own
    assert envelope["omitted"]["cut"] == marks(envelope["data"])
    assert shown + envelope["omitted"]["cut_chars"] == chars(value)
