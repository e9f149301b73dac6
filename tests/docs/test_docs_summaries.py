"""Reviewed summaries: scaffold, stamp, review, check; bound to the page's and the summary's hashes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bunzai.docs import catalog as docs_catalog
from bunzai.docs import query, summaries
from bunzai.errors import BunzaiError

PAGE = "# Lanterns\n\nHow lanterns work.\n\n## Oil\n\nOil burns.\n\n## Wicks\n\nWicks are trimmed.\n"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    (root / "guide").mkdir(parents=True)
    (root / "guide" / "lanterns.md").write_text(PAGE, encoding="utf-8")
    return root


def code_of(call) -> str:
    with pytest.raises(BunzaiError) as caught:
        call()
    return caught.value.code


def approve(docs: Path) -> None:
    summaries.scaffold(
        "guide/lanterns", summary="What lanterns burn and how wicks are kept.", topics=["light", "oil"], docs=docs
    )
    sidecar = summaries.sidecar_path("guide/lanterns", docs)
    doc = json.loads(sidecar.read_text())
    doc["sections"]["oil"] = "Which oil burns cleanest."
    sidecar.write_text(json.dumps(doc))
    summaries.stamp("guide/lanterns", "docs-author", docs=docs)
    summaries.review("guide/lanterns", "APPROVE", "read the page; accurate", "docs-reviewer", docs=docs)


def statuses(docs: Path) -> dict:
    with pytest.raises(BunzaiError) as caught:
        summaries.check(docs)
    assert caught.value.code == "out_of_date"
    return {row["page"]: row for row in caught.value.details["pages"]}


def test_a_page_without_a_summary_fails_the_check_naming_the_next_command(docs: Path) -> None:
    row = statuses(docs)["guide/lanterns"]
    assert row["status"] == "missing" and row["next"].startswith("bunzai docs summaries scaffold guide/lanterns")


def test_scaffold_lists_every_section_and_refuses_to_overwrite(docs: Path) -> None:
    out = summaries.scaffold("guide/lanterns", docs=docs)
    assert out["path"] == "docs/summaries/guide/lanterns.json"
    assert json.loads(summaries.sidecar_path("guide/lanterns", docs).read_text())["sections"] == {
        "oil": "",
        "wicks": "",
    }
    assert code_of(lambda: summaries.scaffold("guide/lanterns", docs=docs)) == "occupied"
    assert statuses(docs)["guide/lanterns"]["status"] == "unstamped"


def test_stamp_refuses_an_empty_summary_and_an_unknown_section(docs: Path) -> None:
    summaries.scaffold("guide/lanterns", docs=docs)
    assert code_of(lambda: summaries.stamp("guide/lanterns", "docs-author", docs=docs)) == "invalid_input"
    sidecar = summaries.sidecar_path("guide/lanterns", docs)
    sidecar.write_text(json.dumps({"page": "guide/lanterns", "summary": "ok", "sections": {"nope": "x"}}))
    assert code_of(lambda: summaries.stamp("guide/lanterns", "docs-author", docs=docs)) == "invalid_input"


def test_an_approved_current_summary_passes_and_enters_the_catalog(docs: Path) -> None:
    approve(docs)
    assert summaries.check(docs) == {"status": "ok", "pages": 1, "approved": 1}
    entry = docs_catalog.build_catalog(docs)["pages"][0]
    assert entry["summary"] == "What lanterns burn and how wicks are kept."
    assert entry["section_summaries"] == {"oil": "Which oil burns cleanest."}
    shown = query.Docs(docs, docs_catalog.build_catalog(docs))
    assert query.outline("guide/lanterns", docs=shown)["summary"].startswith("What lanterns")
    assert query.outline("guide/lanterns", docs=shown)["sections"][0]["summary"] == "Which oil burns cleanest."


def test_a_reviewer_may_not_approve_what_they_stamped(docs: Path) -> None:
    summaries.scaffold("guide/lanterns", summary="Lanterns.", docs=docs)
    summaries.stamp("guide/lanterns", "docs-author", docs=docs)
    assert (
        code_of(lambda: summaries.review("guide/lanterns", "APPROVE", "fine", "docs-author", docs=docs))
        == "self_review"
    )
    assert statuses(docs)["guide/lanterns"]["status"] == "unreviewed"


def test_a_block_keeps_the_check_failing(docs: Path) -> None:
    summaries.scaffold("guide/lanterns", summary="Lanterns.", docs=docs)
    summaries.stamp("guide/lanterns", "docs-author", docs=docs)
    summaries.review("guide/lanterns", "BLOCK", "says nothing about wicks", "docs-reviewer", docs=docs)
    assert statuses(docs)["guide/lanterns"]["status"] == "blocked"


def test_editing_the_page_fails_the_check_until_restamped_and_approved_by_another(docs: Path) -> None:
    approve(docs)
    page = docs / "guide" / "lanterns.md"
    page.write_text(PAGE + "\n## Glass\n\nGlass keeps the wind out.\n", encoding="utf-8")
    assert statuses(docs)["guide/lanterns"]["status"] == "stamp_stale"
    stale = query.Docs(docs, docs_catalog.build_catalog(docs))
    assert "summary" not in stale.pages["guide/lanterns"]
    assert code_of(lambda: summaries.review("guide/lanterns", "APPROVE", "fine", "docs-reviewer", docs=docs)) == "stale"
    summaries.stamp("guide/lanterns", "docs-author", docs=docs)
    assert statuses(docs)["guide/lanterns"]["status"] == "review_stale"
    assert (
        code_of(lambda: summaries.review("guide/lanterns", "APPROVE", "ok", "docs-author", docs=docs)) == "self_review"
    )
    summaries.review("guide/lanterns", "APPROVE", "read the new glass section", "docs-reviewer", docs=docs)
    assert summaries.check(docs)["approved"] == 1


def test_editing_the_summary_needs_a_new_stamp(docs: Path) -> None:
    approve(docs)
    sidecar = summaries.sidecar_path("guide/lanterns", docs)
    doc = json.loads(sidecar.read_text())
    doc["summary"] = "Something else entirely."
    sidecar.write_text(json.dumps(doc))
    assert statuses(docs)["guide/lanterns"]["status"] == "stamp_stale"


def test_an_edited_page_shows_headings_only_even_with_an_old_catalog(docs: Path) -> None:
    approve(docs)
    shown = query.Docs(docs, docs_catalog.build_catalog(docs))
    (docs / "guide" / "lanterns.md").write_text(PAGE.replace("Oil burns.", "Oil smokes."), encoding="utf-8")
    out = query.outline("guide/lanterns", docs=shown)
    assert out["summary_status"] == "headings only" and "summary" not in out
    assert "summary" not in out["sections"][0]


def test_a_summary_without_its_page_is_an_orphan(docs: Path) -> None:
    approve(docs)
    (docs / "guide" / "lanterns.md").unlink()
    (docs / "guide" / "other.md").write_text("# Other\n", encoding="utf-8")
    rows = statuses(docs)
    assert rows["guide/lanterns"]["status"] == "orphan"


def test_review_needs_notes_and_a_known_verdict(docs: Path) -> None:
    summaries.scaffold("guide/lanterns", summary="Lanterns.", docs=docs)
    summaries.stamp("guide/lanterns", "docs-author", docs=docs)
    assert (
        code_of(lambda: summaries.review("guide/lanterns", "APPROVE", "  ", "docs-reviewer", docs=docs))
        == "invalid_input"
    )
    assert code_of(lambda: summaries.review("guide/lanterns", "MAYBE", "hm", "docs-reviewer", docs=docs)) == "usage"


def test_every_page_of_bunzai_has_an_approved_current_summary() -> None:
    assert summaries.check()["status"] == "ok"
