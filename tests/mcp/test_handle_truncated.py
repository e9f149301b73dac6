"""A handle whose result had values cut to fit says so up front: the envelope that counts the
cut values closes the held text, which an agent reads only at its last page."""

from __future__ import annotations

import json

from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.store.studio import Studio
from bunzai.tools.contract import Context


def _read(dispatcher: Dispatcher, tool: str, **arguments) -> dict:
    result = dispatcher.call(tool, arguments, "2025-06-18")
    assert not result["isError"], result["content"][0]["text"]
    return result["structuredContent"]


def _stored(bunzai, name: str, greetings: list[str]) -> None:
    drafts = bunzai(
        "create", "character", "--input", "-", input=json.dumps({"name": name, "alternate_greetings": greetings})
    )
    bunzai("apply", "--yes", input=drafts.stdout, check=True)


def test_a_handle_says_whether_values_were_cut(bunzai):
    _stored(bunzai, "Many", [f"{n:03d} " + "g" * 9_996 for n in range(150)])  # 1.5 MB: over a handle
    _stored(bunzai, "Some", [f"{n:03d} " + "g" * 996 for n in range(100)])  # 100 KB: a handle, whole
    dispatcher = Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))
    cut = _read(dispatcher, "studio_read", ref="character/many")
    whole = _read(dispatcher, "studio_read", ref="character/some")
    assert cut["truncated"] is True and "studio_read" in cut["hint"]
    assert whole["truncated"] is False and "cut" not in whole["hint"]
    assert _read(dispatcher, "result_query", handle=cut["handle"], action="stats")["truncated"] is True
    assert _read(dispatcher, "result_query", handle=whole["handle"], action="stats")["truncated"] is False
    last = _read(dispatcher, "result_query", handle=cut["handle"], offset=cut["chars"] - 200)
    assert '"truncated":true' in last["text"]["data"]  # what the handle says is what its text ends with
