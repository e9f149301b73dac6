"""`bunzai.docs`: the catalog, containment, browse, outline, search and read, on real and made-up pages."""

from __future__ import annotations

import builtins
import io
import os
from pathlib import Path

import pytest

from bunzai.docs import catalog as docs_catalog
from bunzai.docs import markdown, query
from bunzai.docs.pages import CHECKOUT_ROOT
from bunzai.errors import BunzaiError
from bunzai.limits import DOCS_READ_MAX

PAGES = {
    "index.md": "# Home\n\nWelcome to the guide.\n\n## Start\n\nRead the start.\n",
    "guide/alpha.md": "# Alpha\n\nIntro about lanterns.\n\n## Lanterns\n\nLanterns glow.\n\n"
    "### Oil lanterns\n\nOil burns.\n\n"
    "## Rivers\n\n```console\n## not a heading\n```\nRivers flow past lanterns.\n",
    "guide/beta.md": "# Beta\n\nNothing about lights.\n\n## Boats\n\nBoats float on rivers.\n",
    "guide/deep/gamma.md": "# Gamma\n\nDeep page.\n",
}


def make_docs(root: Path) -> query.Docs:
    for relative, text in PAGES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return query.Docs(root, docs_catalog.build_catalog(root))


@pytest.fixture
def docs(tmp_path: Path) -> query.Docs:
    return make_docs(tmp_path / "docs")


def code_of(call) -> str:
    with pytest.raises(BunzaiError) as caught:
        call()
    return caught.value.code


def test_page_ids_are_catalog_prefixes_not_paths(docs: query.Docs) -> None:
    assert sorted(docs.pages) == ["guide/alpha", "guide/beta", "guide/deep/gamma", "index"]
    assert docs.pages["guide/alpha"]["path"] == "guide/alpha.md"
    assert docs.pages["guide/alpha"]["title"] == "Alpha"
    assert docs.pages["guide/alpha"]["collection"] == "guide"


def test_sections_skip_fenced_code_and_get_unique_slugs() -> None:
    text = "# T\n\n## Same\n\n### Same\n\n```\n## fenced\n```\n\n## Same\n"
    assert [(s.level, s.slug, s.parent) for s in markdown.sections(text)] == [
        (2, "same", None),
        (3, "same-1", "same"),
        (2, "same-2", None),
    ]


def test_browse_lists_collections_then_pages_from_the_catalog(docs: query.Docs) -> None:
    top = query.browse(docs=docs)
    assert [(e["type"], e["id"]) for e in top["items"]] == [("collection", "guide"), ("page", "index")]
    assert top["items"][0]["pages"] == 3
    guide = query.browse("guide", docs=docs)
    assert [e["id"] for e in guide["items"]] == ["guide/deep", "guide/alpha", "guide/beta"]
    assert all("text" not in e for e in guide["items"])


def test_browse_pages_with_limit_and_offset(docs: query.Docs) -> None:
    first = query.browse("guide", limit=2, docs=docs)
    assert first["next_offset"] == 2 and len(first["items"]) == 2
    rest = query.browse("guide", limit=2, offset=2, docs=docs)
    assert [e["id"] for e in rest["items"]] == ["guide/beta"] and rest["next_offset"] is None


def test_browse_limit_is_bounded(docs: query.Docs) -> None:
    assert code_of(lambda: query.browse(limit=26, docs=docs)) == "usage"
    assert code_of(lambda: query.browse(limit=0, docs=docs)) == "usage"
    assert code_of(lambda: query.browse("nowhere", docs=docs)) == "not_found"


def test_outline_collapses_h2_with_child_counts_and_expands_a_branch(docs: query.Docs) -> None:
    out = query.outline("guide/alpha", docs=docs)
    assert [(s["slug"], s["children"]) for s in out["sections"]] == [("lanterns", 1), ("rivers", 0)]
    assert out["summary_status"] == "headings only"
    branch = query.outline("guide/alpha", section="lanterns", docs=docs)
    assert branch["section"]["slug"] == "lanterns"
    assert [c["slug"] for c in branch["children"]] == ["oil-lanterns"]
    assert code_of(lambda: query.outline("guide/alpha", section="lanterns-x", docs=docs)) == "not_found"


def test_search_ranks_heading_chunks_and_names_page_section_snippet_score(docs: query.Docs) -> None:
    result = query.search("boats rivers", docs=docs)
    top = result["items"][0]
    assert (top["page"], top["section"]) == ("guide/beta", "boats")
    assert "Boats float" in top["snippet"] and top["score"] > 0
    assert query.search("boats rivers", docs=docs) == result  # stable


def test_search_finds_plural_and_singular_alike(docs: query.Docs) -> None:
    assert query.search("lantern", docs=docs)["items"][0]["page"] == "guide/alpha"


def test_search_of_nothing_is_refused(docs: query.Docs) -> None:
    assert code_of(lambda: query.search("   ", docs=docs)) == "usage"


