"""The card and persona fields as SillyTavern's macros read them: `{{description}}`,
`{{personality}}`, `{{scenario}}`, `{{persona}}`, `{{mesExamplesRaw}}` ... give the field trimmed
and with its own macros filled (script.js getCharacterCardFields: `baseChatReplace(field.trim())`),
not the text as written. The default preset's `[{{char}}'s personality: {{personality}}]` sends
the character's name where the card wrote `{{char}}`.

A field is filled with `replaceCharacterCard: false`, as baseChatReplace fills it: inside a
field, the card-field macros have nothing to read (the 2.0 engine's handlers give '').
"""

from __future__ import annotations

from dataclasses import replace

from bunzai.adapters.common.js_regex import js_trim
from bunzai.render.macro_eval import MacroContext, MacroEvaluator

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


def fill_card_fields(context: MacroContext, engine: str) -> dict[str, list[dict]]:
    """Fill `context`'s card and persona fields in place; each field's macro problems, placed in
    the field as written (its offset, line and column there), by attribute name."""
    raw = {name: getattr(context, name) or "" for name in FIELDS}
    # no card fields, so a field's {{description}} reads ''; the variables are a copy, so a field
    # whose part is sent (the description) runs its {{setvar}} / {{incvar}} once, there
    bare = replace(
        context,
        **dict.fromkeys(FIELDS, ""),
        variables=dict(context.variables),
        global_variables=dict(context.global_variables),
    )
    problems: dict[str, list[dict]] = {}
    for name, where in FIELDS.items():
        text = js_trim(raw[name])
        if "{{" not in text:
            setattr(context, name, text)
            continue
        lead = raw[name].find(text)
        result = MacroEvaluator(bare, engine).evaluate(text, where)
        setattr(context, name, result.text)
        problems[name] = [_placed(problem, raw[name], lead) for problem in result.problems]
    return problems


def _placed(problem: dict, raw: str, lead: int) -> dict:
    """The problem moved from the trimmed text to the field as written."""
    offset = problem.get("offset", 0) + lead
    line = raw.count("\n", 0, offset) + 1
    column = offset - (raw.rfind("\n", 0, offset) + 1) + 1
    return dict(problem, offset=offset, line=line, column=column)
