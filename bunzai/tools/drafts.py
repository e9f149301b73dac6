"""The session's drafts: what capability tools made, kept in the server until applied or
discarded, and named `draft-N` (or by the name of a draft saved in the studio)."""

from __future__ import annotations

from bunzai.errors import BunzaiError
from bunzai.limits import MCP_SESSION_DRAFTS_MAX
from bunzai.model.ids import is_safe_id
from bunzai.tools.contract import untrusted


def keep(ctx, draft: dict | list, name: str | None = None) -> str:
    """Hold `draft` in the session under `name` (a new draft-N when None); its name. A list is
    a group of linked drafts (a card and its book), applied all-or-none."""
    if name is None:
        if len(ctx.drafts) >= MCP_SESSION_DRAFTS_MAX:
            raise BunzaiError(
                "too_large",
                f"this session holds {MCP_SESSION_DRAFTS_MAX} drafts already",
                "apply or discard some (change_query lists them)",
            )
        name = f"draft-{ctx.next_draft}"
        ctx.next_draft += 1
    ctx.drafts[name] = draft
    return name


def find(ctx, name: str) -> tuple[dict | list, bool]:
    """(the draft called `name`, whether it is a saved one) from the session, else the studio's saved drafts."""
    if name in ctx.drafts:
        return ctx.drafts[name], False
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.changes.saved import read_saved, saved_path

    if is_safe_id(name) and saved_path(ctx.studio, name).is_file():
        return read_saved(ctx.studio, name), True
    raise BunzaiError(
        "not_found",
        f"no draft {name!r} in this session or saved in the studio",
        "change_query lists the drafts; a capability tool makes one",
    )


def summary(name: str, draft: dict | list) -> dict:
    """What an agent needs to judge a draft; author-written values inside the envelope."""
    if isinstance(draft, list):
        return {
            "draft": name,
            "group": [{key: value for key, value in summary(name, item).items() if key != "draft"} for item in draft],
        }
    doc = {
        "draft": name,
        "target": draft.get("target"),
        "mode": draft.get("mode"),
        "baseline": draft.get("baseline"),
        "operations": [op.get("op") for op in draft.get("operations", []) if isinstance(op, dict)],
        "changes": untrusted(draft.get("changes", [])),
        "warnings": untrusted(draft.get("warnings", [])),
        "impact": untrusted(draft.get("impact", [])),
    }
    if draft.get("saved"):
        doc["saved"] = draft["saved"]
    return doc
