"""What a text-generation-webui character cannot hold, one Loss per canonical field.

A textgen character is a name, a greeting and one `context` string (the YAML file), or
the five Pygmalion fields. Everything else a canonical character says is dropped, with
`personality` named on its own: textgen's own Tavern import drops it too. The YAML
writer's folding of fields into the context is named by CONTEXT_FOLDED.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss
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
