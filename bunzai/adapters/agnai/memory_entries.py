"""Agnai memory-book entries <-> canonical lore entries, and what an entry loses on the way in.

Agnai names the fields its own way (common/types/memory.ts): `entry` is the content,
`keywords` the keys (plain words, `*` and `?` wildcards, never regexes), `weight` the
insertion order (highest at the bottom), `priority` what survives the budget. The V2
fields it keeps "so that we don't destroy them" are camelCase (`secondaryKeys`,
`selectiveLogic`, `excludeRecursion`). It has no per-entry `extensions` and no
`case_sensitive`: Agnai's own V2 conversion drops both (common/memory.ts).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bunzai.adapters.common.book_losses import POSITION_COLLAPSED
from bunzai.adapters.common.card_book import read_book, read_world_probability
from bunzai.adapters.common.drift import MISSING, as_bool, as_int, as_str, as_str_list
from bunzai.adapters.common.fieldmap import put
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.shapes import json_type
from bunzai.adapters.contract import Loss
from bunzai.jsondoc.values import copied
from bunzai.jstext import JS_WHITESPACE as JS_SPACE, js_trim
from bunzai.model.lorebook import LoreEntry

LOGICS = ("and_any", "not_all", "not_any", "and_all")
# The entry losses, at a memory book's entries (/body/entries) or a card book's (/body/book/entries).
_ENTRY = r"/body/(?:book/)?entries/\d+"
ENTRY_EXTENSIONS_DROPPED = LossRule(
    f"{_ENTRY}/extensions", "dropped", "agnai.entry.extensions.dropped", "Agnai has no entry extensions"
)
ENTRY_CASE_SENSITIVE_DROPPED = LossRule(
    f"{_ENTRY}/case_sensitive",
    "dropped",
    "agnai.entry.case_sensitive.dropped",
    "Agnai has no case sensitivity per entry",
)
ENTRY_NOT_CARRIED = LossRule(f"{_ENTRY}/[a-z_]+", "dropped", "agnai.entry.not_carried", "Agnai has no such entry field")
ENTRY_REGEX_KEY = LossRule(
    rf"{_ENTRY}/(?:keys|secondary_keys)/\d+",
    "flattened",
    "agnai.entry.regex_key",
    "Agnai keywords are words with * and ? wildcards, not regexes: the pattern is written as a plain keyword",
)
ENTRY_KEY_NEVER_MATCHES = LossRule(
    rf"{_ENTRY}/keys/\d+",
    "dropped",
    "agnai.entry.key_never_matches",
    "Agnai looks for a keyword between \\b word boundaries, and JavaScript's word characters are only "
    "A-Z, a-z, 0-9 and _: a keyword that begins or ends with any other character (Chinese, Japanese, "
    "Korean, Cyrillic, é, an emoji, punctuation) matches only beside one of those, so it almost never fires; "
    "the keyword is written as it is",
)

ENTRY_KEY_STRIPPED = LossRule(
    rf"{_ENTRY}/keys/\d+",
    "dropped",
    "agnai.entry.key_stripped",
    "Agnai removes \\^$+.()|[]{}_ from a keyword before it searches (Mr. Smith becomes Mr Smith, snake_case "
    "becomes snakecase) and reads * and ? in it as wildcards: what is left no longer finds the keyword's own text "
    "in the chat; the keyword is written as it is",
)
ENTRY_KEY_FIRES_EVERYWHERE = LossRule(
    rf"{_ENTRY}/keys/\d+",
    "dropped",
    "agnai.entry.key_fires_everywhere",
    "Agnai searches this keyword as \\b()\\b or \\b(\\w*)\\b (nothing is left of it but * wildcards once it has "
    "removed \\^$+.()|[]{}_ from it: a blank keyword, *, ^_^, ...), which fires on every message with a word in "
    "it: the entry is inserted almost always; the keyword is written as it is",
)
ENTRY_KEY_WILDCARD = LossRule(
    rf"{_ENTRY}/keys/\d+",
    "dropped",
    "agnai.entry.key_wildcard",
    "Agnai reads * in a keyword as any run of word characters and ? as one word character: the keyword, "
    "meant literally (what?, 5*3), no longer finds its own text in the chat; the keyword is written as it is",
)
_BETWEEN_WORDS = (
    "Agnai searches this keyword as \\b( )\\b, or \\b(\\w* \\w*)\\b with its * wildcards (nothing is left of it "
    "but one space and * once it has removed \\^$+.()|[]{}_ from it: ^ ^, . ., * *), which finds the space between "
    "any two words: the entry is inserted almost always; the keyword is written as it is"
)
ENTRY_SECONDARY_KEYS_UNSEARCHED = LossRule(
    f"{_ENTRY}/secondary_keys",
    "dropped",
    "agnai.entry.secondary_keys_unsearched",
    "Agnai keeps an entry's secondary keys but never searches them (common/memory.ts matches `keywords` only): "
    "the entry fires on its primary keywords alone",
)
ENTRY_CONSTANT_UNUSED = LossRule(
    f"{_ENTRY}/constant",
    "dropped",
    "agnai.entry.constant_unused",
    "Agnai keeps `constant` but its memory search never reads it (common/memory.ts): the entry is inserted "
    "only when one of its keywords matches",
)
ENTRY_PROBABILITY_NOT_ROLLED = LossRule(
    f"{_ENTRY}/probability",
    "dropped",
    "agnai.entry.probability_not_rolled",
    "Agnai keeps an entry's probability but never rolls it: the entry is inserted whenever its keywords match",
)
NOT_AN_ENTRY = LossRule(
    r"/original/document(?:/characterBook)?/entries/\d+",
    "dropped",
    "agnai.entry.not_object",
    "an item of the book's entries that is not a JSON object is no memory entry: the written book leaves it out",
)


# What createRegexForKeyword (common/memory.ts) removes from a keyword before it builds
# `\b(keyword)\b` with the flags `giu`, and \w under those flags (ASCII, plus the long s and
# the Kelvin sign, which fold to s and k).
_AGNAI_REMOVED = re.compile(r"[\\^$+.()|[\]{}_]")
_JS_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_?\u017f\u212a")


def never_matches(keyword: str) -> bool:
    """Whether Agnai's `\\b` search can find `keyword` only beside an ASCII letter, digit or `_`:
    its first or last character (wildcards aside; `?` is one word character) is no word character
    and no space."""
    pattern = _AGNAI_REMOVED.sub("", js_trim(keyword)).strip("*")
    # A space left at an edge (by the removal) sits beside a word in prose, so it does match.
    return any(edge not in _JS_WORD and edge not in JS_SPACE for edge in pattern[:1] + pattern[-1:])


# JavaScript's \b under `giu`, spelled for Python: a change between a word character and another.
_WORD = "[0-9A-Za-z_\u017f\u212a]"
_BOUNDARY = f"(?:(?<={_WORD})(?!{_WORD})|(?<!{_WORD})(?={_WORD}))"


def fires_everywhere(keyword: str) -> bool:
    """Whether Agnai's search for `keyword` is \\b()\\b or \\b(\\w*)\\b: nothing but `*` is left of it once
    it has removed `\\^$+.()|[]{}_` (a blank keyword, `*`, `^_^`, `...`). That search fires on every
    message with a word in it."""
    return not _AGNAI_REMOVED.sub("", js_trim(keyword)).strip("*")


def fires_between_words(keyword: str) -> bool:
    """Whether nothing but one space (and `*` wildcards) is left of `keyword` once Agnai has removed
    `\\^$+.()|[]{}_` (`^ ^`, `. .`): its search, \\b( )\\b, finds the space between any two words."""
    return _AGNAI_REMOVED.sub("", js_trim(keyword)).replace("*", "") == " "


def _misses_own_text(trimmed: str) -> bool:
    """Whether Agnai's search for a (trimmed) keyword, `\\^$+.()|[]{}_` removed and `*`, `?` read
    as its wildcards, no longer finds the keyword's own text as written, between spaces."""
    pattern = _AGNAI_REMOVED.sub("", trimmed)
    search = "".join({"*": f"{_WORD}*", "?": _WORD}.get(char, re.escape(char)) for char in pattern)
    # the text is the keyword itself, so case never differs (and IGNORECASE would let \u0131 and
    # \u0130 match [A-Za-z], which JavaScript's `giu` does not)
    return re.search(f"{_BOUNDARY}({search}){_BOUNDARY}", f" {trimmed} ") is None


