"""The card and persona fields as SillyTavern's macros read them: `{{description}}`,
`{{personality}}`, `{{scenario}}`, `{{persona}}`, `{{mesExamplesRaw}}` ... give the field trimmed
and with its own macros filled (script.js getCharacterCardFields: `baseChatReplace(field.trim())`),
not the text as written. The default preset's `[{{char}}'s personality: {{personality}}]` sends
the character's name where the card wrote `{{char}}`.

A field is filled with `replaceCharacterCard: false`, as baseChatReplace fills it: inside a
field, the card-field macros have nothing to read (the 2.0 engine's handlers give '').

Generate fills every field this way once, before anything else (`getCharacterCardFields()`
resolves each lazy field), so each field's variable macros run then, on the chat's variables,
in SillyTavern's order, whether a prompt sends the field or not. A macro that reads a field
later fills it again (MacroEvaluator, from `MacroContext.raw_fields`).

In text completion Generate builds the story string from these filled texts, and the
post-history instructions too (`story_fills`): the sysprompt template's text standing in for a
card's is filled the same way (`baseChatReplace(power_user.sysprompt.content)`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bunzai.jstext import js_trim
from bunzai.render.macro_eval import ORIGINAL_TOKEN, MacroContext, MacroEvaluator, has_macros

# MacroContext attribute -> where its text was written (a problem found in it is placed there), in
# the order getCharacterCardFields resolves them (system, mesExamples, description, personality,
# persona, scenario, jailbreak, charDepthPrompt, creatorNotes, firstMessage; then the greetings)
FIELDS = {
    "system_prompt": "character:/body/system_prompt",
    "examples": "character:/body/example_messages",
    "description": "character:/body/description",
    "personality": "character:/body/personality",
    "persona": "persona:/body/description",
    "scenario": "character:/body/scenario",
    "post_history": "character:/body/post_history_instructions",
    "depth_prompt": "character:/body/depth_prompt/text",
    "creator_notes": "character:/body/creator_notes",
    "first_message": "character:/body/first_message",
}
_SYSPROMPT = "sysprompt:/body/templates/sequences/"
_CARD_PARAMS = ("description", "personality", "scenario", "persona")  # the story string's card fields


# The fields Generate sends as it filled them, whose parts render shows as written and fills
# again: the card's prompt overrides (systemPromptOverride, jailbreakPromptOverride), its depth
# prompt (charDepthPrompt) and its examples (mesExamples). They are filled again on the variables
# as they were when Generate filled them, so their variable macros do not count twice.
_SENT_AS_FILLED = {
    "character:/body/system_prompt": "system_prompt",
    "character:/body/post_history_instructions": "post_history",
    "character:/body/depth_prompt/text": "depth_prompt",
    "character:/body/example_messages": "examples",
}


def fill_time_context(context: MacroContext, part: dict) -> MacroContext:
    """The context `part` is filled in: for a part of a field Generate sends as filled, one on the
    variables as they were when the field was filled (shared by the field's parts, in order)."""
    field = _SENT_AS_FILLED.get(part.get("pointer", ""))
    if (
        part.get("block") == "dialogueExamples"
        and not part.get("lore")
        and part.get("source", "").startswith("character:")
    ):
        field = "examples"  # chat completion: the examples' parts point at their marker
    if field not in context.fill_variables:
        return context
    variables, global_variables = context.fill_variables[field]
    return replace(context, variables=variables, global_variables=global_variables)


def _bare(context: MacroContext) -> MacroContext:
    """`context` with no card fields (a field's {{description}} reads nothing), on its own variables."""
    return replace(context, **dict.fromkeys(FIELDS, ""), card_fields=False, raw_fields={})


def fill_card_fields(context: MacroContext, engine: str) -> dict[str, list[dict]]:
    """Fill `context`'s card and persona fields in place, as Generate does first: each trimmed,
    its macros run on the context's variables, in FIELDS' order, then the alternate greetings.
    Each field's macro problems, placed in the field as written (its offset, line and column
    there), by attribute name; the trimmed texts are kept (`raw_fields`) for a later read."""
    raw = {name: getattr(context, name) or "" for name in FIELDS}
    bare = _bare(context)
    problems: dict[str, list[dict]] = {}
    for name, where in FIELDS.items():
        text = js_trim(raw[name])
        context.raw_fields[name] = (text, where)
        if not has_macros(text, engine):
            setattr(context, name, text)
            continue
        lead = raw[name].find(text)
        context.fill_variables[name] = (dict(context.variables), dict(context.global_variables))
        result = MacroEvaluator(bare, engine).evaluate(text, where)
        setattr(context, name, result.text)
        problems[name] = [_placed(problem, raw[name], lead) for problem in result.problems]
    # the greetings too (a greeting's problems are not reported: render reads them only through a macro)
    greetings = [js_trim(greeting if isinstance(greeting, str) else "") for greeting in context.greetings]
    context.greetings = [
        MacroEvaluator(bare, engine).evaluate(greeting, f"character:/body/alternate_greetings/{n}").text
        if has_macros(greeting, engine)
        else greeting
        for n, greeting in enumerate(greetings)
    ]
    return problems


def _placed(problem: dict, raw: str, lead: int) -> dict:
    """The problem moved from the trimmed text to the field as written."""
    offset = problem.get("offset", 0) + lead
    line = raw.count("\n", 0, offset) + 1
    column = offset - (raw.rfind("\n", 0, offset) + 1) + 1
    return dict(problem, offset=offset, line=line, column=column)


@dataclass
class Filled:
    """A text SillyTavern fills on its own before it places it (baseChatReplace)."""

    text: str
    problems: list[dict]  # placed in the text as written
    card: bool = True  # the card's own field; False: a template's text standing in for it


def base_chat_replace(context: MacroContext, text: str, where: str, engine: str) -> Filled:
    """A template's `text` as baseChatReplace fills it: no card fields, the render's own variables."""
    if not has_macros(text, engine):
        return Filled(text, [], card=False)
    result = MacroEvaluator(_bare(context), engine).evaluate(text, where)
    return Filled(result.text, result.problems, card=False)


def story_fills(context: MacroContext, sysprompt: dict, engine: str, *, enabled: bool = True) -> dict[str, Filled]:
    """What Generate builds a text-completion story string and post-history instructions from, by
    story-string parameter: the card's fields as filled (fill_card_fields, run `live`), the card's
    system prompt and post-history instructions where they have text (prefer_character_prompt /
    _jailbreak), else the sysprompt template's (`sysprompt`: its sequences), filled the same way.
    An override's {{original}} is given later, where it stands: it is no problem of the fill.
    `enabled` False (the system prompt switched off): no system prompt and no post-history
    instructions, the card's neither (Generate: `system = ''`, and no post-history push)."""
    problems = context.field_problems
    out = {name: Filled(getattr(context, name), problems.get(name, [])) for name in _CARD_PARAMS}
    if not enabled:
        return out | {"system": Filled("", [], card=False), "post_history": Filled("", [], card=False)}
    for param, name, key in (("system", "system_prompt", "content"), ("post_history", "post_history", "post_history")):
        if getattr(context, name):
            own = [p for p in problems.get(name, ()) if not ORIGINAL_TOKEN.fullmatch(p["token"])]
            out[param] = Filled(getattr(context, name), own)
        else:
            out[param] = base_chat_replace(context, sysprompt.get(key) or "", _SYSPROMPT + key, engine)
    return out
