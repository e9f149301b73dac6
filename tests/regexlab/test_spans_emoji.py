"""Match spans in Python's code points when a pattern without the u flag splits an emoji.

JavaScript counts UTF-16 units: `.` without `u` matches half of a surrogate pair. The spans
bunzai reports are counted on from match to match, so a split pair must not shift every
later span."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from bunzai.regexlab.lab import try_pattern

_LONE = re.compile("[\ud800-\udfff]")


def test_a_match_after_a_split_emoji_has_its_span_in_code_points() -> None:
    text = "a😀乃 雪乃"
    found = try_pattern("/(.)乃/g", text)
    last = found["matches"][-1]
    assert last["match"] == "雪乃" and text[last["start"] : last["end"]] == "雪乃"


@settings(max_examples=120, deadline=None)
@given(
    text=st.text(alphabet="a乃 😀👨\u200d👩🇯🇵é", max_size=14),
    find=st.sampled_from(["/./g", "/(.)乃/g", "/[^a]/g", "/\\S+/g", "/./gu", "/.乃|a./g"]),
)
def test_every_whole_match_slices_out_of_the_text_at_its_span(text: str, find: str) -> None:
    for match in try_pattern(find, text)["matches"]:
        if not _LONE.search(match["match"]):
            assert text[match["start"] : match["end"]] == match["match"]
