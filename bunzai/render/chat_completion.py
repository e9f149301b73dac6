"""SillyTavern chat-completion assembly: a preset's prompt manager turned into messages.

The prompt manager (`prompt_manager`) is the preset's blocks, with SillyTavern's default
prompt for each default identifier the preset lacks (PromptManager.checkForMissingPrompts;
a 2023 preset's three prompts land on them), and the active order: the preset's `global`
order (SillyTavern's character_id 100001; bunzai.model.preset.active_order_index), else
SillyTavern's default order (which it adds for a preset whose `prompt_order` has no 100001
list, and keeps for one with none when no other preset changed it). Each enabled item
becomes one part: a block's content, or a marker filled from its source (character
description, personality and scenario through the preset's formats, persona, world info
before/after through `wi_format`, dialogue examples, the chat history). Every enabled
block with absolute position, wherever the order places it, the character's depth prompt,
the author's note, a persona at depth and lorebook entries at depth are injected into the
chat history at their depth with their role, in SillyTavern's order (openai.js
populationInjectionPrompts); `join_injections` makes one message of each depth, injection
order and role, as SillyTavern sends them. The character's system prompt replaces `main`,
and its post-history instructions replace `jailbreak`, unless the block forbids overrides;
`{{original}}` in the override is the block's own text.

A part is {role, content, block, source, pointer, chat_index?, lore?}; the stages in
bunzai.render.render evaluate macros and regexes over these parts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bunzai import limits
from bunzai.adapters.sillytavern.presets_chat_prompts import JS_ROLES, js_depth, written_depth, written_role
from bunzai.jstext import js_trim
from bunzai.model.preset import active_order_index
from bunzai.render.examples import example_blocks

BUILT_IN_SLOTS = ("main", "nsfw", "jailbreak", "enhanceDefinitions")
# SillyTavern's chatCompletionDefaultPrompts (public/scripts/PromptManager.js): (identifier, name, content, marker).
DEFAULT_PROMPTS = (
    (
        "main",
        "Main Prompt",
        "Write {{char}}'s next reply in a fictional chat between {{charIfNotGroup}} and {{user}}.",
        False,
    ),
    ("nsfw", "Auxiliary Prompt", "", False),
    ("dialogueExamples", "Chat Examples", "", True),
    ("jailbreak", "Post-History Instructions", "", False),
    ("chatHistory", "Chat History", "", True),
    ("worldInfoAfter", "World Info (after)", "", True),
    ("worldInfoBefore", "World Info (before)", "", True),
    (
        "enhanceDefinitions",
        "Enhance Definitions",
        "If you have more knowledge of {{char}}, add to the character's lore and personality to enhance them but "
        "keep the Character Sheet's definitions absolute.",
        False,
    ),
    ("charDescription", "Char Description", "", True),
    ("charPersonality", "Char Personality", "", True),
    ("scenario", "Scenario", "", True),
    ("personaDescription", "Persona Description", "", True),
)
# SillyTavern's promptManagerDefaultPromptOrder: the order a preset with none is rendered with.
DEFAULT_ORDER = (
    ("main", True),
    ("worldInfoBefore", True),
    ("personaDescription", True),
    ("charDescription", True),
    ("charPersonality", True),
    ("scenario", True),
    ("enhanceDefinitions", False),
    ("nsfw", True),
    ("worldInfoAfter", True),
    ("dialogueExamples", True),
    ("chatHistory", True),
    ("jailbreak", True),
)
DEFAULT_TARGET = "default"  # the target named for SillyTavern's default order
# In-chat injections at one depth: SillyTavern builds one message per injection order (high to low) and role
# (system, user, assistant) and splices them into the reversed chat, so once the chat is turned back they read
# lowest order first and, within an order, assistant, user, system.
_ROLE_RANK = {"assistant": 0, "user": 1, "system": 2}
# Within one such message the preset's own in-chat prompts come first, then the extension prompts sorted by their
# key: the author's note (2_floating_prompt), the depth prompt (DEPTH_PROMPT), the persona (PERSONA_DESCRIPTION),
# world info at depth (customDepthWI...). Extension prompts join the order-100 messages only.
_RANK = {"prompt": 0, "authors_note": 1, "depth_prompt": 2, "persona": 3, "world_info_depth": 4}
EXTENSION_ORDER = 100


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
    user_name: str = ""  # the names the example dialogue's speakers are written with, besides {{user}}/{{char}}
    char_name: str = ""
    # the SillyTavern file the preset was read from (its escrow), which an export writes over:
    # what SillyTavern compares a block's values in is what that file will hold
    preset_file: dict | None = None
    # text completion: the texts Generate fills on their own before it places them (the story
    # string's card fields, the system prompt and post-history instructions; card_fields.story_fills)
    filled: dict | None = None


@dataclass
class PromptManager:
    """The blocks SillyTavern's prompt manager holds for a preset, and the order it sends them in."""

    target: str  # the active order: "global" (or "100001", see active_order_index), or DEFAULT_TARGET
    items: list[dict]  # its items, {identifier, enabled}
    blocks: dict[str, tuple[int | None, dict]]  # identifier -> (index in /body/prompts, None: a default; block)
    passed_over: tuple[str, ...] = ()  # with DEFAULT_TARGET: the preset's orders, none of them the active one

    def pointer(self, identifier: str) -> str:
        """Where a block's text is: a pointer into the preset, or `default:ID` for SillyTavern's default."""
        index = self.blocks[identifier][0]
        return f"/body/prompts/{index}/content" if index is not None else f"default:{identifier}"

    def source(self, preset_id: str, identifier: str) -> str:
        index = self.blocks[identifier][0]
        return f"preset:{preset_id}#{identifier}" if index is not None else f"sillytavern:default#{identifier}"


