"""`cap find`: rank capabilities for a few words, deterministically, saying why each matched.

Each query word scores against a capability's id words (kind, area, action), its
aliases, its summary and its kind; an alias phrase found whole in the query scores most.
Words are folded (lowercase, a few plural and verb endings stripped) and a small table of
everyday verbs maps onto the action words capabilities use (edit -> update). Ties break on
the id, so the same query always gives the same list.
"""

from __future__ import annotations

import re

from bunzai.limits import CAP_FIND_MAX_RESULTS

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("a an the of to for in on my this that it its and or with from into".split())
# Everyday verbs -> the action words of capability ids.
_SYNONYMS = {
    "edit": "update",
    "change": "update",
    "modify": "update",
    "set": "update",
    "fix": "update",
    "delete": "remove",
    "drop": "remove",
    "erase": "remove",
    "new": "create",
    "make": "create",
    "add": "create",
    "copy": "duplicate",
    "clone": "duplicate",
    "sort": "reorder",
    "move": "reorder",
    "order": "reorder",
    "turn": "enable",
    "disable": "enable",
    "activate": "enable",
    "world": "lorebook",
    "worldinfo": "lorebook",
    "book": "lorebook",
    "card": "character",
    "bot": "character",
}
# Points per kind of match; an alias phrase is the author's own word for the operation.
_ALIAS_PHRASE, _ID_WORD, _ALIAS_WORD, _KIND, _SUMMARY_WORD = 8, 4, 3, 2, 1


def fold(word: str) -> str:
    word = word.lower()
    for ending in ("ies", "es", "s"):
        if len(word) > 4 and word.endswith(ending) and not word.endswith("ss"):
            word = word[: -len(ending)] + ("y" if ending == "ies" else "")
            break
    return word


def words(text: str) -> list[str]:
    return [fold(w) for w in _WORD.findall(text.lower()) if w not in _STOP]


def _expand(word: str) -> set[str]:
    return {word, _SYNONYMS.get(word, word)}


def rank(capabilities: list, query: str, *, kind: str | None = None, limit: int = CAP_FIND_MAX_RESULTS) -> list[dict]:
    """At most `limit` matches, best first: {id, summary, score, why}."""
    terms = words(query)
    phrase = " ".join(terms)
    scored = []
    for cap in capabilities:
        if kind is not None and cap.kind != kind:
            continue
        score, why = _score(cap, terms, phrase)
        if score > 0:
            scored.append((-score, cap.id, {"id": cap.id, "summary": cap.summary, "score": score, "why": why}))
    scored.sort(key=lambda row: (row[0], row[1]))
    return [row[2] for row in scored[: min(limit, CAP_FIND_MAX_RESULTS)]]


def _score(cap, terms: list[str], phrase: str) -> tuple[int, list[str]]:
    id_words = set(words(cap.id.replace("-", " ").replace(".", " ")))
    alias_words = {w for alias in cap.aliases for w in words(alias)}
    summary_words = set(words(cap.summary))
    score, why = 0, []
    for alias in cap.aliases:
        folded = " ".join(words(alias))
        if folded and f" {folded} " in f" {phrase} ":
            score += _ALIAS_PHRASE * len(folded.split())
            why.append(f"alias {alias!r}")
    for term in dict.fromkeys(terms):
        forms = _expand(term)
        if forms & {fold(cap.kind)}:
            score += _KIND
            why.append(f"kind {cap.kind!r}")
        if forms & id_words:
            score += _ID_WORD
            why.append(f"id word {sorted(forms & id_words)[0]!r}")
        if forms & alias_words:
            score += _ALIAS_WORD
            why.append(f"alias word {sorted(forms & alias_words)[0]!r}")
        if forms & summary_words:
            score += _SUMMARY_WORD
            why.append(f"summary word {sorted(forms & summary_words)[0]!r}")
    return score, why