def test_read_a_section_and_refuse_a_window_out_of_bounds(docs: query.Docs) -> None:
    out = query.read("guide/alpha", section="rivers", docs=docs)
    assert out["text"].startswith("## Rivers") and out["done"] and out["next_offset"] is None
    assert code_of(lambda: query.read("guide/alpha", limit=999, docs=docs)) == "usage"
    assert code_of(lambda: query.read("guide/alpha", limit=DOCS_READ_MAX + 1, docs=docs)) == "usage"
    assert code_of(lambda: query.read("guide/alpha", offset=10_000, docs=docs)) == "invalid_input"


def test_the_longest_page_reads_whole_through_continuation_offsets() -> None:
    docs = query.default_docs()
    longest = max(docs.pages.values(), key=lambda page: page["chars"])
    assert longest["chars"] > DOCS_READ_MAX  # the walk below crosses several windows
    pieces, offset = [], 0
    while offset is not None:
        out = query.read(longest["id"], offset=offset, limit=DOCS_READ_MAX, docs=docs)
        assert len(out["text"]) <= DOCS_READ_MAX and out["offset"] == offset
        pieces.append(out["text"])
        offset = out["next_offset"]
    assert len(pieces) > 2
    assert "".join(pieces).encode("utf-8") == (CHECKOUT_ROOT / longest["path"]).read_bytes()


@pytest.fixture
def no_file_opens(monkeypatch):
    """Any open() or os.open() from here on fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"a file was opened: {args[:1]}")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(os, "open", refuse)


@pytest.mark.parametrize(
    "page, code",
    [
        ("../README", "unsafe_path"),
        ("/etc/passwd", "unsafe_path"),
        ("guide/../index", "unsafe_path"),
        ("guide\\alpha", "unsafe_path"),
        ("C:/Windows/win.ini", "unsafe_path"),
        ("guide/omega", "not_found"),
        ("GUIDE/Alpha", "invalid_id"),
    ],
)
def test_paths_and_unknown_ids_are_refused_before_any_file_is_opened(
    docs: query.Docs, no_file_opens, page: str, code: str
) -> None:
    assert code_of(lambda: query.read(page, docs=docs)) == code
    assert code_of(lambda: query.outline(page, docs=docs)) == code


def test_a_symlinked_page_is_refused_before_it_is_opened(tmp_path: Path, monkeypatch) -> None:
    docs = make_docs(tmp_path / "docs")
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n", encoding="utf-8")
    (tmp_path / "docs" / "guide" / "beta.md").unlink()
    (tmp_path / "docs" / "guide" / "beta.md").symlink_to(secret)
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda path, *a, **k: opened.append(path) or real_open(path, *a, **k))
    assert code_of(lambda: query.read("guide/beta", docs=docs)) == "unsafe_path"
    assert opened == []


def test_a_page_behind_a_symlinked_folder_is_refused(tmp_path: Path) -> None:
    docs = make_docs(tmp_path / "docs")
    elsewhere = tmp_path / "elsewhere"
    (tmp_path / "docs" / "guide").rename(elsewhere)
    (tmp_path / "docs" / "guide").symlink_to(elsewhere, target_is_directory=True)
    assert code_of(lambda: query.read("guide/alpha", docs=docs)) == "unsafe_path"


def test_the_catalog_skips_symlinked_pages_when_built(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    make_docs(root)
    (root / "linked.md").symlink_to(root / "index.md")
    assert "linked" not in {page["id"] for page in docs_catalog.build_catalog(root)["pages"]}


def test_query_is_the_one_verb_for_every_action(docs: query.Docs) -> None:
    assert query.query("browse", collection="guide", docs=docs)["items"][0]["id"] == "guide/deep"
    assert query.query("outline", page="guide/beta", docs=docs)["sections"][0]["slug"] == "boats"
    assert query.query("search", text="boats", docs=docs)["items"][0]["page"] == "guide/beta"
    assert query.query("read", page="index", docs=docs)["text"] == PAGES["index.md"]
    assert code_of(lambda: query.query("read", docs=docs)) == "usage"
    assert code_of(lambda: query.query("delete", page="index", docs=docs)) == "usage"


def test_the_committed_catalog_is_current() -> None:
    assert docs_catalog.index_catalog(check=True)["status"] == "ok"


def test_index_check_refuses_drift_with_a_diff(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    make_docs(root)
    target = tmp_path / "docs.json"
    assert docs_catalog.index_catalog(root, target)["status"] == "written"
    (root / "guide" / "beta.md").write_text("# Beta\n\nChanged.\n", encoding="utf-8")
    with pytest.raises(BunzaiError) as caught:
        docs_catalog.index_catalog(root, target, check=True)
    assert caught.value.code == "out_of_date" and any("sha256" in line for line in caught.value.details["diff"])
