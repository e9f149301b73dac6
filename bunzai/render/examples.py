"""Dialogue examples cut into blocks as SillyTavern's parseMesExamples (script.js) cuts them, for the
chat-completion and text-completion prompts and the `{{mesExamples}}` macro."""

from __future__ import annotations

import re

from bunzai.jstext import JS_WHITESPACE as JS_SPACE, js_trim


def example_blocks(raw: str) -> list[tuple[str, int]]:
    """The example blocks as parseMesExamples cuts them, stripped, each with where it starts in `raw`:
    text before a first `<START>` is a block of its own, and an empty block is a block too (it is
    sent as its heading)."""
    if not raw or raw == "<START>":
        return []
    opens = raw.startswith("<START>")  # else SillyTavern puts `<START>\n` before the trimmed text
    text = raw if opens else js_trim(raw)
    lead = 0 if opens else raw.find(text)
    tags = list(re.finditer(r"<START>", text, re.I))
    begins = ([] if opens else [0]) + [tag.end() for tag in tags]
    ends = [tag.start() for tag in tags[1 if opens else 0 :]] + [len(text)]
    blocks = []
    for begin, end in zip(begins, ends, strict=True):
        segment = text[begin:end]
        blocks.append((js_trim(segment), lead + begin + len(segment) - len(segment.lstrip(JS_SPACE))))
    return blocks