def stripped_misses(keyword: str) -> bool:
    """Whether a keyword Agnai removes characters from (`\\^$+.()|[]{}_`) no longer finds its own
    text as written, what is left searched as Agnai searches it (`*` and `?` as its wildcards):
    "Mr. Smith" searched as "Mr Smith", "_id" as "id" (the `_` before it is a word character),
    "(what?)" as `what\\w`. "Dr." and "C++" still find theirs (searched as "Dr" and "C"), so they
    are not reported. (A keyword of which nothing is left is `fires_everywhere`'s.)"""
    trimmed = js_trim(keyword)
    return _AGNAI_REMOVED.search(trimmed) is not None and _misses_own_text(trimmed)


def wildcard_misses(keyword: str) -> bool:
    """Whether a keyword holding `*` or `?`, and nothing Agnai removes, no longer finds its own text
    as written, the wildcards read as Agnai reads them: `what?` is searched as `what\\w`, `5*3` as
    `5\\w*3`. `drag*` still finds `drag*` (and `dragon`), so it is not reported. (A keyword Agnai
    also removes characters from is `stripped_misses`'.)"""
    trimmed = js_trim(keyword)
    if ("*" not in trimmed and "?" not in trimmed) or _AGNAI_REMOVED.search(trimmed):
        return False
    return _misses_own_text(trimmed)


