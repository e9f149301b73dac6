"""`lint`: a whole regex set checked rule by rule, in the engine, with nothing stored.

Findings, one kind each:

- `does_not_compile`: JavaScript refuses the pattern with its flags.
- `catastrophic_backtracking` / `out_of_time`: the pattern nests quantifiers and a crafted
  input ran out of time (confirmed, never guessed from the shape alone), or it ran out of
  time on an ordinary probe message.
- `never_matches`: an earlier rule, on the same texts, rewrites every sample this rule
  matches into text it no longer matches.
- `flag_does_nothing`: `i` with no letter, `m` with no anchor, `s` with no dot, `g` on a
  pattern anchored at the start without `m`, `d` in a replacement (but not alone on a RisuAI
  rule: RisuAI compiles no flags as `g`, so a lone `d` is how it replaces the first match only).
- `missing_group`: the replacement refers to a group the pattern does not have.
- `macro_not_expanded`: the pattern holds a macro (`{{char}}`) but the rule does not expand
  macros in it, so it looks for the macro's own text.
- `runs_on_nothing`: no placement, or a depth range no message is in.
- `order_not_a_number`: a RisuAI rule's `<order N>` where parseInt reads no number in N (NaN,
  which the sort counts equal to every order), or another number than N as written.

Rules run in the order their platform runs them: SillyTavern's in list order, RisuAI's by the
flag field's `<order N>`, highest first (run_order); a disabled rule is only checked for
compiling. A RisuAI rule's other flag tokens run as `try` runs them (its actions, the test-first
path, `<no_end_nl>`).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from functools import cmp_to_key
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.jstext import JS_WHITESPACE, js_parse_int, js_trim
from bunzai.regexlab import engine, probe, syntax


def platform_of_set(piece: dict) -> str:
    """The replacement convention a set's rules follow: RisuAI for sets read from RisuAI."""
    original = piece.get("original") or {}
    if str(original.get("format") or "").startswith("risu"):
        return "risuai"
    return "sillytavern"


def lint_set(piece: dict, names_macro: Callable[[str, str], bool] | None = None) -> dict[str, Any]:
    """{set, platform, rules, findings, clean} for a canonical regex piece (JSON form).

    `names_macro(platform, name)` tells a macro of the platform (`bunzai.macros.catalog.names_macro`,
    given by the caller: regex-lab stands below the macro catalogs); without it no pattern is
    checked for macros it does not expand."""
    if not isinstance(piece, dict) or piece.get("kind") != "regex":
        raise BunzaiError(
            "invalid_input", "lint reads a regex set", "name a regex piece or a SillyTavern/RisuAI regex file"
        )
    rules = [_as_run(rule) for rule in (piece.get("body") or {}).get("rules") or [] if isinstance(rule, dict)]
    if len(rules) > limits.REGEX_LINT_MAX_RULES:
        raise BunzaiError(
            "too_large",
            f"the set has {len(rules)} rules, over {limits.REGEX_LINT_MAX_RULES}",
            "split it into smaller sets",
        )
    platform = platform_of_set(piece)
    deadline = time.monotonic() + limits.REGEX_LINT_BUDGET_SECONDS
    findings: list[dict[str, Any]] = []
    compiled: dict[int, dict] = {}
    for index, rule in enumerate(rules):
        row = _Rule(index, rule)
        problems = probe.rule_problems(
            row.pattern,
            row.flags,
            seconds=limits.REGEX_LINT_PROBE_SECONDS,
            tries=limits.REGEX_PUMP_TRIES,
            deadline=deadline,
        )
        for problem in problems:
            extra = {"input": problem["input"]} if "input" in problem else {}
            findings.append(row.finding(problem["kind"], f"the pattern {problem['message']}", **extra))
        if platform == "risuai" and not row.disabled:  # sorted by, compiled or not
            findings += _order_findings(row)
        if problems or not row.pattern or row.disabled:
            continue
        answer = engine.call({"op": "compile", "pattern": row.pattern, "flags": row.flags})
        compiled[index] = answer["groups"]
        findings += _placement_findings(row)
        findings += _macro_findings(row, platform, names_macro) if names_macro else []
        findings += _flag_findings(row, platform)
        findings += _group_findings(row, answer["groups"], platform)
    findings += _shadow_findings(rules, compiled, platform, deadline)
    findings.sort(key=lambda f: (f["rule"], f["kind"]))
    return {
        "set": piece.get("id"),
        "platform": platform,
        "rules": len(rules),
        "findings": findings,
        "clean": not findings,
    }


