"""What a promptbook phase carries: the library items its `uses` names, checked for existence.

Script sheets, skills, tools, dice and trackers are looked up in the promptbook's own
library; regex ids name regex pieces in the studio. Each id found is listed with what a
person needs to see (names; a rehearsal also shows token estimates, tool parameter names,
tracker starting values and a seeded dice forecast); each id not found is a
`missing_reference` finding with a pointer into the promptbook. Nothing is applied here:
the rehearsal applies a phase's regex pieces in its render, and nothing else of the library
is simulated.
"""

from __future__ import annotations

import random
from typing import Any

from bunzai.model.ids import id_problem
from bunzai.model.promptbook_library import USE_KINDS
from bunzai.render.dice import roll
from bunzai.render.lore import estimate_tokens
from bunzai.store.pieces import try_read

_SINGULAR = {
    "scripts": "script sheet",
    "skills": "skill",
    "tools": "tool",
    "dice": "dice",
    "regex": "regex piece",
    "trackers": "tracker",
}


def phase_uses(
    studio, book_id: str, book: dict, index: int, *, detail: bool = False, seed: int = 0
) -> tuple[dict[str, Any], list[dict]]:
    """({"present": {kind: [item]}, "missing": [...]}, findings) for phase `index` of `book`."""
    body = book.get("body") or {}
    phase = body["phases"][index]
    library = body.get("library") or {}
    present: dict[str, list[dict]] = {}
    missing: list[dict] = []
    findings: list[dict] = []
    uses = phase.get("uses") or {}
    for kind in USE_KINDS:
        for position, item_id in enumerate(uses.get(kind) or []):
            item = _regex_piece(studio, item_id) if kind == "regex" else _library_item(library, kind, item_id)
            pointer = f"/body/phases/{index}/uses/{kind}/{position}"
            if item is None:
                where = "the studio" if kind == "regex" else "the promptbook's library"
                missing.append({"library": kind, "id": item_id, "pointer": pointer})
                findings.append(
                    {
                        "kind": "missing_reference",
                        "piece": f"promptbook/{book_id}",
                        "pointer": pointer,
                        "phase": phase["id"],
                        "library": kind,
                        "id": item_id,
                        "message": f"phase {phase['id']!r} uses {_SINGULAR[kind]} {item_id!r}, "
                        f"which {where} does not hold",
                    }
                )
                continue
            shown = _shown(kind, item, detail)
            if detail and kind == "dice":
                shown["forecast"] = _forecast(item, seed, book_id, phase["id"])
            present.setdefault(kind, []).append(shown)
    return {"present": present, "missing": missing}, findings


def present_regex_ids(uses: dict) -> list[str]:
    return [item["id"] for item in uses["present"].get("regex", [])]


def _library_item(library: dict, kind: str, item_id: str) -> dict | None:
    return next((item for item in library.get(kind) or [] if item.get("id") == item_id), None)


def _regex_piece(studio, item_id: str) -> dict | None:
    if id_problem(item_id):
        return None
    stored = try_read(studio, "regex", item_id)
    if stored is None:
        return None
    return {
        "id": item_id,
        "name": stored.data.get("name", ""),
        "rules": len((stored.data.get("body") or {}).get("rules") or []),
    }


def _shown(kind: str, item: dict, detail: bool) -> dict:
    shown = {"id": item["id"], "name": item.get("name", "")}
    if not detail:
        return shown
    if kind == "scripts":
        shown["tokens"] = estimate_tokens(item.get("text", ""))
    elif kind == "skills":
        shown["description"] = item.get("description", "")
        shown["tokens"] = estimate_tokens(item.get("instructions", ""))
    elif kind == "tools":
        shown["description"] = item.get("description", "")
        shown["parameters"] = list((item.get("parameters") or {}).get("properties") or {})
    elif kind == "dice":
        shown["notation"] = item["notation"]
    elif kind == "regex":
        shown["rules"] = item["rules"]
    elif kind == "trackers":
        shown["fields"] = {field["name"]: field.get("initial", "") for field in item.get("fields") or []}
    return shown


def _forecast(item: dict, seed: int, book_id: str, phase_id: str) -> dict:
    # One generator per (seed, book, phase, dice): adding a phase or a die leaves other rolls alone.
    rolled = roll(item["notation"], random.Random(f"{seed}:{book_id}:{phase_id}:{item['id']}"))
    rolled["label"] = f"forecast with seed {seed}: a run rolls again"
    return rolled
