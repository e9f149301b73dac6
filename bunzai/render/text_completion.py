"""SillyTavern text-completion assembly: a context template's story string, example dialogue,
the chat start and the chat, wrapped in an instruct template's sequences.

Parts before the last stage are {role, content, block, source, pointer} like the chat-completion
ones, so macros and regexes run over them the same way; `wrap` then turns the parts into the
one prompt string a text-completion backend receives.

Modelled after SillyTavern's Generate (script.js) and instruct-mode.js: the story string
(bunzai.render.story_string, then macros), the system prompt from a sysprompt template (the
card's system prompt wins, as with "prefer character prompt", `{{original}}` being the
template's; with none, SillyTavern's default one). The story string and the post-history
instructions are shown built from the card's fields as written, and carry as `filled` what
SillyTavern substitutes: the same built from the texts Generate fills first (`Inputs.filled`,
bunzai.render.card_fields.story_fills), whose problems were found then. Then examples (with
lorebook entries at the examples' top and bottom) headed by
`example_separator`, `chat_start`, in-chat injections at depth (depth prompt, author's note,
lorebook at depth), the post-history instructions as the newest user message, instruct
sequences (input, output, system, their suffixes, first/last input and output sequences,
story-string prefix/suffix, `wrap`, `macro`, `names_behavior`, `system_same_as_user`) and the
last line (`always_force_name2` without instruct), `user_alignment_message` before a chat
the user does not open, and the examples' blocks (parseMesExamples) in the instruct sequences
(formatInstructModeExamples). Not modelled: story-string position other than in the prompt,
trimming to the context size, stop strings, the instruct formatting of `{{mesExamples}}`.
"""

from __future__ import annotations

import os
import re

from bunzai.jstext import js_trim
from bunzai.render.chat_completion import Inputs, chat_history_parts, example_messages, speaker_patterns
from bunzai.render.examples import example_blocks
from bunzai.render.story_string import render_story_string

# Parts that precede the chat; every other part is a chat message as SillyTavern formats them.
_BEFORE_CHAT = ("story_string", "dialogueExamples", "chat_start")
_NAME_MACRO = re.compile(r"\{\{name\}\}", re.I)
_SEQ = "/body/templates/sequences/"
_CARD_PARAMS = ("description", "personality", "scenario")
# What SillyTavern's power_user.context holds when no context template is chosen, and so what
# {{exampleSeparator}} and {{chatStart}} give then (power-user.js defaultExampleSeparator and
# defaultChatStart; a new user's default/content/settings.json and the shipped Default context
# template hold the same).
DEFAULT_CONTEXT_SEQUENCES = {"example_separator": "***", "chat_start": "***"}
# The system prompt SillyTavern has on when none is chosen: power_user.sysprompt in power-user.js
# and a new user's default/content/settings.json (enabled, "Neutral - Chat"; no post-history).
DEFAULT_SYSPROMPT = {
    "family": "sysprompt",
    "templates": {
        "sequences": {
            "content": "Write {{char}}'s next reply in a fictional chat between {{char}} and {{user}}.",
            "post_history": "",
        }
    },
}
DEFAULT_SYSPROMPT_NOTE = (
    'no --sysprompt: the system prompt is SillyTavern\'s default ("Neutral - Chat", on, as a new SillyTavern '
    "has it); name a sysprompt template to render another"
)
# SillyTavern with its system prompt switched off (power_user.sysprompt.enabled false): Generate
# sets the story string's `system` to '' and pushes no post-history instructions, the card's neither
SYSPROMPT_OFF = {"family": "sysprompt", "templates": {"sequences": {"content": "", "post_history": ""}}}
SYSPROMPT_OFF_NOTE = (
    "the system prompt is off (--no-sysprompt): the story string's {{system}} is empty and no post-history "
    'instructions are sent, the card\'s neither, as SillyTavern does with "Enable System Prompt" unchecked'
)


def sequences(preset: dict | None) -> dict:
    return ((preset or {}).get("templates") or {}).get("sequences") or {}


def options(preset: dict | None) -> dict:
    return ((preset or {}).get("templates") or {}).get("options") or {}


