"""Marinara Engine exports bunzai recognises and refuses, so a file is told what it is.

(A profile, `marinara_profile`, is read: profile.py.)

A chat preset (`marinara_chat_preset`, chat-presets.routes.ts) is `{name, mode, settings:
{connectionId, promptPresetId, metadata}}`: the starting state of Marinara's new chats
(which connection, which prompt preset, which agents and tools, chat-mode switches), each
named by a row id of the Marinara database it was exported from. No canonical kind holds
chat-mode state and no other platform has it, so a piece would be escrow alone.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.contract import Adapter, Decoded
from bunzai.adapters.marinara.envelope import envelope_type
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError

FORMAT_ID = "marinara.chat_preset"
TYPE = "marinara_chat_preset"


class MarinaraChatPreset(Adapter):
    format_id = FORMAT_ID
    label = "Marinara Engine chat preset (refused: chat settings of one Marinara install)"
    kinds = ("preset",)
    extensions = (".marinara-chat-preset.json",)
    container = "text"
    can_write = False
    refuses_reading = True
    engine = "marinara"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 1.0 if envelope_type(parsed) == TYPE else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        raise BunzaiError(
            "unsupported",
            f"{name or 'the file'} is a Marinara Engine chat preset: the settings new "
            "chats start from (connection, prompt preset, agents, tools), named by ids of the Marinara "
            "install it came from; bunzai has no piece for them",
            "export the prompt preset itself from Marinara (Presets -> Export) and import that",
        )


register(MarinaraChatPreset())