def _as_run(rule: dict) -> dict:
    """The rule as it runs: a pattern whose macros are expanded first has a plain word for each."""
    if rule.get("substitute_macros") in ("raw", "escaped"):
        return dict(rule, pattern=probe.macros_as_words(str(rule.get("pattern") or "")))
    return rule


class _Rule:
    def __init__(self, index: int, rule: dict) -> None:
        self.index = index
        self.rule = rule
        self.pattern = str(rule.get("pattern") or "")
        self.flags = str(rule.get("flags") or "")
        self.disabled = bool(rule.get("disabled"))
        self.name = str(rule.get("name") or rule.get("id") or f"#{index}")

    def finding(self, kind: str, message: str, **extra: Any) -> dict[str, Any]:
        return {"rule": self.index, "name": self.name, "kind": kind, "message": message, **extra}


def _placement_findings(row: _Rule) -> list[dict]:
    rule, found = row.rule, []
    if not rule.get("placements"):
        found.append(row.finding("runs_on_nothing", "the rule has no placement, so it runs on no text"))
    low, high = rule.get("min_depth"), rule.get("max_depth")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        found.append(
            row.finding("runs_on_nothing", f"min_depth {low} is above max_depth {high}: no message is at such a depth")
        )
    return found


_JS_SPACE = "[" + re.escape(JS_WHITESPACE) + "]*"  # the engines skip JavaScript's whitespace, not Python's
_MACRO = re.compile(r"(?<!\\)\{\{" + _JS_SPACE + r"([^{}:]+?)" + _JS_SPACE + r"(?:::[^{}]*)?\}\}")
_SUBSTITUTE_SETTING = {
    "sillytavern": "'Macros in Find Regex' (substitute_macros escaped)",
    "risuai": "the <cbs> flag token (substitute_macros raw)",
}


def _macro_findings(row: _Rule, platform: str, names_macro: Callable[[str, str], bool]) -> list[dict]:
    """A macro in a pattern the platform compiles as written: it looks for the macro's own text."""
    if row.rule.get("substitute_macros") in ("raw", "escaped"):
        return []
    names = [m.group(0) for m in _MACRO.finditer(row.pattern) if names_macro(platform, m.group(1))]
    if not names:
        return []
    shown = ", ".join(dict.fromkeys(names))
    return [
        row.finding(
            "macro_not_expanded",
            f"the pattern holds {shown}, but its macros are not expanded, so it looks for that text itself, "
            f"not the value a message holds; turn on {_SUBSTITUTE_SETTING[platform]}",
        )
    ]


def _flag_findings(row: _Rule, platform: str) -> list[dict]:
    try:
        tree = syntax.parse(row.pattern)
        used = syntax.uses(tree)
    except syntax.PatternSyntaxError:  # unreadable here: say nothing rather than guess
        return []
    reasons = {
        "i": "the pattern has no letter for it to fold",
        "m": "the pattern has no ^ or $ for it to move",
        "s": "the pattern has no . for it to widen",
    }
    # RisuAI compiles a rule with no flags as `g`: there a lone flag also keeps it to its first match.
    alone = platform == "risuai" and len(row.flags) == 1
    keep_first = "; it is the rule's only flag, so write 'd' in its place: with none RisuAI replaces every match"
    found = [
        row.finding("flag_does_nothing", f"flag {flag!r} does nothing: {reasons[flag]}" + (keep_first if alone else ""))
        for flag in "ims"
        if flag in row.flags and not used[flag]
    ]
    if "d" in row.flags and not (alone and row.flags == "d"):  # a lone `d` is RisuAI's "first match only"
        found.append(
            row.finding(
                "flag_does_nothing",
                "flag 'd' does nothing here: it records match positions, which a replacement never reads",
            )
        )
    if "g" in row.flags and "m" not in row.flags and _anchored_at_start(tree):
        found.append(
            row.finding(
                "flag_does_nothing",
                "flag 'g' does nothing: the pattern is anchored at the start of the text (^ without m), "
                "so it matches once at most",
            )
        )
    return found


