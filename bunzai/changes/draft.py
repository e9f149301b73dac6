"""The draft document: what a change proposes, over which baseline, and why.

    {"type": "bunzai.draft", "format": 1, "target": {"kind", "id"}, "mode": "create"|"update",
     "baseline": <revision or null>, "operations": [{"op", "input", "warnings"}],
     "changes": [{"op", "path", "before", "after"[, "cut"]}], "warnings": [...], "impact": [...],
     "proposed": <the complete canonical piece>,
     "attachments": {<sha256>: {"ext", "mime", "base64"} or {"ext", "mime", "size", "from"}},
                                                             # media to store with it (changes/media.py)
     "group": {"id", "index", "size"}}                       # drafts applied all-or-none

A draft never touches the studio; `bunzai apply` is the only door through which it writes.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from bunzai import limits
from bunzai.changes.diff import aligned, bounded, diff_json
from bunzai.changes.media import attachment_problem
from bunzai.errors import BunzaiError
from bunzai.model import dump_piece, piece_class
from bunzai.model.ids import id_problem

DRAFT_TYPE = "bunzai.draft"
DRAFT_FORMAT = 1
MODES = ("create", "update")


def new_draft(
    *,
    mode: str,
    proposed: dict,
    operations: list[dict],
    baseline: str | None = None,
    before: dict | None = None,
    impact: list | None = None,
    attachments: dict | None = None,
    group: dict | None = None,
    changes: list[dict] | None = None,
) -> dict:
    """A draft proposing `proposed`; for updates `before` is the stored piece at `baseline`,
    and `changes` may give `draft_changes(before, proposed)` where the caller has made them."""
    if mode == "create":
        changes = _creation_changes(proposed)
    else:
        changes = diff_json(before or {}, proposed) if changes is None else bounded(aligned(changes))
    warnings = [w for op in operations for w in op.get("warnings", [])]
    draft = {
        "type": DRAFT_TYPE,
        "format": DRAFT_FORMAT,
        "target": {"kind": proposed["kind"], "id": proposed["id"]},
        "mode": mode,
        "baseline": baseline,
        "operations": operations,
        "changes": changes,
        "warnings": warnings,
        "impact": impact or [],
        "proposed": proposed,
    }
    if attachments:
        draft["attachments"] = attachments
    if group:
        draft["group"] = group
    return draft


def _creation_changes(proposed: dict) -> list[dict]:
    """One row for the new piece, then one per field that differs from the kind's defaults.

    A create's rows are for the review: the piece itself is in `proposed`, so a long value is
    cut (`cut` gives its full length) and the escrowed native document is named, not
    repeated. A 5 MB preset makes a draft of twice its text, not four times.
    """
    blank = {**blank_piece(proposed["kind"]), "id": proposed["id"], "name": proposed["name"]}
    head = {"op": "add", "path": "", "after": {k: proposed[k] for k in ("kind", "id", "name")}}
    return [head] + [_shortened(dict(row, op="add")) for row in diff_json(blank, proposed)]


@cache
def blank_piece(kind: str) -> dict:
    """The dump of a new piece of `kind` with every field at its default (its id and name
    placeholders): made once per kind, not once per draft of an import. Shared: read only."""
    return dump_piece(piece_class(kind)(id="blank", name="Blank"))


def _shortened(row: dict) -> dict:
    value = row.get("after")
    limit = limits.DRAFT_CHANGE_VALUE_CHARS
    if row["path"] == "/original" or row["path"].startswith("/original/"):
        text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
        row["after"] = "(the native document the piece was read from, kept in escrow)"
        row["cut"] = len(text)
    elif isinstance(value, str) and len(value) > limit:
        row["after"], row["cut"] = value[:limit] + "…", len(value)
    elif isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=False)
        if len(text) > limit:
            row["after"], row["cut"] = text[:limit] + "…", len(text)
    return row


def parse_draft(doc: Any) -> dict:
    """Check that `doc` is a draft; return it. BunzaiError invalid_draft names what is wrong."""

    def bad(why: str) -> BunzaiError:
        return BunzaiError(
            "invalid_draft",
            f"not a bunzai draft: {why}",
            "drafts come from `bunzai create`, `import`, `duplicate` or `cap run`",
        )

    if not isinstance(doc, dict):
        raise bad("expected a JSON object")
    if doc.get("type") != DRAFT_TYPE:
        raise bad(f"type is {doc.get('type')!r}, expected {DRAFT_TYPE!r}")
    if doc.get("format") != DRAFT_FORMAT:
        raise bad(f"format {doc.get('format')!r} is not one this bunzai reads ({DRAFT_FORMAT})")
    if doc.get("mode") not in MODES:
        raise bad(f"mode must be one of {', '.join(MODES)}")
    target = doc.get("target")
    if not isinstance(target, dict) or not isinstance(target.get("kind"), str):
        raise bad("target must be {kind, id}")
    problem = id_problem(target.get("id"))
    if problem:
        raise BunzaiError("invalid_id", f"draft target id: {problem}", "ids are lowercase slugs like ada-lovelace")
    proposed = doc.get("proposed")
    if not isinstance(proposed, dict):
        raise bad("proposed must be the complete piece")
    if proposed.get("kind") != target["kind"] or proposed.get("id") != target["id"]:
        raise bad("the proposed piece is not the draft's target")
    baseline = doc.get("baseline")
    if doc["mode"] == "update" and not isinstance(baseline, str):
        raise bad("an update draft needs its baseline revision")
    if doc["mode"] == "create" and baseline is not None:
        raise bad("a create draft has no baseline")
    if not isinstance(doc.get("operations", []), list):
        raise bad("operations must be a list")
    _check_attachments(doc.get("attachments", {}), bad)
    group = doc.get("group")
    if group is not None and not (
        isinstance(group, dict)
        and isinstance(group.get("id"), str)
        and group["id"]
        and isinstance(group.get("index"), int)
        and isinstance(group.get("size"), int)
        and 0 <= group["index"] < group["size"]
    ):
        raise bad("group must be {id, index, size}")
    return doc


def _check_attachments(attachments: Any, bad) -> None:
    if not isinstance(attachments, dict):
        raise bad("attachments must be an object keyed by sha256")
    for sha, item in attachments.items():
        if not (isinstance(sha, str) and len(sha) == 64 and all(c in "0123456789abcdef" for c in sha)):
            raise bad(f"attachment key {str(sha)[:80]!r} is not a sha256")
        problem = attachment_problem(item)
        if problem:
            raise bad(f"attachment {sha[:12]}… {problem}")


def target_ref(doc: dict) -> str:
    return f"{doc['target']['kind']}/{doc['target']['id']}"
