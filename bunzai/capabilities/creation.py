"""`bunzai create` routed through `studio.<kind>.create` when that capability exists.

The registry decides: a discovered `studio.<kind>.create` builds the draft (its input
model takes the name and the kind's rich initial fields); otherwise, or for the nested
`{"name", "body": {...}}` form that only the generic path reads, create_draft does.
`--id` (or an `id` key the capability's input does not take) names the new piece.
Given the studio, the draft warns of links to pieces it does not hold, as `cap run` does.
"""

from __future__ import annotations

from typing import Any

from bunzai.capabilities.discovery import all_capabilities
from bunzai.capabilities.runner import dangling_link_warnings, run_capability
from bunzai.capabilities.studio_run import studio_loader
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


def create_piece_draft(kind: str, payload: Any, *, piece_id: str | None = None, studio=None) -> dict:
    """The create draft of a new `kind` piece; `studio` (None: no studio chosen) is where its
    links are looked up."""
    check_kind(kind)
    loader = studio_loader(studio) if studio is not None else None
    cap = creation_capability(kind)
    if cap is None or not isinstance(payload, dict) or any(key in payload for key in _NESTED_KEYS):
        return _warned(create_draft(kind, payload, piece_id=piece_id), loader)
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
    return run_capability(cap, None, payload, piece_id=piece_id, loader=loader)


def _warned(draft: dict, loader) -> dict:
    """`draft` (a generic create) with the warnings a capability's create would carry of its links."""
    warnings = dangling_link_warnings(None, draft["proposed"], loader)
    draft["operations"][0]["warnings"] += warnings
    draft["warnings"] += warnings
    return draft
