"""Lorebook capabilities on a character's embedded book: `character/ID#book` (or `--embedded`).

The embedded book (`body.book`) is lent to the lorebook capability as a transient lorebook
piece (the character's id, the book's name, the book's fields as its body). The runner's
rules hold for that step; the proposed book is then put back into the character, and the
draft is an update of the CHARACTER: its baseline is the character's revision (apply
refuses it when the card moved on), its changes are rows under `/body/book`, and its impact
is the character crossed through the card formats, as for any character draft.
"""

from __future__ import annotations

from typing import Any

from bunzai.capabilities.runner import preview_step, read_result
from bunzai.changes.draft import new_draft
from bunzai.convert import platform_impact
from bunzai.errors import BunzaiError
from bunzai.model import dump_piece
from bunzai.validate import validate_piece

BOOK_SUFFIX = "#book"
BOOK_POINTER = "/body/book"


def split_book_ref(ref: str | None, embedded: bool) -> tuple[str | None, bool]:
    """(piece ref, whether it names the character's embedded book) from `REF` and `--embedded`.

    `character/seraphina#book` and `seraphina#book` name the book; so does `seraphina`
    with `--embedded`. A bare id with either form is read as a character's id.
    """
    if ref is not None and ref.endswith(BOOK_SUFFIX):
        ref, embedded = ref[: -len(BOOK_SUFFIX)], True
    if embedded and ref is not None and "/" not in ref:
        ref = f"character/{ref}"
    if embedded and ref is not None and not ref.startswith("character/"):
        raise BunzaiError(
            "invalid_input", f"{ref}: only a character has an embedded book", "name a character: character/ID#book"
        )
    return ref, embedded


def book_piece(character: dict) -> dict:
    """The character's embedded book as a lorebook piece (an empty one when the card has none)."""
    book = dict(character["body"].get("book") or {})
    name = book.pop("name", "")
    return {"kind": "lorebook", "id": character["id"], "name": name, "body": book}


def with_book(character: dict, lorebook: dict) -> dict:
    """The character with `lorebook`'s body and name as its embedded book."""
    return dict(character, body=dict(character["body"], book=dict(lorebook["body"], name=lorebook["name"])))


def preview_embedded(cap, character: dict, raw_input: Any, *, loader=None) -> tuple[dict, dict, Any]:
    """(proposed character, operation record, read result) for a lorebook capability run on
    `character`'s embedded book. The record names the book with `"on": "/body/book"`."""
    if cap.kind != "lorebook":
        raise BunzaiError(
            "invalid_input",
            f"{cap.id} works on {cap.kind} pieces; a character's embedded book takes lorebook capabilities",
            f"run {cap.id} on the character itself (without #book)",
        )
    if cap.mode == "create":
        raise BunzaiError(
            "invalid_input",
            f"{cap.id} creates a new piece; it does not work on an embedded book",
            f"run {cap.id} without #book to make a lorebook of its own",
        )
    if character.get("kind") != "character":
        raise BunzaiError(
            "invalid_input",
            f"{character.get('kind')}/{character.get('id')} is not a character; only a character has an embedded book",
            "name a character: character/ID#book",
        )
    before = dump_piece(validate_piece(character))
    if before["body"].get("book") is None and cap.effect == "read":
        raise BunzaiError(
            "invalid_input",
            f"character/{before['id']} has no embedded book",
            "lorebook.entries.create on character/ID#book starts one",
        )
    book, record, result = preview_step(cap, book_piece(before), raw_input, loader=loader, impact=False)
    record["on"] = BOOK_POINTER
    if cap.effect == "read":
        return before, record, result
    proposed = dump_piece(validate_piece(with_book(before, book)))
    record["warnings"] += _linked_warning(before, loader)
    record["impact"] += [
        row for row in platform_impact(before, proposed, record.get("attachments")) if row not in record["impact"]
    ]
    return proposed, record, result


def run_embedded(cap, character: dict, raw_input: Any, *, baseline: str, loader=None) -> dict:
    """The update draft of the character (or, for a read capability, its result document)."""
    proposed, record, result = preview_embedded(cap, character, raw_input, loader=loader)
    if cap.effect == "read":
        document = read_result(cap, proposed, record, result)
        document["target"]["on"] = BOOK_POINTER
        return document
    attachments = record.pop("attachments", None)
    return new_draft(
        mode="update",
        proposed=proposed,
        operations=[record],
        baseline=baseline,
        before=dump_piece(validate_piece(character)),
        impact=record["impact"],
        attachments=attachments,
    )


def _linked_warning(character: dict, loader) -> list[str]:
    """An export embeds the linked lorebook piece as it is now (convert.linked_book), so an
    edit to the embedded copy of a card whose linked book is on the shelf does not reach it."""
    links = character["body"].get("links", {}).get("lorebooks") or []
    if not links or loader is None:
        return []
    try:
        loader("lorebook", links[0])
    except BunzaiError:
        return []
    return [
        f"character/{character['id']} is linked to lorebook/{links[0]}: an export embeds that piece as it is "
        f"now, not this copy; edit lorebook/{links[0]} for the change to reach exported cards"
    ]
