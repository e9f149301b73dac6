"""Strings no file system or encoder takes (a NUL, a lone surrogate, which a JSON client may
send) are refused with a code, never an internal error; limits the tools enforce are in their
inputSchema, so a client is told before it calls."""

from __future__ import annotations

import json

import pytest

from bunzai.limits import READ_PAGE_MAX, SEARCH_MAX_LIMIT
from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.store.studio import init_studio
from bunzai.tools.contract import Context


def _call(tmp_path, tool: str, **arguments) -> dict:
    studio, _ = init_studio(tmp_path / "studio")
    result = Dispatcher(Context(studio=studio, handles=Handles())).call(tool, arguments, "2025-06-18")
    return json.loads(result["content"][0]["text"]) | {"isError": result["isError"]}


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/tmp/a\0b", "invalid_input"),
        # outside the grants: refused as such whether or not it is there, so nothing is learnt of it
        ("/tmp/\ud800.json", "not_found"),  # no file system names it: nothing to learn
        ("relative/x", "not_granted"),
        (__file__, "not_granted"),
        ("/nonexistent-bunzai/x", "not_granted"),
        # inside the studio: said as it is
        ("STUDIO/missing.json", "not_found"),
        ("STUDIO/bunzai.toml/x", "not_found"),  # a file on the way: ENOTDIR
        ("STUDIO/" + "a" * 300, "not_found"),  # ENAMETOOLONG
    ],
)
def test_folder_import_refuses_a_path_no_file_has(tmp_path, path, code):
    answer = _call(tmp_path, "folder_import", paths=[path.replace("STUDIO", str(tmp_path / "studio"))])
    assert answer["isError"] and answer["error"]["code"] == code, answer
    assert answer["error"]["hint"]


@pytest.mark.parametrize(("tool", "extra"), [("html_will_draw", {}), ("regex_from_drawing", {"pattern": "(a)"})])
def test_a_drawing_with_a_lone_surrogate_is_read(tmp_path, tool, extra):
    answer = _call(tmp_path, tool, markup="<b>\ud800</b>", **extra)
    assert answer.get("error", {}).get("code") != "internal"


@pytest.mark.parametrize(
    ("tool", "argument", "most"),
    [("studio_search", "limit", SEARCH_MAX_LIMIT), ("studio_read", "limit", READ_PAGE_MAX)],
)
def test_a_tools_bounds_are_in_its_schema(tmp_path, tool, argument, most):
    studio, _ = init_studio(tmp_path / "studio")
    listed = {t["name"]: t for t in Dispatcher(Context(studio=studio, handles=Handles())).list_tools("2025-06-18")}
    schema = listed[tool]["inputSchema"]["properties"][argument]
    found = schema.get("maximum") or next(s.get("maximum") for s in schema.get("anyOf", []) if "maximum" in s)
    assert found == most