def _default_block(identifier: str, name: str, content: str, marker: bool) -> dict:
    return {
        "identifier": identifier,
        "name": name,
        "system_prompt": True,
        "role": "system",
        "content": content,
        "marker": marker,
        "position": "relative",
        "depth": 4,
        "injection_order": 100,
        "triggers": [],
        "forbid_overrides": False,
        "enabled": True,
    }


def prompt_manager(preset: dict) -> PromptManager:
    """The prompt manager render and preset-verify both read.

    Blocks: the preset's (the first one of an identifier), then SillyTavern's default prompt for each default
    identifier the preset lacks (checkForMissingPrompts adds them on load; a 2023 preset's `main_prompt` ...
    land on `main` ...). Order: the active one (`global`), else SillyTavern's default order: a preset whose
    orders are all others (a file with only the unused 100000 list) gets it added (sanitizeServiceSettings), and
    one with no `prompt_order` keeps the order SillyTavern had active, the default one unless another preset
    changed it.
    """
    blocks: dict[str, tuple[int | None, dict]] = {}
    for index, block in enumerate(preset.get("prompts") or []):
        blocks.setdefault(block.get("identifier"), (index, block))
    for identifier, name, content, marker in DEFAULT_PROMPTS:
        blocks.setdefault(identifier, (None, _default_block(identifier, name, content, marker)))
    orders = preset.get("orders") or []
    targets = [o.get("target", "") for o in orders]
    index = active_order_index(targets)
    if index is None:
        items = [{"identifier": identifier, "enabled": enabled} for identifier, enabled in DEFAULT_ORDER]
        return PromptManager(DEFAULT_TARGET, items, blocks, tuple(targets))
    return PromptManager(targets[index], orders[index].get("items") or [], blocks)


def order_label(manager: PromptManager) -> str:
    """How a message names the active order."""
    if manager.target != DEFAULT_TARGET:
        return f"the {manager.target} order"
    if manager.passed_over:
        return "SillyTavern's default order (the preset has no global order)"
    return "SillyTavern's default order (the preset has none)"


def passed_over_note(manager: PromptManager) -> str:
    """Why the default order is used though the preset has orders."""
    return (
        "the preset has no global prompt order (SillyTavern's character_id 100001), only "
        + ", ".join(repr(target) for target in manager.passed_over)
        + ": SillyTavern adds its default order and sends that, so this render uses SillyTavern's default order"
    )