# --- where each piece of a part's text comes from ------------------------------------------------
# A part built from several sources carries `spans`: {start, end} in its text, `where` the text came
# from (as a part's pointer: `character:/body/description`, `sysprompt:/body/templates/...`,
# `lorebook:BOOK#UID`), `raw` that source's text and `base` where the span starts in it; `locate`
# moves a macro problem found in the part to its source.
def _span(where: str, raw: str, text: str, base: int | None = None) -> dict:
    """`text`, taken from `raw` (at `base`; else where it first stands, after a stripped field's whitespace)."""
    base = max(raw.find(text), 0) if base is None else base
    return {"start": 0, "end": len(text), "where": where, "raw": raw, "base": base}


def _shifted(spans: list[dict], by: int) -> list[dict]:
    return [dict(span, start=span["start"] + by, end=span["end"] + by) for span in spans]


def _joined(pieces: list[tuple[str, list[dict]]], glue: str = "\n") -> tuple[str, list[dict]]:
    """Texts joined with `glue`, and their spans moved to where each text lands."""
    spans: list[dict] = []
    position = 0
    for text, own in pieces:
        spans += _shifted(own, position)
        position += len(text) + len(glue)
    return glue.join(text for text, _ in pieces), spans


def locate(problem: dict, part: dict) -> dict | None:
    """The macro problem moved to the source of the text it sits in (its offset, line and column
    there); None in a text filled before it was placed (a `filled` span), where it was found then."""
    offset = problem.get("offset", 0)
    for span in part.get("spans") or ():
        if span["start"] <= offset < span["end"]:
            if span.get("filled"):
                return None
            at = span["base"] + offset - span["start"]
            line, column = _line_column(span["raw"], at)
            return dict(problem, where=span["where"], offset=at, line=line, column=column)
    return problem


def _line_column(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _story_string(template: str, params: dict[str, str], sources: dict[str, list[dict]]) -> tuple[str, list[dict]]:
    """The story string and its spans: the template's own text, and each parameter's text at its source.

    The template is rendered with marks (a nonce no input holds) after every `}}` and around each
    parameter's text; a Handlebars tag ends in `}}`, so each run of the template's own text starts
    at a mark naming its offset. Marks are then taken out."""
    story = render_story_string(template, params)
    nonce = os.urandom(8).hex()
    marked = re.sub(r"\}\}", lambda m: f"}}}}\x00{nonce}@{m.end()}\x00", template)
    wrapped = {k: f"\x00{nonce}<{k}\x00{v}\x00{nonce}>\x00" if v.strip() else v for k, v in params.items()}
    out = render_story_string(f"\x00{nonce}@0\x00{marked}", wrapped)
    text, spans = _unmark(out, nonce, template, sources)
    dropped = len(text) - len(text.lstrip("\n"))  # render_story_string drops leading newlines
    if text[dropped:] != story:
        return story, []  # the part's own pointer stands for the whole text
    # a span the dropped newlines cut into starts that much further into its source
    cut = [dict(s, base=s["base"] + max(dropped - s["start"], 0), start=max(s["start"], dropped)) for s in spans]
    return story, _shifted([s for s in cut if s["end"] > s["start"]], -dropped)


def _unmark(out: str, nonce: str, template: str, sources: dict[str, list[dict]]) -> tuple[str, list[dict]]:
    """The marked story string without its marks, and the spans the marks name."""
    own = f"context:{_SEQ}story_string"
    text: list[str] = []
    spans: list[dict] = []
    position, mark, done = 0, ">", 0  # the last mark, and how much text has followed it
    for number, chunk in enumerate(re.split(f"\x00{nonce}([@<>][^\x00]*)\x00", out)):
        if number % 2:
            mark, done = chunk, 0
            continue
        if chunk and mark[0] == "@":  # the template's own text, from that offset on
            base = int(mark[1:]) + done
            # up to the next tag: a parameter of only whitespace is passed unmarked (marks would make it true)
            own_text = os.path.commonprefix([chunk, template[base : base + len(chunk)]])
            spans.append(
                {"start": position, "end": position + len(own_text), "where": own, "raw": template, "base": base}
            )
        elif chunk and mark[0] == "<":  # a parameter's text
            spans += _shifted(sources.get(mark[1:], []), position - done)
        text.append(chunk)
        position, done = position + len(chunk), done + len(chunk)
    return "".join(text), spans


def _example_parts(inputs: Inputs, separator: str) -> list[dict]:
    """The example blocks as SillyTavern sends them after the story string: lorebook entries at the
    examples' top (each put in front of the others, so the highest order comes first), the card's
    blocks, then the entries at the bottom; each block headed by the separator."""
    top = [e for e in inputs.lore if e["position"] == "em_top" and e["content"]]
    bottom = [e for e in inputs.lore if e["position"] == "em_bottom" and e["content"]]
    sources: list[tuple[str, str, str, bool, dict]] = []
    for entry in [*reversed(top), None, *bottom]:
        if entry is None:
            # the card's field is trimmed first (getCharacterCardFields), so no whitespace opens a block
            raw = inputs.character.get("example_messages") or ""
            lead = raw.find(js_trim(raw))
            for number, (block, at) in enumerate(example_blocks(js_trim(raw))):
                at += lead
                pointer = "character:/body/example_messages"
                span = _span(pointer, raw, block, at)
                sources.append(
                    (block, pointer, f"character:{inputs.character_id}/example_messages#{number}", False, span)
                )
            continue
        where = f"lorebook:{entry['book']}#{entry['uid']}"
        for block, at in example_blocks(entry["content"]):
            sources.append((block, where, where, True, _span(where, entry["content"], block, at)))
    heading = [_span(f"context:{_SEQ}example_separator", separator, separator)] if separator else []
    return [
        {
            "role": "system",
            "content": f"{separator}\n{block}" if separator else block,
            "example": block,
            "block": "dialogueExamples",
            "pointer": pointer,
            "source": source,
            "lore": lore,
            "spans": heading + _shifted([span], len(separator) + 1 if separator else 0),
        }
        for block, pointer, source, lore, span in sources
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
        "mesExamples": "".join(p["content"] + "\n" for p in examples),  # each block ends in a newline
        # the same blocks before formatInstructModeExamples: headed `<START>` in instruct mode (parseMesExamples)
        "mesExamplesRaw": "".join(f"<START>\n{p['example']}\n" for p in examples)
        if instruct
        else "".join(p["content"] + "\n" for p in examples),
        "anchorBefore": "",
        "anchorAfter": "",
    }
    template = ctx.get("story_string", "")
    story, spans = _story_string(template, params, _param_sources(inputs, sysprompt, examples, params))
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
        "spans": spans,
    }
    if inputs.filled:
        story_part["filled"] = _filled_story(template, params, inputs, sysprompt, examples)
    if inputs.filled["system"].card if inputs.filled else js_trim(card.get("system_prompt") or ""):
        story_part["original"] = sequences(sysprompt).get("content", "")  # the card's {{original}}
        story_part["original_at"] = f"sysprompt:{_SEQ}content"
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
                "spans": [_span(f"instruct:{_SEQ}user_alignment_message", alignment, alignment)],
            }
        )
    parts.extend(history)
    return parts, notes


