"""A docs page deleted from the folder after its catalog was written (`bunzai docs index` not
run again) is left out of a search, which the other pages answer as a fresh catalog would; the
stored index is used only while it matches the pages."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from search_pages_support import write_pages
from bunzai.docs import catalog as docs_catalog
from bunzai.docs import query
from bunzai.docs.pages import CHECKOUT_ROOT
from bunzai.errors import BunzaiError
from bunzai.limits import DOCS_SEARCH_MAX


def test_a_page_deleted_after_the_catalog_is_left_out_and_the_rest_answer(tmp_path: Path) -> None:
    catalog = docs_catalog.build_catalog(write_pages(tmp_path))
    (tmp_path / "guide" / "alpha.md").unlink()
    docs = query.Docs(tmp_path, catalog)
    assert [hit["page"] for hit in query.search("welcome", docs=docs)["items"]] == ["index"]
    assert query.search("lanterns rivers", docs=docs)["count"] == 0
    rebuilt = docs_catalog.build_catalog(tmp_path)  # what `bunzai docs index` would write now
    for words in ("welcome", "start guide", "lanterns"):
        assert query.search(words, docs=query.Docs(tmp_path, catalog)) == query.search(
            words, docs=query.Docs(tmp_path, rebuilt)
        )


def test_a_page_folder_deleted_after_the_catalog_is_left_out(tmp_path: Path) -> None:
    catalog = docs_catalog.build_catalog(write_pages(tmp_path))
    shutil.rmtree(tmp_path / "guide")
    assert query.search("welcome", docs=query.Docs(tmp_path, catalog))["count"] == 1


def test_a_page_turned_into_a_link_is_still_refused(tmp_path: Path) -> None:
    catalog = docs_catalog.build_catalog(write_pages(tmp_path))
    page = tmp_path / "guide" / "alpha.md"
    page.unlink()
    page.symlink_to(tmp_path / "index.md")
    with pytest.raises(BunzaiError) as refused:
        query.search("welcome", docs=query.Docs(tmp_path, catalog))
    assert refused.value.code == "unsafe_path"


def test_the_command_searches_a_copy_of_the_docs_missing_a_page(bare_bunzai, tmp_path: Path) -> None:
    """`bunzai docs search` on a copy of the package and its docs (first on PYTHONPATH) from which
    a page was deleted after its catalog was written: the other pages answer, the gone one is not named."""
    source = tmp_path / "src"
    shutil.copytree(
        CHECKOUT_ROOT.parent / "bunzai", source / "bunzai", ignore=shutil.ignore_patterns("__pycache__", "shipped")
    )
    shutil.copytree(CHECKOUT_ROOT, source / "docs")
    catalog = json.loads((source / "bunzai" / "generated" / "docs.json").read_text(encoding="utf-8"))
    assert "commands/import" in {page["id"] for page in catalog["pages"]}
    (source / "docs" / "commands" / "import.md").unlink()
    proc = subprocess.run(
        [sys.executable, "-m", "bunzai", "docs", "search", "import folder drafts", "--limit", str(DOCS_SEARCH_MAX)],
        capture_output=True,
        text=True,
        env={**bare_bunzai.env(), "PYTHONPATH": str(source)},
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["count"] > 0
    assert "commands/import" not in {hit["page"] for hit in answer["items"]}
