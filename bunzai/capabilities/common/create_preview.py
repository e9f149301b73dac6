"""The preview of a plain `studio.<kind>.create`: the given body fields, a kind's fix-ups, validated."""

from __future__ import annotations

from collections.abc import Callable

from bunzai.capabilities.common.create_inputs import body_given, new_piece_json
from bunzai.capabilities.common.patching import propose, refuse
from bunzai.capabilities.contract import Preview


def create_preview(kind: str, fix: Callable[[dict], list[str]] | None = None):
    """A preview function for `kind`: `fix(body)` completes the body in place and returns warnings."""

    def preview(entity, data) -> Preview:
        if entity is not None:
            raise refuse(
                f"studio.{kind}.create makes a new piece; it takes no existing one",
                "a create starts from nothing: give no piece to work on, and name the new piece with --id",
            )
        body = body_given(data)
        warnings = fix(body) if fix else []
        return Preview(entity=propose(new_piece_json(kind, data, body)), warnings=warnings)

    preview.__name__ = f"preview_{kind}_create"
    return preview
