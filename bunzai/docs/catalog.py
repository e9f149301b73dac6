"""The docs catalog: bunzai/generated/docs.json, regenerated from the pages under docs/.

It names every page (id, path, title, collection, size, source hash) and carries, for a page
whose summary is approved and current, that summary, its topics and its section summaries;
and under "search" the pages' search index (chunks and BM25 postings, bunzai/docs/search_index.py).
Queries read the catalog, never a folder listing, so only declared pages are reachable.
`bunzai docs index` writes it; `bunzai docs index --check` refuses (with a diff) when the
committed file differs, so a page added or edited without regenerating fails CI. The file
is sorted and has no times, so after a merge it is simply regenerated.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from bunzai.docs.pages import CHECKOUT_ROOT
from bunzai.errors import BunzaiError

CATALOG_PATH = Path(__file__).resolve().parents[1] / "generated" / "docs.json"
CATALOG_TYPE = "bunzai.docs.catalog"
CATALOG_FORMAT = 1


def build_catalog(docs: Path = CHECKOUT_ROOT) -> dict:
    """The catalog document for the pages under `docs` (a checkout's docs/ folder), with their
    search index (`search_index.stored`), so that a search need not build it."""
    # Here, not at the top: a search only loads the catalog and imports none of these.
    from bunzai.docs import markdown, search_index
    from bunzai.docs.pages import scan_pages, text_hash
    from bunzai.docs.summaries import summary_status
    from bunzai.files import read_text_nofollow
    from bunzai.limits import DOCS_PAGE_MAX_BYTES

    pages = []
    texts = {}
    for page_id, relative in scan_pages(docs):
        text = texts[page_id] = read_text_nofollow(docs / relative, DOCS_PAGE_MAX_BYTES)
        parts = markdown.sections(text)
        entry = {
            "id": page_id,
            "path": relative,
            "title": markdown.page_title(text, page_id),
            "collection": page_id.rpartition("/")[0],
            "sha256": text_hash(text),
            "chars": len(text),
            "sections": sum(1 for part in parts if part.level == 2),
        }
        status = summary_status(page_id, text, docs)
        entry["summary_status"] = status["status"]
        if status["status"] == "approved":
            content = status["content"]
            entry["summary"] = content["summary"]
            entry["topics"] = content["topics"]
            if content["sections"]:
                entry["section_summaries"] = content["sections"]
        pages.append(entry)
    search = search_index.stored(*search_index.build({page["id"]: page for page in pages}, texts, set(texts)))
    return {"type": CATALOG_TYPE, "format": CATALOG_FORMAT, "pages": pages, "search": search}


def catalog_text(catalog: dict) -> str:
    return json.dumps(catalog, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def index_catalog(docs: Path = CHECKOUT_ROOT, path: Path = CATALOG_PATH, *, check: bool = False) -> dict:
    """Regenerate the catalog and write it; with `check` refuse (out_of_date) instead when it differs."""
    if not docs.is_dir():
        raise BunzaiError(
            "unsupported", f"no docs folder at {docs}", "the catalog is generated in a source checkout of bunzai"
        )
    catalog = build_catalog(docs)
    fresh = catalog_text(catalog)
    committed = path.read_text(encoding="utf-8") if path.is_file() else ""
    pages = catalog["pages"]
    summary = {
        "status": "ok",
        "pages": len(pages),
        "path": str(path),
        "summaries_approved": sum(1 for page in pages if page["summary_status"] == "approved"),
    }
    if fresh == committed:
        return summary
    if not check:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(fresh, encoding="utf-8")
        load_catalog.cache_clear()
        return dict(summary, status="written")
    from bunzai.docs.generated_page import out_of_date

    raise out_of_date(
        path,
        committed,
        fresh,
        "the pages under docs/",
        "run `bunzai docs index` (or `make docs-index`) and commit the result",
    )


@lru_cache(maxsize=4)
def load_catalog(path: Path = CATALOG_PATH) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BunzaiError("out_of_date", f"{path} is missing", "run `bunzai docs index`") from None
