"""SillyTavern text-completion assembly: a context template's story string, example dialogue,
the chat start and the chat, wrapped in an instruct template's sequences.

Parts before the last stage are {role, content, block, source, pointer} like the chat-completion
ones, so macros and regexes run over them the same way; `wrap` then turns the parts into the
one prompt string a text-completion backend receives.

Modelled: the story string (bunzai.render.story_string, then macros), the system prompt from a
sysprompt template (the card's system prompt wins, as with "prefer character prompt"),
examples headed by `example_separator`, `chat_start`, in-chat injections at depth (depth
prompt, author's note, lorebook at depth), instruct sequences (input, output, system, their
suffixes, first/last output sequences, story-string prefix/suffix, `wrap`, `macro`,
`names_behavior`), and the final `Char:` line. Not modelled: `system_same_as_user`,
`user_alignment_message`, `skip_examples` only skips, story-string position other than in
the prompt, trimming to the context size, stop strings.
"""

from __future__ import annotations

import re

from bunzai.render.chat_completion import Inputs, chat_history_parts
from bunzai.render.story_string import render_story_string


def sequences(preset: dict | None) -> dict:
    return ((preset or {}).get("templates") or {}).get("sequences") or {}


def options(preset: dict | None) -> dict:
    return ((preset or {}).get("templates") or {}).get("options") or {}


def assemble_text(
    inputs: Inputs, context: dict, instruct: dict | None, sysprompt: dict | None, names: dict[str, str], context_id: str
) -> tuple[list[dict], list[str]]:
    """The parts of a text-completion prompt, in order, and notes."""
    card = inputs.character
    ctx = sequences(context)
    notes: list[str] = []
    system = card.get("system_prompt") or sequences(sysprompt).get("content", "")
    lore_before = "\n".join(e["content"] for e in inputs.lore if e["position"] == "before_char" and e["content"])
    lore_after = "\n".join(e["content"] for e in inputs.lore if e["position"] == "after_char" and e["content"])
    raw_examples = card.get("example_messages", "")
    separator = ctx.get("example_separator", "")
    blocks = [b.strip() for b in re.split(r"<START>", raw_examples or "", flags=re.I) if b.strip()]
    examples = "\n".join(f"{separator}\n{b}" if separator else b for b in blocks)
    persona = inputs.persona or {}
    params = {
        "description": card.get("description", ""),
        "personality": card.get("personality", ""),
        "persona": persona.get("description", "") if persona.get("position", "in_prompt") == "in_prompt" else "",
        "scenario": card.get("scenario", ""),
        "system": system,
        "char": names["assistant"],
        "user": names["user"],
        "wiBefore": lore_before,
        "loreBefore": lore_before,
        "wiAfter": lore_after,
        "loreAfter": lore_after,
        "mesExamples": examples,
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
    parts = [
        {
            "role": "system",
            "content": story,
            "block": "story_string",
            "pointer": "/body/templates/sequences/story_string",
            "source": ", ".join([source] + lore_sources),
            "lore": bool(lore_sources),
        }
    ]
    instruct_opts = options(instruct)
    if blocks and "mesExamples" not in template and not instruct_opts.get("skip_examples"):
        for number, block in enumerate(blocks):
            parts.append(
                {
                    "role": "system",
                    "content": f"{separator}\n{block}" if separator else block,
                    "block": "dialogueExamples",
                    "pointer": "character:/body/example_messages",
                    "source": f"character:{inputs.character_id}/example_messages#{number}",
                }
            )
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
    parts.extend(history)
    if sequences(sysprompt).get("post_history") or card.get("post_history_instructions"):
        text = card.get("post_history_instructions") or sequences(sysprompt).get("post_history", "")
        parts.append(
            {
                "role": "system",
                "content": text,
                "block": "post_history",
                "pointer": "post_history",
                "source": f"character:{inputs.character_id}/post_history_instructions"
                if card.get("post_history_instructions")
                else "sysprompt#post_history",
            }
        )
    return parts, notes


def wrap(
    parts: list[dict], instruct: dict | None, context: dict, names: dict[str, str], expand
) -> tuple[list[dict], str]:
    """The parts with their instruct sequences, and the whole prompt string."""
    seq = sequences(instruct)
    opts = options(instruct)
    newline = "\n" if opts.get("wrap", True) else ""
    behaviour = opts.get("names_behavior", "force") if instruct else "always"
    force_char = options(context).get("always_force_name2", True)

    def s(name: str) -> str:
        value = seq.get(name, "")
        return expand(value) if opts.get("macro", True) and "{{" in value else value

    out: list[dict] = []
    chat_parts = [p for p in parts if "chat_index" in p]
    first_assistant = next((p for p in chat_parts if p["role"] == "assistant"), None)
    for part in parts:
        text = part["content"]
        if not text.strip():
            continue
        role = part["role"]
        if instruct is None:
            wrapped = (
                f"{names[role]}: {text}\n"
                if "chat_index" in part and role in ("user", "assistant")
                else text.rstrip("\n") + "\n"
            )
        elif part["block"] == "story_string":
            prefix = (
                s("story_string_prefix")
                if "story_string_prefix" in seq
                else (s("system_sequence") + newline if s("system_sequence") else "")
            )
            suffix = s("story_string_suffix") if "story_string_suffix" in seq else s("system_suffix")
            wrapped = prefix + text.rstrip("\n") + "\n" + suffix
        elif role in ("user", "assistant") and "chat_index" in part:
            named = f"{names[role]}: " if behaviour == "always" else ""
            if role == "user":
                wrapped = s("input_sequence") + newline + named + text + (s("input_suffix") or newline)
            else:
                opener = (
                    s("first_output_sequence")
                    if part is first_assistant and s("first_output_sequence")
                    else s("output_sequence")
                )
                wrapped = opener + newline + named + text + (s("output_suffix") or newline)
        elif part["block"] in ("dialogueExamples", "chat_start"):
            wrapped = text + "\n"
        else:
            wrapped = s("system_sequence") + newline + text + (s("system_suffix") or newline)
        out.append(dict(part, content=wrapped))
    last = (s("last_output_sequence") or s("output_sequence")) if instruct else ""
    named = f"{names['assistant']}:" if (behaviour in ("always",) or force_char) else ""
    tail = last + newline + named if instruct else f"{names['assistant']}:"
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