# the story string's parameters Generate fills on their own first (getCharacterCardFields,
# baseChatReplace), and where each one's text is written when it is the card's
_FILLED_PARAMS = {
    "description": "character:/body/description",
    "personality": "character:/body/personality",
    "scenario": "character:/body/scenario",
    "persona": "persona:/body/description",
    "system": "character:/body/system_prompt",
}


def _filled_story(template: str, params: dict, inputs: Inputs, sysprompt: dict | None, examples: list[dict]) -> dict:
    """The story string SillyTavern substitutes: built from the filled fields (inputs.filled), with
    its spans (a filled field's are marked `filled`), where the card's system prompt stands (its
    {{original}} is given there only), and the problems of the filled fields it sends."""
    fills = inputs.filled or {}
    filled = dict(params)
    sources = _param_sources(inputs, sysprompt, examples, params)
    for name, where in _FILLED_PARAMS.items():
        value = fills[name].text
        if name == "persona" and not params["persona"]:  # placed elsewhere (or with no text): not here
            value = ""
        if name == "system" and not fills[name].card:
            where = f"sysprompt:{_SEQ}content"
        filled[name] = value
        span = {"start": 0, "end": len(value), "where": where, "raw": value, "base": 0, "filled": True, "param": name}
        sources[name] = [span]
    story, spans = _story_string(template, filled, sources)
    sent = {name for name in _FILLED_PARAMS if filled[name] and _sent(name, filled[name], story, spans)}
    at = [(s["start"], s["end"]) for s in spans if s.get("filled") and s["where"] == _FILLED_PARAMS["system"]]
    if not spans and fills["system"].card and filled["system"]:  # no spans: where the system prompt's text stands
        at = [(m.start(), m.end()) for m in re.finditer(re.escape(filled["system"]), story)]
    return {
        "content": story,
        "spans": spans,
        "original_spans": at,
        "fill_problems": [problem for name in _FILLED_PARAMS if name in sent for problem in fills[name].problems],
    }


