"""Search helpers: the text fields of a piece, and the field a hit shows.

Ranking lives in `bunzai.query.index` (SQLite FTS5, BM25). Escrowed native documents are
not searched (they repeat the body), nor the fields that hold settings rather than text (see
`bunzai.query.not_text`). Each hit names its best-matching field by pointer,
weighted as the ranking is (name, then tags and short identity fields, then prose), and
shows a snippet around the first match.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from bunzai.limits import SEARCH_MAX_TERMS, SNIPPET_CONTEXT_CHARS
from bunzai.query.pointer import join

TYPE_CHECKING = False  # typing costs 3 ms to import; list, search and read never need it
if TYPE_CHECKING:
    from typing import Any

_WEIGHTS = (("/name", 8.0), ("/body/tags", 4.0), ("/body/nickname", 4.0), ("/body/tagline", 3.0), ("/body/title", 3.0))
_SKIP = ("/original", "/assets")


def terms_of(query: str) -> list[str]:
    """The words of a `folder search` query, each looked for in `caseless(path)`."""
    words = [w for w in re.findall(r"\w+", caseless(query)) if w]
    return list(dict.fromkeys(words))[:SEARCH_MAX_TERMS]


def caseless(text: str) -> str:
    """`text` case folded and composed (NFC), so that a query typed composed finds a name written
    decomposed (as macOS writes file names) and back: Unicode's canonical caseless form
    (NFD(casefold(NFD))), composed again."""
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", text).casefold())


# Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Burmese)
# or that join endings onto their words (Korean): FTS5's unicode61 tokenizer keeps a run of
# them as one token, so 魔法 would never find 她会使用魔法. Each word character of those blocks
# (and of everything from U+3000 up: CJK, kana, Hangul, Yi, fullwidth forms, the supplementary
# ideographs) is made a token of its own, in the index and in the query, and a word of them is
# searched as the phrase of its characters: a search for a substring. (Punctuation or a space
# between two such characters does not stop a phrase.)
_NOT_SEGMENTED = "\\x00-\u0dff\u0f00-\u0fff\u10a0-\u177f\u1800-\u2fff"  # Thai, Lao; Myanmar; Khmer apart
_SEGMENTED = f"[^\\W{_NOT_SEGMENTED}]"
# Compiled at first use: the character classes cost a millisecond, which `list` never needs.
_SEGMENTS: list = []
# What stands between two characters made tokens: an ASCII control that unicode61 takes for a
# separator and that text does not hold (a field that holds one is left as it is).
SEGMENT_MARK = "\x1f"


def segmented(text: str) -> str | None:
    """`text` with `SEGMENT_MARK` between each such character and the characters beside it;
    None where it holds none of them (or holds the mark itself)."""
    if text.isascii():
        return None
    if not _SEGMENTS:
        # Any character of those blocks, as bare ranges: searched for three times faster than
        # the class of word characters, and absent from most text that is not ASCII (curly
        # quotes, dashes, accents)
        _SEGMENTS.append(re.compile(f"[^{_NOT_SEGMENTED}]"))
        _SEGMENTS.append(re.compile(f"{_SEGMENTED}+"))
    if _SEGMENTS[0].search(text) is None or SEGMENT_MARK in text:
        return None
    # A mark around each run and between its characters: one call per run, not per character
    marked, runs = _SEGMENTS[1].subn(_parted, text)
    return marked if runs else None  # emoji or CJK punctuation alone: nothing to part


def _parted(run: re.Match) -> str:
    return SEGMENT_MARK + SEGMENT_MARK.join(run.group()) + SEGMENT_MARK


def is_segmented(char: str) -> bool:
    """Whether `char` is a letter or digit the index makes a word of its own (see `segmented`);
    the docs search (bunzai.docs.bm25.words) splits the same characters the same way."""
    return char.isalnum() and (
        char >= "\u3000" or "\u0e00" <= char <= "\u0eff" or "\u1000" <= char <= "\u109f" or "\u1780" <= char <= "\u17ff"
    )


_FOLDS: dict[int, str] = {}  # code point -> its fold, filled as characters are met


def _fold_char(char: str) -> str:
    lower = char.lower()
    base = unicodedata.normalize("NFD", lower)[0]
    if unicodedata.name(base, "").startswith("LATIN"):  # é is e, and İ (which lowers to i and a dot) is i
        return base
    return lower if len(lower) == 1 else char


def fold(text: str) -> str:
    """`text` as the index's tokenizer (FTS5 unicode61) compares words: lower case, and Latin
    letters without their diacritics (é is e; ά and ё keep theirs, ß stays ß). One character
    for one, so a position in the fold is a position in `text`."""
    for char in set(text):
        if ord(char) not in _FOLDS:
            _FOLDS[ord(char)] = _fold_char(char)
    return text.translate(_FOLDS)


# Text is indexed and searched in Unicode's composed form (NFC): FTS5's unicode61 drops a
# decomposed accent (α and U+0301) with the Latin ones, and keeps a composed one (ά), so a text
# written decomposed (as macOS and some editors write it) was not found by a query typed
# composed, nor the other way round. Composing both keeps ά and ё as they are typed, and Hangul
# as its syllables (decomposed it is jamo below U+3000, which `segmented` would not part).
# Composing is not one character for one: a hit's snippet is cut from the text as written
# (`best_field` finds the word in the composed text and goes back by `composed_places`).
def composed(text: str) -> str:
    """`text` in NFC; `text` itself (the same object) where it is already so, as ASCII is."""
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


# The combining accents FTS5's unicode61 takes for part of a word (and drops): `a\u0301b` is one
# word `ab`, where Python's `\w` parts it. A query word holds them (see `bunzai.query.index`).
DIACRITICS = "\u0300-\u0304\u0306-\u030c\u030f\u0311\u031b\u0323-\u0328\u032d\u032e\u0330\u0331"


def _starts_chunk(char: str) -> bool:
    """Whether NFC never joins `char` to what stands before it: it is no mark (combining marks
    and the Indic vowel signs that compose are all marks) nor a Hangul vowel or final jamo."""
    return not (unicodedata.category(char)[0] == "M" or "\u1160" <= char <= "\u11ff" or "\ud7b0" <= char <= "\ud7ff")


def composed_places(text: str) -> list[int]:
    """For each character of `composed(text)`, where in `text` the characters it was made of
    begin. Text is composed chunk by chunk, each a character NFC joins to nothing before it
    and the marks and jamo after it, which is how NFC composes it whole."""
    places: list[int] = []
    start = 0
    for end in range(1, len(text) + 1):
        if end == len(text) or _starts_chunk(text[end]):
            places.extend([start] * len(unicodedata.normalize("NFC", text[start:end])))
            start = end
    return places


def text_fields(document: Any, pointer: str = "", skip: dict | None = None) -> Iterator[tuple[str, str]]:
    """Every string leaf with its pointer, outside escrow and asset links, and outside the
    fields `skip` names: a tree of keys (`*` for any item or key) whose leaves are fields that
    hold settings, not text (see `bunzai.query.not_text`)."""
    if pointer.startswith(_SKIP):
        return
    if isinstance(document, str):
        yield pointer, document
    elif isinstance(document, dict):
        for key, value in document.items():
            below = None if skip is None else skip.get(key, skip.get("*"))
            if below is not True:
                yield from text_fields(value, join(pointer, key), below)
    elif isinstance(document, list):
        below = None if skip is None else skip.get("*")
        if below is not True:
            for index, value in enumerate(document):
                yield from text_fields(value, join(pointer, index), below)


def _weight(pointer: str) -> float:
    for prefix, weight in _WEIGHTS:
        if pointer == prefix or pointer.startswith(prefix + "/"):
            return weight
    return 1.0


def best_field(fields: list[list[str]], words: list[str]) -> tuple[str, str]:
    """(pointer, snippet) of the field where `words` (folded, see `fold`; `pref*` for a
    prefix) weigh most (by field weight and count), the snippet around its first match.

    A word counts where it stands as a word (a prefix where it starts one), as the index
    matched it: `l*` is not shown in "Charles". Where no field holds one so (the tokenizer
    splits words on a few characters `isalnum` keeps), any place a word appears counts; the
    first field is shown when none holds a word at all.

    `words` are composed (`composed`), as the index holds the text: each field is searched
    composed, and its snippet cut from the field as written."""
    folded_fields = [(pointer, text, fold(composed(text))) for pointer, text in fields]
    accented = [not folded.isascii() and _accents().search(folded) is not None for _, _, folded in folded_fields]
    accented_words = any(not word.isascii() and _accents().search(word) for word in words)
    for whole in (True, False):
        best: tuple[float, str, str, int] | None = None
        for (pointer, text, folded), accents in zip(folded_fields, accented):
            field_score = 0.0
            first = -1
            for word in words:
                bare, prefix = word.rstrip("*"), word.endswith("*")
                if accents or accented_words:  # accents the tokenizer drops inside a word
                    count, position = _found_accented(folded, bare, prefix, whole)
                else:
                    count, position = _found(folded, bare, prefix, whole)
                if count:
                    field_score += _weight(pointer) * (1.0 + count / 10)
                    first = position if first < 0 else min(first, position)
            if field_score and (best is None or field_score > best[0]):
                best = (field_score, pointer, text, first)
        if best is not None:
            _, pointer, text, first = best
            if composed(text) is not text:  # found in the composed text: its place in the text as written
                first = composed_places(text)[first]
            return pointer, _snippet(text, first)
    if not fields:
        return "", ""
    return fields[0][0], _snippet(fields[0][1], 0)


def _found(text: str, word: str, prefix: bool, whole: bool) -> tuple[int, int]:
    """(how often, up to 10, and where first) `word` is in `text`: as a word (the start of
    one for a prefix) where `whole`, anywhere else."""
    if any(map(is_segmented, word)):
        return _found_parted(text, word, prefix, whole)
    count, first, at = 0, -1, text.find(word) if word else -1
    while at >= 0 and count < 10:
        end = at + len(word)
        if not whole or (_starts(text, at, word) and (prefix or _ends(text, end, word))):
            count += 1
            first = at if first < 0 else first
        at = text.find(word, end)
    return count, first


_ACCENTS: list = []  # compiled at first use, as `_SEGMENTS`


def _accents() -> re.Pattern:
    if not _ACCENTS:
        _ACCENTS.append(re.compile(f"[{DIACRITICS}]+"))
    return _ACCENTS[0]


def _found_accented(text: str, word: str, prefix: bool, whole: bool) -> tuple[int, int]:
    """`_found` where the text or the word holds an accent unicode61 drops inside a word (see
    `DIACRITICS`; NFC leaves one apart where no letter holds it composed, as Yoruba's ọ̀): the
    word without them, matched with any of them after each of its letters, as the index
    matched it (`oro` and `ọ̀rọ̀` both find ọ̀rọ̀)."""
    bare = _accents().sub("", word)
    if not bare:
        return 0, -1
    if any(map(is_segmented, bare)):  # an accent between two of those is punctuation to the phrase
        return _found_parted(text, bare, prefix, whole)
    between = f"[{DIACRITICS}]*"
    count, first = 0, -1
    for match in re.finditer(between.join(map(re.escape, bare)) + between, text):
        at, end = match.span()
        before = at
        while before > 0 and _accents().fullmatch(text[before - 1]):  # an accent before is of the word before
            before -= 1
        if not whole or (_starts(text, before, bare) and (prefix or _ends(text, end, bare))):
            count += 1
            first = at if first < 0 else first
            if count == 10:
                break
    return count, first


def _found_parted(text: str, word: str, prefix: bool, whole: bool) -> tuple[int, int]:
    """`_found` for a word of characters the index made tokens of their own: the phrase of
    them matched across punctuation and spaces (`魔法` in 她会用魔，法), so the snippet is
    cut where the index found it."""
    parts = [re.escape(word[0])]
    for before, char in zip(word, word[1:]):
        if is_segmented(before) or is_segmented(char):
            parts.append(r"[\W_]*")
        parts.append(re.escape(char))
    count, first = 0, -1
    for match in re.finditer("".join(parts), text):
        at, end = match.span()
        if not whole or (_starts(text, at, word) and (prefix or _ends(text, end, word))):
            count += 1
            first = at if first < 0 else first
            if count == 10:
                break
    return count, first


def _starts(text: str, at: int, word: str) -> bool:
    """Whether a word begins at `at`, as the index tokenized `text` (see `segmented`)."""
    return at == 0 or not text[at - 1].isalnum() or is_segmented(word[0]) or is_segmented(text[at - 1])


def _ends(text: str, end: int, word: str) -> bool:
    return end == len(text) or not text[end].isalnum() or is_segmented(word[-1]) or is_segmented(text[end])


def _snippet(text: str, at: int) -> str:
    start = max(0, at - SNIPPET_CONTEXT_CHARS)
    end = min(len(text), at + SNIPPET_CONTEXT_CHARS)
    shown = text[start:end].replace("\r\n", " ").replace("\r", " ").replace("\n", " ")
    return ("…" if start else "") + shown + ("…" if end < len(text) else "")