def assemble(inputs: Inputs) -> tuple[list[dict], list[str]]:
    """The parts, in prompt order, and notes on what was not modelled."""
    preset, card = inputs.preset, inputs.character
    manager = prompt_manager(preset)
    utility = preset.get("utility_prompts") or {}
    notes: list[str] = []
    parts: list[dict] = []
    if manager.passed_over:
        notes.append(passed_over_note(manager))
    elif manager.target == DEFAULT_TARGET:
        notes.append(
            "the preset has no prompt order: SillyTavern keeps the order it had active; "
            "this render uses SillyTavern's default order"
        )
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
    sent: list[tuple[str, dict, dict]] = []
    for item in manager.items:
        identifier = item.get("identifier")
        # SillyTavern places a prompt once, at its first order entry, whose flag decides
        # (openai.js addToChatCompletion: prompts.index / isPromptDisabledForActiveCharacter).
        if identifier in placed:
            continue
        placed.add(identifier)
        if not item.get("enabled", True) or identifier not in manager.blocks:
            continue
        block = manager.blocks[identifier][1]
        triggers = block.get("triggers") or []
        if triggers and "normal" not in triggers:
            # render is a normal generation, so a block for others (impersonate, continue ...) is left out;
            # SillyTavern keeps main as an empty slot the card's system prompt still fills, and sends the
            # other markers (after the order's last item: here, where the order puts them)
            if block.get("marker") and identifier not in ("chatHistory", "dialogueExamples"):
                pass
            elif identifier == "main":
                block = dict(block, content="")
            else:
                continue
        base = {"role": block.get("role", "system"), "block": identifier, "pointer": manager.pointer(identifier)}
        sent.append((identifier, block, base))
    # Every enabled in-chat block is injected, wherever the order places it, before or after the
    # chat history (openai.js populateChatCompletion: absolutePrompts from the whole collection).
    in_chat = [row for row in sent if row[1].get("position") == "absolute" and not row[1].get("marker")]
    unmatched, roleless = [], []
    for identifier, block, base in in_chat:
        if not js_depth(written_depth(block, inputs.preset_file)):
            unmatched.append(manager.source(inputs.preset_id, identifier))
            continue
        if written_role(block, inputs.preset_file) not in JS_ROLES:
            roleless.append(manager.source(inputs.preset_id, identifier))
            continue
        injections.append(
            dict(
                base,
                content=block.get("content", ""),
                source=manager.source(inputs.preset_id, identifier),
                depth=block.get("depth", 4),
                order=block.get("injection_order", 100),
                rank="prompt",
            )
        )
    if roleless:
        notes.append(
            f"{', '.join(roleless)}: in-chat, and the preset's file holds its role as no role name (a number such "
            "as 1, other text, or none), which SillyTavern's `prompt.role === role` matches for no role; not sent"
        )
    if unmatched:
        notes.append(
            f"{', '.join(unmatched)}: in-chat, and the preset's file holds its injection_depth as no whole number "
            '(text such as "4", a fraction, or none), which SillyTavern\'s `injection_depth === depth` matches at no '
            "depth; not sent"
        )
    for identifier, block, base in sent:
        if any(identifier == row[0] for row in in_chat):
            continue
        if not block.get("marker"):
            content, source = block.get("content", ""), manager.source(inputs.preset_id, identifier)
            override = {"main": "system_prompt", "jailbreak": "post_history_instructions"}.get(identifier)
            if override and js_trim(card.get(override) or "") and not block.get("forbid_overrides"):
                parts.append(
                    dict(
                        base,
                        **_card_text(card, override),
                        source=f"character:{inputs.character_id}/{override}",
                        original=content,
                        original_at=base["pointer"],
                    )
                )
                continue
            parts.append(dict(base, content=content, source=source))
            continue
        marker = dict(base, pointer=f"marker:{identifier}")
        if identifier == "charDescription":  # the field as written: a problem in it is the card's
            part = dict(
                marker, **_card_text(card, "description"), source=f"character:{inputs.character_id}/description"
            )
            fill = (inputs.filled or {}).get("description")
            if fill is not None:
                # Generate sends the description getCharacterCardFields filled on its own (no card
                # fields to read, its variable macros run then): the part sends that text
                span = {"start": 0, "end": len(fill.text), "where": "character:/body/description"}
                span |= {"raw": fill.text, "base": 0, "filled": True}
                part["filled"] = {"content": fill.text, "spans": [span], "fill_problems": fill.problems}
            parts.append(part)
        elif identifier == "charPersonality":
            if js_trim(card.get("personality") or ""):
                text = utility.get("personality_format") or "{{personality}}"
                parts.append(dict(marker, content=text, source=f"character:{inputs.character_id}/personality"))
        elif identifier == "scenario":
            if js_trim(card.get("scenario") or ""):
                text = utility.get("scenario_format") or "{{scenario}}"
                parts.append(dict(marker, content=text, source=f"character:{inputs.character_id}/scenario"))
        elif identifier == "personaDescription":
            if persona_position == "in_prompt" and persona_text:
                parts.append(
                    dict(
                        marker,
                        content=persona_text,
                        source=f"persona:{inputs.persona_id}/description",
                        pointer="persona:/body/description",
                    )
                )
        elif identifier in ("worldInfoBefore", "worldInfoAfter"):
            entries = lore_at["before_char" if identifier == "worldInfoBefore" else "after_char"]
            text = lore_text(entries)
            if text:
                # formatWorldInfo: a format of only whitespace sends the entries as they are
                wrapper = utility.get("wi_format") or ""
                wrapper = wrapper if wrapper.strip() else "{0}"
                parts.append(
                    dict(
                        marker,
                        content=wrapper.replace("{0}", text),
                        lore=True,
                        source=", ".join(f"lorebook:{e['book']}#{e['uid']}" for e in entries),
                    )
                )
        elif identifier == "dialogueExamples":
            parts.extend(_examples(js_trim(card.get("example_messages") or ""), utility, marker, inputs, lore_at))
        elif identifier == "chatHistory":
            parts.extend(
                chat_history_parts(inputs, utility, marker, injections, lore_at, persona_position, persona_text, notes)
            )
        else:
            notes.append(f"marker {identifier!r} has no source bunzai knows; it renders nothing")
    if persona_position in ("top_an", "bottom_an"):
        notes.append("a persona placed in the author's note is placed there, above or below the note")
    return parts, notes


