"""`cap browse`: walk domain -> kind -> area -> action, without schemas.

A path is `DOMAIN[/KIND[/AREA]]`; `content/character` names the character kind, and a bare
kind (`character`) is read as `content/<kind>`. Hidden capabilities are never listed.
"""

from __future__ import annotations

from bunzai.errors import BunzaiError


def browse(capabilities: list, path: str = "") -> dict:
    """{path, level, count, items}: `level` names what the items are (domains, kinds, areas or actions)."""
    parts = [p for p in path.strip("/").split("/") if p] if path else []
    domains = sorted({cap.domain for cap in capabilities})
    if parts and parts[0] not in domains:
        parts = ["content"] + parts  # a bare kind: `character` is `content/character`
    if len(parts) > 3:
        raise BunzaiError(
            "not_found", f"{path!r} is deeper than domain/kind/area", "e.g. `bunzai cap browse content/character`"
        )
    level = ("domain", "kind", "area")
    chosen = [c for c in capabilities if all(getattr(c, level[i]) == part for i, part in enumerate(parts))]
    if parts and not chosen:
        raise BunzaiError(
            "not_found",
            f"nothing to browse at {'/'.join(parts)!r}",
            "start from `bunzai cap browse`; domains: " + ", ".join(domains),
        )
    here = "/".join(parts)
    if len(parts) == 3:
        return _listing(here, "actions", [_action(c) for c in sorted(chosen, key=lambda c: c.id)])
    if len(parts) == 2:
        areas: dict[str, list] = {}
        for cap in sorted(chosen, key=lambda c: (c.area, c.id)):
            areas.setdefault(cap.area, []).append(_action(cap))
        rows = [{"area": a, "path": f"{here}/{a}", "actions": acts} for a, acts in areas.items()]
        return _listing(here, "areas", rows)
    key = "kind" if parts else "domain"
    groups: dict[str, set] = {}
    for cap in chosen:
        groups.setdefault(getattr(cap, key), set()).add(cap.kind if not parts else cap.area)
    listed = "kinds" if not parts else "areas"
    return _listing(
        here,
        f"{key}s",
        [
            {
                key: name,
                "path": f"{here}/{name}".lstrip("/"),
                listed: sorted(groups[name]),
                "capabilities": sum(1 for c in chosen if getattr(c, key) == name),
            }
            for name in sorted(groups)
        ],
    )


def _listing(path: str, level: str, rows: list[dict]) -> dict:
    return {"path": path, "level": level, "count": len(rows), "items": rows}


def _action(cap) -> dict:
    return {"id": cap.id, "action": cap.action, "summary": cap.summary, "effect": cap.effect}
