"""A real `bunzai mcp` session: refusals whose hints the CLI words for a shell reach the agent
in the tools' words, the receipts inside the details and a result's note too; the CLI keeps its
own words."""

from __future__ import annotations

import re

import pytest

from mcpkit import connect, run

SHELL = re.compile(r"`bunzai |\bbunzai (?:read|list|docs|cap|create|duplicate|regex-lab|macro)\b|(?<![\w-])--[a-z]")


@pytest.fixture
def ada(bunzai):
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    return bunzai


def test_the_cli_hints_name_commands_and_flags(ada):
    """What the server rewrites: the same refusals on the CLI."""
    assert "--outline" in ada("read", "ada", "--pointer", "/body/nope").json["error"]["hint"]
    assert "`bunzai docs browse`" in ada("docs", "read", "nope/x").json["error"]["hint"]


def test_over_mcp_the_hints_name_tools(ada):
    async def refusal(client, tool, arguments) -> dict:
        result = await client.call(tool, arguments)
        assert result.is_error, result.content[0].text
        error = result.structured_content["error"]
        assert not SHELL.search(error["hint"]), (tool, error["hint"])
        return error

    async def body():
        async with connect(ada.home, ada.studio) as client:
            error = await refusal(client, "studio_read", {"ref": "ada", "pointer": "/body/nope"})
            assert error["code"] == "bad_pointer" and error["hint"] == "use outline=true to see what is there"

            error = await refusal(client, "docs_query", {"action": "read", "page": "nope/x"})
            assert error["code"] == "not_found" and "docs_query action=browse" in error["hint"], error

            error = await refusal(client, "macro_lookup", {"name": "nosuchmacro"})
            assert "docs_query action=read page=macros section=engines" in error["hint"], error

            # A create onto a taken id: the receipt in the details carries apply's hint, in tool words too.
            await client.doc("capability_find", {"describe": "studio.character.create"})
            made = await client.doc("cap_studio_character_create", {"input": {"name": "Ada"}})
            error = await refusal(client, "change_apply", {"draft": made["draft"]})
            [receipt] = error["details"]["receipts"]
            assert receipt["reason"] == "occupied" and not SHELL.search(receipt["hint"]), receipt
            assert "studio.KIND.create, with id=NEW_ID" in receipt["hint"] and "capability_find" in receipt["hint"]

            # A result's note: past the log's head, studio_changes says how to read again.
            report = await client.doc("studio_changes", {"since": 10_000})
            assert report["basis"] == "resync" and "the since argument" in report["note"], report
            assert not SHELL.search(report["note"])

    run(body)
