"""A page asked for past the end of a held result is refused, not answered with an end before its offset."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai.errors import BunzaiError
from bunzai.mcp.handles import Handles


@given(st.integers(min_value=0, max_value=400), st.integers(min_value=0, max_value=400))
def test_a_page_never_ends_before_it_starts(size, offset):
    handles = Handles()
    name = handles.keep("x" * size, "t")["handle"]
    if offset > size:
        with pytest.raises(BunzaiError) as raised:
            handles.read(name, offset, None)
        assert raised.value.code == "invalid_input" and str(size) in raised.value.message and raised.value.hint
        return
    page = handles.read(name, offset, None)
    assert page["offset"] <= page["end"] == size and page["text"]["data"] == "x" * (size - offset)
