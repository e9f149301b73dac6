"""`draft validate`: would this draft apply now? Re-parses and compares, writes nothing."""

from __future__ import annotations

from bunzai.changes.draft import parse_draft
from bunzai.store.pieces import try_read
from bunzai.validate import validate_piece
from bunzai.errors import BunzaiError


def validate_draft(studio, doc: dict) -> dict:
    draft = parse_draft(doc)
    target = draft["target"]
    problems = []
    try:
        validate_piece(draft["proposed"])
    except BunzaiError as error:
        problems.append({"code": error.code, "message": error.message})
    stored = try_read(studio, target["kind"], target["id"])
    current = stored.revision if stored else None
    if draft["mode"] == "create":
        stale, reason = stored is not None, "occupied" if stored is not None else None
    else:
        stale = current != draft["baseline"]
        reason = ("missing" if current is None else "changed") if stale else None
    return {
        "valid": not problems,
        "stale": stale,
        "reason": reason,
        "would_apply": not problems and not stale,
        "target": target,
        "mode": draft["mode"],
        "baseline": draft["baseline"],
        "current": current,
        "problems": problems,
    }
