"""Running a capability against a studio: look up the stored piece, load what it `needs`,
compose onto a draft. `bunzai cap run` and the MCP capability tools both call these."""

from __future__ import annotations

from typing import Any

from bunzai.capabilities.compose import compose_capability
from bunzai.capabilities.embedded import run_embedded, split_book_ref
from bunzai.capabilities.runner import run_capability
from bunzai.errors import BunzaiError
from bunzai.store.graveyard import buried_entries
from bunzai.store.pieces import is_stored, not_found_error, read_stored, resolve_ref, try_read


class StudioLoader:
    """Reads the pieces a capability declares in `needs` (by id or kind/id) from the studio, and
    tells the runner whether a piece a draft links is stored (`missing`)."""

    def __init__(self, studio) -> None:
        self.studio = studio

    def __call__(self, kind: str, ref: str) -> dict:
        ref_kind, _, piece_id = ref.rpartition("/")
        if ref_kind and ref_kind != kind:
            raise BunzaiError("invalid_input", f"{ref} is not a {kind}", f"name a {kind} by its id")
        return read_stored(self.studio, kind, piece_id).data

    def missing(self, kind: str, piece_id: str) -> dict | None:
        """None when the studio stores kind/piece_id (one stat), else the stored refs spelled
        alike and the piece's newest graveyard entry (read only then)."""
        if is_stored(self.studio, kind, piece_id):
            return None
        graves = buried_entries(self.studio, kind, piece_id)
        return {
            "suggestions": not_found_error(kind, piece_id, self.studio).details.get("suggestions", []),
            "buried": graves[0]["entry"] if graves else None,
        }


def studio_loader(studio) -> StudioLoader:
    return StudioLoader(studio)


def run_on_studio(
    studio, cap, ref: str | None, raw: Any, *, piece_id: str | None = None, embedded: bool = False
) -> dict:
    """The draft (or read result) of `cap` on the stored piece `ref`, or a new piece (create).

    `ref` may name a character's embedded book (`character/ID#book`, or `embedded`): a lorebook
    capability then works on that book and drafts an update of the character."""
    ref, embedded = split_book_ref(ref, embedded)
    loader = studio_loader(studio)
    if embedded:
        if ref is None:
            raise BunzaiError(
                "usage",
                "--embedded needs the character whose book to work on",
                f"e.g. bunzai cap run {cap.id} character/ID#book --input ...",
            )
        kind, stored_id = resolve_ref(studio, ref)
        stored = read_stored(studio, kind, stored_id)
        return run_embedded(cap, stored.data, raw, baseline=stored.revision, loader=loader)
    if cap.mode == "create":
        if ref is not None:
            raise BunzaiError("usage", f"{cap.id} creates a piece; it takes no REF", "name the new piece with --id")
        return run_capability(cap, None, raw, piece_id=piece_id, loader=loader)
    if ref is None:
        raise BunzaiError(
            "usage", f"{cap.id} needs the piece to work on", f"e.g. bunzai cap run {cap.id} {cap.kind}/ID --input ..."
        )
    kind, stored_id = resolve_ref(studio, ref)
    stored = read_stored(studio, kind, stored_id)
    return run_capability(cap, stored.data, raw, baseline=stored.revision, loader=loader)


def compose_on_studio(studio, cap, doc: dict | list, ref: str | None, raw: Any, *, embedded: bool = False) -> dict:
    """`doc` (a draft) with `cap` applied on top, checked against the stored piece's revision;
    `embedded`: a lorebook capability on the draft's character's embedded book. A group of
    drafts (a card and its book, from an import) is refused: a capability edits one piece."""
    if not isinstance(doc, dict):
        several = f", not a group of {len(doc)}" if isinstance(doc, list) else ""
        raise BunzaiError(
            "invalid_draft",
            f"a capability composes onto one draft{several}",
            "compose onto one piece's draft at a time: apply the group first, then run the capability on the piece",
        )
    ref, embedded = split_book_ref(ref, embedded)
    target = doc.get("target") if isinstance(doc.get("target"), dict) else {}
    if ref is not None and doc.get("mode") == "update":
        kind, piece_id = resolve_ref(studio, ref)
        if (kind, piece_id) != (target.get("kind"), target.get("id")):
            raise BunzaiError(
                "invalid_input",
                f"{ref} is not the draft's target {target.get('kind')}/{target.get('id')}",
                "leave out REF with --draft, or give the draft's own target",
            )
    stored = (
        try_read(studio, target["kind"], target["id"]) if doc.get("mode") == "update" and target.get("kind") else None
    )
    return compose_capability(cap, doc, raw, stored, studio_loader(studio), embedded=embedded)
