"""Result handles: kept in memory, read in pages, searched literally, evicted oldest first."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.errors import BunzaiError
from bunzai.limits import (
    MCP_HANDLE_MAX_BYTES,
    MCP_HANDLES_MAX,
    MCP_HANDLES_TOTAL_MAX_BYTES,
    MCP_RESULT_PEEK_CHARS,
    MCP_RESULT_READ_MAX_CHARS,
    MCP_RESULT_SEARCH_MAX_ROWS,
)
from bunzai.mcp.handles import Handles


def test_keep_gives_an_opaque_handle_and_a_peek():
    handles = Handles()
    held = handles.keep("a" * 70_000, "studio_read")
    assert held["handle"] == "result-1" and held["chars"] == 70_000
    assert held["peek"]["untrusted"] is True and len(held["peek"]["data"]) == MCP_RESULT_PEEK_CHARS
    assert handles.stats("result-1")["bytes"] == 70_000


@settings(max_examples=40)
@given(
    st.text(
        st.characters(blacklist_categories=("Cc", "Cf", "Cs")) | st.sampled_from("\n\t"), min_size=1, max_size=3_000
    ),
    st.integers(min_value=1, max_value=700),
)
def test_pages_put_back_together_are_the_whole(text, limit):
    handles = Handles()
    name = handles.keep(text, "t")["handle"]
    parts, offset = [], 0
    while offset is not None:
        page = handles.read(name, offset, limit)
        parts.append(page["text"]["data"])
        offset = page["next_offset"]
    assert "".join(parts) == text  # a handle holds sealed (already clean) text, so pages lose nothing


def test_read_limit_and_offsets_are_checked():
    handles = Handles()
    name = handles.keep("x" * 100, "t")["handle"]
    with pytest.raises(BunzaiError) as raised:
        handles.read(name, 0, MCP_RESULT_READ_MAX_CHARS + 1)
    assert raised.value.code == "invalid_input"
    assert handles.read(name, 0, None)["next_offset"] is None


def test_search_is_literal_and_bounded():
    handles = Handles()
    name = handles.keep("a.b " * 200 + "axb", "t")["handle"]
    found = handles.search(name, "a.b")
    assert found["count"] == MCP_RESULT_SEARCH_MAX_ROWS and found["more"] is True
    assert all(row["offset"] % 4 == 0 for row in found["rows"])  # "a.b" is not a pattern: axb is not a hit
    rest = handles.search(name, "a.b", found["next_offset"])
    assert rest["rows"][0]["offset"] == found["next_offset"]


def test_oldest_evicted_by_count_and_by_bytes():
    handles = Handles()
    names = [handles.keep("x", "t")["handle"] for _ in range(MCP_HANDLES_MAX + 1)]
    with pytest.raises(BunzaiError) as raised:
        handles.stats(names[0])
    assert raised.value.code == "not_found"
    assert handles.stats(names[-1])
    big = Handles()
    size = MCP_HANDLE_MAX_BYTES
    held = [big.keep("y" * size, "t")["handle"] for _ in range(MCP_HANDLES_TOTAL_MAX_BYTES // size + 1)]
    assert big.total <= MCP_HANDLES_TOTAL_MAX_BYTES
    with pytest.raises(BunzaiError):
        big.stats(held[0])
    with pytest.raises(BunzaiError) as raised:
        big.keep("z" * (size + 1), "t")
    assert raised.value.code == "too_large"


def test_handles_name_no_path():
    handles = Handles()
    for _ in range(30):
        name = handles.keep("q", "studio_read")["handle"]
        assert name.startswith("result-") and name[len("result-") :].isdigit()
