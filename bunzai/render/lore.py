"""Lorebook activation over a chat, as SillyTavern's world info does it, with reasons.

For each entry the result says whether it fired and why (constant, which key matched in
which text, the secondary-key logic, recursion step) or why not (disabled, no key in the
scanned messages, secondary logic, failed probability roll, lost its group, over budget).

Modelled: keys and secondary keys with the four selective logics, regex keys (run in the
embedded ECMAScript engine of bunzai.regexlab), case-sensitivity and whole-word matching,
scan depth (entry, then book, then SillyTavern's default of 2), the extra scan sources
(persona, description ...), recursion (off unless the book turns it on, as SillyTavern's default) with
exclude/prevent/delay-until-recursion,
constant entries, `delay`, insertion order and position, the token budget, probability
rolled from the seed, and inclusion groups (override, weight, group scoring).
Not modelled: sticky and cooldown (they need the chat's timed-effect history), vector
activation, min_activations, character filters (no library of tags), generation-type
triggers other than `normal`. Entries relying on those are marked so in their reason.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

from bunzai import limits
from bunzai.adapters.common.js_regex import JS_SPACE
from bunzai.errors import BunzaiError
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

    def matches(self, key: dict, text: str) -> bool:
        source = key.get("text") or ""
        if not source:  # SillyTavern skips an empty key (`substituted && ...`), not a blank one
            return False
        if key.get("regex"):
            return _regex_test(source, key.get("flags") or "", text)
        # A key of only spaces trims to "", which every text holds (`includes("")`); with whole
        # words, every text with a \W beside another \W or the text's start or end.
        needle = source.strip(JS_SPACE)
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


def activate(
    books: list[dict],
    chat: list[dict],
    *,
    seed: int = 0,
    substitute: Callable[[str], str] = lambda s: s,
    extra_sources: dict[str, str] | None = None,
    max_context: int | None = None,
    include_names: dict[str, str] | None = None,
) -> LoreResult:
    """Which entries of `books` ({id, body}) the chat activates, and why each did or did not.

    `chat` is oldest first ({role, name, content}); `substitute` evaluates macros in keys;
    `extra_sources` holds the texts the match_* options add (persona, description ...).
    """
    extra_sources = extra_sources or {}
    context = max_context or limits.RENDER_DEFAULT_CONTEXT
    budget_setting = next(
        (
            b["body"].get("settings", {}).get("token_budget")
            for b in books
            if b["body"].get("settings", {}).get("token_budget")
        ),
        None,
    )
    budget = budget_setting or context * limits.RENDER_WI_BUDGET_PERCENT // 100
    result = LoreResult(budget=budget)
    rows: list[dict] = []
    for book in books:
        settings = book["body"].get("settings") or {}
        for entry in book["body"].get("entries") or []:
            rows.append({"book": book["id"], "entry": entry, "settings": settings})

    verdicts: dict[tuple[str, str], dict] = {}
    active: list[dict] = []
    for row in rows:
        entry = row["entry"]
        key = (row["book"], str(entry.get("uid")))
        verdict = {
            "book": row["book"],
            "uid": entry.get("uid"),
            "title": entry.get("title", ""),
            "position": entry.get("position", "before_char"),
            "order": entry.get("order", 100),
            "fired": False,
        }
        verdicts[key] = verdict
        if not entry.get("enabled", True):
            verdict["reason"] = "disabled"
            continue
        if entry.get("vectorized") and not entry.get("constant"):
            verdict["reason"] = "vector activation is not simulated"
            continue
        if entry.get("delay") and len(chat) < entry["delay"]:
            verdict["reason"] = f"delay: the chat has {len(chat)} messages, fewer than {entry['delay']}"
            continue
        triggers = entry.get("triggers") or []
        if triggers and "normal" not in triggers:
            verdict["reason"] = f"triggers {triggers} exclude a normal generation"
            continue
        if entry.get("constant"):
            verdict["why"] = "constant"
            active.append(row)
            continue
        if entry.get("delay_until_recursion"):
            verdict["reason"] = "waits for recursion"
            row["pending"] = True
            continue
        why = _scan(row, _buffer(row, chat, extra_sources, include_names), substitute)
        if why is None:
            verdict["reason"] = "no key found in the scanned text" if entry.get("keys") else "no keys"
            if _scan_depth(row) <= 0:
                verdict["reason"] = "scan depth 0: SillyTavern scans an empty text for it, not even its sources"
            continue
        verdict["why"] = why
        active.append(row)

    # Recursion: activated content may activate more entries.
    # SillyTavern's recursion is off unless turned on (world_info_recursive defaults to false).
    recursive = any(r["settings"].get("recursive_scanning") is True for r in rows)
    steps = 0
    frontier = [r for r in active if not r["entry"].get("prevent_recursion")]
    max_steps = (
        min((r["settings"].get("max_recursion_steps") or limits.RENDER_RECURSION_MAX) for r in rows) if rows else 0
    )
    # Each step rescans an entry's whole buffer, the chat and its sources with the content every
    # activation so far added to it (WorldInfoBuffer.addRecurse), as SillyTavern does.
    recursed: list[str] = []
    while recursive and frontier and steps < max_steps:
        steps += 1
        # one block per step, its entries joined by a plain newline (checkWorldInfo's addRecurse)
        recursed.append("\n".join(substitute(r["entry"].get("content") or "") for r in frontier))
        frontier = []
        for row in rows:
            entry = row["entry"]
            verdict = verdicts[(row["book"], str(entry.get("uid")))]
            if row in active or entry.get("exclude_recursion") or "why" in verdict:
                continue
            if verdict.get("reason") not in ("no key found in the scanned text", "waits for recursion"):
                continue
            level = entry.get("delay_until_recursion")
            if isinstance(level, int) and not isinstance(level, bool) and level > steps:
                continue
            why = _scan(row, _buffer(row, chat, extra_sources, include_names, recursed), substitute)
            if why is None:
                continue
            verdict.pop("reason", None)
            verdict["why"] = f"recursion step {steps}: {why}"
            active.append(row)
            if not entry.get("prevent_recursion"):
                frontier.append(row)

    active = _probability(active, verdicts, seed)
    active = _groups(active, verdicts, seed)

    # Budget: constants first, then by order, highest first; over-budget entries are dropped.
    ranked = sorted(active, key=lambda r: (not r["entry"].get("constant"), -int(r["entry"].get("order", 100))))
    used = 0
    kept = []
    for row in ranked:
        entry = row["entry"]
        content = substitute(entry.get("content") or "")
        tokens = estimate_tokens(content)
        verdict = verdicts[(row["book"], str(entry.get("uid")))]
        if used + tokens > budget and not entry.get("ignore_budget"):
            verdict["reason"] = f"over the budget: {tokens} tokens with {used} of {budget} used"
            continue
        used += tokens
        verdict["fired"] = True
        verdict["tokens"] = tokens
        kept.append((row, content))
    result.used = used
    # Insertion: by order, lower first (higher order is placed later, closer to the end).
    for row, content in sorted(kept, key=lambda rc: int(rc[0]["entry"].get("order", 100))):
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
                "content": content,
            }
        )
    for verdict in verdicts.values():
        if "why" in verdict and not verdict["fired"] and "reason" not in verdict:
            verdict["reason"] = "dropped"
    result.entries = list(verdicts.values())
    return result


def _scan_depth(row: dict) -> int:
    entry, settings = row["entry"], row["settings"]
    for value in (entry.get("scan_depth"), settings.get("scan_depth")):
        if value is not None:
            return int(value)
    return limits.RENDER_DEFAULT_SCAN_DEPTH


_MATCHER = "\x01"


_JOINER = "\n" + _MATCHER


def _buffer(
    row: dict,
    chat: list[dict],
    extra: dict[str, str],
    include_names: dict[str, str] | None,
    recursed: list[str] | None = None,
) -> dict[str, str]:
    """The texts an entry's keys are matched against: the chat, the extra sources its match_*
    options add, and (in a recursion step) the content of the entries activated so far, one
    block per step. Scan depth 0 scans '': WorldInfoBuffer.get returns it before it adds any
    source."""
    depth = _scan_depth(row)
    if depth <= 0:  # the keys are still tested, against '': a blank key or /a*/ fires
        return {"chat": ""}
    names = row["settings"].get("include_names") is not False
    recent = chat[-depth:]
    lines = []
    for message in reversed(recent):  # SillyTavern scans newest first
        name = message.get("name") or (include_names or {}).get(message.get("role", ""), "")
        lines.append(f"{name}: {message.get('content', '')}" if names and name else message.get("content", ""))
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


def _scan(row: dict, texts: dict[str, str], substitute: Callable[[str], str]) -> str | None:
    entry, settings = row["entry"], row["settings"]
    case = entry.get("case_sensitive")
    case = settings.get("case_sensitive") if case is None else case
    whole = entry.get("match_whole_words")
    whole = settings.get("match_whole_words") if whole is None else whole
    matcher = _Matcher(bool(case), bool(whole))

    def found(key: dict) -> str | None:
        key = dict(key, text=substitute(key.get("text") or ""))
        for where, text in texts.items():
            if matcher.matches(key, text):
                return where
        return None

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


def _probability(active: list[dict], verdicts: dict, seed: int) -> list[dict]:
    kept = []
    for row in active:
        entry = row["entry"]
        chance = entry.get("probability", 100)
        if entry.get("use_probability", True) and chance < 100:
            roll = _rng(seed, "probability", row["book"], entry.get("uid")).randint(1, 100)
            verdict = verdicts[(row["book"], str(entry.get("uid")))]
            if roll > chance:
                verdict["reason"] = f"failed its probability roll ({roll} > {chance}, seed {seed})"
                continue
            verdict["why"] += f"; probability roll {roll} <= {chance}"
        kept.append(row)
    return kept


def _groups(active: list[dict], verdicts: dict, seed: int) -> list[dict]:
    groups: dict[str, list[dict]] = {}
    for row in active:
        for name in (row["entry"].get("group") or {}).get("names") or []:
            groups.setdefault(name, []).append(row)
    losers: set[int] = set()
    for name, members in sorted(groups.items()):
        members = [m for m in members if id(m) not in losers]
        if len(members) < 2:
            continue
        overrides = [m for m in members if (m["entry"].get("group") or {}).get("override")]
        if overrides:
            winner = max(overrides, key=lambda m: int(m["entry"].get("order", 100)))
            how = "prioritized, highest order"
        else:
            weights = [max(int((m["entry"].get("group") or {}).get("weight", 100)), 0) for m in members]
            rng = _rng(seed, "group", name)
            winner = rng.choices(members, weights=weights or None)[0] if sum(weights) else members[0]
            how = f"weighted draw (seed {seed})"
        for member in members:
            if member is not winner:
                losers.add(id(member))
                verdicts[(member["book"], str(member["entry"].get("uid")))]["reason"] = (
                    f"lost inclusion group {name!r} to uid {winner['entry'].get('uid')} ({how})"
                )
    return [r for r in active if id(r) not in losers]
