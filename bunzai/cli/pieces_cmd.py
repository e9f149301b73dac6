"""Pieces on the shelf: create, read, list, search, duplicate, schema."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from bunzai.cli.context import studio_of
from bunzai.cli.output import emit
from bunzai.model import KIND_NAMES

KindArg = Annotated[str, typer.Argument(help="character, lorebook, persona, preset, regex, quickreply, pack, htmldoc or promptbook.")]
RefArg = Annotated[str, typer.Argument(help="kind/id, or an id that only one kind holds.")]


def create(
    kind: KindArg,
    input: Annotated[str, typer.Option("--input", "-i", help="JSON object, @FILE or - for stdin: {\"name\": ..., <body fields>}.")],
    id: Annotated[Optional[str], typer.Option("--id", help="Id of the new piece (default: the name as a slug).")] = None,
) -> int:
    """Print a create draft for a new piece; pipe it to `bunzai apply` to store it.

    Example: bunzai create character --input '{"name": "Ada Lovelace"}' | bunzai apply --yes
    """
    from bunzai.capabilities.creation import create_piece_draft
    from bunzai.cli.inputs import read_json_option

    emit(create_piece_draft(kind, read_json_option(input), piece_id=id))
    return 0


def read(
    ctx: typer.Context,
    ref: RefArg,
    outline: Annotated[bool, typer.Option("--outline", help="List the immediate children (of --pointer) as JSON pointers.")] = False,
    pointer: Annotated[Optional[str], typer.Option("--pointer", "-p", help="RFC 6901 pointer into the piece, e.g. /body/description.")] = None,
    offset: Annotated[int, typer.Option("--offset", help="First character/item/key of the page.")] = 0,
    limit: Annotated[Optional[int], typer.Option("--limit", help="Characters/items/keys in the page.")] = None,
) -> int:
    """Print a stored piece with its revision, an outline of it, or one page of a long value.

    Example: bunzai read character/ada-lovelace --pointer /body/description --limit 200
    """
    from bunzai.query.outline import outline as outline_of
    from bunzai.query.outline import page
    from bunzai.store.pieces import read_stored, resolve_ref

    studio = studio_of(ctx)
    kind, piece_id = resolve_ref(studio, ref)
    stored = read_stored(studio, kind, piece_id)
    head = {"kind": kind, "id": piece_id, "revision": stored.revision, "path": stored.path.relative_to(studio.root).as_posix()}
    if outline:
        emit(head | outline_of(stored.data, pointer or ""))
    elif pointer is not None or limit is not None or offset:
        emit(head | page(stored.data, pointer or "", offset, limit))
    else:
        emit(head | {"piece": stored.data})
    return 0


def list_(
    ctx: typer.Context,
    kind: Annotated[Optional[str], typer.Option("--kind", "-k", help="Only this kind.")] = None,
) -> int:
    """List the pieces on the shelf (kind, id, name, revision).

    Example: bunzai list --kind character
    """
    from bunzai.query.index import list_pieces
    from bunzai.store.studio import check_kind

    studio = studio_of(ctx)
    kinds = KIND_NAMES if kind is None else (check_kind(kind),)
    rows = list_pieces(studio, kinds)
    emit({"count": len(rows), "pieces": rows})
    return 0


def search(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help='Words to look for (all must appear); "a phrase" in quotes; pref* for any word starting so.')],
    kind: Annotated[Optional[str], typer.Option("--kind", "-k", help="Only this kind.")] = None,
    limit: Annotated[Optional[int], typer.Option("--limit", help="Most hits to print.")] = None,
) -> int:
    """Search names, tags and text fields, ranked by BM25; each hit names the field (pointer) and shows a snippet.

    Example: bunzai search lovelace
    """
    from bunzai.errors import BunzaiError
    from bunzai.limits import SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT
    from bunzai.query.index import search_pieces
    from bunzai.store.studio import check_kind

    limit = SEARCH_DEFAULT_LIMIT if limit is None else limit
    if not 1 <= limit <= SEARCH_MAX_LIMIT:
        raise BunzaiError("invalid_input", f"--limit must be between 1 and {SEARCH_MAX_LIMIT}")
    if kind is not None:
        check_kind(kind)
    studio = studio_of(ctx)
    kinds = KIND_NAMES if kind is None else (kind,)
    hits = search_pieces(studio, kinds, query, limit)
    emit({"query": query, "count": len(hits), "hits": hits})
    return 0


def duplicate(
    ctx: typer.Context,
    ref: RefArg,
    new_id: Annotated[str, typer.Argument(help="Id of the copy.")],
) -> int:
    """Print a create draft copying a piece (body, profiles, escrow) under a new id.

    Example: bunzai duplicate ada-lovelace ada-2 | bunzai apply --yes
    """
    from bunzai.changes.create import duplicate_draft
    from bunzai.store.pieces import read_stored, resolve_ref

    studio = studio_of(ctx)
    kind, piece_id = resolve_ref(studio, ref)
    emit(duplicate_draft(read_stored(studio, kind, piece_id), new_id))
    return 0


def schema(kind: KindArg) -> int:
    """Print the JSON Schema of a kind's canonical document.

    Example: bunzai schema lorebook
    """
    from bunzai.validate import check_kind
    from bunzai.model import json_schema

    emit(json_schema(check_kind(kind)))
    return 0


def register(app: typer.Typer) -> None:
    app.command()(create)
    app.command()(read)
    app.command("list")(list_)
    app.command()(search)
    app.command()(duplicate)
    app.command()(schema)
