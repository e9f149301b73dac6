"""SillyTavern chat-completion assembly: a preset's prompt manager turned into messages.

The active order is the preset's `global` order (SillyTavern's character_id 100000); each
enabled item becomes one part: a block's content, or a marker filled from its source
(character description, personality and scenario through the preset's formats, persona,
world info before/after through `wi_format`, dialogue examples, the chat history). Blocks
with absolute position, the character's depth prompt, the author's note, a persona at
depth and lorebook entries at depth are injected into the chat history at their depth
with their role. The character's system prompt replaces `main`, and its post-history
instructions replace `jailbreak`, unless the block forbids overrides; `{{original}}` in
the override is the block's own text.

A part is {role, content, block, source, pointer, chat_index?, lore?}; the stages in
bunzai.render.render evaluate macros and regexes over these parts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

KNOWN_MARKERS = (
    "charDescription",
    "charPersonality",
    "scenario",
    "personaDescription",
    "worldInfoBefore",
    "worldInfoAfter",
    "dialogueExamples",
    "chatHistory",
)
BUILT_IN_SLOTS = ("main", "nsfw", "jailbreak", "enhanceDefinitions")
_ROLE_ORDER = {"system": 0, "user": 1, "assistant": 2}


@dataclass
class Inputs:
    """Everything one render reads, already loaded (plain dicts of canonical bodies)."""

    preset_id: str
    preset: dict
    character_id: str
    character: dict
    persona_id: str | None = None
    persona: dict | None = None
    chat: list[dict] = field(default_factory=list)  # oldest first: {role, name, content}
    lore: list[dict] = field(default_factory=list)  # fired entries, insertion order (lore.activate)
    authors_note: str = ""
    authors_note_depth: int = 4


def active_order(preset: dict) -> tuple[str, list[dict]]:
    """(target, items) of the order SillyTavern's global strategy uses."""
    orders = preset.get("orders") or []
    for order in orders:
        if order.get("target") == "global":
            return "global", order.get("items") or []
    if orders:
        return orders[0].get("target", ""), orders[0].get("items") or []
    return "blocks", [
        {"identifier": b.get("identifier"), "enabled": b.get("enabled", True)} for b in preset.get("prompts") or []
    ]