def _sent(name: str, value: str, story: str, spans: list[dict]) -> bool:
    """Whether the story string holds the parameter's text (by its spans; with none, by its text)."""
    if spans:
        return any(s.get("param") == name for s in spans)
    return value in story


def _param_sources(inputs: Inputs, sysprompt: dict | None, examples: list[dict], params: dict) -> dict[str, list[dict]]:
    """The spans of the story string's parameters: where each one's text comes from."""
    card, persona = inputs.character, inputs.persona or {}
    sources = {name: [_span(f"character:/body/{name}", card.get(name) or "", params[name])] for name in _CARD_PARAMS}
    sources["persona"] = [_span("persona:/body/description", persona.get("description") or "", params["persona"])]
    if (card.get("system_prompt") or "").strip():
        sources["system"] = [_span("character:/body/system_prompt", card["system_prompt"], params["system"])]
    else:
        sources["system"] = [_span(f"sysprompt:{_SEQ}content", params["system"], params["system"])]
    for side, names in (("before_char", ("wiBefore", "loreBefore")), ("after_char", ("wiAfter", "loreAfter"))):
        entries = [e for e in inputs.lore if e["position"] == side and e["content"]]
        where = [f"lorebook:{e['book']}#{e['uid']}" for e in entries]
        _, spans = _joined([(e["content"], [_span(w, e["content"], e["content"])]) for e, w in zip(entries, where)])
        sources.update(dict.fromkeys(names, spans))
    _, sources["mesExamples"] = _joined([(p["content"], p["spans"]) for p in examples])
    if params["mesExamplesRaw"] == params["mesExamples"]:
        sources["mesExamplesRaw"] = sources["mesExamples"]
    else:  # each block after its `<START>\n`: the block's own span, the last of its part's
        start = len("<START>\n")
        _, sources["mesExamplesRaw"] = _joined(
            [(f"<START>\n{p['example']}", _shifted(p["spans"][-1:], start - p["spans"][-1]["start"])) for p in examples]
        )
    return sources


def _post_history(inputs: Inputs, sysprompt: dict | None) -> dict:
    """The post-history instructions: SillyTavern pushes them after the chat as a user message without a name."""
    card = inputs.character
    template_text = sequences(sysprompt).get("post_history", "")
    own = card.get("post_history_instructions") or ""
    content = own.strip() or template_text
    part = {
        "role": "user",
        "content": content,
        "block": "post_history",
        "pointer": "post_history",
        "source": f"character:{inputs.character_id}/post_history_instructions"
        if card.get("post_history_instructions")
        else "sysprompt#post_history",
        "spans": [
            _span("character:/body/post_history_instructions", own, content)
            if own.strip()
            else _span(f"sysprompt:{_SEQ}post_history", template_text, content)
        ],
    }
    fill = (inputs.filled or {}).get("post_history")
    if fill is not None:
        # Generate pushes the filled text (the card's, getCharacterCardFields; else the template's,
        # baseChatReplace), and substitutes nothing after it: the card's {{original}} brings the
        # template's text as written
        where = "character:/body/post_history_instructions" if fill.card else f"sysprompt:{_SEQ}post_history"
        span = {"start": 0, "end": len(fill.text), "where": where, "raw": fill.text, "base": 0, "filled": True}
        part["filled"] = {"content": fill.text, "spans": [span], "fill_problems": fill.problems}
    if fill.card if fill is not None else js_trim(own):
        part["original"], part["original_at"] = template_text, f"sysprompt:{_SEQ}post_history"
        part["original_as_written"] = fill is not None
    return part


