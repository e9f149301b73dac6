"""Search over the studio: ranked by where the words appear (names, tags, then text).

A piece scores for each query word found in its text fields, weighted by field: its name
counts most, then tags and short identity fields, then long prose. Escrowed native
documents are not searched (they repeat the body). Each hit names the best-matching
field by its pointer and shows a snippet around the first match. Ties break on kind and
id, so the order is the same on every run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from bunzai.limits import SEARCH_MAX_TERMS, SNIPPET_CONTEXT_CHARS
from bunzai.query.pointer import join

_WEIGHTS = (("/name", 8.0), ("/body/tags", 4.0), ("/body/nickname", 4.0), ("/body/tagline", 3.0), ("/body/title", 3.0))
_SKIP = ("/original", "/assets")


def terms_of(query: str) -> list[str]:
    words = [w for w in re.findall(r"\w+", query.casefold()) if w]
    return list(dict.fromkeys(words))[:SEARCH_MAX_TERMS]


def text_fields(document: Any, pointer: str = "") -> Iterator[tuple[str, str]]:
    """Every string leaf with its pointer, outside escrow and asset links."""
    if pointer.startswith(_SKIP):
        return
    if isinstance(document, str):
        yield pointer, document
    elif isinstance(document, dict):
        for key, value in document.items():
            yield from text_fields(value, join(pointer, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from text_fields(value, join(pointer, index))


def _weight(pointer: str) -> float:
    for prefix, weight in _WEIGHTS:
        if pointer == prefix or pointer.startswith(prefix + "/"):
            return weight
    return 1.0


def score_piece(document: dict, terms: list[str]) -> tuple[float, str, str] | None:
    """(score, best pointer, snippet) for a piece, or None when a word is missing entirely."""
    found: set[str] = set()
    total = 0.0
    best: tuple[float, str, str, int] | None = None
    for pointer, text in text_fields(document):
        folded = text.casefold()
        field_score = 0.0
        first = -1
        for term in terms:
            count = folded.count(term)
            if count:
                found.add(term)
                field_score += _weight(pointer) * (1.0 + min(count, 10) / 10)
                position = folded.find(term)
                first = position if first < 0 else min(first, position)
        if field_score:
            total += field_score
            if best is None or field_score > best[0]:
                best = (field_score, pointer, text, first)
    if best is None or len(found) < len(terms):
        return None
    return total, best[1], _snippet(best[2], best[3])


def _snippet(text: str, at: int) -> str:
    start = max(0, at - SNIPPET_CONTEXT_CHARS)
    end = min(len(text), at + SNIPPET_CONTEXT_CHARS)
    return ("…" if start else "") + text[start:end].replace("\n", " ") + ("…" if end < len(text) else "")


def rank(pieces: Iterable[dict], query: str, limit: int) -> list[dict]:
    terms = terms_of(query)
    if not terms:
        return []
    hits = []
    for document in pieces:
        scored = score_piece(document, terms)
        if scored:
            score, pointer, snippet = scored
            hits.append({"kind": document.get("kind"), "id": document.get("id"), "name": document.get("name"),
                         "score": round(score, 3), "pointer": pointer, "snippet": snippet})
    hits.sort(key=lambda h: (-h["score"], str(h["kind"]), str(h["id"])))
    return hits[:limit]
