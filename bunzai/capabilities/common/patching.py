"""Partial updates for bundle capabilities: only the fields an input gives change.

An update input is a pydantic model whose fields all default to "not given"; `given(input)`
is what the caller actually wrote (pydantic's `exclude_unset`). It is applied to the
piece's canonical JSON as an RFC 7386 merge patch: objects merge key by key, a list
replaces the whole list, and null resets a field to its default (or removes a map key).
`propose` re-validates the edited JSON, so every preview goes through the model's rules
(promptbook decoder rules included) and returns a new, complete entity.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from bunzai.capabilities.contract import Preview
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.model import dump_piece
from bunzai.validate import validate_piece


def given(model, *, exclude: Collection[str] = ()) -> dict:
    """The fields the caller gave, as JSON (nested models keep only their given fields too);
    the top-level fields in `exclude` (an input's selectors) left out."""
    return model.model_dump(mode="json", exclude_unset=True, exclude=set(exclude) or None)


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: `patch` applied to a copy of `target`."""
    if not isinstance(patch, dict):
        return copied(patch)
    result = copied(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def piece_json(entity) -> dict:
    """A fresh, independent copy of the piece's canonical JSON, for editing."""
    return dump_piece(entity)


def propose(data: dict):
    """The validated piece for edited JSON; BunzaiError (invalid_input / invalid_promptbook) otherwise."""
    return validate_piece(data)


def nothing_given(patch: dict, what: str) -> list[str]:
    """The warning for an update that names no field (the piece stays as it was)."""
    return [f"no {what} field was given; nothing changes"] if not patch else []


def refuse(message: str, hint: str) -> BunzaiError:
    """An invalid_input refusal; `hint` (required, not empty) says what to do next."""
    return BunzaiError("invalid_input", message, hint)


def name_and_body_preview(entity, data, what: str):
    """The preview of an update whose `name` renames the piece and whose other fields merge
    into the body (settings and identity updates of several kinds)."""
    patch = given(data)
    warnings = nothing_given(patch, what)
    doc = piece_json(entity)
    if "name" in patch:
        doc["name"] = patch.pop("name")
    doc["body"] = merge_patch(doc["body"], patch)
    return Preview(entity=propose(doc), warnings=warnings)