def _card_text(card: dict, name: str) -> dict:
    """A card field as SillyTavern sends it, trimmed (getCharacterCardFields), with the span that
    places a problem in it in the field as written."""
    raw = card.get(name) or ""
    text = js_trim(raw)
    span = {"start": 0, "end": len(text), "where": f"character:/body/{name}", "raw": raw, "base": raw.find(text)}
    return {"content": text, "pointer": f"character:/body/{name}", "spans": [span]}


def _examples(raw: str, utility: dict, marker: dict, inputs: Inputs, lore_at: dict) -> list[dict]:
    """The dialogue examples as populateDialogueExamples sends them: the lorebook entries placed
    at the examples' top and bottom are example text too (Generate runs each through
    parseMesExamples, unshifting the top ones in front of the card's and pushing the bottom
    ones after), so each block of each gets its header and its named messages."""
    texts = [
        *((e["content"], e, None) for e in reversed(lore_at["em_top"]) if e["content"]),  # unshifted: last first
        (raw, None, f"character:{inputs.character_id}/example_messages"),
        *((e["content"], e, None) for e in lore_at["em_bottom"] if e["content"]),
    ]
    header = utility.get("new_example_chat") or "[Example Chat]"
    speakers = speaker_patterns(inputs.user_name, inputs.char_name)
    out: list[dict] = []
    for text, entry, card_source in texts:
        # setOpenAIMessageExamples takes the carriage returns out of each block
        for number, block in enumerate(b.replace("\r", "") for b, _ in example_blocks(text)):
            out.append(
                dict(marker, role="system", content=header, source=f"preset:{inputs.preset_id}#new_example_chat")
            )
            for line_no, (name, content) in enumerate(example_messages(block, speakers)):
                part = dict(marker, role="system", name=name, content=content)
                if entry is None:
                    part["source"] = f"{card_source}#{number}.{line_no}"
                else:
                    part.update(lore=True, source=f"lorebook:{entry['book']}#{entry['uid']}")
                out.append(part)
    return out


# A speaker's line starts with its name and a colon; {{user}}/{{char}} are the names once macros
# are filled (SillyTavern reads the examples after substituteParams), in any case, as macros are.
_USER_MACROS = r"(?i:\{\{\s*user\s*\}\}:|<user>:)"
_CHAR_MACROS = r"(?i:\{\{\s*char\s*\}\}:|<bot>:|<char>:)"


def speaker_patterns(user_name: str, char_name: str) -> dict[str, re.Pattern]:
    """Each speaker's line start: its macros, or its name as written (case counts there)."""
    return {
        speaker: re.compile("|".join([macros] + ([re.escape(name + ":")] if name else [])))
        for speaker, macros, name in (
            ("example_user", _USER_MACROS, user_name),
            ("example_assistant", _CHAR_MACROS, char_name),
        )
    }


