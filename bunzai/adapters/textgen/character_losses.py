"""What a text-generation-webui character cannot hold, one Loss per canonical field.

A textgen character is a name, a greeting and one `context` string (the YAML file), or
the five Pygmalion fields. Everything else a canonical character says is dropped, with
`personality` named on its own: textgen's own Tavern import drops it too.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.contract import Loss


def not_carried(piece: Any, carried: frozenset[str], label: str) -> list[Loss]:
    from bunzai.model.character import CharacterBody

    body = piece.body.model_dump(mode="json")
    default = CharacterBody().model_dump(mode="json")
    losses: list[Loss] = []
    for field, value in body.items():
        if field in carried or value == default[field]:
            continue
        if field == "personality":
            losses.append(
                Loss(
                    "/body/personality",
                    "dropped",
                    f"{label} has no personality field (text-generation-webui drops it on its own Tavern import too)",
                    "textgen.personality.dropped",
                )
            )
        elif field == "portrait":
            losses.append(
                Loss(
                    "/body/portrait",
                    "dropped",
                    f"{label} is text; textgen shows an image with the same "
                    "file name beside it, which bunzai does not write",
                    "textgen.portrait.not_carried",
                )
            )
        else:
            losses.append(Loss(f"/body/{field}", "dropped", f"{label} has no {field}", "textgen.field.not_carried"))
    if piece.assets:
        losses.append(Loss("/assets", "dropped", f"{label} carries no media", "textgen.field.not_carried"))
    if piece.profiles:
        losses.append(
            Loss("/profiles", "dropped", f"{label} has no per-platform profiles", "textgen.field.not_carried")
        )
    return losses
