"""Lorebook activation over a chat, as SillyTavern's world info does it, with reasons.

For each entry the result says whether it fired and why (constant, which key matched in
which text, the secondary-key logic, recursion step) or why not (disabled, no key in the
scanned messages, secondary logic, failed probability roll, lost its group, over budget).

Modelled, pass by pass as SillyTavern's checkWorldInfo loop runs: keys and secondary keys with
the four selective logics, regex keys (run in the embedded ECMAScript engine of
bunzai.regexlab), case-sensitivity and whole-word matching against one scan string, scan depth
(entry, then book, then SillyTavern's default of 2), the extra scan sources (persona,
description ...), recursion (on unless a book turns it off, as a new SillyTavern user's settings) with
exclude/prevent recursion and delay-until-recursion levels, constant entries, `delay`,
insertion order and position, the token budget, probability rolled from the seed,
inclusion groups (override, weight, key-match scoring) in each pass, and min activations.
Not modelled: sticky and cooldown (they need the chat's timed-effect history), vector
activation (a vectorized entry is matched on its keys, as SillyTavern's loop matches it),
tag filters (no library of tags; a character filter's names are tested), generation-type
triggers other than `normal`. Entries relying on those are marked so in their reason.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bunzai import limits
from bunzai.adapters.common.decorators import st_parse
from bunzai.errors import BunzaiError
from bunzai.jstext import JS_WHITESPACE as JS_SPACE
from bunzai.regexlab import engine


def estimate_tokens(text: str) -> int:
    """ceil(UTF-8 bytes / 3.35), SillyTavern's fallback when no tokenizer runs (guesstimate)."""
    return math.ceil(len(text.encode("utf-8", "surrogatepass")) / limits.RENDER_BYTES_PER_TOKEN) if text else 0


@dataclass
class LoreResult:
    fired: list[dict] = field(default_factory=list)  # in insertion order: {book, uid, position, order, content ...}
    entries: list[dict] = field(default_factory=list)  # every entry with its verdict and reason
    budget: int = 0
    used: int = 0

    def to_json(self) -> dict:
        return {
            "budget": self.budget,
            "used_tokens": self.used,
            "token_estimate": "UTF-8 bytes / 3.35",
            "entries": self.entries,
        }