def strays(raw: Any) -> list[tuple[int, str]]:
    """The items of a native `entries` list that are no entry (not objects): (index, JSON type)."""
    if not isinstance(raw, list):
        return []
    return [(index, json_type(item)) for index, item in enumerate(raw) if not isinstance(item, dict)]


def stray_warnings(raw: Any, where: str) -> list[str]:
    return [f"{where} entry {index} is {kind}, not an object: it is skipped" for index, kind in strays(raw)]


def stray_losses(raw: Any, pointer: str) -> list[Loss]:
    """Losses for the stray items of the escrowed `entries` at `pointer`, which a write leaves out."""
    return [
        NOT_AN_ENTRY.at(f"{pointer}/{index}", f"entry {index} is {kind}, not a memory entry: it is left out")
        for index, kind in strays(raw)
    ]


def _keys(raw: Any) -> list[dict]:
    return [{"text": text, "regex": False, "flags": ""} for text in as_str_list(raw)]


def _write_keys(keys: list[dict]) -> list[str]:
    return [key["text"] for key in keys]


def _logic(raw: Any) -> str:
    number = as_int(raw, 0)
    return LOGICS[number] if number in (0, 1, 2, 3) else "and_any"


def _position(raw: Any) -> str:
    return "after_char" if raw == "after_char" else "before_char"


# canonical LoreEntry field -> (native key, read(raw), encode(value) or None). An absent
# `weight`/`priority` reads as Agnai's import makes it: `+undefined` is NaN, coalesced to 0.
# `probability` and `useProbability` are SillyTavern's, copied as they are by Agnai's import of
# a SillyTavern world (web/pages/Memory/Memory.tsx) and never rolled by its prompt builder
# (common/memory.ts): they read as SillyTavern's scan rolls them, a negative or a null as 0.
FIELDS: dict[str, tuple[str, Callable[[Any], Any], Callable[[Any], Any] | None]] = {
    "title": ("name", as_str, None),
    "content": ("entry", as_str, None),
    "keys": ("keywords", _keys, _write_keys),
    "priority": ("priority", as_int, None),
    "order": ("weight", lambda raw: as_int(raw, 0), None),
    "enabled": ("enabled", lambda raw: as_bool(raw, True), None),
    "secondary_keys": ("secondaryKeys", _keys, _write_keys),
    "constant": ("constant", lambda raw: as_bool(raw, False), None),
    "position": ("position", _position, lambda value: "before_char" if value == "before_char" else "after_char"),
    "probability": ("probability", read_world_probability, None),
    "use_probability": ("useProbability", lambda raw: as_bool(raw, True), None),
    "selective": ("selective", lambda raw: as_bool(raw, False), None),
    "selective_logic": ("selectiveLogic", _logic, LOGICS.index),
    "exclude_recursion": ("excludeRecursion", lambda raw: as_bool(raw, False), None),
}
# What Agnai keeps when it converts a card's V2 `character_book` (memoryEntryToNative).
FROM_CARD_BOOK = frozenset(
    {"title", "content", "keys", "priority", "order", "enabled", "secondary_keys", "constant", "position", "selective"}
)


def read_entry(entry: dict) -> dict:
    """A native memory entry -> the canonical LoreEntry fields it maps (JSON form), uid apart; the
    model gives every other field its default (a dump of a default entry per entry cost a third of a read)."""
    return {field: read(entry.get(key, MISSING)) for field, (key, read, _encode) in FIELDS.items()}


def uid_of(entry: dict, index: int) -> int | str:
    raw = entry.get("id", MISSING)
    if isinstance(raw, str) and raw:
        return raw
    number = as_int(raw)
    return index if number is None else number


