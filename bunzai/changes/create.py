"""Create drafts: a new piece from a person's input, or a copy of a stored one."""

from __future__ import annotations

from typing import Any

from bunzai.changes.draft import new_draft
from bunzai.model import dump_piece
from bunzai.validate import check_kind, validate_piece
from bunzai.errors import BunzaiError
from bunzai.model.ids import id_problem, slugify

# Keys of the input that belong to the piece itself; any other key is a body field.
_PIECE_KEYS = ("body", "profiles", "assets")


def create_draft(kind: str, payload: Any, *, piece_id: str | None = None) -> dict:
    """A create draft for a new `kind` piece.

    `payload` is `{"name": ..., <body fields>...}` (flat, the friendly form) or
    `{"name": ..., "body": {...}, "profiles": {...}}`. The id is `piece_id`, else
    payload["id"], else the name as a slug.
    """
    check_kind(kind)
    if not isinstance(payload, dict):
        raise BunzaiError(
            "invalid_input",
            'the input is a JSON object, e.g. {"name": "Ada Lovelace"}',
            "pass --input as a JSON object",
        )
    name = payload.get("name")
    if not isinstance(name, str) or not name.strip():
        raise BunzaiError(
            "invalid_input", 'the input needs a non-empty "name"', 'e.g. --input \'{"name": "Ada Lovelace"}\''
        )
    new_id = _choose_id(name, piece_id if piece_id is not None else payload.get("id"))
    rest = {k: v for k, v in payload.items() if k not in ("name", "id", "kind")}
    nested = [k for k in _PIECE_KEYS if k in rest]
    if nested and len(nested) != len(rest):
        stray = sorted(set(rest) - set(_PIECE_KEYS))
        raise BunzaiError(
            "invalid_input",
            f'give body fields either flat or under "body", not both (flat: {", ".join(stray)})',
            'move those fields under "body", or give every body field flat',
        )
    data = {"kind": kind, "id": new_id, "name": name}
    data.update(rest if nested else {"body": rest})
    piece = validate_piece(data)
    return new_draft(
        mode="create", proposed=dump_piece(piece), operations=[{"op": "create", "input": payload, "warnings": []}]
    )


def duplicate_draft(stored, new_id: str, *, studio) -> dict:
    """A create draft copying a stored piece (body, profiles, assets, escrow) under `new_id`.

    A link to a piece the studio does not hold is copied as it is (the copy is the original's
    twin, and the piece may come back under its id: from the graveyard, or imported again),
    and the draft warns of it by name."""
    problem = id_problem(new_id)
    if problem:
        raise BunzaiError("invalid_id", f"new id {new_id!r}: {problem}", "ids are lowercase slugs like ada-2")
    data = dict(stored.data, id=new_id)
    piece = validate_piece(data)
    source = {"from": f"{stored.kind}/{stored.id}", "revision": stored.revision, "id": new_id}
    warnings = _dangling_links(studio, stored)
    return new_draft(
        mode="create",
        proposed=dump_piece(piece),
        operations=[{"op": "duplicate", "input": source, "warnings": warnings}],
    )


def _dangling_links(studio, stored) -> list[str]:
    """A warning for each link of `stored` to a piece the studio does not hold."""
    from bunzai.changes.imports import links_of
    from bunzai.store.graveyard import buried_entries
    from bunzai.store.pieces import is_stored

    warnings = []
    for kind, piece_id in dict.fromkeys(links_of(stored.data)):
        if is_stored(studio, kind, piece_id):
            continue
        graves = buried_entries(studio, kind, piece_id)
        where = f" (it is in the graveyard as {graves[0]['entry']})" if graves else ""
        warnings.append(
            f"the copy links {kind}/{piece_id}, which the studio does not hold{where}; the link is kept, "
            f"as in {stored.kind}/{stored.id}, and works again once a {kind} with that id is stored"
        )
    return warnings


def _choose_id(name: str, given: Any) -> str:
    if given is not None:
        problem = id_problem(given)
        if problem:
            raise BunzaiError("invalid_id", f"id {given!r}: {problem}", "ids are lowercase slugs like ada-lovelace")
        return given
    slug = slugify(name)
    if not slug:
        raise BunzaiError(
            "invalid_id", f"no id can be made from the name {name!r}", "give one with --id, e.g. --id my-character"
        )
    return slug
