"""studio_list pages a large studio: each answer fits inline (no handle, nothing cut) and names the
offset of the next page, so an agent reads a studio of 5,000 pieces whole, each piece once."""

from __future__ import annotations

import json

import pytest

from bunzai.limits import MCP_LIST_PAGE_MAX
from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.mcp.protocol import ProtocolError
from bunzai.store.studio import Studio
from bunzai.tools.contract import Context
from mcpkit import connect, enveloped, run

VERSION = "2025-06-18"
PIECES = 5_000


def fill(bunzai, count: int) -> list[str]:
    """`count` characters beside Ada, written as hand-made files (the index reads them as any edit)."""
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    folder = bunzai.studio / "character"
    base = json.loads((folder / "ada.json").read_text())
    ids = [f"c{n:05d}" for n in range(count)]
    for piece_id in ids:
        data = dict(base, id=piece_id, name=f"Character {piece_id} with a display name of some length")
        (folder / f"{piece_id}.json").write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    return sorted(["ada", *ids])


def call(dispatcher, **arguments) -> dict:
    result = dispatcher.call("studio_list", arguments, VERSION)
    assert not result["isError"], result["content"][0]["text"]
    return result["structuredContent"]


def test_a_large_studio_is_read_page_by_page(bunzai):
    ids = fill(bunzai, PIECES)
    dispatcher = Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))
    seen, offset, pages = [], 0, 0
    while offset is not None:
        page = call(dispatcher, offset=offset)
        assert "handle" not in page and enveloped(page["items"])["truncated"] is False
        rows = page["items"]["data"]
        assert page["count"] == len(rows) <= MCP_LIST_PAGE_MAX and page["total"] == len(ids)
        assert page["offset"] == offset
        if page["next_offset"] is not None:
            assert page["next_offset"] == offset + len(rows)
            assert f"offset {page['next_offset']}" in page["hint"]
        else:
            assert "hint" not in page
        seen += [row["id"] for row in rows]
        offset, pages = page["next_offset"], pages + 1
    assert seen == ids
    assert pages == -(-len(ids) // MCP_LIST_PAGE_MAX)


def test_a_smaller_page_and_a_kind(bunzai):
    ids = fill(bunzai, 30)
    dispatcher = Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))
    page = call(dispatcher, kind="character", offset=10, limit=7)
    assert [row["id"] for row in page["items"]["data"]] == ids[10:17] and page["next_offset"] == 17
    assert "kind 'character'" in page["hint"]
    last = call(dispatcher, kind="character", offset=28, limit=7)
    assert [row["id"] for row in last["items"]["data"]] == ids[28:] and last["next_offset"] is None
    assert call(dispatcher, kind="lorebook")["total"] == 0
    past = call(dispatcher, offset=len(ids) + 5)  # the studio may shrink between pages: an empty last page
    assert past["count"] == 0 and past["next_offset"] is None


@pytest.mark.parametrize("arguments", [{"limit": MCP_LIST_PAGE_MAX + 1}, {"limit": 0}, {"offset": -1}])
def test_a_page_out_of_bounds_is_invalid_params(bunzai, arguments):
    dispatcher = Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))
    with pytest.raises(ProtocolError) as raised:
        dispatcher.call("studio_list", arguments, VERSION)
    assert raised.value.code == -32602 and raised.value.data["argument"] == next(iter(arguments))


def test_over_the_wire_the_first_page_names_the_next(bunzai):
    fill(bunzai, MCP_LIST_PAGE_MAX + 5)

    async def body():
        async with connect(bunzai.home, bunzai.studio) as client:
            first = await client.doc("studio_list", {})
            assert first["count"] == MCP_LIST_PAGE_MAX and first["next_offset"] == MCP_LIST_PAGE_MAX
            rest = await client.doc("studio_list", {"offset": first["next_offset"]})
            assert rest["count"] == 6 and rest["next_offset"] is None

    run(body)
