"""A small BM25 index over weighted bags of words: no dependencies, built in memory.

Okapi BM25 with the usual k1 = 1.2 and b = 0.75, in its BM25F form over two fields: a
document is a bag of body terms and a bag of short-field terms whose counts are already
weighted (a heading word counts more than a body word). Only the body is normalised by its
length: a heading, a summary or a topic list says what a section is about however long its
text runs, so a long section that its heading names (`## Exporting a library`) is not ranked
below short passages that mention the word in passing. Terms are words (`words`: letters and
digits of any script, case and Latin accents folded) with a light stemmer (plurals, -ed, -ing,
a final e), so "exports" and "exporting" find "export"; a short stop list keeps "the" (and
quantifiers such as "all", which say nothing of the topic asked about) from scoring.

`stored` gives an index as JSON-able values (the docs catalog keeps them) and `from_stored`
takes them back, at next to no cost: a term's postings are decoded when a query first asks
for that term.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter

from bunzai.limits import DOCS_STEM_MEMO_WORDS

K1 = 1.2
B = 0.75
_ASCII_WORD = re.compile(r"[a-z0-9]+")
_WORD = re.compile(r"[^\W_]+")  # letters and digits of any script; _ parts words, as in unicode61
STOP_WORDS = frozenset(
    "a an and are as at be by can do does for from has have how i if in into is it its me my of on or our "
    "so that the their then there these this to us was we what when where which who why will with you your "
    "all any each every some".split()
)


def stem(word: str) -> str:
    """A word brought to a shared base, so that a query's form meets the docs' form: plurals and
    verb -s (exports, entries -> export, entry), then -ed and -ing, and a final e, as Porter's
    steps 1b and 5a take them (exporting, exported -> export; writing, write -> write;
    included, include -> includ). Only the two ends must agree, not the base be a word."""
    if len(word) <= 3 or word.isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word in _KEEP or not word.isalpha() or not word.isascii():
        return word
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    elif word.endswith("ed") and _has_vowel(word[:-2]):
        word = _restored(word[:-2])
    elif word.endswith("ing") and _has_vowel(word[:-3]):
        word = _restored(word[:-3])
    if word.endswith("e") and len(word) > 3:
        base = word[:-1]
        measure = _measure(base)
        if measure > 1 or (measure == 1 and not _ends_cvc(base)):
            word = base
    return word


# Words the -ed and -ing rules would mistake: not verb forms (embed, during), or nouns the docs
# use apart from their verb (the settings of a preset, not set; a heading, not head).
_KEEP = frozenset("anything during embed everything heading meaning nothing setting something string thing".split())


def _consonant(word: str, i: int) -> bool:
    letter = word[i]
    if letter in "aeiou":
        return False
    if letter == "y":  # a y after a consonant sounds as a vowel (try, fly)
        return i == 0 or not _consonant(word, i - 1)
    return True


def _measure(word: str) -> int:
    """Porter's m: how many vowel-consonant runs the word has (tr 0, trouble 1, troubles 2)."""
    runs, previous_vowel = 0, False
    for i in range(len(word)):
        consonant = _consonant(word, i)
        if consonant and previous_vowel:
            runs += 1
        previous_vowel = not consonant
    return runs


def _has_vowel(word: str) -> bool:
    return any(not _consonant(word, i) for i in range(len(word)))


def _ends_cvc(word: str) -> bool:
    """Ends consonant-vowel-consonant, the last not w, x or y (hop, writ): a short stem whose e stays."""
    return (
        len(word) >= 3
        and _consonant(word, -3 % len(word))
        and not _consonant(word, len(word) - 2)
        and _consonant(word, len(word) - 1)
        and word[-1] not in "wxy"
    )


def _restored(base: str) -> str:
    """A stem after -ed or -ing, mended as Porter does: rat(ing) -> rate, hopp(ing) -> hop."""
    if base.endswith(("at", "bl", "iz")):
        return base + "e"
    if len(base) >= 2 and base[-1] == base[-2] and _consonant(base, len(base) - 1) and base[-1] not in "lsz":
        return base[:-1]
    if _measure(base) == 1 and _ends_cvc(base):
        return base + "e"
    return base


# Turkish dotless ı is i, as dotted İ is (the studio's fold makes İ i): its capital is I, whose
# fold is i, so ISPARTA finds ısparta as it finds isparta.
_DOTLESS = {"ı": "i"}
# What the characters below U+3000 met so far become in a word, where that is not themselves
# (those from U+3000 up, mostly CJK, are looked at each time, so that these stay small).
_FOLDED: dict[int, str] = {}
_CHANGED: set[str] = set()  # the characters `_FOLDED` holds
_MET: set[str] = set()  # every character below U+3000 looked at


