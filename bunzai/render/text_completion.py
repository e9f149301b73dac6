"""SillyTavern text-completion assembly: a context template's story string, example dialogue,
the chat start and the chat, wrapped in an instruct template's sequences.

Parts before the last stage are {role, content, block, source, pointer} like the chat-completion
ones, so macros and regexes run over them the same way; `wrap` then turns the parts into the
one prompt string a text-completion backend receives.

Modelled after SillyTavern's Generate (script.js) and instruct-mode.js: the story string
(bunzai.render.story_string, then macros), the system prompt from a sysprompt template (the
card's system prompt wins, as with "prefer character prompt", `{{original}}` being the
template's), examples (with lorebook entries at the examples' top and bottom) headed by
`example_separator`, `chat_start`, in-chat injections at depth (depth prompt, author's note,
lorebook at depth), the post-history instructions as the newest user message, instruct
sequences (input, output, system, their suffixes, first/last input and output sequences,
story-string prefix/suffix, `wrap`, `macro`, `names_behavior`, `system_same_as_user`) and the
last line (`always_force_name2` without instruct), and `user_alignment_message` before a chat
the user does not open. Not modelled: the examples' own instruct formatting, story-string
position other than in the prompt, trimming to the context size, stop strings.
"""

from __future__ import annotations

import re

from bunzai.render.chat_completion import Inputs, chat_history_parts
from bunzai.render.story_string import render_story_string

# Parts that precede the chat; every other part is a chat message as SillyTavern formats them.
_BEFORE_CHAT = ("story_string", "dialogueExamples", "chat_start")
_NAME_MACRO = re.compile(r"\{\{name\}\}", re.I)


def sequences(preset: dict | None) -> dict:
    return ((preset or {}).get("templates") or {}).get("sequences") or {}


def options(preset: dict | None) -> dict:
    return ((preset or {}).get("templates") or {}).get("options") or {}


def _example_blocks(raw: str) -> list[str]:
    return [b.strip() for b in re.split(r"<START>", raw or "", flags=re.I) if b.strip()]


def _example_parts(inputs: Inputs, separator: str) -> list[dict]:
    """The example blocks as SillyTavern sends them after the story string: lorebook entries at the
    examples' top (each put in front of the others, so the highest order comes first), the card's
    blocks, then the entries at the bottom; each block headed by the separator."""
    top = [e for e in inputs.lore if e["position"] == "em_top" and e["content"]]
    bottom = [e for e in inputs.lore if e["position"] == "em_bottom" and e["content"]]
    sources: list[tuple[str, str, str, bool]] = []
    for entry in [*reversed(top), None, *bottom]:
        if entry is None:
            for number, block in enumerate(_example_blocks(inputs.character.get("example_messages", ""))):
                pointer = "character:/body/example_messages"
                sources.append((block, pointer, f"character:{inputs.character_id}/example_messages#{number}", False))
            continue
        where = f"lorebook:{entry['book']}#{entry['uid']}"
        sources.extend((block, where, where, True) for block in _example_blocks(entry["content"]))
    return [
        {
            "role": "system",
            "content": f"{separator}\n{block}" if separator else block,
            "block": "dialogueExamples",
            "pointer": pointer,
            "source": source,
            "lore": lore,
        }
        for block, pointer, source, lore in sources
    ]