def _anchored_at_start(tree: syntax.Node) -> bool:
    return all(branch.children and branch.children[0].kind == "start" for branch in tree.children)


_ST_REF = re.compile(r"\$(\d+)|\$<([^>]+)>")
_JS_REF = re.compile(r"\$(\d{1,2})|\$<([^>]*)>|\$\$")


def _group_findings(row: _Rule, groups: dict, platform: str) -> list[dict]:
    replacement = str(row.rule.get("replacement") or "")
    count, names = groups["count"], set(groups["names"])
    missing: list[str] = []
    pattern = _ST_REF if platform == "sillytavern" else _JS_REF
    for match in pattern.finditer(replacement):
        number, name = match.group(1), match.group(2)
        if number is not None:
            value = int(number)
            if platform != "sillytavern" and len(number) == 2 and value > count and int(number[0]) <= count:
                continue  # JavaScript reads $12 as $1 then "2" when there is no group 12
            if (platform == "sillytavern" and value > count) or (
                platform != "sillytavern" and value > count and value > 0
            ):
                missing.append(match.group(0))
        elif name is not None and name not in names:
            missing.append(match.group(0))
    if not missing:
        return []
    has = f"{count} group{'s' if count != 1 else ''}" + (f" (named {', '.join(sorted(names))})" if names else "")
    effect = (
        "inserts the match position, the whole text or nothing in its place, or fails (the named-groups object, "
        "or the position where the rule has trim strings)"
        if platform == "sillytavern"
        else "is left as written, or inserts nothing"
    )
    return [
        row.finding(
            "missing_group",
            f"the replacement refers to {', '.join(dict.fromkeys(missing))}, but the pattern has {has}; "
            f"on {platform} that {effect}",
        )
    ]


def _runs_together(first: dict, second: dict) -> bool:
    """Two rules meet the same texts: a shared placement and the same display/prompt scope."""
    shared = set(first.get("placements") or []) & set(second.get("placements") or [])
    return (
        bool(shared)
        and bool(first.get("markdown_only")) == bool(second.get("markdown_only"))
        and bool(first.get("prompt_only")) == bool(second.get("prompt_only"))
    )


def risu_tokens(rule: dict) -> list[str]:
    """A RisuAI rule's flag tokens as the adapter keeps them (`extensions.risuai.flag_tokens`), and
    `cbs` for a pattern whose macros are expanded first."""
    kept = ((rule.get("extensions") or {}).get("risuai") or {}).get("flag_tokens")
    tokens = [token for token in kept if isinstance(token, str)] if isinstance(kept, list) else []
    return tokens + ["cbs"] if rule.get("substitute_macros") == "raw" else tokens


_WHOLE = re.compile(r"[+-]?[0-9]+")


def _order_findings(row: _Rule) -> list[dict]:
    """The `<order N>` RisuAI sorts by (the last of the field) when parseInt reads no number in N,
    or another number than N as written (`2.5` is 2, `1e3` is 1)."""
    orders = [token for token in risu_tokens(row.rule) if token.startswith("order ")]
    if not orders:
        return []
    token, text = orders[-1], js_trim(orders[-1][len("order ") :])
    if _WHOLE.fullmatch(text):
        return []
    value = js_parse_int(text)
    if math.isnan(value):
        message = (
            f"RisuAI reads no number in <{token}> (parseInt gives NaN), so its sort (b.order - a.order) counts "
            "this rule equal to every other: it takes no place of its own among the ordered rules and can keep "
            "the rules around it in list order; write a whole number, e.g. <order 0>"
        )
    else:
        read = "Infinity" if math.isinf(value) else str(int(value))
        message = (
            f"RisuAI reads <{token}> as <order {read}>: parseInt takes only the whole number N starts with "
            f"(hexadecimal after 0x); write <order {read}> if that is meant"
        )
    return [row.finding("order_not_a_number", message)]


