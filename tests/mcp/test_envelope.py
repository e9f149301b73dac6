"""The envelope: what is stripped and counted, and how caps cut values."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.mcp.envelope import CUT, NOTE, clean, holds_cut, seal
from bunzai.tools.contract import untrusted

STRIPPED = [
    "\x00",
    "\x07",
    "\r",
    "\x1b",
    "\x7f",
    "\x85",
    "\x9f",
    "\u202a",
    "\u202e",
    "\u2066",
    "\u2069",
    "\u200b",
    "\u200e",
    "\u2060",
    "\ufeff",
    "\u00ad",
    "\U000e0041",
    "\ud800",
    "\udfff",
]


def test_each_class_is_stripped_and_counted():
    counts: dict = {}
    text = "a\x07b\u202ec\u2067d\u200be\ud83df\n\tg"
    assert clean(text, counts) == "abcdef\n\tg"
    assert counts == {"controls": 1, "bidi": 2, "invisible": 1, "surrogates": 1}


def test_zero_width_joiner_kept_only_inside_an_emoji_sequence():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    skin = "\U0001f469\U0001f3fd\u200d\U0001f4bb"
    counts: dict = {}
    assert clean(f"{family} {skin} a\u200db \u200d\U0001f600", counts) == f"{family} {skin} ab \U0001f600"
    assert counts == {"invisible": 2}


@given(st.text(alphabet=st.sampled_from(STRIPPED) | st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_clean_leaves_nothing_it_strips(text):
    counts: dict = {}
    out = clean(text, counts)
    assert sum(counts.values()) == len(text) - len(out)
    again: dict = {}
    assert clean(out, again) == out or "\u200d" in text  # a joiner kept between emoji stays kept
    for char in STRIPPED:
        assert char not in out


def test_seal_wraps_markers_only():
    doc, cut = seal({"kind": "character", "piece": untrusted({"name": "Ada\u202e"})}, 10_000)
    assert doc["kind"] == "character" and not cut
    assert doc["piece"] == {
        "untrusted": True,
        "note": NOTE,
        "data": {"name": "Ada"},
        "truncated": False,
        "omitted": {"controls": 0, "bidi": 1, "invisible": 0, "surrogates": 0, "cut": 0, "cut_chars": 0},
    }


@settings(max_examples=60)
@given(
    st.recursive(
        st.text(max_size=40) | st.integers() | st.booleans() | st.none(),
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
        max_leaves=40,
    ),
    st.integers(min_value=0, max_value=2_000),
)
def test_caps_are_charged_on_every_leaf(value, budget):
    doc, cut = seal({"data": untrusted(value)}, budget)
    envelope = doc["data"]
    assert set(envelope) == {"untrusted", "note", "data", "truncated", "omitted"}
    assert envelope["truncated"] == cut == (envelope["omitted"]["cut"] > 0)
    # measured as the wire writes it (compact separators), which is what the budget charges
    size = len(json.dumps(envelope["data"], ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))
    assert size <= budget + 64 + 8 * envelope["omitted"]["cut"]  # cut marks and container brackets past the budget
    if not cut:
        counts: dict = {}

        def cleaned(item):
            if isinstance(item, str):
                return clean(item, counts)
            if isinstance(item, dict):
                return {clean(k, counts): cleaned(v) for k, v in item.items()}
            if isinstance(item, list):
                return [cleaned(v) for v in item]
            return item

        assert envelope["data"] == cleaned(value)


def test_a_cut_value_becomes_the_mark():
    doc, cut = seal({"piece": untrusted({"short": "kept", "long": "x" * 500})}, 40)
    assert cut and doc["piece"]["data"] == {"short": "kept", "long": CUT}
    assert doc["piece"]["omitted"]["cut"] == 1 and doc["piece"]["omitted"]["cut_chars"] == 500


def test_holds_cut_finds_the_mark_anywhere():
    assert holds_cut({"input": {"name": "Ada"}}) is None
    assert holds_cut({"input": {"tags": ["a", CUT]}}) == "/input/tags/1"
    assert holds_cut({"input": {"name": CUT + "x"}}) is None


def test_keys_equal_once_cleaned_are_not_merged_silently():
    doc, cut = seal({"d": untrusted({"name": 1, "na\u200bme": 2})}, 10_000)
    assert doc["d"]["data"] == {"name": 1} and cut and doc["d"]["omitted"]["cut"] == 1