def words(text: str) -> list[str]:
    """The words of a text, folded: the one rule of the docs index and of a query.

    It follows `bunzai search`'s index (FTS5's unicode61 tokenizer and bunzai.query.search), so
    that the product's two searches find the same words: a word is a run of letters and digits
    of any script (`_` and punctuation part words); Latin letters lose their accents (`cafe`
    finds café, and `café` finds cafe), other scripts keep theirs (αθηνα is not Αθήνα); each
    letter or digit of a script written without spaces (CJK, Thai, Lao, Khmer, Burmese, all
    from U+3000 up) is a word of its own (`is_segmented`), so 魔法 is searched as 魔 and 法.
    Where this departs from that index it is because no SQLite tokenizer binds it: the case is
    folded by `str.casefold` (ß is ss, so STRASSE finds straße), a decomposed spelling is
    composed first (NFD and NFC give the same words), and a combining mark left over is dropped
    rather than splitting its word (an Indic vowel sign)."""
    if text.isascii():
        return _ASCII_WORD.findall(text.lower())
    from bunzai.query.search import fold, is_segmented  # the studio's rules; ASCII does without

    # Canonical caseless form (Unicode's NFD(casefold(NFD))), composed again so that a Greek or
    # Cyrillic letter keeps its accent as one character, as the studio's text holds it
    text = unicodedata.normalize("NFC", unicodedata.normalize("NFD", text).casefold())
    chars = set(text)
    high = {}
    for char in chars.difference(_MET):
        folded = "" if unicodedata.category(char)[0] == "M" else _DOTLESS.get(char) or fold(char)
        if is_segmented(folded):
            folded = f" {folded} "  # a word of its own
        if char >= "\u3000":
            if folded != char:
                high[ord(char)] = folded
            continue
        _MET.add(char)
        if folded != char:
            _FOLDED[ord(char)] = folded
            _CHANGED.add(char)
    if high:
        text = text.translate({**_FOLDED, **high})
    elif not _CHANGED.isdisjoint(chars):
        text = text.translate(_FOLDED)
    return _WORD.findall(text)


_STEMS: dict[str, str] = {}  # word -> stem, as `terms` has met them (the docs hold about 4,000 distinct words)


def terms(text: str) -> list[str]:
    """The index terms of a text, in order (stop words dropped).

    Each word's stem is remembered: building the docs index stems about 127,000 words, most of
    them seen before, and looking one up costs a fraction of stemming it. Once it holds
    DOCS_STEM_MEMO_WORDS words (a long MCP session's queries add theirs), new words are stemmed
    each time."""
    found = []
    stems = _STEMS
    for word in words(text):
        if word in STOP_WORDS:
            continue
        term = stems.get(word)
        if term is None:
            term = stem(word)
            if len(stems) < DOCS_STEM_MEMO_WORDS:
                stems[word] = term
        found.append(term)
    return found


Posting = tuple[int, float, float]  # (document, body count, weighted short-field count)


class Index:
    """Documents added as term counts of their body and of their short fields; `rank` scores a
    query against all of them."""

    def __init__(self) -> None:
        self._postings: dict[str, list[Posting]] = {}
        self._encoded: dict[str, str] = {}  # a stored index's postings, decoded on first use
        self._lengths: list[float] = []  # each document's body length

    @classmethod
    def from_stored(cls, lengths: list[float], postings: dict[str, str]) -> Index:
        """The index that `stored` gave (same documents, same ranking)."""
        index = cls()
        index._lengths = [float(length) for length in lengths]
        index._encoded = dict(postings)
        return index

    def stored(self) -> tuple[list[int | float], dict[str, str]]:
        """(each document's body length, {term: "0:3 5 2:2+3 1:0+2"}): a posting is the gap from
        the previous document, then ":body count" unless it is 1 and no short-field count
        follows, then "+short-field count" unless it is 0; numbers keep their exact value."""
        postings = {}
        for term in sorted(set(self._postings) | set(self._encoded)):
            previous = 0
            parts = []
            for doc, body, fields in self._postings_of(term):
                counts = "" if body == 1.0 and not fields else ":" + _number(body)
                parts.append(str(doc - previous) + counts + ("+" + _number(fields) if fields else ""))
                previous = doc
            postings[term] = " ".join(parts)
        return [int(length) if length.is_integer() else length for length in self._lengths], postings

    def _postings_of(self, term: str) -> list[Posting] | None:
        postings = self._postings.get(term)
        if postings is None and term in self._encoded:
            postings = self._postings[term] = _decoded(self._encoded.pop(term))
        return postings

    def add(self, body: Counter, fields: Counter | None = None) -> int:
        """A document of `body` term counts (its length is their sum) and `fields` term counts,
        already weighted, that no length normalises."""
        doc = len(self._lengths)
        fields = fields or Counter()
        for term in dict.fromkeys([*body, *fields]):
            postings = self._postings_of(term)
            if postings is None:
                postings = self._postings[term] = []
            postings.append((doc, float(body.get(term, 0)), float(fields.get(term, 0))))
        self._lengths.append(float(sum(body.values())))
        return doc

    def __len__(self) -> int:
        return len(self._lengths)

    def rank(self, query_terms: list[str]) -> list[tuple[float, int]]:
        """(score, document) for every document matching a term, best first, ties by document order."""
        count = len(self._lengths)
        if not count:
            return []
        average = sum(self._lengths) / count or 1.0
        scores: dict[int, float] = {}
        for term in dict.fromkeys(query_terms):
            postings = self._postings_of(term)
            if not postings:
                continue
            idf = math.log(1.0 + (count - len(postings) + 0.5) / (len(postings) + 0.5))
            for doc, body, fields in postings:
                tf = body / (1.0 - B + B * self._lengths[doc] / average) + fields
                scores[doc] = scores.get(doc, 0.0) + idf * tf * (K1 + 1.0) / (tf + K1)
        return sorted(((score, doc) for doc, score in scores.items()), key=lambda pair: (-pair[0], pair[1]))


def _number(value: float) -> str:
    """A weight as short text that `float` reads back exactly (3.0 -> "3")."""
    return str(int(value)) if value.is_integer() else repr(value)


def _decoded(text: str) -> list[Posting]:
    postings = []
    doc = 0
    for part in text.split():
        gap, _, counts = part.partition(":")
        body, _, fields = counts.partition("+")
        doc += int(gap)
        postings.append((doc, float(body) if body else 1.0, float(fields) if fields else 0.0))
    return postings
