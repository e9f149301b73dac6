"""Asking the docs: browse, outline, search, read, and `query` (the one verb for scripts).

Plain values in, JSON-able dicts out, so the CLI and (later) the MCP tool `docs_query`
call the same functions. Only `read` returns source prose, in bounded windows with a
continuation offset. A page's approved summary is shown only while the page's text still
has the hash the review was bound to; otherwise the page is navigated by its headings.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from bunzai.docs import bm25, search_index
from bunzai.docs.catalog import CATALOG_PATH, load_catalog
from bunzai.docs.pages import check_page_id, docs_root, read_page, text_hash
from bunzai.errors import BunzaiError
from bunzai.limits import (
    DOCS_BROWSE_DEFAULT,
    DOCS_BROWSE_MAX,
    DOCS_ID_MAX_CHARS,
    DOCS_QUERY_MAX_CHARS,
    DOCS_READ_DEFAULT,
    DOCS_READ_MAX,
    DOCS_READ_MIN,
    DOCS_SEARCH_DEFAULT,
    DOCS_SEARCH_MAX,
    DOCS_SNIPPET_CHARS,
    SEARCH_MAX_TERMS,
)

TYPE_CHECKING = False  # search and browse do without markdown (its patterns) and difflib: imported where used
if TYPE_CHECKING:
    from bunzai.docs import markdown

ACTIONS = ("browse", "outline", "search", "read")


class Docs:
    """One set of pages: the folder they are read from and the catalog that declares them."""

    def __init__(self, root: Path, catalog: dict) -> None:
        self.root = root
        self.catalog = catalog
        self.pages = {page["id"]: page for page in catalog.get("pages", [])}
        self._search: tuple[bm25.Index, list[dict]] | None = None

    def text(self, page_id: object) -> str:
        return read_page(page_id, self.pages, self.root)

    def summaries(self, page_id: str, text: str) -> dict:
        """The page's approved summary fields, or {} when the text is not the text reviewed."""
        entry = self.pages[page_id]
        return search_index.notes(entry, text_hash(text) == entry.get("sha256"))

    def search_index(self) -> tuple[bm25.Index, list[dict]]:
        """The BM25 index over every page's chunks, on the first call: the catalog's stored one
        while every page is there with the hash the catalog recorded, else one built from the
        pages that are there."""
        if self._search is None:
            texts = self._texts_there()
            pages = {page_id: self.pages[page_id] for page_id in texts}
            current = {page_id for page_id, text in texts.items() if text_hash(text) == pages[page_id].get("sha256")}
            stored = self.catalog.get("search") if len(current) == len(self.pages) else None
            self._search = search_index.load(stored, pages, texts) or search_index.build(pages, texts, current)
        return self._search

    def _texts_there(self) -> dict[str, str]:
        """The text of every declared page whose file is there, by id: a page deleted since the
        catalog was written is left out of a search, which the rest of the pages still answer."""
        texts = {}
        for page_id in sorted(self.pages):
            try:
                texts[page_id] = self.text(page_id)
            except BunzaiError as error:
                if error.code != "not_found":  # a page turned into a link, or grown too large, is still refused
                    raise
        return texts


_DEFAULT: Docs | None = None


