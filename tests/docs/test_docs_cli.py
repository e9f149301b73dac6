"""`bunzai docs` end to end: the real command, one JSON document, codes and exit statuses."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_search_ranks_the_export_section_on_where_exports_are_written_first(bare_bunzai) -> None:
    result = bare_bunzai("docs", "search", "export containment")
    assert result.code == 0, result.stdout
    top = result.json["items"][0]
    assert (top["page"], top["section"]) == ("commands/export", "where-exports-are-written")
    assert bare_bunzai("docs", "search", "export", "containment").json == result.json  # stable, words or one string


def test_search_for_macro_collision_random_finds_the_macros_page(bare_bunzai) -> None:
    hits = bare_bunzai("docs", "search", "macro collision random", "--limit", "5").json["items"]
    assert "macros" in [hit["page"] for hit in hits]


def test_browse_outline_read_and_query_answer(bare_bunzai) -> None:
    top = bare_bunzai("docs", "browse").json
    assert {"type": "collection", "id": "commands"} in [{k: e[k] for k in ("type", "id")} for e in top["items"]]
    outline = bare_bunzai("docs", "outline", "commands/export").json
    assert "where-exports-are-written" in [s["slug"] for s in outline["sections"]]
    read = bare_bunzai("docs", "read", "commands/export", "--section", "where-exports-are-written").json
    assert read["text"].startswith("## Where exports are written") and read["done"]
    same = bare_bunzai(
        "docs", "query", "--action", "read", "--page", "commands/export", "--section", "where-exports-are-written"
    ).json
    assert same["action"] == "read" and same["text"] == read["text"]


def test_refusals_are_json_with_a_code_and_exit_1(bare_bunzai) -> None:
    for page, code in (("../README", "unsafe_path"), ("/etc/passwd", "unsafe_path"), ("commands/nope", "not_found")):
        result = bare_bunzai("docs", "read", page)
        assert result.code == 1 and result.json["error"]["code"] == code
        assert result.stderr.count("\n") == 1


def test_a_read_window_out_of_bounds_is_a_usage_error(bare_bunzai) -> None:
    result = bare_bunzai("docs", "read", "index", "--limit", "20000")
    assert result.code == 2 and result.json["error"]["code"] == "usage"


def test_index_check_and_summaries_check_pass_on_the_committed_files(bare_bunzai) -> None:
    assert bare_bunzai("docs", "index", "--check").json["status"] == "ok"
    assert bare_bunzai("docs", "summaries", "check").json["status"] == "ok"


def test_summaries_commands_refuse_self_approval_and_a_second_scaffold(bare_bunzai, tmp_path, monkeypatch) -> None:
    # Run on a copy of the package and its docs (first on PYTHONPATH): a refusal that wrote
    # after all would change the copy, never the pages the tests beside this one read.
    source = tmp_path / "src"
    shutil.copytree(DOCS.parent / "bunzai", source / "bunzai", ignore=shutil.ignore_patterns("__pycache__", "shipped"))
    shutil.copytree(DOCS, source / "docs")
    monkeypatch.setenv("PYTHONPATH", str(source))
    before = {p: p.read_bytes() for p in sorted((source / "docs").rglob("*")) if p.is_file()}
    stamper = json.loads((DOCS / "summaries" / "commands" / "export.json").read_text())["stamp"]["by"]
    self_review = bare_bunzai(
        "docs", "summaries", "review", "commands/export", "APPROVE", "--notes", "mine", "--reviewer", stamper
    )
    assert self_review.code == 1 and self_review.json["error"]["code"] == "self_review"
    again = bare_bunzai("docs", "summaries", "scaffold", "commands/export")
    assert again.code == 1 and again.json["error"]["code"] == "occupied"
    assert {
        p: p.read_bytes() for p in sorted((source / "docs").rglob("*")) if p.is_file()
    } == before  # nothing was written
