"""Where each session last read the change log: `.bunzai/cursors/<session>.json`.

    {"session": "agent-1", "seq": 41, "end": 10233, "time": "2026-12-01T05:00:00.000000Z",
     "updated": "2026-12-01T05:00:02.000000Z"}

`seq` is the last record the session was told about, `end` the byte offset just after its
line and `time` that record's own time: together they anchor the cursor, so a log moved
aside, truncated or rewritten is noticed (the record at `end` is not that one any more)
instead of being read from a wrong place. A cursor lives in the studio, so a process that
restarts under the same session id continues where it left off. Session labels are chosen by
whoever runs the process: they name a cursor and attribute changes, and grant nothing. A
session id is the change log's (`changelog.check_session`), so every label a write can carry
names a cursor.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bunzai.store.atomic import replace_file
from bunzai.store.changelog import check_session, utc_now_iso
from bunzai.store.pieces import read_raw
from bunzai.store.studio import Studio


def cursor_path(studio: Studio, session: str) -> Path:
    return studio.cursors_dir / f"{check_session(session)}.json"


def read_cursor(studio: Studio, session: str) -> dict[str, Any] | None:
    """The session's cursor; None when it has none; {"damaged": True} when the file is not one."""
    raw = read_raw(cursor_path(studio, session), what=f"the cursor of session {session}")
    if raw is None:
        return None
    try:
        doc = json.loads(raw)
    except ValueError:
        return {"damaged": True}
    if not (
        isinstance(doc, dict)
        and all(
            isinstance(doc.get(key), int) and not isinstance(doc.get(key), bool) and doc[key] >= 0
            for key in ("seq", "end")
        )
        and (doc.get("time") is None or isinstance(doc.get("time"), str))
    ):
        return {"damaged": True}
    return doc


def write_cursor(studio: Studio, session: str, *, seq: int, end: int, time: str | None) -> dict[str, Any]:
    """Move the session's cursor (one atomic replace)."""
    path = cursor_path(studio, session)
    studio.writable_dir(path.parent)
    doc = {"session": session, "seq": seq, "end": end, "time": time, "updated": utc_now_iso()}
    replace_file(path, (json.dumps(doc, sort_keys=True) + "\n").encode("utf-8"))
    return doc