def example_messages(block: str, speakers: dict[str, re.Pattern]) -> list[tuple[str, str]]:
    """One block's messages as parseExampleIntoIndividual reads them: a message starts at a line
    that begins with a speaker's name and a colon, runs to the next speaker's line, loses that
    name and colon, and is trimmed; lines before the first speaker join the first message, and a
    block with no speaker sends nothing. Every message is a system message named `example_user`
    or `example_assistant` (populateDialogueExamples)."""
    out: list[tuple[str, str]] = []
    lines: list[str] = []
    speaking: str | None = None
    prefix = ""

    def flush() -> None:
        text = "\n".join(lines)
        if prefix:
            text = text.replace(prefix, "", 1)
        out.append((speaking, text.strip()))

    for line in block.split("\n"):
        for name in ("example_user", "example_assistant"):  # the user's name is tried first, as in SillyTavern
            found = speakers[name].match(line)
            if found:
                if speaking is not None and speaking != name:
                    flush()
                    lines = []
                if speaking != name:
                    prefix = found.group(0)
                speaking = name
                break
        lines.append(line)
    if speaking is not None:
        flush()
    return out


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
                "order": EXTENSION_ORDER,
                "rank": "depth_prompt",
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
                "order": EXTENSION_ORDER,
                "rank": "authors_note",
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
                "order": EXTENSION_ORDER,
                "rank": "persona",
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
                    "order": EXTENSION_ORDER,  # world info at depth is an extension prompt, whatever its entry order
                    "rank": "world_info_depth",
                    "source": f"lorebook:{entry['book']}#{entry['uid']}",
                    "lore": True,
                }
            )
    # SillyTavern's injection loops (populationInjectionPrompts, doChatInject) stop at MAX_INJECTION_DEPTH
    beyond = [p for p in pending if int(p["depth"]) > limits.RENDER_MAX_INJECTION_DEPTH]
    if beyond:
        notes.append(
            f"{', '.join(p['source'] for p in beyond)}: placed deeper than {limits.RENDER_MAX_INJECTION_DEPTH:,} "
            "messages, where SillyTavern injects nothing; not sent"
        )
        pending = [p for p in pending if int(p["depth"]) <= limits.RENDER_MAX_INJECTION_DEPTH]
    out: list[dict] = []
    new_chat = utility.get("new_chat", "[Start a new Chat]")
    if new_chat:
        out.append(dict(marker, role="system", content=new_chat, source=f"preset:{inputs.preset_id}#new_chat"))
    chat = inputs.chat
    total = len(chat)
    for depth in range(max([total] + [int(p["depth"]) for p in pending]), -1, -1):
        # Injections at depth d sit before the last d messages, in SillyTavern's order (see _ROLE_RANK).
        here = sorted(
            (p for p in pending if int(p["depth"]) == depth),
            key=lambda p: (p["order"], _ROLE_RANK.get(p["role"], _ROLE_RANK["system"]), _RANK[p["rank"]]),
        )
        for part in here:
            shown = {k: v for k, v in part.items() if k not in ("depth", "order", "rank")}
            group = (depth, part["order"], part["role"])
            out.append(shown | {"depth": depth, "injection": group, "extension": part["rank"] != "prompt"})
        if depth > 0 and depth <= total:
            index = total - depth
            message = chat[index]
            out.append(
                {
                    "role": message["role"],
                    "name": message.get("name") or "",
                    "content": message.get("content", ""),
                    "block": "chatHistory",
                    "pointer": f"chat:{index}",
                    "chat_index": index,
                    "depth": depth - 1,
                    "source": f"chat:{index}",
                }
            )
    return out


def join_injections(parts: list[dict]) -> list[dict]:
    """The parts with each run of in-chat injections of one depth, injection order and role made one message,
    as SillyTavern sends it (populationInjectionPrompts): the preset's prompts joined with a newline and trimmed,
    then each extension prompt trimmed, all joined with a newline; a run with no text sends nothing."""
    out: list[dict] = []
    index = 0
    while index < len(parts):
        part = parts[index]
        group = part.get("injection")
        if group is None:
            out.append(part)
            index += 1
            continue
        run = [part]
        index += 1
        while index < len(parts) and parts[index].get("injection") == group:
            run.append(parts[index])
            index += 1
        prompts = [p for p in run if not p.get("extension") and p["content"]]
        extensions = [p for p in run if p.get("extension") and p["content"].strip()]
        texts = ["\n".join(p["content"] for p in prompts).strip(), "\n".join(p["content"].strip() for p in extensions)]
        content = "\n".join(text for text in texts if text)
        used = [p for p in prompts + extensions if p["content"].strip()]
        if not content or not used:
            continue
        joined = dict(used[0], content=content)
        if len(used) > 1:
            joined["block"] = ", ".join(dict.fromkeys(p["block"] for p in used))
            joined["source"] = ", ".join(p["source"] for p in used)
            joined["lore"] = any(p.get("lore") for p in used)
        out.append(joined)
    return out