def assemble_text(
    inputs: Inputs, context: dict, instruct: dict | None, sysprompt: dict | None, names: dict[str, str], context_id: str
) -> tuple[list[dict], list[str]]:
    """The parts of a text-completion prompt, in order, and notes."""
    card = inputs.character
    ctx = sequences(context)
    notes: list[str] = []
    if options(context).get("story_string_position", 0) != 0:
        notes.append(
            "the context template places the story string in the chat (story_string_position); "
            "bunzai renders it at the top of the prompt"
        )
    # SillyTavern trims the card's fields and the persona (getCharacterCardFields), not the templates' text.
    system = (card.get("system_prompt") or "").strip() or sequences(sysprompt).get("content", "")
    lore_before = "\n".join(e["content"] for e in inputs.lore if e["position"] == "before_char" and e["content"])
    lore_after = "\n".join(e["content"] for e in inputs.lore if e["position"] == "after_char" and e["content"])
    raw_examples = card.get("example_messages", "")
    separator = ctx.get("example_separator", "")
    examples = _example_parts(inputs, separator)
    persona = inputs.persona or {}
    params = {
        "description": (card.get("description") or "").strip(),
        "personality": (card.get("personality") or "").strip(),
        "persona": (persona.get("description") or "").strip()
        if persona.get("position", "in_prompt") == "in_prompt"
        else "",
        "scenario": (card.get("scenario") or "").strip(),
        "system": system,
        "char": names["assistant"],
        "user": names["user"],
        "wiBefore": lore_before,
        "loreBefore": lore_before,
        "wiAfter": lore_after,
        "loreAfter": lore_after,
        "mesExamples": "\n".join(p["content"] for p in examples),
        "mesExamplesRaw": raw_examples,
        "anchorBefore": "",
        "anchorAfter": "",
    }
    template = ctx.get("story_string", "")
    story = render_story_string(template, params)
    source = f"preset:{context_id}#story_string"
    lore_sources = [
        f"lorebook:{e['book']}#{e['uid']}" for e in inputs.lore if e["position"] in ("before_char", "after_char")
    ]
    story_part = {
        "role": "system",
        "content": story,
        "block": "story_string",
        "pointer": "/body/templates/sequences/story_string",
        "source": ", ".join([source] + lore_sources),
        "lore": bool(lore_sources),
    }
    if card.get("system_prompt"):
        story_part["original"] = sequences(sysprompt).get("content", "")  # the card's {{original}}
    parts = [story_part]
    # skip_examples skips only the examples' instruct formatting (formatInstructModeExamples): they are still sent.
    if "mesExamples" not in template:
        parts.extend(examples)
    if ctx.get("chat_start"):
        parts.append(
            {
                "role": "system",
                "content": ctx["chat_start"],
                "block": "chat_start",
                "pointer": "/body/templates/sequences/chat_start",
                "source": f"preset:{context_id}#chat_start",
            }
        )
    marker = {"block": "chatHistory", "pointer": "marker:chatHistory"}
    history = chat_history_parts(
        inputs,
        {"new_chat": ""},
        marker,
        [],
        {pos: [e for e in inputs.lore if e["position"] == pos] for pos in ("an_top", "an_bottom", "at_depth")},
        persona.get("position", "in_prompt") if inputs.persona else "none",
        persona.get("description", ""),
        notes,
    )
    if sequences(sysprompt).get("post_history") or card.get("post_history_instructions"):
        history.append(_post_history(inputs, sysprompt))
    alignment = sequences(instruct).get("user_alignment_message") if instruct else ""
    if alignment and (not history or history[0]["role"] != "user"):
        # SillyTavern opens a chat that does not start with the user with this user message.
        parts.append(
            {
                "role": "user",
                "content": alignment,
                "block": "user_alignment",
                "pointer": "user_alignment_message",
                "source": "instruct#user_alignment_message",
            }
        )
    parts.extend(history)
    return parts, notes


def _post_history(inputs: Inputs, sysprompt: dict | None) -> dict:
    """The post-history instructions: SillyTavern pushes them after the chat as a user message without a name."""
    card = inputs.character
    template_text = sequences(sysprompt).get("post_history", "")
    part = {
        "role": "user",
        "content": (card.get("post_history_instructions") or "").strip() or template_text,
        "block": "post_history",
        "pointer": "post_history",
        "source": f"character:{inputs.character_id}/post_history_instructions"
        if card.get("post_history_instructions")
        else "sysprompt#post_history",
    }
    if card.get("post_history_instructions"):
        part["original"] = template_text
    return part