def assemble(inputs: Inputs) -> tuple[list[dict], list[str]]:
    """The parts, in prompt order, and notes on what was not modelled."""
    preset, card = inputs.preset, inputs.character
    blocks = {b.get("identifier"): (i, b) for i, b in enumerate(preset.get("prompts") or [])}
    utility = preset.get("utility_prompts") or {}
    notes: list[str] = []
    parts: list[dict] = []
    _, items = active_order(preset)
    lore_at = {
        pos: [e for e in inputs.lore if e["position"] == pos]
        for pos in ("before_char", "after_char", "an_top", "an_bottom", "em_top", "em_bottom", "at_depth")
    }
    injections: list[dict] = []
    persona_body = inputs.persona or {}
    persona_text = persona_body.get("description", "")
    persona_position = persona_body.get("position", "in_prompt") if inputs.persona else "none"

    def lore_text(entries: list[dict]) -> str:
        return "\n".join(e["content"] for e in entries if e["content"])

    placed: set = set()
    for item in items:
        identifier = item.get("identifier")
        # SillyTavern places a prompt once, at its first order entry, whose flag decides
        # (openai.js addToChatCompletion: prompts.index / isPromptDisabledForActiveCharacter).
        if identifier in placed:
            continue
        placed.add(identifier)
        if not item.get("enabled", True) or identifier not in blocks:
            continue
        index, block = blocks[identifier]
        pointer = f"/body/prompts/{index}/content"
        base = {"role": block.get("role", "system"), "block": identifier, "pointer": pointer}
        if block.get("position") == "absolute" and not block.get("marker"):
            injections.append(
                dict(
                    base,
                    content=block.get("content", ""),
                    source=f"preset:{inputs.preset_id}#{identifier}",
                    depth=block.get("depth", 4),
                    order=block.get("injection_order", 100),
                )
            )
            continue
        if not block.get("marker"):
            content, source = block.get("content", ""), f"preset:{inputs.preset_id}#{identifier}"
            override = {"main": "system_prompt", "jailbreak": "post_history_instructions"}.get(identifier)
            if override and card.get(override) and not block.get("forbid_overrides"):
                parts.append(
                    dict(
                        base,
                        content=card[override],
                        source=f"character:{inputs.character_id}/{override}",
                        pointer=f"character:/body/{override}",
                        original=content,
                    )
                )
                continue
            parts.append(dict(base, content=content, source=source))
            continue
        marker = dict(base, pointer=f"marker:{identifier}")
        if identifier == "charDescription":
            parts.append(
                dict(marker, content=card.get("description", ""), source=f"character:{inputs.character_id}/description")
            )
        elif identifier == "charPersonality":
            if card.get("personality"):
                text = utility.get("personality_format") or "{{personality}}"
                parts.append(dict(marker, content=text, source=f"character:{inputs.character_id}/personality"))
        elif identifier == "scenario":
            if card.get("scenario"):
                text = utility.get("scenario_format") or "{{scenario}}"
                parts.append(dict(marker, content=text, source=f"character:{inputs.character_id}/scenario"))
        elif identifier == "personaDescription":
            if persona_position == "in_prompt" and persona_text:
                parts.append(dict(marker, content=persona_text, source=f"persona:{inputs.persona_id}/description"))
        elif identifier in ("worldInfoBefore", "worldInfoAfter"):
            entries = lore_at["before_char" if identifier == "worldInfoBefore" else "after_char"]
            text = lore_text(entries)
            if text:
                wrapper = utility.get("wi_format") or "{0}"
                parts.append(
                    dict(
                        marker,
                        content=wrapper.replace("{0}", text),
                        lore=True,
                        source=", ".join(f"lorebook:{e['book']}#{e['uid']}" for e in entries),
                    )
                )
        elif identifier == "dialogueExamples":
            parts.extend(_examples(card.get("example_messages", ""), utility, marker, inputs, lore_at))
        elif identifier == "chatHistory":
            parts.extend(
                chat_history_parts(inputs, utility, marker, injections, lore_at, persona_position, persona_text, notes)
            )
        else:
            notes.append(f"marker {identifier!r} has no source bunzai knows; it renders nothing")
    if persona_position in ("top_an", "bottom_an"):
        notes.append("a persona placed in the author's note is placed there, above or below the note")
    return parts, notes


def _examples(raw: str, utility: dict, marker: dict, inputs: Inputs, lore_at: dict) -> list[dict]:
    out: list[dict] = []
    top = [e for e in lore_at["em_top"] if e["content"]]
    bottom = [e for e in lore_at["em_bottom"] if e["content"]]
    for entry in top:
        out.append(
            dict(
                marker,
                role="system",
                content=entry["content"],
                lore=True,
                source=f"lorebook:{entry['book']}#{entry['uid']}",
            )
        )
    blocks = [b.strip() for b in re.split(r"<START>", raw or "", flags=re.I) if b.strip()]
    header = utility.get("new_example_chat") or "[Example Chat]"
    for number, block in enumerate(blocks):
        out.append(dict(marker, role="system", content=header, source=f"preset:{inputs.preset_id}#new_example_chat"))
        for line_no, chunk in enumerate(_speaker_chunks(block)):
            role, text = chunk
            out.append(
                dict(
                    marker,
                    role=role,
                    content=text,
                    source=f"character:{inputs.character_id}/example_messages#{number}.{line_no}",
                )
            )
    for entry in bottom:
        out.append(
            dict(
                marker,
                role="system",
                content=entry["content"],
                lore=True,
                source=f"lorebook:{entry['book']}#{entry['uid']}",
            )
        )
    return out


