"""docs/limits.md and docs/mcp-tools.md are generated and must match their sources."""

from __future__ import annotations

import pytest

from bunzai.docs.limits_page import check_limits_page, rows
from bunzai.docs.limits_page import render as render_limits
from bunzai.errors import BunzaiError
from bunzai.mcp.docs_page import check_tools_page
from bunzai.tools.discovery import all_tools


def test_limits_page_is_current():
    assert check_limits_page() in ("ok", "absent")


def test_tools_page_is_current():
    assert check_tools_page() in ("ok", "absent")


def test_every_limit_has_a_reason_and_a_row():
    import bunzai.limits as limits

    names = {name for name in dir(limits) if name.isupper()}
    found = rows(open(limits.__file__, encoding="utf-8").read())
    assert {name for _, name, _, _ in found} == names
    assert [name for _, name, _, why in found if not why] == []
    page = render_limits()
    for name in ("MCP_RESULT_INLINE_MAX_CHARS", "MCP_HANDLES_MAX", "MCP_HANDLE_MAX_BYTES"):
        assert f"| `{name}` |" in page


def test_a_stale_page_is_refused(tmp_path):
    from bunzai.docs.generated_page import check_page

    page = tmp_path / "x.md"
    page.write_text("old\n")
    with pytest.raises(BunzaiError) as raised:
        check_page(page, "new\n", write=False, source="src", command="make pages")
    assert raised.value.code == "out_of_date" and "make pages" in raised.value.hint
    assert check_page(page, "new\n", write=True, source="src", command="make pages") == "written"
    assert page.read_text() == "new\n"


def test_tools_page_names_every_tool():
    text = open(check_tools_page.__globals__["PAGE_PATH"], encoding="utf-8").read()
    for tool in all_tools():
        assert f"## `{tool.name}`" in text and tool.description in text
