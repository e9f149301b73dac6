"""Marinara Engine exports bunzai recognises and refuses, so a file is told what it is.

A profile (`marinara_profile`, backup.routes.ts buildProfileExportEnvelope, saved as
`marinara-profile.json`) is a whole install in one file: every character, persona, lorebook
and preset as database rows (with avatars in base64), plus agents and themes. bunzai reads
Marinara's exports one piece at a time, so it names the file and the exports to make instead.

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


class MarinaraProfile(Adapter):
    format_id = "marinara.profile"
    label = "Marinara Engine profile (refused: a backup of a whole install)"
    kinds = ("character", "persona", "lorebook", "preset")
    extensions = (".json",)
    container = "text"
    can_write = False
    refuses_reading = True
    engine = "marinara"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 1.0 if envelope_type(parsed) == "marinara_profile" else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        raise BunzaiError(
            "unsupported",
            f"{name or 'the file'} is a Marinara Engine profile: a backup of a whole install (every "
            "character, persona, lorebook and preset, with agents and themes) in one file; bunzai reads "
            "Marinara's exports one piece at a time",
            'export the pieces from Marinara instead (each one\'s Export, "Marinara Native", or a bulk '
            "export's ZIP, unzipped) and import those files",
        )


register(MarinaraProfile())
