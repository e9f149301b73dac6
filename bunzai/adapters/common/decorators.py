"""How SillyTavern and RisuAI read the decorator lines (`@@depth 0`, `@@@activate` ...) at the head
of a lore entry's content, for the losses a SillyTavern writer names (book_losses).

SillyTavern's parseDecorators (public/scripts/world-info.js) acts on `@@activate` and
`@@dont_activate` alone; RisuAI's (CCardLib.decorator.parse, with the hook in
src/ts/process/lorebook.svelte.ts) on its whole set. Both read a `@@@name` line only as the
fallback of a decorator just before it that they did not take, so one text can force an entry
on in one and not in the other.
"""

from __future__ import annotations

import re

from bunzai.jstext import js_trim

ST_ACTS_ON = ("@@activate", "@@dont_activate")  # world-info.js KNOWN_DECORATORS, compared whole


def head_lines(content: str) -> list[str]:
    """The `@@` lines an entry's content starts with (up to the first line that is not one)."""
    lines = []
    for line in content.split("\n") if content.startswith("@@") else ():
        if not line.startswith("@@"):
            break
        lines.append(line)
    return lines


def only_decorators(content: str) -> bool:
    """Whether every line of the content is a `@@` line: SillyTavern then inserts it all as text
    (parseDecorators cuts the head off only at the first other line), RisuAI nothing."""
    return content.startswith("@@") and len(head_lines(content)) == content.count("\n") + 1


def st_parse(content: str) -> tuple[list[tuple[int, str]], str]:
    """SillyTavern's parseDecorators: the decorators it keeps, each as (its head line's index, its
    name), and the content it sends. A content starting `@@` loses every head line, known or not
    (`@@@x` stands for `@@x` only after one it did not take); a known one (by its start, so
    `@@activate_only_after` counts) is kept. A content of `@@` lines only is sent whole."""
    lines = head_lines(content)
    kept: list[tuple[int, str]] = []
    fallback = False
    for index, line in enumerate(lines):
        if line.startswith("@@@") and not fallback:
            continue
        name = line[1:] if line.startswith("@@@") else line
        if name.startswith(ST_ACTS_ON):  # isKnownDecorator: a prefix test
            kept.append((index, name))
            fallback = False
        else:
            fallback = True
    if not lines or only_decorators(content):
        return kept, content
    return kept, content.split("\n", len(lines))[-1]


def st_reading(content: str) -> tuple[list[str], str | None]:
    """(the head lines SillyTavern does not act on, "activate" / "deactivate" / None)."""
    kept, _text = st_parse(content)
    names = [name for _index, name in kept]
    acted = {index for index, name in kept if name in ST_ACTS_ON}  # the scan's includes(): whole lines only
    ignored = [line for index, line in enumerate(head_lines(content)) if index not in acted]
    force = "activate" if "@@activate" in names else "deactivate" if "@@dont_activate" in names else None
    return ignored, force


_NUMBER = re.compile(r"[+-]?\d")  # what parseInt reads as a number
_WHEN_NUMBER = frozenset({"activate_only_after", "activate_only_every", "depth", "reverse_depth", "is_greeting"})
_ALWAYS = frozenset(
    {
        "end",
        "scan_depth",
        "inject_lore",
        "inject_at",
        "inject_replace",
        "inject_prepend",
        "ignore_on_max_context",
        "additional_keys",
        "exclude_keys",
        "exclude_keys_all",
        "match_full_word",
        "match_partial_word",
        "activate",
        "dont_activate",
        "probability",
        "priority",
        "unrecursive",
        "recursive",
        "no_recursive_search",
    }
)


def _risu_takes(name: str, args: list[str]) -> bool:
    """Whether RisuAI's decorator hook takes the decorator (returns anything but false)."""
    first = args[0] if args else ""
    if name in _WHEN_NUMBER:
        return bool(_NUMBER.match(first))
    if name == "role":
        return first in ("user", "assistant", "system")
    if name == "position":
        return first.startswith("pt_") or first in ("after_desc", "before_desc", "personality", "scenario")
    if name == "disable_ui_prompt":
        return first in ("post_history_instructions", "system_prompt")
    return name in _ALWAYS  # unknown names, is_user_icon, the *_after_match and instruct ones: false


def risu_force(content: str) -> str | None:
    """ "activate" / "deactivate" / None: what RisuAI's decorators do to the entry's activation (the
    last of @@activate and @@dont_activate it takes wins)."""
    force, fallback = None, False
    for raw in js_trim(content).split("\n"):
        line = js_trim(raw)
        line = "@@end" if line == "@@@end" else line
        if not line.startswith("@@"):
            break
        if line.startswith("@@@") and not fallback:
            continue
        space = line.find(" ")
        name = line[3 if line.startswith("@@@") else 2 : len(line) if space == -1 else space]
        args = [
            arg for arg in (js_trim(part) for part in line[len(line) if space == -1 else space :].split(",")) if arg
        ]
        taken = bool(name) and _risu_takes(name, args)
        if taken and name in ("activate", "dont_activate"):
            force = "activate" if name == "activate" else "deactivate"
        fallback = bool(name) and not taken
    return force