def default_docs() -> Docs:
    """The docs of this installation (built once per process)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Docs(docs_root(), load_catalog(CATALOG_PATH))
    return _DEFAULT


def browse(collection: str = "", *, limit: int | None = None, offset: int = 0, docs: Docs | None = None) -> dict:
    """Collections and pages directly under `collection` ("" for the top), from the catalog only."""
    docs = docs or default_docs()
    limit = _bounded(limit, DOCS_BROWSE_DEFAULT, 1, DOCS_BROWSE_MAX, "--limit")
    offset = _bounded(offset, 0, 0, None, "--offset")
    prefix = collection.strip("/")
    if prefix:
        check_page_id(prefix)
    below = [page for page in docs.pages.values() if prefix == "" or page["id"].startswith(prefix + "/")]
    if prefix and not below:
        hint = (
            f"{prefix} is a page: `bunzai docs outline {prefix}`"
            if prefix in docs.pages
            else "see `bunzai docs browse`"
        )
        raise BunzaiError("not_found", f"no docs collection {prefix!r}", hint)
    depth = prefix.count("/") + 1 if prefix else 0
    collections: Counter = Counter()
    pages = []
    for page in below:
        parts = page["id"].split("/")
        if len(parts) > depth + 1:
            collections["/".join(parts[: depth + 1])] += 1
        else:
            row = {"type": "page", "id": page["id"], "title": page["title"], "sections": page["sections"]}
            if "summary" in page:
                row["summary"] = page["summary"]
            pages.append(row)
    entries = [{"type": "collection", "id": name, "pages": count} for name, count in sorted(collections.items())]
    entries += sorted(pages, key=lambda row: row["id"])
    window = entries[offset : offset + limit]
    following = offset + len(window)
    return {
        "collection": prefix,
        "total": len(entries),
        "offset": offset,
        "limit": limit,
        "count": len(window),
        "items": window,
        "next_offset": following if following < len(entries) else None,
    }


def outline(page: str, *, section: str | None = None, docs: Docs | None = None) -> dict:
    """The page's summary and its H2 map (child counts), or one H2/H3 branch expanded."""
    docs = docs or default_docs()
    text = docs.text(page)
    entry = docs.pages[page]
    notes = docs.summaries(page, text)
    parts = _sections(text)
    result: dict = {
        "page": page,
        "title": entry["title"],
        "chars": len(text),
        "summary_status": "approved" if notes else "headings only",
    }
    if notes:
        result["summary"] = notes["summary"]
        result["topics"] = notes["topics"]
    section_notes = notes.get("sections", {})

    def row(part: markdown.Section) -> dict:
        out = {"slug": part.slug, "title": part.title, "level": part.level, "chars": part.end - part.start}
        if part.level == 2:
            out["children"] = sum(1 for other in parts if other.parent == part.slug)
        if part.slug in section_notes:
            out["summary"] = section_notes[part.slug]
        return out

    if section is None:
        result["sections"] = [row(part) for part in parts if part.level == 2]
        return result
    chosen = _section(page, parts, section)
    result["section"] = row(chosen)
    result["children"] = [row(part) for part in parts if chosen.level == 2 and part.parent == chosen.slug]
    return result


def search(query: str, *, limit: int | None = None, docs: Docs | None = None) -> dict:
    """Heading-addressable chunks ranked by BM25, each with page, section, snippet and score."""
    docs = docs or default_docs()
    limit = _bounded(limit, DOCS_SEARCH_DEFAULT, 1, DOCS_SEARCH_MAX, "--limit")
    if not isinstance(query, str) or not query.strip():
        raise BunzaiError("usage", "a search needs a few words", "e.g. bunzai docs search export containment")
    if len(query) > DOCS_QUERY_MAX_CHARS:
        raise BunzaiError(
            "too_large", f"the query is {len(query)} characters, over {DOCS_QUERY_MAX_CHARS}", "ask with a few words"
        )
    wanted = list(dict.fromkeys(bm25.terms(query)))[:SEARCH_MAX_TERMS]
    if not wanted:  # no section could match it: say so, not "no section matched" (as `bunzai search` does)
        raise BunzaiError(
            "usage",
            f"the query {query!r} holds no word to search for: the docs are searched by their words "
            "(letters and digits of any script), leaving out punctuation, symbols, emoji, common words "
            "such as a, the, how and which, and quantifiers such as all and every",
            "name the topic in a word or two, e.g. bunzai docs search export containment",
        )
    index, chunks = docs.search_index()
    hits = []
    for score, doc in index.rank(wanted)[:limit]:
        chunk = chunks[doc]
        hit = {
            "page": chunk["page"],
            "section": chunk["section"],
            "heading": chunk["heading"],
            "score": round(score, 4),
            "snippet": _snippet(chunk["text"], wanted),
        }
        if chunk.get("summary"):
            hit["summary"] = chunk["summary"]
        hits.append(hit)
    return {"query": query, "terms": wanted, "chunks": len(chunks), "count": len(hits), "items": hits}


