"""What a text-generation-webui character cannot hold, one Loss per canonical field.

A textgen character is a name, a greeting and one `context` string (the YAML file), or
the five Pygmalion fields. Everything else a canonical character says is dropped, with
`personality` named on its own: textgen's own Tavern import drops it too. The YAML
writer's folding of fields into the context is named by CONTEXT_FOLDED.
"""

from __future__ import annotations

import re
from typing import Any

from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss
from bunzai.adapters.textgen.names import read_text
from bunzai.model.character import CharacterBody

PERSONALITY_DROPPED = LossRule(
    "/body/personality",
    "dropped",
    "textgen.personality.dropped",
    "a textgen character has no personality field (text-generation-webui drops it on its own Tavern import too)",
)
PORTRAIT_NOT_CARRIED = LossRule(
    "/body/portrait",
    "dropped",
    "textgen.portrait.not_carried",
    "a textgen character is text; textgen shows an image with the same file name beside it, which bunzai does "
    "not write",
)
FIELD_NOT_CARRIED = LossRule(
    "(?:/body/[a-z_]+|/assets|/profiles)",
    "dropped",
    "textgen.field.not_carried",
    "a textgen character has no such field",
)
CONTEXT_FOLDED = LossRule(
    "/body/(?:description|scenario|example_messages)",
    "flattened",
    "textgen.context.folded",
    "a textgen character has one context: this is written into it as a paragraph",
)

NAME_RESPELLED = LossRule(
    "/body/(?:description|first_message|scenario|example_messages)",
    "translated",
    "textgen.names.respelled",
    "textgen fills in <USER> and <BOT> as it fills in {{user}} and {{char}}: they read back spelled so",
)

MACRO_NOT_FILLED = LossRule(
    "/body/(?:description|first_message|scenario|example_messages)",
    "dropped",
    "textgen.macro.not_filled",
    "textgen fills in only {{user}}, {{char}}, <USER> and <BOT>, as spelled: other macros reach the model as written",
)
# The images textgen shows beside `characters/<name>.yaml` (or `.yml`, `.json`), first found
# (modules/chat.py generate_pfp_cache); it saves a character's picture as `<name>.png`.
PORTRAIT_BESIDE = (".png", ".jpg", ".jpeg")
FILLED = ("{{user}}", "{{char}}")
MACRO = re.compile(r"\{\{[^{}]*\}\}")
TEXTGEN_FORMATS = ("textgen.character.yaml", "textgen.pygmalion.json")


def unfilled_macros(piece: Any, fields: tuple[str, ...]) -> list[Loss]:
    """A loss per text holding macros textgen shows as written (`{{User}}`, `{{random::a::b}}`),
    unless the text was read from a textgen file, where they were already written for it."""
    if piece.original is not None and piece.original.format in TEXTGEN_FORMATS:
        return []
    losses = []
    for field in fields:
        found = sorted({token for token in MACRO.findall(getattr(piece.body, field)) if token not in FILLED})
        if found:
            shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
            losses.append(MACRO_NOT_FILLED.at(f"/body/{field}", MACRO_NOT_FILLED.why.replace("other macros", shown)))
    return losses


def respelled(body: Any, fields: tuple[str, ...]) -> list[Loss]:
    """A loss per written text holding `<USER>` or `<BOT>`, which reads back as `{{user}}`/`{{char}}`."""
    return [
        NAME_RESPELLED.at(f"/body/{field}")
        for field in fields
        if read_text(getattr(body, field)) != getattr(body, field)
    ]


def not_carried(piece: Any, carried: frozenset[str], label: str) -> list[Loss]:
    body = piece.body.model_dump(mode="json")
    default = CharacterBody().model_dump(mode="json")
    losses: list[Loss] = []
    for field, value in body.items():
        if field in carried or value == default[field]:
            continue
        if field == "personality":
            why = f"{label} has no personality field (text-generation-webui drops it on its own Tavern import too)"
            losses.append(PERSONALITY_DROPPED.at("/body/personality", why))
        elif field == "portrait":
            why = (
                f"{label} is text; textgen shows an image with the same "
                "file name beside it, which bunzai does not write"
            )
            losses.append(PORTRAIT_NOT_CARRIED.at("/body/portrait", why))
        else:
            losses.append(FIELD_NOT_CARRIED.at(f"/body/{field}", f"{label} has no {field}"))
    if piece.assets:
        losses.append(FIELD_NOT_CARRIED.at("/assets", f"{label} carries no media"))
    if piece.profiles:
        losses.append(FIELD_NOT_CARRIED.at("/profiles", f"{label} has no per-platform profiles"))
    return losses
