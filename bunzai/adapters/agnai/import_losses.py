"""What Agnai itself does to a character when it imports one of these files.

bunzai reads the files as written; these are the changes Agnai makes on ITS import
(web/pages/Character/port.ts), reported on crossings into Agnai formats so a person
knows what Agnai will show:
- description and personality become one persona text, joined by a newline;
- every top-level string has literal `\\n` turned into a newline and lines starting
  `You:` turned into `{{user}}:` (`sanitiseCharacter`);
- a V2 `character_book` loses each entry's `extensions` and `case_sensitive`;
- SillyTavern regex scripts stay in `extensions` and never run (nothing in Agnai reads them).
"""

from __future__ import annotations

import re
from typing import Any

from bunzai.adapters.common import st_regex_losses
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.st_regex_losses import st_regex_rule
from bunzai.adapters.contract import Loss

# body fields that land in top-level strings of the Agnai character (sanitised on import).
_SANITISED = (
    "first_message",
    "scenario",
    "example_messages",
    "creator_notes",
    "system_prompt",
    "post_history_instructions",
    "creator",
    "version",
)
_REWRITTEN = re.compile(r"\\n|^You:|\nYou:", re.IGNORECASE)

PERSONALITY_FOLDED = LossRule(
    "/body/(?:personality|description)",
    "flattened",
    "agnai.personality.folded",
    "Agnai has no personality field: it joins the personality to the description in one persona text",
)
TEXT_REWRITTEN = LossRule(
    "/(?:name|body/(?:" + "|".join(_SANITISED) + "))",
    "translated",
    "agnai.import.text_rewritten",
    "Agnai's import turns a literal \\n into a line break and 'You:' at a line start into '{{user}}:'",
)


_ST_REGEX = (
    "Agnai has no regex scripts: it never runs {script} (the file keeps it in the character's extensions, "
    "regex_scripts, for other apps)"
)
ST_REGEX_NOT_RUN = st_regex_rule("agnai.import.st_regex_not_run", _ST_REGEX)


def crossing_into(piece: Any, format_id: str) -> bool:
    """True when the piece comes from elsewhere: only then is Agnai's import of it news.

    A piece read from this very format was already a file Agnai made or takes; its round
    trip reports only what the file itself cannot hold.
    """
    return piece.original is None or piece.original.format != format_id


def personality_folded(piece: Any) -> list[Loss]:
    return [PERSONALITY_FOLDED.at("/body/personality")] if piece.body.personality else []


def rewritten_text(piece: Any, fields: tuple[str, ...] = _SANITISED) -> list[Loss]:
    losses = []
    values = {"name": piece.name} | {field: getattr(piece.body, field) for field in fields}
    for field, value in values.items():
        if isinstance(value, str) and _REWRITTEN.search(value):
            pointer = "/name" if field == "name" else f"/body/{field}"
            losses.append(TEXT_REWRITTEN.at(pointer))
    return losses


def st_regex_not_run(piece: Any) -> list[Loss]:
    """A loss per SillyTavern regex script: nothing in Agnai reads extensions.regex_scripts."""
    return st_regex_losses.st_regex_not_run(piece, ST_REGEX_NOT_RUN, _ST_REGEX)
