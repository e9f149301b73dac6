"""The embedded ECMAScript engine: QuickJS (the `quickjs-ng` distribution, import name
`quickjs`/`_quickjs`) running users' patterns with JavaScript's own RegExp.

Every run is bounded: the text by REGEX_TEXT_MAX_CHARS, the pattern by
REGEX_PATTERN_MAX_CHARS, memory by REGEX_ENGINE_MEMORY_BYTES, and time by a QuickJS
interrupt (REGEX_RUN_SECONDS of CPU time unless the caller gives less). A run that runs out of time is
the coded refusal `regex_timeout`, naming the pattern. One engine context serves the whole
process; the module `_quickjs` is imported on the first run, never at start-up.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError

_PRELUDE = Path(__file__).with_name("prelude.js")


@lru_cache(maxsize=1)
def _entry():
    import _quickjs  # the C module of quickjs-ng; imported here so start-up never pays for it

    context = _quickjs.Context()
    context.set_memory_limit(limits.REGEX_ENGINE_MEMORY_BYTES)
    context.eval(_PRELUDE.read_text(encoding="utf-8"))
    return context, context.eval("bunzai.call"), _quickjs.JSException


def shown(pattern: str, flags: str = "") -> str:
    """A pattern as a person reads it in a message: /source/flags, cut when very long."""
    text = f"/{pattern}/{flags}"
    return text if len(text) <= 120 else text[:117] + "…"


def call(request: dict[str, Any], *, seconds: float = limits.REGEX_RUN_SECONDS) -> dict[str, Any]:
    """Run one operation of the prelude (`op`: parse, compile, match, replace, test, chain).

    The answer is the prelude's JSON object; a pattern that does not compile comes back as
    {"error": message}. Time and memory exhaustion are raised as `regex_timeout`.
    """
    _check_sizes(request)
    context, entry, js_error = _entry()
    context.set_time_limit(seconds)
    try:
        answer = entry(json.dumps(request, ensure_ascii=True))
    except js_error as error:
        raise _run_error(request, str(error), seconds) from None
    finally:
        context.set_time_limit(-1)
    return json.loads(answer)


def _check_sizes(request: dict[str, Any]) -> None:
    pattern = request.get("pattern") or request.get("find") or ""
    if len(pattern) > limits.REGEX_PATTERN_MAX_CHARS:
        raise BunzaiError(
            "too_large",
            f"the pattern is {len(pattern)} characters, over {limits.REGEX_PATTERN_MAX_CHARS}",
            "split it into several rules",
        )
    texts = [request.get("text") or ""] + list(request.get("texts") or [])
    size = sum(len(text) for text in texts)
    if size > limits.REGEX_TEXT_MAX_CHARS:
        raise BunzaiError(
            "too_large",
            f"the text is {size} characters, over {limits.REGEX_TEXT_MAX_CHARS}",
            "try the pattern on a shorter excerpt",
        )


def _run_error(request: dict[str, Any], message: str, seconds: float) -> BunzaiError:
    first = message.strip().splitlines()[0] if message.strip() else "the engine stopped"
    pattern = shown(request.get("pattern") or request.get("find") or "", request.get("flags") or "")
    length = len(request.get("text") or "") + sum(len(t) for t in request.get("texts") or [])
    if "interrupted" in first:
        return BunzaiError(
            "regex_timeout",
            f"the pattern {pattern} ran out of time ({seconds:g} s) on {length} characters",
            "it backtracks catastrophically: unnest the repeated group, e.g. (a+)+ -> a+, "
            "and see `bunzai regex-lab lint`",
            pattern=pattern,
            seconds=seconds,
        )
    if "out of memory" in first or "stack overflow" in first:
        return BunzaiError(
            "regex_timeout",
            f"the pattern {pattern} ran out of memory on {length} characters",
            "try a shorter text, or a pattern that keeps less state",
            pattern=pattern,
        )
    if "bunzai-platform: " in first:  # the platform modelled would throw on this replacement (prelude.js)
        return BunzaiError(
            "invalid_input",
            first.split("bunzai-platform: ", 1)[1],
            "refer only to the pattern's captures ($1 ... and $<name> of its named groups)",
            pattern=pattern,
            platform_fails=True,  # the modelled platform's own code throws: a finding, not a bunzai refusal
        )
    return BunzaiError(
        "internal",
        f"the regex engine failed on {pattern}: {first}",
        "this is a bug in bunzai; please report it with the pattern",
    )


def compiled_or_refuse(answer: dict[str, Any], pattern: str, flags: str) -> dict[str, Any]:
    """The answer of a run, or `invalid_regex` naming the pattern when it did not compile."""
    if "error" in answer:
        raise BunzaiError(
            "invalid_regex",
            f"the pattern {shown(pattern, flags)} does not compile: {answer['error']}",
            "check brackets and escapes; `bunzai regex-lab explain` reads it clause by clause",
            pattern=shown(pattern, flags),
        )
    return answer
