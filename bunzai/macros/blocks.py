"""`block-lookup`: kinds of prompt block (trackers, assemblers, summaries ...), from catalogs/blocks.yaml."""

from __future__ import annotations

from functools import cache
from importlib import resources

from bunzai.errors import BunzaiError
from bunzai.macros.catalog_cache import load_yaml_text

_FIELDS = ("kind", "title", "for", "built", "goes_wrong", "start")


@cache
def block_kinds() -> list[dict]:
    text = (resources.files("bunzai") / "catalogs" / "blocks.yaml").read_text(encoding="utf-8")
    kinds = load_yaml_text(text, "blocks.yaml")["kinds"]
    for kind in kinds:
        missing = [f for f in _FIELDS if not kind.get(f)]
        if missing:
            raise BunzaiError(
                "internal",
                f"blocks.yaml kind {kind.get('kind')!r} lacks {', '.join(missing)}",
                "fix bunzai/catalogs/blocks.yaml, or reinstall bunzai",
            )
    return kinds


def block_lookup(kind: str | None = None) -> dict:
    """Every kind (title and purpose), or one kind in full."""
    kinds = block_kinds()
    if kind is None:
        rows = [{"kind": k["kind"], "title": k["title"], "for": k["for"]} for k in kinds]
        return {"count": len(rows), "items": rows}
    wanted = kind.strip().lower()
    for k in kinds:
        if k["kind"] == wanted:
            return dict(k)
    raise BunzaiError("not_found", f"no block kind {kind!r}", f"known kinds: {', '.join(k['kind'] for k in kinds)}")