def uids_of(entries: list[dict]) -> list[int | str]:
    """Entry uids: `id`, else the index; a repeated one becomes the next free integer."""
    seen: set[str] = set()
    uids: list[int | str] = []
    for index, entry in enumerate(entries):
        uid = uid_of(entry, index)
        if str(uid) in seen:
            uid = index
            while str(uid) in seen:
                uid += 1
        seen.add(str(uid))
        uids.append(uid)
    return uids


def entry_template() -> dict:
    """A new native entry with the six fields Agnai's import validates."""
    return {"name": "", "entry": "", "keywords": [], "priority": 100, "weight": 100, "enabled": True}


def write_entry(base: dict | None, canon: dict) -> dict:
    """`base` (an escrowed native entry) or a new one, with the canonical fields written over it."""
    entry = copied(base) if isinstance(base, dict) else entry_template()
    if not isinstance(base, dict) and canon["priority"] is None:
        del entry["priority"]  # "book default": Agnai's import reads a missing priority as 0
    for field, (key, read, encode) in FIELDS.items():
        put(entry, key, canon[field], read, encode)
    return entry


def write_entries(base: list | None, canon: list[dict]) -> list[dict]:
    """Native entries for the canonical ones, each written over the escrowed entry of its uid."""
    old = [entry for entry in base if isinstance(entry, dict)] if isinstance(base, list) else []
    by_uid: dict[str, dict] = {}
    for entry, uid in zip(old, uids_of(old)):
        by_uid.setdefault(str(uid), entry)
    entries = [write_entry(by_uid.get(str(entry["uid"])), entry) for entry in canon]
    for _ in range(len(entries) + 1):  # write an `id` only where the index would not read back as the uid
        wrong = [index for index, uid in enumerate(uids_of(entries)) if uid != canon[index]["uid"]]
        if not wrong:
            break
        for index in wrong:
            entries[index]["id"] = canon[index]["uid"]
    return entries


# Where an Agnai file keeps a memory book that Agnai's own search runs: the book file itself, the
# character file's `characterBook`, and its Tavern export's `data.character_book` (nativeToCharacterBook).
# (Agnai never imports the book of its V3 card export.)
_AGNAI_BOOKS = {"agnai.memory.json": (), "agnai.character.json": ("characterBook",)}
_AGNAI_CARD_BOOKS = {"agnai.tavern.json": ("data", "character_book")}
_SEARCH_CODES = frozenset(
    rule.code
    for rule in (
        ENTRY_PROBABILITY_NOT_ROLLED,
        ENTRY_KEY_NEVER_MATCHES,
        ENTRY_KEY_STRIPPED,
        ENTRY_KEY_FIRES_EVERYWHERE,
        ENTRY_KEY_WILDCARD,
        ENTRY_SECONDARY_KEYS_UNSEARCHED,
        ENTRY_CONSTANT_UNUSED,
    )
)
_ENTRY_AT = re.compile(r"/entries/(\d+)(?:/|$)")


def unrolled_from_agnai(losses: list[Loss], piece: Any, entries: list[dict]) -> list[Loss]:
    """`losses` without the unrolled probabilities, unmatched keywords, unsearched secondary keys and
    unused `constant` of the entries (`entries`, the canonical ones the losses point into) that are
    as the Agnai file the piece was read from held them (the entry of the same uid, unchanged):
    Agnai never rolled, matched, searched or read them there either, so writing them back loses
    nothing. An entry edited or added since, or a book linked in from another file, keeps its losses."""
    then = {str(entry.get("uid")): entry for entry in _read_from_agnai(piece)}
    if not then:
        return losses
    unchanged = {index for index, now in enumerate(entries) if then.get(str(now.get("uid"))) == now}

    def kept(loss: Loss) -> bool:
        found = _ENTRY_AT.search(loss.pointer)
        return loss.code not in _SEARCH_CODES or found is None or int(found[1]) not in unchanged

    return [loss for loss in losses if kept(loss)]


def _read_from_agnai(piece: Any) -> list[dict]:
    """The canonical entries (JSON form) of the memory book the piece's Agnai file holds, as read."""
    original = piece.original
    if original is None or not isinstance(original.document, dict):
        return []
    if original.format in _AGNAI_CARD_BOOKS:
        book = _at(original.document, _AGNAI_CARD_BOOKS[original.format])
        entries = read_book(book)[0]["entries"] if isinstance(book, dict) else []
    elif original.format in _AGNAI_BOOKS:
        book = _at(original.document, _AGNAI_BOOKS[original.format])
        raw = book.get("entries") if isinstance(book, dict) else None
        natives = [entry for entry in raw if isinstance(entry, dict)] if isinstance(raw, list) else []
        entries = [read_entry(entry) | {"uid": uid} for entry, uid in zip(natives, uids_of(natives))]
    else:
        return []
    return [LoreEntry.model_validate(entry).model_dump(mode="json") for entry in entries]


