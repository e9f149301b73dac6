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


def test_a_long_diff_is_cut_at_the_limit_and_says_how_much_is_left(tmp_path):
    from bunzai.docs.generated_page import out_of_date
    from bunzai.limits import GENERATED_DIFF_MAX_LINES

    committed = "".join(f"old {n}\n" for n in range(GENERATED_DIFF_MAX_LINES))
    fresh = "".join(f"new {n}\n" for n in range(GENERATED_DIFF_MAX_LINES))
    error = out_of_date(tmp_path / "x.json", committed, fresh, "the sources", "regenerate it")
    shown = error.details["diff"]
    # 3 header lines, then every old line removed and every new one added
    whole = 3 + 2 * GENERATED_DIFF_MAX_LINES
    assert len(shown) == GENERATED_DIFF_MAX_LINES + 1
    assert shown[-1] == f"... {whole - GENERATED_DIFF_MAX_LINES} more diff lines"
    assert shown[0] == "--- x.json (committed)" and shown[1] == "+++ x.json (from the sources)"
    assert error.code == "out_of_date" and error.message.startswith("x.json differs from the sources:\n")
    short = out_of_date(tmp_path / "x.json", "a\n", "b\n", "the sources", "regenerate it").details["diff"]
    assert short[-2:] == ["-a", "+b"]


def test_tools_page_names_every_tool():
    text = open(check_tools_page.__globals__["PAGE_PATH"], encoding="utf-8").read()
    for tool in all_tools():
        assert f"## `{tool.name}`" in text and tool.description in text


def test_error_table_is_current_and_lists_every_code(tmp_path):
    from bunzai.docs.errors_page import START, check_errors_page, render
    from bunzai.errors import ERRORS

    assert check_errors_page() in ("ok", "absent")
    page = tmp_path / "cli.md"
    page.write_text(f"# CLI\n\n{START}\n| old |\n<!-- end of error codes -->\n\nafter\n", encoding="utf-8")
    fresh = render(page)
    assert all(f"| `{code}` | {status} | " in fresh for code, (status, _) in ERRORS.items())
    assert fresh.endswith("\n\nafter\n") and "| old |" not in fresh
    with pytest.raises(BunzaiError) as raised:
        check_errors_page(path=page)
    assert raised.value.code == "out_of_date"
    page.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(BunzaiError):
        render(page)


def test_every_error_code_has_a_one_line_meaning():
    from bunzai.errors import ERRORS

    assert all(meaning and "\n" not in meaning for _, meaning in ERRORS.values())
