"""Delete and bury refuse alike: a piece that is not there, or at another revision, is a stale
receipt on the CLI (exit 1) and over MCP an error result holding that receipt in
details.receipts, whose hint names tools (never a CLI command) and the ids spelled alike."""

from __future__ import annotations

import json

import pytest

from mcpkit import connect, run

TOOLS = {"delete": "studio_delete", "bury": "studio_graveyard_bury"}
MISSING_REFS = ("persona/nobody", "nobody", "character/adaa", "adx")


@pytest.fixture
def ada(bunzai):
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    return bunzai


def cli_args(op: str, ref: str) -> list[str]:
    return [op, ref, "--yes"] if op == "delete" else [op, ref]


@pytest.mark.parametrize("op", sorted(TOOLS))
def test_the_cli_answers_a_missing_piece_with_a_stale_receipt(ada, op):
    for ref in MISSING_REFS:
        done = ada(*cli_args(op, ref))
        assert done.code == 1, done.stdout
        assert done.json["status"] == "stale" and done.json["reason"] == "missing" and done.json["op"] == op
        assert "nothing was written" in done.json["message"]
    assert ada(*cli_args(op, "character/adaa")).json["suggestions"] == ["character/ada"]
    assert ada(*cli_args(op, "adx")).json["suggestions"] == ["character/ada"]
    assert "suggestions" not in ada(*cli_args(op, "persona/nobody")).json
    assert ada("read", "character/ada").code == 0  # nothing was written


def test_mcp_refusals_of_delete_and_bury_hold_their_receipts_and_name_tools(ada):
    stale_revision = "0" * 64

    async def body():
        async with connect(ada.home, ada.studio) as client:
            for op, tool in sorted(TOOLS.items()):
                for ref in MISSING_REFS:
                    result = await client.call(tool, {"ref": ref})
                    assert result.is_error, result.content[0].text
                    error = result.structured_content["error"]
                    assert json.loads(result.content[0].text)["error"] == error
                    assert error["code"] == "not_found", error
                    [receipt] = error["details"]["receipts"]
                    assert receipt["status"] == "stale" and receipt["reason"] == "missing" and receipt["op"] == op
                    assert "studio_list" in error["hint"] and "bunzai" not in error["hint"], error["hint"]
                    if ref in ("character/adaa", "adx"):
                        assert error["hint"].startswith("did you mean character/ada?"), error["hint"]
                stale = await client.call(tool, {"ref": "ada", "revision": stale_revision})
                error = stale.structured_content["error"]
                assert stale.is_error and error["code"] == "stale"
                assert error["details"]["receipts"][0]["reason"] == "changed"
                assert "studio_read" in error["hint"] and "bunzai" not in error["hint"]

    run(body)
    assert ada("read", "character/ada").code == 0


def test_the_graveyard_tool_says_no_tool_restores(ada):
    async def body():
        async with connect(ada.home, ada.studio) as client:
            tools = {tool.name: tool for tool in (await client.session.list_tools()).tools}
            assert "restore" not in " ".join(tools)  # so the description names the person's command
            assert "a person does" in tools["studio_graveyard"].description

    run(body)