def wrap(
    parts: list[dict], instruct: dict | None, context: dict, names: dict[str, str], expand
) -> tuple[list[dict], str, list[dict]]:
    """The parts with their instruct sequences, the whole prompt string, and the macro problems of the
    sequences used (`expand` gives a text's (evaluated text, problems))."""
    seq = sequences(instruct)
    opts = options(instruct)
    newline = "\n" if opts.get("wrap", True) else ""
    problems: dict[tuple, dict] = {}

    def s(name: str, speaker: str = "System", *, always: bool = False) -> str:
        raw = value = seq.get(name) or ""
        if always or opts.get("macro", True):
            value, moves = _fill_name(value, speaker)
            if value:  # a macro, or one of SillyTavern's angle markers, which expand fills first
                value, found = expand(value)
                for problem in found:
                    located = _in_sequence(problem, name, raw, moves)
                    problems.setdefault((name, located["offset"], located["token"]), located)
        return value

    # an example block is sent even empty: its heading and a newline (parseMesExamples)
    kept = [p for p in parts if p["content"].strip() or p["block"] == "dialogueExamples"]
    chat = [p for p in kept if p["block"] not in _BEFORE_CHAT + ("user_alignment",)]
    first = chat[0] if chat else None
    last_user = next((p for p in reversed(chat) if p["role"] == "user"), None)
    examples = [p for p in kept if p["block"] == "dialogueExamples"]
    formatted = _instruct_examples(examples, instruct, context, names, s, expand) if instruct else {}
    out: list[dict] = []
    for part in kept:
        text = part["content"]
        if part["block"] == "story_string":
            wrapped = _story(text, instruct, s, newline)
        elif part["block"] == "dialogueExamples" and formatted:
            wrapped = formatted[id(part)]
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
    return out, "".join(p["content"] for p in out), list(problems.values())


def _instruct_examples(
    examples: list[dict], instruct: dict, context: dict, names: dict[str, str], s, expand
) -> dict[int, str]:
    """Each example block in the instruct template's sequences, by id(part), as
    formatInstructModeExamples formats them: the block's heading, then each message of it
    (parseExampleIntoIndividual) in the input or output sequence; a block with no message is not
    sent. Empty when the template skips examples, or when no block holds a message (SillyTavern
    then sends every block as written)."""
    opts = options(instruct)
    if opts.get("skip_examples"):
        return {}
    separator = sequences(context).get("example_separator") or ""
    heading = expand(separator)[0] if separator else separator  # substituteParams(example_separator)
    behavior = opts.get("names_behavior", "force")
    joint = "\n" if opts.get("wrap", True) else ""
    macro = opts.get("macro", True)
    sequence = {}
    for kind, speaker in (("input", names["user"]), ("output", names["assistant"])):
        prefix, suffix = s(f"{kind}_sequence", speaker), s(f"{kind}_suffix", speaker)
        if macro and not suffix and joint:  # SillyTavern gives the default suffix only with macros on
            suffix = "\n"
        sequence[kind] = (prefix, suffix)
    speakers = speaker_patterns(names["user"], names["assistant"])
    out: dict[int, str] = {}
    for part in examples:
        body = part["content"]
        if heading and body.startswith(heading + "\n"):
            body = body[len(heading) + 1 :]
        messages = []
        for name, content in example_messages(body, speakers):
            kind = "input" if name == "example_user" else "output"
            named = behavior == "always" or (behavior == "force" and kind == "input")
            who = names["user"] if kind == "input" else names["assistant"]
            prefix, suffix = sequence[kind]
            text = (f"{who}: " if named else "") + content + suffix
            messages.append(joint.join(x for x in (prefix, text) if x))
        out[id(part)] = (heading + "\n" if heading and messages else "") + "".join(messages)
    return out if any(out.values()) else {}


def _fill_name(value: str, speaker: str) -> tuple[str, list[tuple[int, int]]]:
    """`value` with `{{name}}` made the speaker, and for each one (its end in the result, the shift so far)."""
    pieces, moves, position, shift = [], [], 0, 0
    for match in _NAME_MACRO.finditer(value):
        pieces += [value[position : match.start()], speaker]
        shift += len(speaker) - len(match.group(0))
        moves.append((match.end() + shift, shift))
        position = match.end()
    return "".join(pieces) + value[position:], moves


def _in_sequence(problem: dict, name: str, raw: str, moves: list[tuple[int, int]]) -> dict:
    """A problem of a filled sequence, placed in the instruct template's own text of it."""
    at = problem.get("offset", 0) - next(
        (shift for end, shift in reversed(moves) if end <= problem.get("offset", 0)), 0
    )
    line, column = _line_column(raw, at)
    return dict(problem, where=f"instruct:{_SEQ}{name}", block=name, offset=at, line=line, column=column)


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
    if role == "system":
        # formatMessageHistoryItem names a narrator message by its own name, else the character's
        # (an injection at depth has none), and formatInstructModeChat puts that in for {{name}}
        narrator = part.get("name") or names["assistant"]
        same = opts.get("system_same_as_user")
        prefix = s("input_sequence" if same else "system_sequence", narrator)
        suffix = s("input_suffix" if same else "system_suffix", narrator)
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
