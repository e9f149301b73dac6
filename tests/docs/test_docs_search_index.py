"""The docs search index stored in the catalog (bunzai/docs/search_index.py): a search loads it
instead of building it, ranks exactly as the index built from the pages does, and builds from
the pages again when one of them changed after the catalog was written."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from search_pages_support import PAGES, write_pages
from bunzai.docs import bm25, search_index
from bunzai.docs import catalog as docs_catalog
from bunzai.docs import query
from bunzai.docs.pages import CHECKOUT_ROOT, text_hash
from bunzai.limits import DOCS_SEARCH_MAX


@pytest.fixture(scope="module")
def real():
    """(catalog as written to disk, page texts) of the checkout's docs, the catalog made fresh
    here so that a page edited since `make docs-index` cannot make the two sides differ."""
    if not CHECKOUT_ROOT.is_dir():
        pytest.skip("no docs/ folder (an installed copy)")
    catalog = json.loads(docs_catalog.catalog_text(docs_catalog.build_catalog(CHECKOUT_ROOT)))
    docs = query.Docs(CHECKOUT_ROOT, catalog)
    return catalog, {page_id: docs.text(page_id) for page_id in docs.pages}


@pytest.fixture(scope="module")
def vocabulary(real) -> list[str]:
    """Every word of the pages, as a query would spell it."""
    return page_words(real[1])


@pytest.fixture(scope="module")
def both(real):
    """(Docs searching the stored index, Docs searching one built from the pages), kept for
    every example: each keeps its index once made."""
    return stored_docs(real[0]), built_docs(real[0])


def stored_docs(catalog: dict) -> query.Docs:
    return query.Docs(CHECKOUT_ROOT, catalog)


def built_docs(catalog: dict) -> query.Docs:
    return built_docs_of(CHECKOUT_ROOT, catalog)


def built_docs_of(root: Path, catalog: dict) -> query.Docs:
    """The pages with no stored index: a search builds it from the pages."""
    return query.Docs(root, {key: value for key, value in catalog.items() if key != "search"})


def page_words(texts: dict[str, str]) -> list[str]:
    return sorted({word for text in texts.values() for word in bm25._WORD.findall(text.lower())})


def test_the_stored_index_has_the_chunks_and_ranking_of_the_built_one(real) -> None:
    catalog, texts = real
    pages = {page["id"]: page for page in catalog["pages"]}
    loaded = search_index.load(catalog["search"], pages, texts)
    assert loaded is not None
    built = search_index.build(pages, texts, set(pages))
    assert loaded[1] == built[1]  # page, section, heading, offsets, body, summary
    assert len(loaded[0]) == len(built[0]) == len(built[1])
    for word in page_words(texts)[::7]:
        terms = bm25.terms(word)
        assert loaded[0].rank(terms) == built[0].rank(terms), word


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_a_search_answers_the_same_from_the_stored_index_as_from_the_pages(vocabulary, both, data) -> None:
    words = st.sampled_from(vocabulary)
    picked = data.draw(st.lists(st.one_of(words, words.map(str.upper), st.text(max_size=8)), min_size=1, max_size=6))
    text = " ".join(picked)
    if not bm25.terms(text):
        text += " studio"
    stored, built = both
    assert query.search(text, limit=DOCS_SEARCH_MAX, docs=stored) == query.search(
        text, limit=DOCS_SEARCH_MAX, docs=built
    )
    assert stored.search_index()[0] is not built.search_index()[0]


def test_a_search_on_current_pages_loads_the_index_and_builds_nothing(tmp_path: Path, monkeypatch) -> None:
    catalog = docs_catalog.build_catalog(write_pages(tmp_path))
    expected = query.search("rivers lanterns", docs=built_docs_of(tmp_path, catalog))

    def refuse(*_args):
        raise AssertionError("the index was built, not loaded")

    monkeypatch.setattr(search_index, "build", refuse)
    assert query.search("rivers lanterns", docs=query.Docs(tmp_path, catalog)) == expected
    assert expected["count"] == 3  # the intro and both sections of alpha


def test_a_page_edited_after_the_catalog_is_searched_as_it_is_now(tmp_path: Path) -> None:
    catalog = docs_catalog.build_catalog(write_pages(tmp_path))
    assert query.search("zebras", docs=query.Docs(tmp_path, catalog))["count"] == 0
    page = tmp_path / "guide" / "alpha.md"
    page.write_text(page.read_text(encoding="utf-8").replace("Rivers flow.", "Zebras cross rivers."), encoding="utf-8")
    hits = query.search("zebras", docs=query.Docs(tmp_path, catalog))["items"]
    assert [(hit["page"], hit["section"]) for hit in hits] == [("guide/alpha", "rivers")]
    assert hits[0]["snippet"] == "Zebras cross rivers."


def test_a_page_retitled_after_the_catalog_is_searched_by_its_new_title(tmp_path: Path) -> None:
    catalog = docs_catalog.build_catalog(write_pages(tmp_path))
    page = tmp_path / "guide" / "alpha.md"
    page.write_text(page.read_text(encoding="utf-8").replace("# Alpha", "# Zebra handbook"), encoding="utf-8")
    assert query.search("alpha", docs=query.Docs(tmp_path, catalog))["count"] == 0
    rebuilt = docs_catalog.build_catalog(tmp_path)
    assert query.search("zebra", docs=query.Docs(tmp_path, catalog)) == query.search(
        "zebra", docs=query.Docs(tmp_path, rebuilt)
    )


def test_a_page_that_lost_its_title_is_searched_as_a_fresh_catalog_would(tmp_path: Path) -> None:
    catalog = docs_catalog.build_catalog(write_pages(tmp_path))
    page = tmp_path / "guide" / "alpha.md"
    page.write_text(page.read_text(encoding="utf-8").replace("# Alpha\n", ""), encoding="utf-8")
    rebuilt = docs_catalog.build_catalog(tmp_path)
    for words in ("guide", "alpha", "lanterns rivers"):
        assert query.search(words, docs=query.Docs(tmp_path, catalog)) == query.search(
            words, docs=query.Docs(tmp_path, rebuilt)
        )


def test_a_stored_index_of_another_format_is_not_used(tmp_path: Path) -> None:
    (tmp_path / "index.md").write_text(PAGES["index.md"], encoding="utf-8")
    catalog = docs_catalog.build_catalog(tmp_path)
    catalog["search"]["format"] = search_index.STORED_FORMAT + 1
    catalog["search"]["postings"] = {}  # were it read, nothing would match
    assert query.search("welcome", docs=query.Docs(tmp_path, catalog))["count"] == 1


PROGRAM = """
import sys
from bunzai.cli.entry import run
code = run(sys.argv[1:])
sys.stderr.write('\\nmarkdown imported: ' + str('bunzai.docs.markdown' in sys.modules) + '\\n')
sys.exit(code)
"""


def test_the_command_answers_from_the_stored_index_without_cutting_pages(bare_bunzai, tmp_path: Path) -> None:
    """`bunzai docs search` on a copy of the package and its docs (first on PYTHONPATH), its
    catalog written by `bunzai docs index`: the command loads the index (only a build cuts
    pages into sections) and answers as an index built from the pages does."""
    source = tmp_path / "src"
    shutil.copytree(
        CHECKOUT_ROOT.parent / "bunzai", source / "bunzai", ignore=shutil.ignore_patterns("__pycache__", "shipped")
    )
    shutil.copytree(CHECKOUT_ROOT, source / "docs")
    env = {**bare_bunzai.env(), "PYTHONPATH": str(source)}

    def command(*args: str) -> tuple[dict, bool]:
        proc = subprocess.run(
            [sys.executable, "-c", PROGRAM, *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
        )
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout), proc.stderr.rsplit("markdown imported: ", 1)[1].strip() == "True"

    written, _ = command("docs", "index")
    catalog_path = source / "bunzai" / "generated" / "docs.json"
    assert written["path"] == str(catalog_path)
    answer, cut_pages = command("docs", "search", "lorebook entries update", "--limit", str(DOCS_SEARCH_MAX))
    assert not cut_pages
    catalog = json.loads(catalog_path.read_text(encoding="utf-8"))
    built = built_docs_of(source / "docs", catalog)
    assert answer == query.search("lorebook entries update", limit=DOCS_SEARCH_MAX, docs=built)


def test_a_stored_index_of_other_pages_is_not_used(tmp_path: Path) -> None:
    catalog = docs_catalog.build_catalog(write_pages(tmp_path))
    catalog["pages"].append({**catalog["pages"][0], "id": "guide/copy"})  # declared after the index was made
    (tmp_path / "guide" / "copy.md").write_text("# Copy\n\nMoths circle.\n", encoding="utf-8")
    catalog["pages"][-1].update(path="guide/copy.md", sha256=text_hash("# Copy\n\nMoths circle.\n"), title="Copy")
    hits = query.search("moths", docs=query.Docs(tmp_path, catalog))["items"]
    assert [(hit["page"], hit["section"]) for hit in hits] == [("guide/copy", None)]
