"""Drafts saved in the studio's draft area (`.bunzai/drafts/<name>.json`), create-only.

`cap run --save` stores a draft here; `draft list|show|validate|discard` read it by name.
Saving never overwrites (an occupied name is refused) and nothing here touches a piece.
"""

from __future__ import annotations

from datetime import datetime, UTC
from pathlib import Path

from bunzai.changes.check import validate_draft
from bunzai.changes.draft import parse_draft
from bunzai.changes.receipts import receipt
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import load_json_bytes
from bunzai.limits import ID_MAX_LENGTH, WRAPPED_JSON_MAX_DEPTH
from bunzai.model import key_order
from bunzai.model.ids import id_problem, is_safe_id
from bunzai.store.atomic import is_temp_name, remove_file, write_new
from bunzai.store.canon import canonical_bytes
from bunzai.store.pieces import read_raw

SUFFIX = ".json"


def saved_path(studio, name: str) -> Path:
    problem = id_problem(name)
    if problem:
        raise BunzaiError(
            "invalid_id", f"draft name {name!r}: {problem}", "draft names are slugs like seraphina-rename"
        )
    return studio.drafts_dir / f"{name}{SUFFIX}"


def default_name(draft: dict) -> str:
    """`<kind>-<id>-<time>`; a long id is cut, never the time, so two saves of drafts for one
    piece get two names (the whole stays a valid id)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dt%H%M%S%f")
    target = f"{draft['target']['kind']}-{draft['target']['id']}"
    return f"{target[: ID_MAX_LENGTH - len(stamp) - 1]}-{stamp}"


def save_draft(studio, draft: dict, name: str | None = None) -> dict:
    parse_draft(draft)
    name = name or default_name(draft)
    path = saved_path(studio, name)
    studio.writable_dir(path.parent)
    # Sorted keys, as a piece file has them: the proposed piece's escrow records its key order.
    proposed = draft.get("proposed")
    if isinstance(proposed, dict):
        draft = {**draft, "proposed": key_order.recorded_in(proposed)}
    write_new(path, canonical_bytes(draft))
    return {"name": name, "path": path.relative_to(studio.root).as_posix()}


def read_saved(studio, name: str) -> dict:
    path = saved_path(studio, name)
    raw = read_raw(path, what=f"draft {name}")
    if raw is None:
        raise BunzaiError("not_found", f"no saved draft {name!r}", "see `bunzai draft list`")
    return parse_draft(load_json_bytes(raw, what=f"draft {name}", max_depth=WRAPPED_JSON_MAX_DEPTH))


def saved_names(studio) -> list[str]:
    folder = studio.drafts_dir
    if not folder.is_dir():
        return []
    return sorted(
        p.stem
        for p in folder.iterdir()
        if p.suffix == SUFFIX and not is_temp_name(p.name) and is_safe_id(p.stem) and p.is_file()
    )


def list_saved(studio) -> list[dict]:
    """Each saved draft: name, target, mode, baseline, operations, and whether it is stale now."""
    rows = []
    for name in saved_names(studio):
        try:
            draft = read_saved(studio, name)
        except BunzaiError as error:
            rows.append({"name": name, "error": {"code": error.code, "message": error.message}})
            continue
        check = validate_draft(studio, draft)
        rows.append(
            {
                "name": name,
                "target": draft["target"],
                "mode": draft["mode"],
                "baseline": draft["baseline"],
                "operations": [op.get("op") for op in draft.get("operations", [])],
                "stale": check["stale"],
                "reason": check["reason"],
                "valid": check["valid"],
            }
        )
    return rows


def discard_saved(studio, name: str) -> dict:
    draft = read_saved(studio, name)
    remove_file(saved_path(studio, name))
    return receipt(
        "discarded",
        op=draft["mode"],
        target=draft["target"],
        reason="discarded",
        name=name,
        message=f"saved draft {name} was removed; no piece was touched",
    )
