"""Macros in a crossing: every text field that an engine expands, translated source -> target.

The fields are named per kind as RFC 6901 patterns over the canonical piece (`*` is any
array index or object key). Each verdict carries the pointer of its field, so the
crossing report says where every token was and what became of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bunzai.macros.syntax import find_tokens
from bunzai.macros.translate import VERDICTS, translate_text
from bunzai.model import dump_piece
from bunzai.query.pointer import escape
from bunzai.validate import validate_piece

# Text that a frontend runs through its macro engine, per kind. Names, tags, creator
# notes and ids are never expanded, so they are never translated.
MACRO_FIELDS: dict[str, tuple[str, ...]] = {
    "character": (
        "/body/description",
        "/body/personality",
        "/body/scenario",
        "/body/first_message",
        "/body/alternate_greetings/*",
        "/body/group_only_greetings/*",
        "/body/example_messages",
        "/body/system_prompt",
        "/body/post_history_instructions",
        "/body/depth_prompt/text",
        "/body/book/entries/*/content",
    ),
    "lorebook": ("/body/entries/*/content",),
    "preset": ("/body/prompts/*/content", "/body/utility_prompts/*", "/body/templates/sequences/*"),
    "persona": ("/body/description",),
    "regex": ("/body/rules/*/replacement",),
}
# Lorebook keys are macro text only where the scan expands them: SillyTavern runs each key
# through its macro engine before matching it (world-info.js, `substituteParams(key)`), while
# RisuAI (lorebook.svelte.ts), Agnai (common/memory.ts strips the braces) and Marinara
# (keyword-scanner.ts) match a key as written.
KEY_FIELDS: dict[str, tuple[str, ...]] = {
    "character": ("/body/book/entries/*/keys/*/text", "/body/book/entries/*/secondary_keys/*/text"),
    "lorebook": ("/body/entries/*/keys/*/text", "/body/entries/*/secondary_keys/*/text"),
}
KEYS_EXPANDED_BY = frozenset({"sillytavern", "sillytavern-legacy"})
# How many macro passes SillyTavern's Macros 2.0 engine runs over a field before the prompt is
# sent; each pass drops one `\` before a brace (MacroEngine.js, core:unescape-braces), so a
# literal body carries one escape per pass. Counted on the Chat Completion path with its
# default settings: every card field is substituted once when the card is read
# (script.js getCharacterCardFields -> baseChatReplace) and once more as its prompt is
# prepared (PromptManager.preparePrompt, or getExtensionPrompt for the depth prompt);
# personality and scenario once more between, through their `{{personality}}` and
# `{{scenario}}` formats (openai.js). A lorebook entry's content is substituted when the scan
# activates it (world-info.js checkWorldInfo) and again where it is placed. A field not named
# here is read once. (Text Completion reads personality and scenario twice, through the story
# string, and a card's system prompt up to four times.)
MACRO_READS: dict[str, dict[str, dict[str, int]]] = {
    "sillytavern": {
        "character": {
            "/body/description": 2,
            "/body/personality": 3,
            "/body/scenario": 3,
            "/body/system_prompt": 2,
            "/body/post_history_instructions": 2,
            "/body/depth_prompt/text": 2,
            "/body/book/entries/*/content": 2,
        },
        "lorebook": {"/body/entries/*/content": 2},
    },
}
# A chat's first message is substituted again at every generation and the result saved
# (script.js Generate: `chat[0].mes = substituteParams(chat[0].mes)`): no count of escapes holds.
READ_AT_EACH_GENERATION: dict[str, frozenset[str]] = {
    "sillytavern": frozenset({"/body/first_message", "/body/alternate_greetings/*", "/body/group_only_greetings/*"}),
}


@dataclass
class PieceTranslation:
    source: str
    target: str
    checked: bool = True
    reason: str = ""
    verdicts: list[dict] = field(default_factory=list)
    # Keys holding a macro that one engine expands and the other matches as written.
    keys: list[dict] = field(default_factory=list)

    def report(self) -> dict:
        counts = dict.fromkeys(VERDICTS, 0)
        for verdict in self.verdicts:
            counts[verdict["verdict"]] = counts.get(verdict["verdict"], 0) + 1
        doc = {
            "from": self.source,
            "to": self.target,
            "checked": self.checked,
            "counts": counts,
            "verdicts": self.verdicts,
        }
        if self.keys:
            doc["keys"] = self.keys
        if self.reason:
            doc["reason"] = self.reason
        return doc


def translate_piece(piece, source: str, target: str):
    """(the piece with its macro text rewritten for `target`, the translation report)."""
    result = PieceTranslation(source, target)
    doc = dump_piece(piece)
    changed = False
    expands = source in KEYS_EXPANDED_BY, target in KEYS_EXPANDED_BY
    keys = KEY_FIELDS.get(piece.kind, ())
    if expands[0] != expands[1]:
        result.keys = [
            {"pointer": pointer, "key": holder[key]}
            for pattern in keys
            for pointer, holder, key in _matches(doc, pattern)
            if "{{" in holder[key] and find_tokens(holder[key])
        ]
    for pattern in MACRO_FIELDS.get(piece.kind, ()) + (keys if all(expands) else ()):
        for pointer, holder, key in _matches(doc, pattern):
            text = holder[key]
            if "{{" not in text:
                continue
            reads = field_reads(target, piece.kind, pattern)
            translation = translate_text(text, source, target, reads, f"{piece.kind}:{pattern}")
            if not translation.checked:
                result.checked, result.reason = False, translation.reason
                return piece, result
            result.verdicts += [{"pointer": pointer, **verdict} for verdict in translation.verdicts]
            if translation.text != text:
                holder[key] = translation.text
                changed = True
    return (validate_piece(doc) if changed else piece), result


def field_reads(target: str, kind: str, pattern: str) -> int | None:
    """How many macro passes `target` runs over the field `pattern` names; None where no count holds."""
    if pattern in READ_AT_EACH_GENERATION.get(target, ()):
        return None
    return MACRO_READS.get(target, {}).get(kind, {}).get(pattern, 1)


def _matches(doc: Any, pattern: str):
    """(pointer, container, key) for every string the pattern names in `doc`."""
    parts = pattern.strip("/").split("/")
    frontier: list[tuple[str, Any]] = [("", doc)]
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        next_frontier = []
        for pointer, value in frontier:
            if isinstance(value, dict):
                keys = list(value) if part == "*" else [part] if part in value else []
            elif isinstance(value, list) and part == "*":
                keys = list(range(len(value)))
            else:
                keys = []
            for key in keys:
                child_pointer = f"{pointer}/{escape(str(key))}"
                if last:
                    if isinstance(value[key], str):
                        yield child_pointer, value, key
                else:
                    next_frontier.append((child_pointer, value[key]))
        frontier = next_frontier
