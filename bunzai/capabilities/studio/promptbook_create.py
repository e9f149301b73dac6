"""studio.promptbook.create: a new promptbook, from its phases or from a starter.

Starters (`starter`):
- `blank`: one reply phase, nothing else.
- `think-then-write`: a private `think` phase (plan the reply; unseen), then the reply
  phase, which reads it.
Phases given explicitly win over a starter's.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.capabilities.common.create_inputs import create_input_model
from bunzai.capabilities.common.create_preview import create_preview
from bunzai.capabilities.contract import Capability

STARTERS: dict[str, dict] = {
    "blank": {
        "description": "A blank promptbook: the reply, nothing else.",
        "phases": [{"id": "reply", "name": "Reply", "stage": "reply"}],
    },
    "think-then-write": {
        "description": "Think, then write: a private planning phase, then the reply that reads it.",
        "phases": [
            {"id": "think", "name": "Think", "stage": "private"},
            {"id": "reply", "name": "Write", "stage": "reply", "reads": ["think"]},
        ],
    },
}

PromptbookCreateInput = create_input_model(
    "promptbook",
    "PromptbookCreateInput",
    "A new promptbook: `name`, an optional `id`, and its phases in running order, or a `starter` "
    "(blank, think-then-write) whose phases are used when none are given.",
    replace={
        "starter": (
            Literal["blank", "think-then-write"] | None,
            Field(
                default=None,
                description="A starting layout: blank (the reply only) or think-then-write "
                "(a private think phase, then the reply reading it).",
            ),
        )
    },
)


def apply_starter(body: dict) -> list[str]:
    starter = body.pop("starter", None)
    if starter is None:
        return []
    layout = STARTERS[starter]
    if not body.get("description"):
        body["description"] = layout["description"]
    if "phases" in body:
        return [f"phases were given, so the starter {starter!r} only sets the description"]
    body["phases"] = [dict(phase) for phase in layout["phases"]]
    return []


CAPABILITY = Capability(
    id="studio.promptbook.create",
    kind="promptbook",
    domain="studio",
    mode="create",
    area="promptbook",
    action="create",
    summary="Create a promptbook from its phases or a starter (blank, think-then-write).",
    aliases=("new promptbook", "create promptbook", "think then write", "blank promptbook"),
    input_model=PromptbookCreateInput,
    preview=create_preview("promptbook", apply_starter),
)