def read(
    page: str, *, section: str | None = None, offset: int = 0, limit: int | None = None, docs: Docs | None = None
) -> dict:
    """Up to `limit` characters of the page (or one section) from `offset`, with the next offset."""
    docs = docs or default_docs()
    limit = _bounded(limit, DOCS_READ_DEFAULT, DOCS_READ_MIN, DOCS_READ_MAX, "--limit")
    offset = _bounded(offset, 0, 0, None, "--offset")
    text = docs.text(page)
    if section is not None:
        chosen = _section(page, _sections(text), section)
        text = text[chosen.start : chosen.end]
    if offset > len(text):
        raise BunzaiError(
            "invalid_input", f"offset {offset} is past the end ({len(text)} characters)", "start again from --offset 0"
        )
    end = min(len(text), offset + limit)
    if end < len(text):
        newline = text.rfind("\n", offset, end)
        if newline + 1 > offset + limit // 2:  # end on a line when one ends in the second half
            end = newline + 1
    return {
        "page": page,
        "title": docs.pages[page]["title"],
        "section": section,
        "offset": offset,
        "limit": limit,
        "chars": len(text),
        "text": text[offset:end],
        "next_offset": end if end < len(text) else None,
        "done": end >= len(text),
    }


def query(
    action: str,
    *,
    page: str | None = None,
    section: str | None = None,
    collection: str | None = None,
    text: str | None = None,
    offset: int = 0,
    limit: int | None = None,
    docs: Docs | None = None,
) -> dict:
    """The one verb: `action` is browse, outline, search or read; the other values as those take them."""
    if action not in ACTIONS:
        raise BunzaiError("usage", f"unknown action {action!r}", "actions: " + ", ".join(ACTIONS))
    if action == "browse":
        result = browse(collection or page or "", limit=limit, offset=offset, docs=docs)
    elif action == "search":
        result = search(text or "", limit=limit, docs=docs)
    else:
        if not page:
            raise BunzaiError(
                "usage",
                f"--action {action} needs a page",
                f"e.g. bunzai docs query --action {action} --page commands/import",
            )
        if action == "outline":
            result = outline(page, section=section, docs=docs)
        else:
            result = read(page, section=section, offset=offset, limit=limit, docs=docs)
    return {"action": action, **result}


def _sections(text: str) -> list[markdown.Section]:
    from bunzai.docs import markdown

    return markdown.sections(text)


def _section(page: str, parts: list[markdown.Section], slug: str) -> markdown.Section:
    if not isinstance(slug, str) or len(slug) > DOCS_ID_MAX_CHARS:
        raise BunzaiError(
            "invalid_id",
            "a section slug is a short text like where-exports-are-written",
            f"see `bunzai docs outline {page}` for its sections",
        )
    for part in parts:
        if part.slug == slug:
            return part
    import difflib

    close = difflib.get_close_matches(slug, [part.slug for part in parts], n=3)
    hint = ("did you mean " + ", ".join(close) + "?") if close else f"see `bunzai docs outline {page}`"
    raise BunzaiError("not_found", f"{page} has no section {slug!r}", hint)


def _bounded(value: int | None, default: int, low: int, high: int | None, name: str) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise BunzaiError("usage", f"{name} must be {span}, not {value!r}", f"e.g. {name} {default}", argument=name[2:])
    return value


_SPACE = re.compile(r"\s+")


def _snippet(body: str, wanted: list[str]) -> str:
    """About DOCS_SNIPPET_CHARS of the chunk around its first query word, on one line."""
    flat = _SPACE.sub(" ", body).strip()
    if flat.isascii():
        lower = flat.lower()
    else:  # the studio's fold: one character for one, so a place in it is a place in `flat`, and é is e
        from bunzai.query.search import fold

        lower = fold(flat)
    first = min((pos for pos in (lower.find(term) for term in wanted if term) if pos >= 0), default=-1)
    if first < 0 and not flat.isascii():
        first = _found_unfolded(flat, wanted)
    start = max(0, first - DOCS_SNIPPET_CHARS // 4)
    piece = flat[start : start + DOCS_SNIPPET_CHARS]
    return ("…" if start else "") + piece + ("…" if start + DOCS_SNIPPET_CHARS < len(flat) else "")


def _found_unfolded(flat: str, wanted: list[str]) -> int:
    """Where in `flat` the first query word stands when the studio's one-for-one fold does not
    show it (a word the search folds to more letters: ß is ss, ﬁ is fi), 0 when nowhere: each
    character folded as `bm25.words` folds it, its places kept (only for such a chunk)."""
    import unicodedata

    from bunzai.docs.bm25 import words

    folded, places = [], []
    for at, char in enumerate(flat):
        part = "".join(words(char)) if char.isalnum() or unicodedata.category(char)[0] == "M" else " "
        folded.append(part)
        places += [at] * len(part)
    text = "".join(folded)
    found = [pos for pos in (text.find(term) for term in wanted if term) if pos >= 0]
    return places[min(found)] if found else 0
