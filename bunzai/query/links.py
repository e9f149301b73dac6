"""Where a piece names other pieces by id: what the studio index keeps as its `links` table,
and the tables import's renames and delete's referrers read (`changes.imports` walks the same
holders). A character links lorebooks, regex sets, quick-reply sets and a sprite pack, in its
body and in each variant's overrides; a persona links a lorebook; each promptbook phase links
its preset, the cards in play and the regex sets it uses.
"""

from __future__ import annotations

# kind -> the paths, inside the body (or each promptbook phase, or character variant's
# overrides), of its links; the last key names the kind linked (`LINKED_KIND`)
LINKS = {
    "character": (("links", "lorebooks"), ("links", "regex"), ("links", "quickreplies"), ("media", "pack")),
    "persona": (("lorebook",),),
    "promptbook": (("preset",), ("cards",), ("uses", "regex")),
}
LINKED_KIND = {
    "lorebooks": "lorebook",
    "regex": "regex",
    "quickreplies": "quickreply",
    "pack": "pack",
    "lorebook": "lorebook",
    "preset": "preset",
    "cards": "character",
}
# linked kind -> the kinds whose pieces can link one (in KIND order of LINKS)
LINKING_KINDS = {
    linked: tuple(kind for kind, paths in LINKS.items() if any(LINKED_KIND[path[-1]] == linked for path in paths))
    for linked in dict.fromkeys(LINKED_KIND.values())
}


def links_in(doc: dict) -> list[tuple[str, str]]:
    """(kind, id) of every piece `doc` links to, once each, in the order first named."""
    return list(dict.fromkeys(named_links(doc)))


def named_links(doc: dict) -> list[tuple[str, str]]:
    """(kind, id) of every link `doc` holds, in order, a piece named twice named twice."""
    found = []
    paths = LINKS.get(doc.get("kind"), ())
    for holder in link_holders(doc):
        for path in paths:
            value = holder
            for key in path:
                value = value.get(key) if isinstance(value, dict) else None
            kind = LINKED_KIND[path[-1]]
            found += [
                (kind, item) for item in (value if isinstance(value, list) else (value,)) if isinstance(item, str)
            ]
    return found


def link_holders(doc: dict) -> list[dict]:
    """The dicts holding `LINKS` paths: the body, a character's variants' overrides, or each
    promptbook phase."""
    kind = doc.get("kind")
    if kind not in LINKS:
        return []
    body = doc["body"] if isinstance(doc.get("body"), dict) else {}
    inner = body.get("variants") if kind == "character" else body.get("phases") if kind == "promptbook" else None
    inner = [item for item in inner if isinstance(item, dict)] if isinstance(inner, list) else []
    if kind == "promptbook":
        return inner
    if kind == "character":
        return [body, *(o for o in (v.get("overrides") for v in inner) if isinstance(o, dict))]
    return [body]
