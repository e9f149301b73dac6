"""The docs search index: the pages cut into chunks, each a weighted bag of words in a BM25 index.

`bunzai docs index` builds it with the catalog and stores it there (the "search" key of
bunzai/generated/docs.json): its chunks and its BM25 postings. A search loads that (`load`)
only while every declared page is still there with the hash the catalog recorded, and
otherwise builds it from the pages as they are (`build`; a page deleted since is left out);
either way the ranking is the same (tests/docs/test_docs_search_index.py).
"""

from __future__ import annotations

from collections import Counter

from bunzai.docs import bm25

# 2: stems take -ed, -ing and a final e (bm25.stem); 3: body and short fields apart; 4: words of any
# script, case and Latin accents folded (bm25.words: café was caf)
STORED_FORMAT = 4
# Field weights of a search chunk: words in its headings and topics say most about it. Only the
# body is normalised by its length (bm25: BM25F), so these weigh alike on a short and a long section.
WEIGHT_TEXT = 1
WEIGHT_HEADING = 3
WEIGHT_SUMMARY = 2
WEIGHT_TOPIC = 2


def notes(entry: dict, current: bool) -> dict:
    """A page's approved summary fields, or {} when its text is not the text reviewed (`current`)."""
    if "summary" not in entry or not current:
        return {}
    return {
        "summary": entry["summary"],
        "topics": entry.get("topics", []),
        "sections": entry.get("section_summaries", {}),
    }


def build(pages: dict[str, dict], texts: dict[str, str], current: set[str]) -> tuple[bm25.Index, list[dict]]:
    """The index over every page's chunks, in page id order; `current` names the pages whose
    text has the catalog's hash (only their summaries are used)."""
    from bunzai.docs import markdown  # only a build cuts pages into sections

    index = bm25.Index()
    chunks: list[dict] = []
    for page_id in sorted(pages):
        text = texts[page_id]
        page_notes = notes(pages[page_id], page_id in current)
        section_notes = page_notes.get("sections", {})
        topic_bag = Counter(term for topic in page_notes.get("topics", []) for term in bm25.terms(topic))
        # A page edited since the catalog was written may have a new title: read it from the text.
        title = pages[page_id]["title"] if page_id in current else markdown.page_title(text, page_id)
        for chunk in markdown.chunks(text, title):
            start = chunk.start
            if chunk.slug is not None:  # a section's body starts after its heading line
                newline = text.find("\n", start, chunk.end)
                start = newline + 1 if newline >= 0 else chunk.end
            body = text[start : chunk.end]
            summary = page_notes.get("summary", "") if chunk.slug is None else section_notes.get(chunk.slug, "")
            fields: Counter = Counter()
            for term in bm25.terms(" ".join(chunk.headings)):
                fields[term] += WEIGHT_HEADING
            for term in bm25.terms(summary):
                fields[term] += WEIGHT_SUMMARY
            if chunk.slug is None:  # the page's topics describe the page, so they weigh on its intro
                for term, count in topic_bag.items():
                    fields[term] += WEIGHT_TOPIC * count
            index.add(Counter(bm25.terms(body)), fields)
            chunks.append(_chunk(page_id, chunk.slug, chunk.headings[-1], start, chunk.end, body, summary))
    return index, chunks


def stored(index: bm25.Index, chunks: list[dict]) -> dict:
    """The index as the catalog keeps it: each chunk as [page, section, heading, start, end,
    body length] (a row apiece, so that editing one page changes few lines), and the postings."""
    lengths, postings = index.stored()
    rows = [
        [chunk["page"], chunk["section"], chunk["heading"], chunk["start"], chunk["end"], length]
        for chunk, length in zip(chunks, lengths, strict=True)
    ]
    return {"format": STORED_FORMAT, "chunks": rows, "postings": postings}


def load(stored_index: object, pages: dict[str, dict], texts: dict[str, str]) -> tuple[bm25.Index, list[dict]] | None:
    """The stored index over `texts`, which must be the texts the catalog hashed; None when
    there is none of this format (a catalog written by another bunzai) or it is not of these
    pages (every page has at least its intro chunk)."""
    if not isinstance(stored_index, dict) or stored_index.get("format") != STORED_FORMAT:
        return None
    rows = stored_index["chunks"]
    if {row[0] for row in rows} != pages.keys():
        return None
    all_notes = {page_id: notes(entry, True) for page_id, entry in pages.items()}
    chunks = []
    for page_id, slug, heading, start, end, _length in rows:
        page_notes = all_notes[page_id]
        summary = page_notes.get("summary", "") if slug is None else page_notes.get("sections", {}).get(slug, "")
        chunks.append(_chunk(page_id, slug, heading, start, end, texts[page_id][start:end], summary))
    return bm25.Index.from_stored([row[5] for row in rows], stored_index["postings"]), chunks


def _chunk(page: str, slug: str | None, heading: str, start: int, end: int, body: str, summary: str) -> dict:
    return {
        "page": page,
        "section": slug,
        "heading": heading,
        "start": start,
        "end": end,
        "text": body,
        "summary": summary,
    }
