"""`bunzai read --outline` pages the children as `--pointer` pages a value: a book of thousands
of entries is listed a page at a time, with how many there are and where the next page starts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai.errors import BunzaiError
from bunzai.limits import READ_PAGE_DEFAULT
from bunzai.query.outline import outline


@given(
    st.one_of(st.lists(st.integers(), max_size=30), st.dictionaries(st.text(max_size=3), st.integers(), max_size=30)),
    st.integers(min_value=1, max_value=7),
)
def test_the_pages_of_an_outline_list_every_child_once_in_order(value, limit: int) -> None:
    whole = outline({"v": value}, "/v")["children"]
    seen, offset = [], 0
    while offset is not None:
        page = outline({"v": value}, "/v", offset, limit)
        assert page["size"] == len(value) and len(page["children"]) <= limit
        seen += page["children"]
        offset = page["next_offset"]
    assert seen == whole


def test_a_long_book_is_cut_at_the_default_page() -> None:
    entries = [{"uid": n} for n in range(READ_PAGE_DEFAULT + 5)]
    first = outline({"entries": entries}, "/entries")
    assert len(first["children"]) == READ_PAGE_DEFAULT and first["next_offset"] == READ_PAGE_DEFAULT
    assert outline({"entries": entries}, "/entries", READ_PAGE_DEFAULT)["children"][-1]["pointer"] == (
        f"/entries/{READ_PAGE_DEFAULT + 4}"
    )


@pytest.mark.parametrize(("offset", "limit"), [(-1, None), (0, 0)])
def test_a_bad_page_is_refused(offset: int, limit: int | None) -> None:
    with pytest.raises(BunzaiError) as refused:
        outline({"a": [1]}, "/a", offset, limit)
    assert refused.value.code == "invalid_input"


def test_the_command_pages_an_outline(bunzai) -> None:
    made = bunzai("create", "character", "--input", '{"name": "Ada Lovelace"}', check=True).stdout
    bunzai("apply", "--yes", input=made, check=True)
    page = bunzai("read", "ada-lovelace", "--outline", "--offset", "1", "--limit", "2", check=True).json
    assert [child["pointer"] for child in page["children"]] == ["/body", "/id"]
    assert (page["size"], page["offset"], page["next_offset"]) == (7, 1, 3)
