"""`bunzai render`: a preset assembled with a character, a persona, lorebooks and a chat, in stages.

Stages, each a list of messages {role, content, block, source}:

- `raw`: the blocks in prompt order and the chat, macros as written, no lorebook text;
- `lore`: with the entries the chat activates (world info before/after, at depth, author's
  note, example messages), as written;
- `macros`: every macro evaluated (bunzai.render.macro_eval; seeded, fixed clock);
- `regex`: prompt-placement regex rules applied in the regex lab's engine;
- `final`: what would be sent: in-chat injections of one depth, injection order and role
  joined into one message, empty messages dropped, each with a token estimate
  (ceil(UTF-8 bytes / 3.35), SillyTavern's fallback when no tokenizer runs).

A chat-completion preset is assembled by bunzai.render.chat_completion; a context template
(with an instruct and a sysprompt template, or an instruct/context preset with --context) by
bunzai.render.text_completion, whose `final` stage adds the instruct sequences and whose
`prompt` is the one string a text-completion backend receives.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.regexlab import engine
from bunzai.regexlab.lab import rule_request
from bunzai.render import lore as lore_mod
from bunzai.render.card_fields import Filled, fill_card_fields, fill_time_context, story_fills
from bunzai.render.chat_completion import Inputs, assemble, join_injections, prompt_manager
from bunzai.render.macro_eval import ORIGINAL_TOKEN, MacroContext, MacroEvaluator, has_macros
from bunzai.render.preset_variables import preset_variables
from bunzai.render.st_real import compare
from bunzai.render.text_completion import (
    DEFAULT_CONTEXT_SEQUENCES,
    DEFAULT_SYSPROMPT,
    DEFAULT_SYSPROMPT_NOTE,
    SYSPROMPT_OFF,
    SYSPROMPT_OFF_NOTE,
    assemble_text,
    locate,
    sequences,
    wrap,
)
from bunzai.store.pieces import read_stored, resolve_ref, try_read

STAGES = ("raw", "lore", "macros", "regex", "final")
CHAT_PRESET_FORMAT = "sillytavern.preset.chat"  # the format whose escrowed file render reads (preset_file)
TOKEN_ESTIMATE = "UTF-8 bytes / 3.35 (SillyTavern's fallback; no tokenizer)"


# --- loading -------------------------------------------------------------------------------
def load_piece(studio, ref: str, kind: str) -> tuple[str, dict]:
    """(id, stored document) of a studio piece of `kind`, by `id` or `kind/id`."""
    if "/" not in ref:
        ref = f"{kind}/{ref}"
    found_kind, piece_id = resolve_ref(studio, ref)
    if found_kind != kind:
        raise BunzaiError("invalid_input", f"{found_kind}/{piece_id} is not a {kind}", f"name a {kind}")
    return piece_id, read_stored(studio, kind, piece_id).data


def read_chat(path: str, hidden: list[int] | None = None) -> list[dict]:
    """A chat file: SillyTavern JSONL (a header line, then messages) or a JSON list of messages.

    Each message becomes {role, name, content}. A plain list item may be {role, content[, name]}
    or SillyTavern's {name, is_user, is_system, mes}.
    """
    source = Path(path)
    try:
        with source.open("rb") as handle:
            data = handle.read(limits.RENDER_CHAT_MAX_BYTES + 1)
    except FileNotFoundError:
        raise BunzaiError("not_found", f"no chat file at {source}", "check the path") from None
    except IsADirectoryError:
        raise BunzaiError(
            "invalid_input", f"{source} is a folder, not a chat file", "name the chat file itself, not its folder"
        ) from None
    if len(data) > limits.RENDER_CHAT_MAX_BYTES:
        raise BunzaiError(
            "too_large", f"{source} is over {limits.RENDER_CHAT_MAX_BYTES} bytes", "render a shorter chat"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BunzaiError("invalid_input", f"{source} is not UTF-8 text", "save the chat as UTF-8") from None
    items: list[Any]
    try:
        parsed = json.loads(text)
        items = parsed if isinstance(parsed, list) else [parsed]
    except json.JSONDecodeError:
        items = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise BunzaiError(
                    "invalid_json",
                    f"{source} line {number} is not JSON: {error.msg}",
                    "give a SillyTavern chat .jsonl or a JSON list of {role, content}",
                ) from None
    return chat_messages(items, str(source), hidden)


def chat_messages(items: list[Any], source: str, hidden: list[int] | None = None) -> list[dict]:
    """Parsed chat items (a chat file's, or a tool's `chat` argument, named `source` in errors)
    as {role, name, content} messages: {role, content[, name]} or SillyTavern's {name, is_user,
    is_system, mes}; a JSONL header line is skipped. A SillyTavern message hidden from the prompt
    (`is_system`: Generate's coreChat leaves it out) is skipped, its number added to `hidden`; a
    narrator message (`extra.type` "narrator", what /sys sends) is a system message, as
    setOpenAIMessages sends it."""
    messages = []
    skipped = 0
    for number, item in enumerate(items):
        if not isinstance(item, dict):
            raise BunzaiError(
                "invalid_input",
                f"{source}: message {number} is not an object",
                "each message is {role, content} or SillyTavern's {name, is_user, mes}",
            )
        if "mes" in item:
            if item.get("is_system"):
                skipped += 1
                if hidden is not None:
                    hidden.append(len(messages) + skipped - 1)  # its place among the chat's messages
                continue
            extra = item.get("extra")
            narrator = isinstance(extra, dict) and extra.get("type") == "narrator"
            role = "user" if item.get("is_user") else "system" if narrator else "assistant"
            messages.append({"role": role, "name": str(item.get("name") or ""), "content": str(item.get("mes") or "")})
        elif "content" in item or "role" in item:
            role = item.get("role", "user")
            if role not in ("user", "assistant", "system"):
                raise BunzaiError(
                    "invalid_input", f"{source}: message {number} has role {role!r}", "roles: user, assistant, system"
                )
            messages.append(
                {"role": role, "name": str(item.get("name") or ""), "content": str(item.get("content") or "")}
            )
        elif "user_name" in item or "character_name" in item or "chat_metadata" in item:
            continue  # the JSONL header line
        else:
            raise BunzaiError(
                "invalid_input",
                f"{source}: message {number} has no content",
                "each message is {role, content} or SillyTavern's {name, is_user, mes}",
            )
    if len(messages) > limits.RENDER_CHAT_MAX_MESSAGES:
        raise BunzaiError(
            "too_large",
            f"{source} holds {len(messages)} messages, over {limits.RENDER_CHAT_MAX_MESSAGES}",
            "render the last part of the chat",
        )
    return messages


def gather(
    studio,
    preset_ref: str,
    character_ref: str,
    *,
    persona_ref: str | None = None,
    lorebook_refs: list[str] | tuple[str, ...] = (),
    regex_refs: list[str] | tuple[str, ...] = (),
    chat_file: str | None = None,
    instruct_ref: str | None = None,
    context_ref: str | None = None,
    sysprompt_ref: str | None = None,
) -> dict:
    """Every piece a render reads, loaded from the studio."""
    preset_id, preset = load_piece(studio, preset_ref, "preset")
    templates = {}
    for family, ref in (("instruct", instruct_ref), ("context", context_ref), ("sysprompt", sysprompt_ref)):
        if ref:
            template_id, data = load_piece(studio, ref, "preset")
            found = (data.get("body") or {}).get("family")
            if found != family:
                raise BunzaiError(
                    "invalid_input",
                    f"preset/{template_id} is a {found} preset, not a {family} template",
                    f"give a {family} preset to --{family}",
                )
            templates[family] = (template_id, data.get("body") or {})
    character_id, character = load_piece(studio, character_ref, "character")
    persona_id, persona = load_piece(studio, persona_ref, "persona") if persona_ref else (None, None)
    body = character.get("body") or {}
    books: list[dict] = []
    seen: set[str] = set()
    notes: list[str] = []
    hidden: list[int] = []  # the chat's messages SillyTavern hides from the prompt (read below)
    links = (body.get("links") or {}).get("lorebooks") or []
    given = {ref.split("/", 1)[1] if ref.startswith("lorebook/") else ref for ref in lorebook_refs}
    # the persona's bound lorebook (SillyTavern's persona lore), unless it is among the books given
    # (global lore there); a character's link to the same book is then skipped, as SillyTavern skips it
    persona_book = ((persona or {}).get("body") or {}).get("lorebook")
    if persona_book and persona_book not in given:
        if try_read(studio, "lorebook", persona_book) is None:
            notes.append(f"persona/{persona_id} binds lorebook/{persona_book}, which is not in the studio: not scanned")
        else:
            piece_id, data = load_piece(studio, f"lorebook/{persona_book}", "lorebook")
            seen.add(piece_id)
            books.append(
                {"id": piece_id, "ref": f"lorebook/{piece_id}", "body": data.get("body") or {}, "scope": "persona"}
            )
    for ref in list(lorebook_refs) + links:
        book_id = ref.split("/", 1)[1] if ref.startswith("lorebook/") else ref
        if book_id in seen:
            continue
        if ref in links and ref not in lorebook_refs and try_read(studio, "lorebook", book_id) is None:
            continue  # a linked book not in the studio: the embedded copy below stands in
        piece_id, data = load_piece(studio, ref, "lorebook")
        seen.add(piece_id)
        # the character's own lore (its links, its embedded book) against the worlds given besides
        # (SillyTavern's global lore): its insertion strategy scans the character's first
        scope = "character" if ref in links and ref not in lorebook_refs else "global"
        books.append({"id": piece_id, "ref": f"lorebook/{piece_id}", "body": data.get("body") or {}, "scope": scope})
    if body.get("book") and not (set(links) & seen):
        books.append(
            {
                "id": f"{character_id}-book",
                "ref": f"character/{character_id}#/body/book",
                "body": body["book"],
                "scope": "character",
            }
        )
    regex_sets = []
    for ref in list(regex_refs) + list((body.get("links") or {}).get("regex") or []):
        piece_id, data = load_piece(studio, ref, "regex")
        if piece_id not in {r["id"] for r in regex_sets}:
            regex_sets.append({"id": piece_id, "body": data.get("body") or {}})
    chat = read_chat(chat_file, hidden) if chat_file else None
    notes += hidden_note(hidden)
    return {
        "preset_id": preset_id,
        "preset": preset,
        "character_id": character_id,
        "character": character,
        "persona_id": persona_id,
        "persona": persona,
        "books": books,
        "regex": regex_sets,
        "chat": chat,
        "templates": templates,
        "notes": notes,
    }


def hidden_note(hidden: list[int]) -> list[str]:
    """The note a render gives for the chat's hidden messages (SillyTavern's is_system)."""
    if not hidden:
        return []
    shown = ", ".join(str(number) for number in hidden[:10]) + (" ..." if len(hidden) > 10 else "")
    return [
        f"{len(hidden)} hidden message(s) of the chat (is_system; message {shown}, counting from 0) left out of the "
        "prompt, as SillyTavern leaves them out; chat:N counts the messages sent"
    ]


def preset_file(stored: dict) -> dict | None:
    """The SillyTavern chat-completion file a stored preset was read from (its escrow), which an
    export to that format writes over; None for a preset from elsewhere (written anew)."""
    original = stored.get("original") or {}
    document = original.get("document")
    return document if original.get("format") == CHAT_PRESET_FORMAT and isinstance(document, dict) else None


def avatar_key(character: dict) -> str:
    """The name SillyTavern knows the character by in a lorebook entry's character filter
    (getCharaFilename: its avatar file without the extension): the file it was imported from,
    else its name (SillyTavern names a new character's file after it)."""
    source = ((character.get("original") or {}).get("source") or "").rsplit("/", 1)[-1]
    if source:
        return re.sub(r"\.[^/.]+$", "", source)
    return str(character.get("name") or character.get("id") or "")


# --- rendering ------------------------------------------------------------------------------
def _once(problems: list[dict]) -> list[dict]:
    """Each problem once: a card field's typo is found where the field is sent and where a macro reads it."""
    seen: set[tuple] = set()
    out = []
    for problem in problems:
        key = (problem["kind"], problem.get("where"), problem.get("offset"), problem.get("token"))
        if key not in seen:
            seen.add(key)
            out.append(problem)
    return out


def macro_context(loaded: dict, chat: list[dict], seed: int, *, user_name: str | None = None) -> MacroContext:
    card = loaded["character"].get("body") or {}
    persona = (loaded["persona"] or {}).get("body") or {}
    preset = loaded["preset"].get("body") or {}
    samplers = preset.get("samplers") or {}
    name = card.get("nickname") or loaded["character"].get("name") or loaded["character_id"]
    return MacroContext(
        user=user_name or (loaded["persona"] or {}).get("name") or "User",
        char=name,
        description=card.get("description", ""),
        personality=card.get("personality", ""),
        scenario=card.get("scenario", ""),
        persona=persona.get("description", ""),
        examples=card.get("example_messages", ""),
        system_prompt=card.get("system_prompt", ""),
        post_history=card.get("post_history_instructions", ""),
        depth_prompt=(card.get("depth_prompt") or {}).get("text", ""),
        creator_notes=card.get("creator_notes", ""),
        version=card.get("version", ""),
        first_message=card.get("first_message", ""),
        greetings=list(card.get("alternate_greetings") or []),
        model=preset.get("model", ""),
        max_context=int(samplers.get("max_context") or 0),
        max_response=int(samplers.get("max_tokens") or 0),
        # SillyTavern reads them from the context template whatever the API (power_user.context),
        # never from a chat-completion preset: with none given, its default one (render sets a given one)
        example_separator=DEFAULT_CONTEXT_SEQUENCES["example_separator"],
        chat_start=DEFAULT_CONTEXT_SEQUENCES["chat_start"],
        chat=chat,
        variables=dict((card.get("settings") or {}).get("variables") or {}),
        seed=seed,
    )


# SillyTavern's two macro engines, by the name `--macro-engine` takes: a new SillyTavern has 2.0
# on (power_user.experimental_macro_engine: true, power-user.js and default/content/settings.json)
MACRO_ENGINES = {"2.0": "sillytavern", "legacy": "sillytavern-legacy"}


def macro_engine(name: str | None) -> str:
    """The catalog id of the SillyTavern macro engine named `name` (None: the default, 2.0)."""
    if name is None:
        return MACRO_ENGINES["2.0"]
    if name not in MACRO_ENGINES:
        raise BunzaiError(
            "usage",
            f"{name!r} is not a SillyTavern macro engine",
            "--macro-engine 2.0 (a new SillyTavern's, the default) or legacy (Experimental Macro Engine off)",
        )
    return MACRO_ENGINES[name]


def render(
    loaded: dict,
    *,
    seed: int = 0,
    stage: str | None = None,
    authors_note: str = "",
    engine: str = "sillytavern",
    st_root: str | None = None,
    sysprompt_enabled: bool = True,
) -> dict[str, Any]:
    """The staged render of `loaded` (from `gather`); `sysprompt_enabled` False: SillyTavern's
    system prompt switched off (power_user.sysprompt.enabled)."""
    if stage is not None and stage not in STAGES:
        raise BunzaiError("usage", f"{stage!r} is not a stage", f"stages: {', '.join(STAGES)}")
    preset = loaded["preset"].get("body") or {}
    family = preset.get("family", "chat_completion")
    templates = dict(loaded.get("templates") or {})
    if family in ("instruct", "context", "sysprompt"):
        templates.setdefault(family, (loaded["preset_id"], preset))
    text_mode = family != "chat_completion"
    if text_mode and "context" not in templates:
        raise BunzaiError(
            "usage",
            f"preset/{loaded['preset_id']} is of family {family}: a text-completion render needs a context template",
            "add --context ID (a context preset, e.g. default-context)",
        )
    if family == "reasoning":
        raise BunzaiError(
            "unsupported",
            f"preset/{loaded['preset_id']} is a reasoning template; it is not a prompt layout",
            "render a chat-completion preset, or a context/instruct template",
        )
    if not sysprompt_enabled and "sysprompt" in templates:
        raise BunzaiError(
            "usage",
            f"preset/{templates['sysprompt'][0]} is a system prompt template, and the system prompt is off",
            "give a sysprompt template (--sysprompt ID) or turn the system prompt off (--no-sysprompt), not both",
        )
    card = loaded["character"].get("body") or {}
    name = card.get("nickname") or loaded["character"].get("name") or loaded["character_id"]
    chat = loaded["chat"]
    if chat is None:
        chat = (
            [{"role": "assistant", "name": name, "content": card.get("first_message", "")}]
            if card.get("first_message")
            else []
        )
    context = macro_context(loaded, chat, seed)
    if "context" in templates:  # {{exampleSeparator}} and {{chatStart}} read the context template (power_user.context)
        context.example_separator = sequences(templates["context"][1]).get("example_separator") or ""
        context.chat_start = sequences(templates["context"][1]).get("chat_start") or ""
    context.text_completion = text_mode
    context.sysprompt_on = sysprompt_enabled
    if "instruct" in templates:  # instruct mode on: what {{instructInput}} and the rest read (power_user.instruct)
        context.instruct = sequences(templates["instruct"][1])
    if sysprompt_enabled:  # what {{systemPrompt}} and {{defaultSystemPrompt}} read (power_user.sysprompt)
        context.sysprompt_text = (
            sequences((templates.get("sysprompt") or (None, DEFAULT_SYSPROMPT))[1]).get("content") or ""
        )
    variable_problems: list[dict] = []
    for name, (value, pointer) in preset_variables(loaded["preset"], seed).items():
        # Marinara sets its variables to the preset's values and choices, then fills their macros,
        # before anything else (assembler.ts); one store, as its engine's (macro-engine.ts):
        # {{getvar::pov}} reads the choice, {{setvar}} changes it
        filled = MacroEvaluator(context, engine).evaluate(value, pointer)
        context.preset_variables[name] = context.variables[name] = filled.text
        variable_problems.extend(dict(problem, block=f"variable {name}") for problem in filled.problems)
    context.field_problems = fill_card_fields(context, engine)  # Generate's getCharacterCardFields, first
    evaluator = MacroEvaluator(context, engine)
    problems: list[dict] = variable_problems

    def substitute(text: str) -> str:
        return MacroEvaluator(context, engine).evaluate(text, "lorebook").text if has_macros(text, engine) else text

    speaker = {"user": context.user, "assistant": context.char}
    samplers = preset.get("samplers") or {}
    size = int(samplers.get("max_context") or 0)
    # SillyTavern sizes the world-info budget on the prompt's room: the context less the response
    # (Generate passes getMaxPromptTokens to checkWorldInfo), zero or less when the response takes it all
    room = size - int(samplers.get("max_tokens") or 0) if size else None
    activation = lore_mod.activate(
        loaded["books"],
        chat,
        seed=seed,
        substitute=substitute,
        include_names=speaker,
        max_context=room,
        character_key=avatar_key(loaded["character"]),
        extra_sources={
            "persona": context.persona,
            "description": context.description,
            "personality": context.personality,
            "depth_prompt": context.depth_prompt,
            "scenario": context.scenario,
            "creator_notes": context.creator_notes,
        },
    )
    outlets: dict[str, list[str]] = {}
    for entry in reversed(activation.fired):  # an outlet is pushed to, higher order first, not unshifted
        if entry["position"] == "outlet" and entry["outlet"] and entry["content"]:  # SillyTavern skips empty ones
            outlets.setdefault(entry["outlet"], []).append(entry["content"])
    context.outlets = {k: "\n".join(v) for k, v in outlets.items()}
    inputs = Inputs(
        loaded["preset_id"],
        preset,
        loaded["character_id"],
        card,
        loaded["persona_id"],
        (loaded["persona"] or {}).get("body"),
        chat,
        activation.fired,
        authors_note,
        user_name=context.user,
        char_name=context.char,
        preset_file=preset_file(loaded["preset"]),
    )
    if text_mode:
        # with no --sysprompt, the system prompt a new SillyTavern has on (power_user.sysprompt)
        sysprompt = (templates.get("sysprompt") or (None, DEFAULT_SYSPROMPT))[1] if sysprompt_enabled else SYSPROMPT_OFF
        inputs.filled = story_fills(context, sequences(sysprompt), engine, enabled=sysprompt_enabled)
        if not sysprompt_enabled:  # Generate sends neither the card's system prompt nor its post-history instructions
            inputs.character = {
                k: v for k, v in card.items() if k not in ("system_prompt", "post_history_instructions")
            }

        def build(fired: list[dict]) -> tuple[list[dict], list[str]]:
            inputs.lore = fired
            return assemble_text(
                inputs,
                templates["context"][1],
                (templates.get("instruct") or (None, None))[1],
                sysprompt,
                speaker,
                templates["context"][0],
            )

        raw_parts, _ = build([])
        parts, notes = build(activation.fired)
        if not sysprompt_enabled:
            notes.insert(0, SYSPROMPT_OFF_NOTE)
        elif "sysprompt" not in templates:
            notes.insert(0, DEFAULT_SYSPROMPT_NOTE)
    else:
        inputs.filled = {"description": Filled(context.description, context.field_problems.get("description", []))}
        parts, notes = assemble(inputs)
        raw_parts = [p for p in parts if not p.get("lore")]

    stages: dict[str, list[dict]] = {}
    stages["raw"] = [_shown(p) for p in raw_parts]
    stages["lore"] = [_shown(p) for p in parts]
    real_engine = None
    if st_root:
        from dataclasses import replace

        real_engine = compare(
            st_root,
            [(p["pointer"], p["content"]) for p in parts],
            replace(context, variables=dict(context.variables), global_variables=dict(context.global_variables)),
        )
    evaluated = []
    for part in parts:
        # what SillyTavern substitutes: in text completion the story string and post-history
        # instructions built from texts it filled first (their problems found then)
        sent = dict(part, **part["filled"]) if part.get("filled") else part
        original = part.get("original")
        # the original's own text has no override: its {{original}} stays as written
        context.original, context.original_spans, context.original_used = None, None, set()
        if original and has_macros(original, engine) and not part.get("original_as_written"):
            # SillyTavern fills the original's macros before it stands in: chat completion takes it
            # from the prompt collection preparePrompt has substituted (openai.js), and the story
            # string, which holds the system prompt's {{original}}, is substituted twice (the
            # text-completion post-history instructions are not substituted again: as written)
            filled = MacroEvaluator(context, engine).evaluate(original, part.get("original_at") or part["pointer"])
            original = filled.text
            if ORIGINAL_TOKEN.search(sent["content"]):  # sent, so its problems are the prompt's
                problems.extend(dict(problem, block=part["block"]) for problem in filled.problems)
        context.original, context.original_spans = original, sent.get("original_spans")
        context.original_used = set()
        at = fill_time_context(context, part)
        result = (evaluator if at is context else MacroEvaluator(at, engine)).evaluate(sent["content"], part["pointer"])
        located = (locate(dict(problem, block=part["block"]), sent) for problem in result.problems)
        problems.extend(problem for problem in located if problem is not None)
        problems.extend(dict(problem, block=part["block"]) for problem in sent.get("fill_problems", ()))
        problems.extend(dict(problem, block=part["block"]) for problem in result.field_problems)
        evaluated.append(dict(part, content=result.text))
    stages["macros"] = [_shown(p) for p in evaluated]
    after_regex, regex_report = apply_prompt_regex(evaluated, loaded["regex"], context)
    stages["regex"] = [_shown(p) for p in after_regex]
    after_regex = join_injections(after_regex)  # one message per depth, injection order and role, as sent
    prompt = None
    if text_mode:

        def expand(text: str) -> tuple[str, list[dict]]:
            result = MacroEvaluator(context, engine).evaluate(text, "instruct")
            return result.text, result.problems

        after_regex, prompt, sequence_problems = wrap(
            after_regex, (templates.get("instruct") or (None, None))[1], templates["context"][1], speaker, expand
        )
        problems.extend(sequence_problems)
    final = []
    for part in after_regex:
        if not part["content"].strip():
            continue
        shown = _shown(part)
        shown["tokens"] = lore_mod.estimate_tokens(part["content"])
        final.append(shown)
    stages["final"] = final
    target = "text_completion" if text_mode else prompt_manager(preset).target
    doc: dict[str, Any] = {
        "preset": f"preset/{loaded['preset_id']}",
        "character": f"character/{loaded['character_id']}",
        "persona": f"persona/{loaded['persona_id']}" if loaded["persona_id"] else None,
        "lorebooks": [b.get("ref", f"lorebook/{b['id']}") for b in loaded["books"]],
        "engine": engine,
        "seed": seed,
        "clock": context.clock.isoformat(),
        "order": target,
        "token_estimate": TOKEN_ESTIMATE,
        "tokens": sum(m["tokens"] for m in final),
        "unresolved": [p for p in _once(problems) if p["kind"] in ("unknown", "unresolved")],
        "unevaluated": [p for p in _once(problems) if p["kind"] not in ("unknown", "unresolved")],
        "lore": activation.to_json(),
        "regex": regex_report,
        "notes": loaded.get("notes", []) + notes,
    }
    if real_engine is not None:
        doc["real_engine"] = real_engine
    if text_mode:
        doc["mode"] = "text_completion"
        doc["templates"] = {family: f"preset/{pid}" for family, (pid, _) in sorted(templates.items())}
        doc["prompt"] = prompt
    else:
        doc["mode"] = "chat_completion"
    if stage is None:
        doc["stages"] = stages
    else:
        doc["stage"] = stage
        doc["messages"] = stages[stage]
    return doc


def _shown(part: dict) -> dict:
    shown = {"role": part["role"], "content": part["content"], "block": part["block"], "source": part["source"]}
    if part["block"] == "dialogueExamples" and part.get("name"):
        shown["name"] = part["name"]  # example_user / example_assistant, sent as the message's name
    if "depth" in part:
        shown["depth"] = part["depth"]
    return shown


# --- the regex stage ------------------------------------------------------------------------
def _placement_of(part: dict) -> str | None:
    if part.get("lore"):
        return "world_info"
    if part["block"] == "chatHistory" and "chat_index" in part:
        return "user_input" if part["role"] == "user" else "ai_output" if part["role"] == "assistant" else None
    return None


def apply_prompt_regex(
    parts: list[dict], regex_sets: list[dict], context: MacroContext
) -> tuple[list[dict], list[dict]]:
    """Prompt-only rules (not markdown-only, not disabled) over chat messages and world info,
    within their depth range, in the regex lab's engine, in set order then rule order."""
    report: list[dict] = []
    out = [dict(p) for p in parts]
    for regex_set in regex_sets:
        for number, rule in enumerate(regex_set["body"].get("rules") or []):
            row = {"set": regex_set["id"], "rule": number, "name": rule.get("name", ""), "applied_to": []}
            report.append(row)
            if rule.get("disabled"):
                row["skipped"] = "disabled"
                continue
            if rule.get("markdown_only"):
                row["skipped"] = "markdown only: changes the display, never the prompt"
                continue
            if not rule.get("prompt_only"):
                row["skipped"] = "not prompt-only: SillyTavern applied it when the message was stored"
                continue
            request = rule_request(
                rule.get("pattern", ""),
                rule.get("flags", ""),
                replacement=rule.get("replacement", ""),
                platform="sillytavern",
                trim_strings=rule.get("trim_strings") or [],
                macros={"user": context.user, "char": context.char},
                substitute=rule.get("substitute_macros", "none"),
            )
            before = list(out)  # a rule that fails part-way is left out whole
            for index, part in enumerate(out):
                placement = _placement_of(part)
                if placement is None or placement not in (rule.get("placements") or []):
                    continue
                depth = part.get("depth")
                if placement != "world_info" and depth is not None:
                    low, high = rule.get("min_depth"), rule.get("max_depth")
                    if low is not None and low >= 0 and depth < low or high is not None and depth > high:
                        continue
                try:
                    answer = engine.call(dict(request, op="replace", text=part["content"]))
                except BunzaiError as error:
                    if error.code != "regex_timeout":
                        raise
                    # a runaway rule is its own row's fault, as one that does not compile: the
                    # rest of the render stands
                    answer = {"error": f"{error.message}; {error.hint}"}
                if "error" in answer:
                    row["error"] = answer["error"]
                    out[:], row["applied_to"] = before, []
                    break
                if answer["result"] != part["content"]:
                    row["applied_to"].append(part["source"])
                    out[index] = dict(part, content=answer["result"])
    return out, report
