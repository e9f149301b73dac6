"""Pieces on the shelf: create, read, list, search, duplicate, schema."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from bunzai.cli import completion
from bunzai.cli.context import studio_of, studio_option
from bunzai.cli.output import emit

KindArg = Annotated[
    str,
    typer.Argument(
        help="character, lorebook, persona, preset, regex, quickreply, pack, htmldoc or promptbook.",
        autocompletion=completion.kinds,
    ),
]
RefArg = Annotated[
    str, typer.Argument(help="kind/id, or an id that only one kind holds.", autocompletion=completion.piece_refs)
]
KindOpt = Annotated[str | None, typer.Option("--kind", "-k", help="Only this kind.", autocompletion=completion.kinds)]


def create(
    ctx: typer.Context,
    kind: KindArg,
    input: Annotated[
        str, typer.Option("--input", "-i", help='JSON object, @FILE or - for stdin: {"name": ..., <body fields>}.')
    ],
    id: Annotated[str | None, typer.Option("--id", help="Id of the new piece (default: the name as a slug).")] = None,
) -> int:
    """Print a create draft for a new piece.

    Print a create draft for a new piece; pipe it to `bunzai apply` to store it. In a studio, the
    draft warns of links to pieces the studio does not hold.

    Example: bunzai create character --input '{"name": "Grace Hopper"}' | bunzai apply --yes
    """
    from bunzai.capabilities.creation import create_piece_draft
    from bunzai.cli.inputs import read_json_option

    emit(create_piece_draft(kind, read_json_option(input), piece_id=id, studio=_studio_if_chosen(ctx)))
    return 0


def _studio_if_chosen(ctx: typer.Context):
    """The studio this command would work in, or None when none is chosen and the default one
    does not exist (a draft needs no studio; a studio only adds the link warnings)."""
    from bunzai.errors import BunzaiError
    from bunzai.store.studio import ENV_STUDIO

    try:
        return studio_of(ctx)
    except BunzaiError as error:
        chosen = studio_option(ctx) or os.environ.get(ENV_STUDIO)
        if error.code != "studio_missing" or chosen:
            raise  # a studio named and absent is the person's mistake, as in every other command
        return None


def read(
    ctx: typer.Context,
    ref: RefArg,
    outline: Annotated[
        bool, typer.Option("--outline", help="List the immediate children (of --pointer) as JSON pointers.")
    ] = False,
    pointer: Annotated[
        str | None, typer.Option("--pointer", "-p", help="RFC 6901 pointer into the piece, e.g. /body/description.")
    ] = None,
    offset: Annotated[int, typer.Option("--offset", help="First character/item/key of the page.")] = 0,
    limit: Annotated[int | None, typer.Option("--limit", help="Characters/items/keys in the page.")] = None,
) -> int:
    """Print a stored piece, an outline or a page.

    Print a stored piece with its revision, an outline of it, or one page of a long value.

    Example: bunzai read character/ada-lovelace --pointer /body/description --limit 200
    """
    from bunzai.cli.hot import read_command

    return read_command(studio_option(ctx), ref, outline, pointer, offset, limit)


def list_(
    ctx: typer.Context,
    kind: KindOpt = None,
    links_to: Annotated[
        str | None,
        typer.Option(
            "--links-to",
            metavar="KIND/ID",
            help="Only the pieces that link to this one (it need not exist).",
            autocompletion=completion.piece_refs,
        ),
    ] = None,
) -> int:
    """List the pieces on the shelf.

    List the pieces on the shelf (kind, id, name, revision); --links-to lists those that link to a piece.

    Example: bunzai list --kind character
    """
    from bunzai.cli.hot import list_command

    return list_command(studio_option(ctx), kind, links_to)


def search(
    ctx: typer.Context,
    query: Annotated[
        str,
        typer.Argument(
            help='Words to look for (all must appear); "a phrase" in quotes; pref* for any word starting so.'
        ),
    ],
    kind: KindOpt = None,
    limit: Annotated[int | None, typer.Option("--limit", help="Most hits to print.")] = None,
) -> int:
    """Search the shelf, ranked by BM25.

    Search names, tags and text fields, ranked by BM25; each hit names the field (pointer) and shows a snippet.

    Example: bunzai search lovelace
    """
    from bunzai.cli.hot import search_command

    return search_command(studio_option(ctx), query, kind, limit)


def duplicate(
    ctx: typer.Context,
    ref: RefArg,
    new_id: Annotated[str, typer.Argument(help="Id of the copy.")],
) -> int:
    """Print a draft copying a piece under a new id.

    Print a create draft copying a piece (body, profiles, escrow) under a new id.

    Example: bunzai duplicate ada-lovelace ada-3 | bunzai apply --yes
    """
    from bunzai.changes.create import duplicate_draft
    from bunzai.store.pieces import read_stored, resolve_ref

    studio = studio_of(ctx)
    kind, piece_id = resolve_ref(studio, ref)
    emit(duplicate_draft(read_stored(studio, kind, piece_id), new_id, studio=studio))
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