def wrap(
    parts: list[dict], instruct: dict | None, context: dict, names: dict[str, str], expand
) -> tuple[list[dict], str]:
    """The parts with their instruct sequences, and the whole prompt string."""
    seq = sequences(instruct)
    opts = options(instruct)
    newline = "\n" if opts.get("wrap", True) else ""

    def s(name: str, speaker: str = "System", *, always: bool = False) -> str:
        value = seq.get(name) or ""
        if always or opts.get("macro", True):
            value = _NAME_MACRO.sub(lambda _: speaker, value)
            value = expand(value) if "{{" in value else value
        return value

    kept = [p for p in parts if p["content"].strip()]
    chat = [p for p in kept if p["block"] not in _BEFORE_CHAT + ("user_alignment",)]
    first = chat[0] if chat else None
    last_user = next((p for p in reversed(chat) if p["role"] == "user"), None)
    out: list[dict] = []
    for part in kept:
        text = part["content"]
        if part["block"] == "story_string":
            wrapped = _story(text, instruct, s, newline)
        elif part["block"] in _BEFORE_CHAT:
            wrapped = text + "\n"
        elif instruct is None:
            name = _speaker(part, names)
            wrapped = f"{name}: {text}\n" if name else text + "\n"
        else:
            opening = part is first or part["block"] == "user_alignment"
            position = "last" if part is last_user else "first" if opening else ""
            wrapped = _turn(part, text, position, s, opts, names)
        if wrapped:
            out.append(dict(part, content=wrapped.replace("\r", "")))  # SillyTavern sends no carriage return
    tail = _reply_start(out[-1]["content"] if chat else "", instruct, context, names, s, newline)
    if chat and (instruct is None or newline):
        # SillyTavern drops the last message's final newline; the reply line brings its own.
        last = out[-1]["content"]
        out[-1] = dict(out[-1], content=last[:-1] if last.endswith("\n") else last)
    if tail:
        out.append(
            {
                "role": "assistant",
                "content": tail,
                "block": "reply_start",
                "source": "instruct#last_output_sequence" if instruct else "context#name",
                "pointer": "reply_start",
            }
        )
    return out, "".join(p["content"] for p in out)


def _story(text: str, instruct: dict | None, s, newline: str) -> str:
    """The story string as formatInstructModeStoryString leaves it (renderStoryString's newline rule)."""
    text = text.lstrip("\n")
    if not text:
        return ""
    suffix = s("story_string_suffix", always=True) if instruct else ""
    if not text.endswith("\n") and (instruct is None or (newline and not suffix)):
        text += "\n"
    prefix = s("story_string_prefix", always=True) if instruct else ""
    return (prefix + newline if prefix else "") + text + suffix


def _speaker(part: dict, names: dict[str, str]) -> str:
    """The name SillyTavern gives a chat message: none for system messages and the post-history one."""
    if part["role"] not in ("user", "assistant") or part["block"] == "post_history":
        return ""
    return names[part["role"]]


def _turn(part: dict, text: str, position: str, s, opts: dict, names: dict[str, str]) -> str:
    """One chat message in instruct sequences, as formatInstructModeChat formats it."""
    role = part["role"] if part["role"] in ("user", "assistant") else "system"
    name = _speaker(part, names)
    if role == "system" and opts.get("system_same_as_user"):
        prefix, suffix = s("input_sequence"), s("input_suffix")
    elif role == "system":
        prefix, suffix = s("system_sequence"), s("system_suffix")
    else:
        kind = "input" if role == "user" else "output"
        speaker = name or "System"
        prefix = (s(f"{position}_{kind}_sequence", speaker) if position else "") or s(f"{kind}_sequence", speaker)
        suffix = s(f"{kind}_suffix", speaker)
    wrapping = opts.get("wrap", True)
    body = (f"{name}: " if name and opts.get("names_behavior", "force") == "always" else "") + text
    body += suffix or ("\n" if wrapping else "")
    return ("\n" if wrapping else "").join(x for x in (prefix, body) if x)


def _reply_start(previous: str, instruct: dict | None, context: dict, names: dict[str, str], s, newline: str) -> str:
    """The last line: formatInstructModePrompt with instruct (the name only when names_behavior is `always`),
    else the character's name when `always_force_name2` is on."""
    name = names["assistant"]
    if instruct is None:
        if not options(context).get("always_force_name2", True):
            return ""
        # the last message loses one final newline, and a name goes on a line of its own
        return ("" if previous.endswith("\n\n") else "\n") + f"{name}:"
    named = options(instruct).get("names_behavior", "force") == "always"
    raw = sequences(instruct)
    sequence = s("last_output_sequence", name) or s("output_sequence", name)
    filler = ""
    if named and raw.get("last_output_sequence") and re.search(r"\s$", raw.get("output_sequence") or ""):
        # SillyTavern's Mistral rule: an output sequence ending in a space lends it to the last one that does not
        filler = "" if re.search(r"\s$", raw["last_output_sequence"]) else raw["output_sequence"][-1]
    text = newline + sequence + (newline + filler + f"{name}:" if named else "")
    return (text.rstrip() if newline else text) + ("" if named else newline)
