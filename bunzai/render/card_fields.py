"""The card and persona fields as SillyTavern's macros read them: `{{description}}`,
`{{personality}}`, `{{scenario}}`, `{{persona}}`, `{{mesExamplesRaw}}` ... give the field trimmed
and with its own macros filled (script.js getCharacterCardFields: `baseChatReplace(field.trim())`),
not the text as written. The default preset's `[{{char}}'s personality: {{personality}}]` sends
the character's name where the card wrote `{{char}}`.

A field is filled with `replaceCharacterCard: false`, as baseChatReplace fills it: inside a
field, the card-field macros have nothing to read (the 2.0 engine's handlers give '').

In text completion Generate builds the story string from these filled texts, and the
post-history instructions too (`story_fills`): the sysprompt template's text standing in for a
card's is filled the same way (`baseChatReplace(power_user.sysprompt.content)`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bunzai.jstext import js_trim
from bunzai.render.macro_eval import ORIGINAL_TOKEN, MacroContext, MacroEvaluator

# MacroContext attribute -> where its text was written (a problem found in it is placed there)
FIELDS = {
    "description": "character:/body/description",
    "personality": "character:/body/personality",
    "scenario": "character:/body/scenario",
    "persona": "persona:/body/description",
    "examples": "character:/body/example_messages",
    "system_prompt": "character:/body/system_prompt",
    "post_history": "character:/body/post_history_instructions",
    "depth_prompt": "character:/body/depth_prompt/text",
    "creator_notes": "character:/body/creator_notes",
    "first_message": "character:/body/first_message",
}


# The fields a text-completion render sends only as filled here (the story string's and the
# post-history instructions), so their {{setvar}} / {{incvar}} run here, once, on the render's
# variables, as Generate's getCharacterCardFields runs them.
STORY_FIELDS = ("description", "personality", "scenario", "persona", "system_prompt", "post_history")
_SYSPROMPT = "sysprompt:/body/templates/sequences/"
_CARD_PARAMS = ("description", "personality", "scenario", "persona")  # the story string's card fields


def _bare(context: MacroContext, *, own_variables: bool) -> MacroContext:
    """`context` with no card fields (a field's {{description}} reads ''), on its own variables or on a copy."""
    if own_variables:
        return replace(context, **dict.fromkeys(FIELDS, ""), card_fields=False)
    variables, global_variables = dict(context.variables), dict(context.global_variables)
    return replace(
        context, **dict.fromkeys(FIELDS, ""), card_fields=False, variables=variables, global_variables=global_variables
    )


def fill_card_fields(context: MacroContext, engine: str, *, live: tuple[str, ...] = ()) -> dict[str, list[dict]]:
    """Fill `context`'s card and persona fields in place; each field's macro problems, placed in
    the field as written (its offset, line and column there), by attribute name.

    A field runs on a copy of the variables, so a field only read by a macro changes none; the
    `live` ones (sent as filled: the chat-completion description, STORY_FIELDS in text
    completion) run theirs on the context's own, once, here."""
    raw = {name: getattr(context, name) or "" for name in FIELDS}
    bare, own = _bare(context, own_variables=False), _bare(context, own_variables=True)
    problems: dict[str, list[dict]] = {}
    for name, where in FIELDS.items():
        text = js_trim(raw[name])
        if "{{" not in text:
            setattr(context, name, text)
            continue
        lead = raw[name].find(text)
        result = MacroEvaluator(own if name in live else bare, engine).evaluate(text, where)
        setattr(context, name, result.text)
        problems[name] = [_placed(problem, raw[name], lead) for problem in result.problems]
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
    if "{{" not in text:
        return Filled(text, [], card=False)
    result = MacroEvaluator(_bare(context, own_variables=True), engine).evaluate(text, where)
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
