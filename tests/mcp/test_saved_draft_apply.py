"""Applying a saved draft does over MCP what `bunzai apply NAME` does on the CLI: the piece is
written and the saved draft stays in the draft area, as a draft file would (change_discard, like
`bunzai draft discard`, removes it). The session's own copy of that draft is done once applied,
whichever of its names was used."""

from __future__ import annotations

import json

from bunzai.capabilities.discovery import find_capability
from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.store.studio import Studio
from bunzai.tools.contract import Context

VERSION = "2025-06-18"
CAP = "character.identity.update"


def make(bunzai, name: str) -> None:
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": name, "first_mes": "Hi."}}
    bunzai("apply", "--yes", input=bunzai("import", "-", input=json.dumps(card), check=True).stdout, check=True)


def session(bunzai) -> tuple[Dispatcher, str]:
    dispatcher = Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))
    [tool] = dispatcher.reveal([find_capability(CAP)])
    return dispatcher, tool


def doc(dispatcher, tool, arguments) -> dict:
    result = dispatcher.call(tool, arguments, VERSION)
    assert not result["isError"], result["content"][0]["text"]
    return result["structuredContent"]


def saved_rows(bunzai) -> dict:
    """Each saved draft's state as `bunzai draft list` gives it, by name."""
    rows = bunzai("draft", "list", check=True).json["items"]
    return {row["name"]: (row["stale"], row["reason"], row["valid"]) for row in rows}


def test_applying_a_saved_draft_by_name_matches_the_cli(bunzai):
    make(bunzai, "Ada")
    make(bunzai, "Bea")
    bunzai("cap", "run", CAP, "ada", "--input", '{"nickname": "Countess"}', "--save", "--name", "cli-nick", check=True)
    assert bunzai("apply", "cli-nick", "--yes", check=True).json["status"] == "applied"

    dispatcher, tool = session(bunzai)
    made = doc(dispatcher, tool, {"ref": "bea", "input": {"nickname": "Bee"}, "save": True, "name": "mcp-nick"})
    assert made["saved"]["name"] == "mcp-nick"
    assert doc(dispatcher, "change_apply", {"draft": "mcp-nick"})["status"] == "applied"
    assert bunzai("read", "bea", "--pointer", "/body/nickname", check=True).json["value"] == "Bee"

    rows = saved_rows(bunzai)
    assert rows["mcp-nick"] == rows["cli-nick"]  # what the CLI left, MCP left
    listed = doc(dispatcher, "change_query", {})
    assert listed["session"] == []  # the session's copy (draft-1) was the draft applied
    again = dispatcher.call("change_apply", {"draft": made["draft"]}, VERSION)
    assert again["isError"] and again["structuredContent"]["error"]["code"] == "not_found"


def test_applying_the_session_name_of_a_saved_draft_matches_the_cli_pipe(bunzai):
    make(bunzai, "Ada")
    make(bunzai, "Bea")
    piped = bunzai(
        "cap", "run", CAP, "ada", "--input", '{"nickname": "Countess"}', "--save", "--name", "cli-nick", check=True
    )
    bunzai("apply", "--yes", input=piped.stdout, check=True)

    dispatcher, tool = session(bunzai)
    made = doc(dispatcher, tool, {"ref": "bea", "input": {"nickname": "Bee"}, "save": True, "name": "mcp-nick"})
    assert doc(dispatcher, "change_apply", {"draft": made["draft"]})["status"] == "applied"
    rows = saved_rows(bunzai)
    assert rows["mcp-nick"] == rows["cli-nick"]
    assert doc(dispatcher, "change_query", {})["session"] == []


def test_change_discard_removes_a_saved_draft_as_draft_discard_does(bunzai):
    make(bunzai, "Bea")
    dispatcher, tool = session(bunzai)
    doc(dispatcher, tool, {"ref": "bea", "input": {"nickname": "Bee"}, "save": True, "name": "mcp-nick"})
    assert doc(dispatcher, "change_discard", {"draft": "mcp-nick"})["status"] == "discarded"
    assert saved_rows(bunzai) == {}