def _rng(seed: int, *parts: Any) -> random.Random:
    digest = hashlib.sha256("\x00".join(str(p) for p in (seed, *parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class _Matcher:
    """Matches one key against a text the way SillyTavern does."""

    def __init__(self, case_sensitive: bool, whole_words: bool) -> None:
        self.case_sensitive = case_sensitive
        self.whole_words = whole_words

    def matches(self, key: dict, text: str, *, trim: bool = True) -> bool:
        source = key.get("text") or ""
        if not source:  # SillyTavern skips an empty key (`substituted && ...`), not a blank one
            return False
        if key.get("regex"):
            return _regex_test(source, key.get("flags") or "", text)
        # A key of only spaces trims to "", which every text holds (`includes("")`); with whole
        # words, every text with a \W beside another \W or the text's start or end. (getScore
        # matches a key as written, untrimmed.)
        needle = source.strip(JS_SPACE) if trim else source
        haystack, needle = (text, needle) if self.case_sensitive else (text.lower(), needle.lower())
        # SillyTavern trims a key, then splits it on /\s+/ to tell a phrase from one word.
        if self.whole_words and not any(c in JS_SPACE for c in needle):
            # JavaScript's \W without the u flag is every character but [A-Za-z0-9_], so a CJK
            # key inside CJK text, or 'caf' in 'café', is a whole word to SillyTavern.
            return re.search(r"(?:^|\W)" + re.escape(needle) + r"(?:$|\W)", haystack, re.ASCII) is not None
        return needle in haystack


def _regex_test(pattern: str, flags: str, text: str) -> bool:
    try:
        answer = engine.call({"op": "test", "pattern": pattern, "flags": flags.replace("g", ""), "texts": [text]})
    except BunzaiError:
        return False
    return bool(answer.get("results", [False])[0]) if "error" not in answer else False


def regex_key_error(pattern: str, flags: str) -> str | None:
    """Why a regex key does not compile, or None."""
    answer = engine.call({"op": "compile", "pattern": pattern, "flags": flags})
    return answer.get("error")


# where a book comes from, in getSortedEntries' order (chat lore, which bunzai has no piece for, goes first there)
_RANKS = {"persona": 0, "character": 1}


def parse_decorators(content: str) -> tuple[list[str], str]:
    """(decorators, content without them) as SillyTavern's parseDecorators reads an entry
    (bunzai.adapters.common.decorators.st_parse, which the SillyTavern writers' losses read too)."""
    kept, text = st_parse(content)
    return [name for _index, name in kept], text


def activate(
    books: list[dict],
    chat: list[dict],
    *,
    seed: int = 0,
    substitute: Callable[[str], str] = lambda s: s,
    extra_sources: dict[str, str] | None = None,
    max_context: int | None = None,
    include_names: dict[str, str] | None = None,
    character_key: str | None = None,
) -> LoreResult:
    """Which entries of `books` ({id, body, scope}) the chat activates, and why each did or did not.
    `scope` is where SillyTavern takes a book from: "persona" (the persona's bound lorebook, scanned
    first), "character" (the character's links and embedded book, next), else the books given
    besides (its global lore, last).

    `chat` is oldest first ({role, name, content}); `substitute` evaluates macros in keys;
    `extra_sources` holds the texts the match_* options add (persona, description ...).

    The scan runs as SillyTavern's checkWorldInfo loop: each pass scans the entries not yet
    activated (a pass after the first is a recursion pass, when recursion is on or a delay level
    opens); of what it finds, inclusion groups keep one each, probability is rolled (a failed
    roll is final), and the budget is taken in sorted order (higher `order` first) until it
    overflows, after which no pass recurses. What a pass activated, except `prevent_recursion`
    entries, joins the scan text of the next pass.
    """
    extra_sources = extra_sources or {}
    context = limits.RENDER_DEFAULT_CONTEXT if max_context is None else max_context
    budget_setting = next(
        (
            b["body"].get("settings", {}).get("token_budget")
            for b in books
            if b["body"].get("settings", {}).get("token_budget")
        ),
        None,
    )
    # Math.round(world_info_budget * maxContext / 100) || 1, as checkWorldInfo takes it: a room of
    # zero or less gives a budget of 1 or less, which every entry but `ignore_budget` ones overflows
    budget = budget_setting or math.floor(context * limits.RENDER_WI_BUDGET_PERCENT / 100 + 0.5) or 1
    result = LoreResult(budget=budget)
    rows: list[dict] = []
    for book in books:
        settings = book["body"].get("settings") or {}
        for entry in book["body"].get("entries") or []:
            decorators, text = parse_decorators(entry.get("content") or "")
            rows.append(
                {
                    "book": book["id"],
                    "entry": entry,
                    "settings": settings,
                    "rank": _RANKS.get(book.get("scope"), 2),
                    "decorators": decorators,
                    "text": text,
                }
            )
    verdicts: dict[int, dict] = {}  # in the books' order
    candidates: list[dict] = []  # the rows a pass may activate
    for row in rows:
        entry = row["entry"]
        verdict = {
            "book": row["book"],
            "uid": entry.get("uid"),
            "title": entry.get("title", ""),
            "position": entry.get("position", "before_char"),
            "order": entry.get("order", 100),
            "fired": False,
        }
        verdicts[id(row)] = verdict
        if not entry.get("enabled", True):
            verdict["reason"] = "disabled"
        elif _filtered_out(entry, character_key):
            verdict["reason"] = _filtered_out(entry, character_key)
        elif entry.get("delay") and len(chat) < entry["delay"]:
            verdict["reason"] = f"delay: the chat has {len(chat)} messages, fewer than {entry['delay']}"
        elif (entry.get("triggers") or []) and "normal" not in entry["triggers"]:
            verdict["reason"] = f"triggers {entry['triggers']} exclude a normal generation"
        else:
            verdict["reason"] = "waits for recursion" if entry.get("delay_until_recursion") else _NOT_FOUND
            candidates.append(row)
    # getSortedEntries: the persona's lore, then, with SillyTavern's default strategy (character_first),
    # the character's and the other books' (global lore), each higher order first
    candidates.sort(key=lambda r: (r["rank"], -_order(r["entry"])))

    # SillyTavern recurses unless turned off: a new user's settings (default/content/settings.json)
    # set world_info_recursive true (world-info.js's own fallback is false). A book that says
    # recursive_scanning false turns it off here.
    recursive = not any(r["settings"].get("recursive_scanning") is False for r in rows)
    # max_recursion_steps counts every pass, the first too (SillyTavern's `count`); 0 is unlimited,
    # bounded here by RENDER_RECURSION_MAX recursion passes. The smallest a book sets wins.
    limit = min(
        (r["settings"]["max_recursion_steps"] for r in rows if r["settings"].get("max_recursion_steps")), default=0
    )
    limit = limit or limits.RENDER_RECURSION_MAX + 1
    # Delay-until-recursion levels (true is level 1): the lowest opens with the first recursion
    # pass, each next one when a pass would end the scan.
    levels = sorted({_level(r["entry"]) for r in rows if r["entry"].get("delay_until_recursion")})
    level = levels.pop(0) if levels else 0
    activated: list[dict] = []
    done: set[int] = set()  # the rows activated or failed for good: no pass scans them again
    failed: set[int] = set()
    recursed: list[str] = []  # the recursion buffer: one block per pass
    activated_text = ""  # what the budget counts besides this pass's entries
    overflowed = False
    passes = 0
    recursion = False
    # min_activations (the largest a book sets, standing for SillyTavern's global one): when the scan
    # would end with fewer entries activated, it scans again one message deeper (buffer.advanceScan),
    # without the recursion buffer, while the depth is within the chat
    minimum = max((r["settings"].get("min_activations") or 0 for r in rows), default=0)
    base_depth = next(
        (r["settings"]["scan_depth"] for r in rows if r["settings"].get("scan_depth") is not None),
        limits.RENDER_DEFAULT_SCAN_DEPTH,
    )
    skew = 0
    widening = False
    while True:
        if passes >= limit:
            break
        passes += 1
        found = []
        for row in candidates:
            if id(row) in done:
                continue
            entry = row["entry"]
            until = entry.get("delay_until_recursion")
            if until and (not recursion or _level(entry) > level):
                continue
            if recursion and recursive and entry.get("exclude_recursion"):
                continue
            texts = None  # the entry's scan text, built once a key scan or a group score needs it
            if "@@activate" in row["decorators"]:
                why = "@@activate decorator"
            elif "@@dont_activate" in row["decorators"]:
                verdicts[id(row)]["reason"] = "@@dont_activate decorator"
                continue
            elif entry.get("constant"):
                why = "constant"
            else:
                texts = _buffer(row, chat, extra_sources, include_names, None if widening else recursed, skew)
                why = _scan(row, texts, substitute)
                if why is None:
                    if not entry.get("keys"):
                        verdicts[id(row)]["reason"] = "no keys"
                    elif _scan_depth(row, skew) <= 0:
                        verdicts[id(row)]["reason"] = (
                            "scan depth 0: SillyTavern scans an empty text for it, not even its sources"
                        )
                    elif until:
                        verdicts[id(row)]["reason"] = _NOT_FOUND
                    continue
            if widening:
                why = f"min activations, scan depth {base_depth + skew}: {why}"
            elif passes > 1:
                why = f"recursion step {passes - 1}: {why}"
            verdicts[id(row)]["why"] = why
            if (entry.get("group") or {}).get("names"):  # what a scored inclusion group compares
                if texts is None:
                    texts = _buffer(row, chat, extra_sources, include_names, None if widening else recursed, skew)
                row["score"] = _score(row, texts)
            found.append(row)
        found = _groups(found, activated, verdicts, seed)
        new_content = ""
        for row in found:  # in the sorted order: higher `order` takes the budget first
            entry = row["entry"]
            verdict = verdicts[id(row)]
            if overflowed and not entry.get("ignore_budget"):
                verdict.pop("why", None)
                verdict["reason"] = f"over the budget of {budget} tokens"
                continue
            if not _rolled(row, verdict, seed):
                failed.add(id(row))
                done.add(id(row))
                continue
            content = substitute(row["text"])
            row["content"] = content
            new_content += content + "\n"
            if (
                not entry.get("ignore_budget")
                and estimate_tokens(activated_text) + estimate_tokens(new_content) >= budget
            ):
                overflowed = True
                verdict.pop("why", None)
                verdict["reason"] = f"over the budget of {budget} tokens"
                continue
            verdict.pop("reason", None)
            activated.append(row)
            done.add(id(row))
        survivors = [r for r in found if id(r) not in failed]
        feeding = [r for r in survivors if not r["entry"].get("prevent_recursion")]
        recursion = recursive and not overflowed and bool(feeding)
        # after a widening pass, a recursion buffer from before is scanned again first
        recursion = recursion or (recursive and not overflowed and widening and bool(recursed))
        widening = False
        if not recursion and not overflowed and len(activated) < minimum and base_depth + skew <= len(chat):
            widening, skew = True, skew + 1
        if not recursion and not widening and levels:
            recursion, level = True, levels.pop(0)
        if not recursion and not widening:
            break
        # (an entry the overflow skipped feeds its content as written: SillyTavern fills macros at the roll)
        text = "\n".join(r["content"] if "content" in r else r["text"] for r in feeding)
        if text:
            recursed.append(text)
            activated_text = text + "\n" + activated_text

    used = 0
    for row in activated:
        verdict = verdicts[id(row)]
        verdict["fired"] = True
        verdict["tokens"] = estimate_tokens(row["content"])
        used += verdict["tokens"]
    result.used = used
    # Insertion: by order, lower first (higher order is placed later, closer to the end). SillyTavern
    # sorts the activated entries higher order first and unshifts each into its list, so among equal
    # orders the one activated later comes first.
    for row in sorted(reversed(activated), key=lambda r: _order(r["entry"])):
        entry = row["entry"]
        result.fired.append(
            {
                "book": row["book"],
                "uid": entry.get("uid"),
                "position": entry.get("position", "before_char"),
                "order": entry.get("order", 100),
                "depth": entry.get("depth", 4),
                "role": entry.get("role", "system"),
                "outlet": entry.get("outlet", ""),
                "content": row["content"],
            }
        )
    for row in rows:  # checkWorldInfo matches a vectorized entry's keys too; the vector search is not run here
        verdict = verdicts[id(row)]
        if row["entry"].get("vectorized") and not verdict["fired"] and verdict.get("reason") == _NOT_FOUND:
            verdict["reason"] = f"{_NOT_FOUND} (its vector activation is not simulated)"
    result.entries = list(verdicts.values())
    return result


_NOT_FOUND = "no key found in the scanned text"


def _order(entry: dict) -> int:
    return int(entry.get("order", 100))


def _level(entry: dict) -> int:
    """An entry's delay-until-recursion level: `true` is 1, a number its own level."""
    until = entry.get("delay_until_recursion")
    return 1 if until is True else int(until)


def _scan_depth(row: dict, skew: int = 0) -> int:
    """The entry's own scan depth, else the book's (or SillyTavern's default) widened by `skew`
    messages (min activations' advanceScan)."""
    entry, settings = row["entry"], row["settings"]
    if entry.get("scan_depth") is not None:
        return int(entry["scan_depth"])
    book = settings.get("scan_depth")
    return (limits.RENDER_DEFAULT_SCAN_DEPTH if book is None else int(book)) + skew


_MATCHER = "\x01"


_JOINER = "\n" + _MATCHER


def _buffer(
    row: dict,
    chat: list[dict],
    extra: dict[str, str],
    include_names: dict[str, str] | None,
    recursed: list[str] | None = None,
    skew: int = 0,
) -> dict[str, str]:
    """The texts an entry's keys are matched against: the chat, the extra sources its match_*
    options add, and (in a recursion step) the content of the entries activated so far, one
    block per step. Scan depth 0 scans '': WorldInfoBuffer.get returns it before it adds any
    source."""
    depth = _scan_depth(row, skew)
    if depth <= 0:  # the keys are still tested, against '': a blank key or /a*/ fires
        return {"chat": ""}
    names = row["settings"].get("include_names") is not False
    recent = chat[-depth:]
    lines = []
    for message in reversed(recent):  # SillyTavern scans newest first
        name = message.get("name") or (include_names or {}).get(message.get("role", ""), "")
        line = f"{name}: {message.get('content', '')}" if names and name else message.get("content", "")
        lines.append(line.strip(JS_SPACE))  # WorldInfoBuffer trims each message
    # SillyTavern's scan buffer (WorldInfoBuffer.get) puts its MATCHER, \x01, before the newest
    # message and after the newline that joins each older one, and each source it adds (persona,
    # description ...) joins the same way: `^` never meets a message's first word, `.` stops at a
    # message's end, and a whole-word key always has a \W before it.
    texts = {"chat": _MATCHER + _JOINER.join(lines)}
    entry = row["entry"]
    for flag, source in (
        ("match_persona_description", "persona"),
        ("match_character_description", "description"),
        ("match_character_personality", "personality"),
        ("match_character_depth_prompt", "depth_prompt"),
        ("match_scenario", "scenario"),
        ("match_creator_notes", "creator_notes"),
    ):
        if entry.get(flag) and extra.get(source):
            texts[source] = _MATCHER + extra[source]
    if recursed:  # the recursion buffer joins the same string after the sources
        texts["recursion"] = _MATCHER + _JOINER.join(recursed)
    return texts


def _matcher(row: dict) -> _Matcher:
    entry, settings = row["entry"], row["settings"]
    case = entry.get("case_sensitive")
    case = settings.get("case_sensitive") if case is None else case
    whole = entry.get("match_whole_words")
    whole = settings.get("match_whole_words") if whole is None else whole
    whole = True if whole is None else whole  # a new SillyTavern user's world_info_match_whole_words
    return _Matcher(bool(case), bool(whole))


def _joined(texts: dict[str, str]) -> str:
    parts = list(texts.values())
    return parts[0] + "".join("\n" + text for text in parts[1:])


def _score(row: dict, texts: dict[str, str]) -> int:
    """WorldInfoBuffer.getScore: how many of the entry's keys its scan text holds (keys as written,
    macros not filled, an empty one counting as found); secondary keys add theirs under AND ANY,
    and under AND ALL when all hold; no primary key scores 0."""
    entry = row["entry"]
    matcher, scanned = _matcher(row), _joined(texts)
    keys, secondary = entry.get("keys") or [], entry.get("secondary_keys") or []
    if not keys:
        return 0

    def holds(key: dict) -> bool:
        return not key.get("text") or matcher.matches(key, scanned, trim=False)

    primary = sum(holds(key) for key in keys)
    hits = sum(holds(key) for key in secondary)
    logic = entry.get("selective_logic", "and_any")
    if secondary and (logic == "and_any" or (logic == "and_all" and hits == len(secondary))):
        return primary + hits
    return primary


def _scan(row: dict, texts: dict[str, str], substitute: Callable[[str], str]) -> str | None:
    """Why the entry's keys hold in its scan text, or None. SillyTavern matches each key against
    one string (the chat, then the sources, then the recursion buffer, each after `\n\x01`);
    the reason names the part that holds the match, or the scan text when a match runs across
    parts."""
    entry = row["entry"]
    matcher = _matcher(row)
    parts = list(texts.items())
    scanned = _joined(texts)

    def found(key: dict) -> str | None:
        key = dict(key, text=substitute(key.get("text") or ""))
        if not matcher.matches(key, scanned):
            return None
        return next((where for where, text in parts if matcher.matches(key, text)), "the scan text")

    primary = None
    for key in entry.get("keys") or []:
        where = found(key)
        if where is not None:
            primary = f"key {key.get('text')!r} in {where}"
            break
    if primary is None:
        return None
    secondary = entry.get("secondary_keys") or []
    if not entry.get("selective", True) or not secondary:
        return primary
    logic = entry.get("selective_logic", "and_any")
    hits = [found(k) is not None for k in secondary]
    ok = {"and_any": any(hits), "and_all": all(hits), "not_any": not any(hits), "not_all": not all(hits)}[logic]
    if not ok:
        return None
    return f"{primary}; secondary keys ({logic}) hold"


def _rolled(row: dict, verdict: dict, seed: int) -> bool:
    """The entry's probability roll, from the seed (SillyTavern draws Math.random); a failed roll
    is final for the whole scan."""
    entry = row["entry"]
    chance = entry.get("probability", 100)
    if not entry.get("use_probability", True) or chance >= 100:
        return True
    roll = _rng(seed, "probability", row["book"], entry.get("uid")).randint(1, 100)
    if roll > chance:
        verdict.pop("why", None)
        verdict["reason"] = f"failed its probability roll ({roll} > {chance}, seed {seed})"
        return False
    verdict["why"] += f"; probability roll {roll} <= {chance}"
    return True


def _filtered_out(entry: dict, character_key: str | None) -> str | None:
    """Why the entry's character filter keeps it out for the character SillyTavern knows by
    `character_key` (getCharaFilename: its avatar file's name without the extension), or None.
    A tag filter is not tested: SillyTavern's tags live in its tag map, not in the card."""
    chosen = entry.get("character_filter") or {}
    names = chosen.get("names") or []
    if not names or character_key is None:
        return None
    if chosen.get("exclude"):
        return f"character filter: excludes {character_key!r}" if character_key in names else None
    return None if character_key in names else f"character filter: only for {', '.join(names)}, not {character_key!r}"


def _scored(row: dict) -> bool:
    own = (row["entry"].get("group") or {}).get("use_group_scoring")
    return bool(row["settings"].get("use_group_scoring") if own is None else own)


def _groups(found: list[dict], activated: list[dict], verdicts: dict, seed: int) -> list[dict]:
    """A pass's finds with one entry kept of each inclusion group, as filterByInclusionGroups keeps
    them: first every scored group drops its members below its best key-match score; then each
    group in turn keeps none if an earlier pass activated it, else its highest-order prioritized
    member, else a weighted draw from the seed. A loser is only left out of this pass.

    An entry in several groups stays in each group's draw even once another group has dropped it,
    and can win there (it stays out, and the rest of that group loses to it). Dropping an entry a
    second time is SillyTavern's `newEntries.splice(newEntries.indexOf(entry), 1)` with an index of
    -1, which drops the pass's last find instead: that is done here too, and said."""
    groups: dict[str, list[dict]] = {}
    for row in found:
        for name in (row["entry"].get("group") or {}).get("names") or []:
            groups.setdefault(name, []).append(row)
    if not groups:
        return found
    kept = list(found)  # newEntries, in the pass's sorted order

    def drop(member: dict, why: str) -> None:
        at = next((i for i, row in enumerate(kept) if row is member), -1)
        if at == -1:  # splice(-1, 1): the last find goes instead
            if not kept:
                return
            member, why = (
                kept[-1],
                (
                    f"left out by SillyTavern's inclusion-group bookkeeping: uid {member['entry'].get('uid')}, "
                    "dropped a second time, takes the pass's last find with it"
                ),
            )
            at = len(kept) - 1
        del kept[at]
        verdict = verdicts[id(member)]
        verdict.pop("why", None)
        if not verdict.get("reason", "").startswith("lost inclusion group"):  # the first draw says most
            verdict["reason"] = why

    names = sorted(groups, key=_js_key_order)  # the order a JavaScript object lists its keys in
    for name in names:
        # filterGroupsByScoring: where scoring is on (the entry's own setting, else its book's,
        # standing for SillyTavern's global one), a scored member below the group's best loses
        members = groups[name]
        if any(_scored(m) for m in members):
            best = max(m.get("score", 0) for m in members)
            for member in [m for m in members if _scored(m) and m.get("score", 0) < best]:
                drop(member, f"lost inclusion group {name!r} on key-match score ({member.get('score', 0)} < {best})")
                groups[name] = members = [m for m in members if m is not member]
    for name in names:
        members = groups[name]
        earlier = next((r for r in activated if ((r["entry"].get("group") or {}).get("names") or []) == [name]), None)
        if earlier is not None:  # SillyTavern compares the whole group field with the name
            for member in members:
                drop(member, f"inclusion group {name!r} already fired (uid {earlier['entry'].get('uid')})")
            continue
        if len(members) < 2:
            continue
        overrides = [m for m in members if (m["entry"].get("group") or {}).get("override")]
        if overrides:
            winner = max(overrides, key=lambda m: _order(m["entry"]))
            how = "prioritized, highest order"
        else:
            weights = [max(int((m["entry"].get("group") or {}).get("weight", 100)), 0) for m in members]
            rng = _rng(seed, "group", name)
            winner = rng.choices(members, weights=weights or None)[0] if sum(weights) else members[0]
            how = f"weighted draw (seed {seed})"
        for member in members:
            if member is not winner:
                drop(member, f"lost inclusion group {name!r} to uid {winner['entry'].get('uid')} ({how})")
    return kept


def _js_key_order(name: str) -> tuple:
    """A JavaScript object lists keys that are array indices first, ascending, then the rest as
    they were added (sorted() keeps that order among equals)."""
    index = re.fullmatch(r"0|[1-9][0-9]*", name) is not None and int(name) < 2**32 - 1
    return (0, int(name)) if index else (1, 0)