def risu_actions(tokens: list[str]) -> list[str]:
    """RisuAI's `pscript.actions`: every token but `<order N>`, once (the adapter's own rule)."""
    return list(dict.fromkeys(token for token in tokens if not token.startswith("order ")))


def run_order(rules: list[dict], platform: str) -> list[int]:
    """The indices of `rules` in the order the platform runs them. RisuAI (processScriptFull) reads
    N of each `<order N>` with parseInt, the last one of a field winning, and, where any rule has
    one, sorts by `b.order - a.order`: highest first, a stable sort, NaN equal to every order."""
    indices = list(range(len(rules)))
    if platform != "risuai":
        return indices
    orders, ordered = [], False
    for rule in rules:
        order = 0.0
        for token in risu_tokens(rule):
            if token.startswith("order "):
                order, ordered = js_parse_int(token[len("order ") :]), True
        orders.append(order)
    if not ordered:
        return indices

    def compare(a: int, b: int) -> int:
        step = orders[b] - orders[a]
        return 0 if math.isnan(step) else (step > 0) - (step < 0)

    return sorted(indices, key=cmp_to_key(compare))


def _request(rule: dict, platform: str) -> dict[str, Any]:
    """The engine's view of a rule run on a set's texts: a RisuAI rule with its actions (try's path)."""
    actions = risu_actions(risu_tokens(rule)) if platform == "risuai" else []
    return {
        "pattern": str(rule.get("pattern") or ""),
        "flags": str(rule.get("flags") or ""),
        "replacement": str(rule.get("replacement") or ""),
        "convention": platform,
        "trims": list(rule.get("trim_strings") or []),
        "macros": {},
        "substitute": "none",
        "noEndNewline": "no_end_nl" in actions,
        "actions": actions,
    }


def _shadow_findings(rules: list[dict], compiled: dict[int, dict], platform: str, deadline: float) -> list[dict]:
    found = []
    sequence = [i for i in run_order(rules, platform) if i in compiled]
    for position, later in enumerate(sequence):
        if time.monotonic() > deadline:
            break
        rule = rules[later]
        witnesses = _witnesses(rule)
        if not witnesses:
            continue
        for earlier in sequence[:position]:
            if not _runs_together(rules[earlier], rule):
                continue
            try:
                after = engine.call(
                    dict(_request(rules[earlier], platform), op="chain", texts=witnesses, rules=[]),
                    seconds=limits.REGEX_LINT_PROBE_SECONDS,
                )["results"]
                still = engine.call(
                    {"op": "test", "pattern": rule["pattern"], "flags": rule["flags"], "texts": after},
                    seconds=limits.REGEX_LINT_PROBE_SECONDS,
                )["results"]
            except BunzaiError as error:
                if error.code in ("regex_timeout", "invalid_input"):  # out of time, or the platform fails on it
                    continue
                raise
            if not any(still):
                row = _Rule(later, rule)
                found.append(
                    row.finding(
                        "never_matches",
                        f"never matches after rule {rules[earlier].get('name') or earlier!r} (#{earlier}): "
                        "on every sample it "
                        f"matches (e.g. {witnesses[0]!r}), that rule leaves it nothing to match ({after[0]!r})",
                        after=earlier,
                    )
                )
                break
    return found


def _witnesses(rule: dict) -> list[str]:
    """Strings built from the rule's pattern that the engine confirms it matches."""
    try:
        built = syntax.samples(syntax.parse(rule["pattern"]), limits.REGEX_WITNESSES_PER_RULE)
    except syntax.PatternSyntaxError:
        return []
    built = [text for text in built if text]
    if not built:
        return []
    try:
        hits = engine.call(
            {"op": "test", "pattern": rule["pattern"], "flags": rule["flags"], "texts": built},
            seconds=limits.REGEX_LINT_PROBE_SECONDS,
        )["results"]
    except BunzaiError:
        return []
    return [text for text, hit in zip(built, hits) if hit]
