"""What a tool's argument says (docs/mcp-tools.md is made from it) holds: a bound is stated where it
is enforced, an example is of the form it illustrates, an argument names every action that reads
it, and the bound's number lives in bunzai/limits.py, not in the Field."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bunzai.tools.discovery import all_tools

TOOLS = Path(__file__).resolve().parents[2] / "bunzai" / "tools"
_BOUNDS = ("min_length", "max_length", "ge", "le", "gt", "lt")


def _properties():
    for tool in all_tools():
        for name, prop in tool.describe()["inputSchema"].get("properties", {}).items():
            yield tool, name, prop


def _said(number: float) -> tuple[str, ...]:
    whole = int(number) if float(number).is_integer() else number
    return (f"{whole:,}", str(whole))


def test_every_maximum_is_stated_in_the_description() -> None:
    unstated = []
    for tool, name, prop in _properties():
        for shape in (prop, *prop.get("anyOf", [])):
            most = shape.get("maximum", shape.get("maxItems"))
            if most is not None and not any(said in prop.get("description", "") for said in _said(most)):
                unstated.append(f"{tool.name}.{name} (at most {most})")
    assert unstated == []


def test_every_example_of_a_ref_reads_the_piece(bunzai) -> None:
    from bunzai.mcp.dispatch import Dispatcher
    from bunzai.mcp.handles import Handles
    from bunzai.store.pieces import create_piece
    from bunzai.store.studio import Studio
    from bunzai.tools.contract import Context

    (prop,) = [prop for tool, name, prop in _properties() if (tool.name, name) == ("studio_read", "ref")]
    examples = re.findall(r"e\.g\. ([^\s),]+)", prop["description"])
    assert {"/" in example for example in examples} == {True, False}  # a kind/id and a bare id
    studio = Studio(bunzai.studio)
    create_piece(studio, {"kind": "character", "id": "seraphina", "name": "Seraphina", "body": {}})
    dispatcher = Dispatcher(Context(studio=studio, handles=Handles()))
    for example in examples:
        assert not dispatcher.call("studio_read", {"ref": example}, "2025-06-18")["isError"], example


@pytest.mark.parametrize("action", ["browse", "read", "search", "outline"])
def test_docs_query_offset_names_every_action_that_reads_it(action) -> None:
    from bunzai.docs.query import query

    (prop,) = [prop for tool, name, prop in _properties() if (tool.name, name) == ("docs_query", "offset")]
    page = {"read": "commands/import", "outline": "commands/import"}.get(action)
    answer = query(action, page=page, text="import", offset=1)
    assert (answer.get("offset") == 1) == (f"{action}:" in prop["description"]), answer.get("offset")


def test_no_field_bound_is_a_bare_number() -> None:
    # 0 and 1 say "not negative" and "not empty"; any other bound is a limit, named in bunzai/limits.py
    bare = []
    for path in sorted(TOOLS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Field":
                for keyword in node.keywords:
                    value = keyword.value
                    if keyword.arg in _BOUNDS and isinstance(value, ast.Constant) and value.value not in (0, 1):
                        bare.append(f"{path.name}:{node.lineno} {keyword.arg}={value.value}")
    assert bare == []
