"""A piece not found is hinted where the pieces are listed: `bunzai list` on the CLI, the
studio_list tool over MCP (an agent has no shell), with the ids spelled alike on both."""

from __future__ import annotations

import pytest

from mcpkit import connect, run

# ref -> the ids spelled alike the hint names (a bare id or kind/id; the second path of pieces.py
# answers a bare id no kind holds, the first a kind/id)
MISSING = {"character/adaa": ["character/ada"], "adx": ["character/ada"], "persona/nobody": [], "nobody": []}


@pytest.fixture
def ada(bunzai):
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    return bunzai


def test_the_cli_hint_names_bunzai_list(ada):
    for ref, close in MISSING.items():
        error = ada("read", ref).json["error"]
        assert error["code"] == "not_found" and "`bunzai list`" in error["hint"], error
        assert "studio_list" not in error["hint"]
        assert error.get("details", {}).get("suggestions", []) == close


def test_over_mcp_the_hint_names_studio_list_and_no_command(ada):
    async def body():
        async with connect(ada.home, ada.studio) as client:
            for tool, extra in (("studio_read", {}), ("studio_transfer", {"to": "ccv3.json"})):
                for ref, close in MISSING.items():
                    result = await client.call(tool, {"ref": ref, **extra})
                    assert result.is_error, result.content[0].text
                    error = result.structured_content["error"]
                    assert error["code"] == "not_found", error
                    assert "studio_list" in error["hint"] and "bunzai" not in error["hint"], (tool, error["hint"])
                    if close:
                        assert error["hint"].startswith(f"did you mean {close[0]}?"), error["hint"]

    run(body)
