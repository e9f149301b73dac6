"""The names textgen fills into a character's text: `{{user}}`, `{{char}}`, `<USER>`, `<BOT>`.

text-generation-webui replaces the four, case-sensitively, in the context and the greeting
(modules/chat.py `replace_character_names`). `{{user}}` and `{{char}}` are read by every
platform bunzai writes; `<USER>` and `<BOT>` are not (RisuAI, Agnai show them as written).
So a textgen text is read with them respelled as `{{user}}` and `{{char}}`, which textgen
fills in the same way.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.drift import as_str

RESPELLED = (("<USER>", "{{user}}"), ("<BOT>", "{{char}}"))


def read_text(value: Any) -> str:
    """A textgen text field as canonical text: a string (see `as_str`) with `<USER>`/`<BOT>` respelled."""
    text = as_str(value)
    if "<" in text:
        for old, new in RESPELLED:
            text = text.replace(old, new)
    return text
