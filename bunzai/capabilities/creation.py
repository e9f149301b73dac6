"""`bunzai create` routed through `studio.<kind>.create` when that capability exists.

The registry decides: a discovered `studio.<kind>.create` builds the draft (its input
model takes the name and the kind's rich initial fields); otherwise, or for the nested
`{"name", "body": {...}}` form that only the generic path reads, create_draft does.
`--id` (or an `id` key the capability's input does not take) names the new piece.
"""

from __future__ import annotations

from typing import Any

from bunzai.capabilities.discovery import all_capabilities
from bunzai.capabilities.runner import run_capability
from bunzai.changes.create import create_draft
from bunzai.errors import BunzaiError
from bunzai.model.ids import id_problem
from bunzai.validate import check_kind

_NESTED_KEYS = ("body", "profiles", "assets")


def creation_capability(kind: str):
    """The `studio.<kind>.create` capability, or None when no folder defines it."""
    for cap in all_capabilities():
        if cap.id == f"studio.{kind}.create" and cap.mode == "create":
            return cap
    return None


def create_piece_draft(kind: str, payload: Any, *, piece_id: str | None = None) -> dict:
    check_kind(kind)
    cap = creation_capability(kind)
    if cap is None or not isinstance(payload, dict) or any(key in payload for key in _NESTED_KEYS):
        return create_draft(kind, payload, piece_id=piece_id)
    payload = dict(payload)
    if payload.get("kind") == kind:
        del payload["kind"]  # the friendly form may repeat the kind
    takes_id = "id" in cap.input_model.model_fields
    if piece_id is None and not takes_id and "id" in payload:
        piece_id = payload.pop("id")
    if piece_id is not None:
        problem = id_problem(piece_id)
        if problem:
            raise BunzaiError("invalid_id", f"id {piece_id!r}: {problem}", "ids are lowercase slugs like ada-lovelace")
        if takes_id:
            payload["id"] = piece_id
    return run_capability(cap, None, payload, piece_id=piece_id)
