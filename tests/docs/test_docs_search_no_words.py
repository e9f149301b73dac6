"""`bunzai docs search` of a query that holds no word it searches for (only common words, quantifiers,
punctuation or emoji) is a usage error, as `bunzai search` refuses one:
`count: 0` would say no section is about what was never searched for. Over MCP too, its hint in the
tools' words."""

from __future__ import annotations

import json

import pytest

from bunzai.cli.entry import run
from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.tools.contract import Context


@pytest.mark.parametrize(
    "words", [["how", "to"], ["the", "a"], ["all", "of", "these"], ["!!!"], ["🦊"], ["—", "…", "¿¡"]]
)
def test_a_query_of_no_searched_word_is_a_usage_error_with_a_hint(capsys, words) -> None:
    for command in (["docs", "search", *words], ["docs", "query", "--action", "search", "--query", " ".join(words)]):
        assert run(command) == 2, command
        error = json.loads(capsys.readouterr().out)["error"]
        assert error["code"] == "usage" and error["message"].startswith(f"the query {' '.join(words)!r} holds no word")
        assert error["hint"].endswith("bunzai docs search export containment")


def test_a_word_among_the_common_ones_is_searched(capsys) -> None:
    assert run(["docs", "search", "how", "to", "export", "--limit", "1"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["terms"] == ["export"] and answer["count"] == 1


def test_over_mcp_the_refusal_names_the_tool(tmp_path) -> None:
    result = Dispatcher(Context(studio=None, handles=Handles())).call(
        "docs_query", {"action": "search", "query": "how to"}, "2025-06-18"
    )
    error = result["structuredContent"]["error"]
    assert result["isError"] and error["code"] == "usage"
    assert error["hint"].endswith('docs_query action=search query="export containment"')