def _at(document: dict, path: tuple[str, ...]) -> Any:
    for key in path:
        document = document.get(key) if isinstance(document, dict) else None
    return document


def entry_losses(entries: list[dict], pointer: str, carried: frozenset[str], where: str) -> list[Loss]:
    """Every canonical entry value Agnai does not keep, one Loss each.

    `carried` names the entry fields the crossing keeps; `where` says who drops the rest
    ("an Agnai memory book", "Agnai's import of the card's book").
    """
    default = LoreEntry().model_dump(mode="json")
    losses: list[Loss] = []
    for index, entry in enumerate(entries):
        at = f"{pointer}/{index}"
        for field, value in entry.items():
            if field == "uid" or field in carried or value == default[field]:
                continue
            if field == "extensions":
                losses.append(ENTRY_EXTENSIONS_DROPPED.at(f"{at}/extensions", f"{where} has no entry extensions"))
            elif field == "case_sensitive":
                why = f"{where} has no case sensitivity per entry"
                losses.append(ENTRY_CASE_SENSITIVE_DROPPED.at(f"{at}/case_sensitive", why))
            else:
                losses.append(ENTRY_NOT_CARRIED.at(f"{at}/{field}", f"{where} has no {field}"))
        if "position" in carried and entry["position"] not in ("before_char", "after_char"):
            why = f"{where} places entries only before or after the character; {entry['position']} becomes after_char"
            losses.append(POSITION_COLLAPSED.at(f"{at}/position", why))
        if "probability" in carried and entry["use_probability"] and entry["probability"] < 100:
            why = (
                f"{where} keeps the probability ({entry['probability']}%) but Agnai never rolls it "
                "(common/memory.ts): the entry is inserted whenever its keywords match"
            )
            losses.append(ENTRY_PROBABILITY_NOT_ROLLED.at(f"{at}/probability", why))
        if {"selective", "secondary_keys"} <= carried and entry["selective"] and entry["secondary_keys"]:
            why = (
                f"{where} keeps the secondary keys but Agnai never searches them: the entry fires on its keywords alone"
            )
            losses.append(ENTRY_SECONDARY_KEYS_UNSEARCHED.at(f"{at}/secondary_keys", why))
        if "constant" in carried and entry["constant"]:
            fires = "only when one of its keywords matches" if entry["keys"] else "never: it has no keyword"
            why = f"{where} keeps `constant` but Agnai's memory search never reads it: the entry is inserted {fires}"
            losses.append(ENTRY_CONSTANT_UNUSED.at(f"{at}/constant", why))
        losses += _key_losses(entry, at, carried)
    return losses


def _key_losses(entry: dict, at: str, carried: frozenset[str]) -> list[Loss]:
    """Regex keys, and the primary keywords Agnai's search cannot find (secondary keys go unsearched)."""
    losses: list[Loss] = []
    for kind in ("keys", "secondary_keys"):
        for k, key in enumerate(entry[kind] if kind in carried else []):
            if key["regex"]:
                losses.append(ENTRY_REGEX_KEY.at(f"{at}/{kind}/{k}"))
            elif kind == "keys" and never_matches(key["text"]):
                losses.append(ENTRY_KEY_NEVER_MATCHES.at(f"{at}/{kind}/{k}"))
            elif kind == "keys" and fires_everywhere(key["text"]):
                losses.append(ENTRY_KEY_FIRES_EVERYWHERE.at(f"{at}/{kind}/{k}"))
            elif kind == "keys" and fires_between_words(key["text"]):
                losses.append(ENTRY_KEY_FIRES_EVERYWHERE.at(f"{at}/{kind}/{k}", _BETWEEN_WORDS))
            elif kind == "keys" and stripped_misses(key["text"]):
                losses.append(ENTRY_KEY_STRIPPED.at(f"{at}/{kind}/{k}"))
            elif kind == "keys" and wildcard_misses(key["text"]):
                losses.append(ENTRY_KEY_WILDCARD.at(f"{at}/{kind}/{k}"))
    return losses