def _speaker_chunks(block: str) -> list[tuple[str, str]]:
    chunks: list[tuple[str, str]] = []
    for line in block.splitlines():
        low = line.strip().lower()
        if low.startswith("{{user}}:"):
            chunks.append(("user", line.strip()[len("{{user}}:") :].strip()))
        elif low.startswith("{{char}}:"):
            chunks.append(("assistant", line.strip()[len("{{char}}:") :].strip()))
        elif chunks:
            chunks[-1] = (chunks[-1][0], chunks[-1][1] + "\n" + line)
        elif line.strip():
            chunks.append(("system", line))
    return chunks


def chat_history_parts(
    inputs: Inputs,
    utility: dict,
    marker: dict,
    injections: list[dict],
    lore_at: dict,
    persona_position: str,
    persona_text: str,
    notes: list[str],
) -> list[dict]:
    card = inputs.character
    pending = list(injections)
    depth_prompt = card.get("depth_prompt") or {}
    if depth_prompt.get("text"):
        pending.append(
            {
                "role": depth_prompt.get("role", "system"),
                "content": depth_prompt["text"],
                "block": "depth_prompt",
                "pointer": "character:/body/depth_prompt/text",
                "depth": depth_prompt.get("depth", 4),
                "order": 100,
                "source": f"character:{inputs.character_id}/depth_prompt",
            }
        )
    an_parts = [e["content"] for e in lore_at["an_top"] if e["content"]]
    if inputs.authors_note:
        an_parts.append(inputs.authors_note)
    if persona_position in ("top_an", "bottom_an") and persona_text:
        an_parts.insert(0 if persona_position == "top_an" else len(an_parts), persona_text)
    an_parts += [e["content"] for e in lore_at["an_bottom"] if e["content"]]
    if an_parts:
        pending.append(
            {
                "role": "system",
                "content": "\n".join(an_parts),
                "block": "authors_note",
                "pointer": "authors_note",
                "depth": inputs.authors_note_depth,
                "order": 100,
                "source": "authors_note",
                "lore": bool(lore_at["an_top"] or lore_at["an_bottom"]),
            }
        )
    if persona_position == "at_depth" and persona_text:
        persona = inputs.persona or {}
        pending.append(
            {
                "role": persona.get("role", "system"),
                "content": persona_text,
                "block": "persona",
                "order": 100,
                "pointer": "persona:/body/description",
                "depth": persona.get("depth", 2),
                "source": f"persona:{inputs.persona_id}/description",
            }
        )
    for entry in lore_at["at_depth"]:
        if entry["content"]:
            pending.append(
                {
                    "role": entry.get("role", "system"),
                    "content": entry["content"],
                    "block": "world_info_depth",
                    "pointer": f"lorebook:{entry['book']}#{entry['uid']}",
                    "depth": entry.get("depth", 4),
                    "order": entry.get("order", 100),
                    "source": f"lorebook:{entry['book']}#{entry['uid']}",
                    "lore": True,
                }
            )
    out: list[dict] = []
    new_chat = utility.get("new_chat", "[Start a new Chat]")
    if new_chat:
        out.append(dict(marker, role="system", content=new_chat, source=f"preset:{inputs.preset_id}#new_chat"))
    chat = inputs.chat
    total = len(chat)
    for depth in range(max([total] + [int(p["depth"]) for p in pending]), -1, -1):
        # Injections at depth d sit before the last d messages; several at one depth group by role.
        here = sorted(
            (p for p in pending if int(p["depth"]) == depth), key=lambda p: (_ROLE_ORDER.get(p["role"], 0), p["order"])
        )
        for part in here:
            out.append({k: v for k, v in part.items() if k not in ("depth", "order")} | {"depth": int(part["depth"])})
        if depth > 0 and depth <= total:
            index = total - depth
            message = chat[index]
            out.append(
                {
                    "role": message["role"],
                    "content": message.get("content", ""),
                    "block": "chatHistory",
                    "pointer": f"chat:{index}",
                    "chat_index": index,
                    "depth": depth - 1,
                    "source": f"chat:{index}",
                }
            )
    return out
