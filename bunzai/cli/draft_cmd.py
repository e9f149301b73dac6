"""`bunzai draft list|show|validate|discard`: look at drafts, and the ones saved in the studio.

Drafts saved by `cap run --save` live in `.bunzai/drafts/<name>.json`; show and validate
take such a NAME as well as a FILE or `-`. Nothing here writes a piece.
"""

from __future__ import annotations

import sys

from typing import Annotated

import typer

from bunzai.cli.groups import SuggestingGroup

from bunzai.cli.context import studio_of
from bunzai.cli.output import emit, emit_lines, pass_error_on

app = typer.Typer(
    cls=SuggestingGroup,
    help="Look at drafts without writing.\n\nLook at drafts without writing: list, show, validate, discard.",
    no_args_is_help=True,
)

SourceArg = Annotated[
    str,
    typer.Argument(
        help="Draft file, - for stdin (one draft, a JSON array, or JSON lines), or the NAME of a saved draft."
    ),
]


def _drafts(source: str, ctx: typer.Context | None = None):
    from bunzai.changes.draft import parse_draft
    from bunzai.cli.inputs import read_documents

    saved = saved_draft(source, ctx)
    if saved is not None:
        return [saved], None, True
    docs, single = read_documents(source)
    for doc in docs:
        if isinstance(doc, dict) and "error" in doc:
            return None, doc, single
    return [parse_draft(doc) for doc in docs], None, single


def saved_draft(source: str, ctx: typer.Context | None):
    """The saved draft a bare NAME refers to (a file of that name wins), else None."""
    from pathlib import Path

    from bunzai.model.ids import is_safe_id

    if ctx is None or source == "-" or source.startswith("@") or Path(source).exists() or not is_safe_id(source):
        return None
    from bunzai.changes.saved import read_saved, saved_path

    from bunzai.errors import BunzaiError

    try:
        studio = studio_of(ctx)
    except BunzaiError as error:  # no studio: the name is then a file that is not there
        if error.code != "studio_missing":
            raise
        return None
    return read_saved(studio, source) if saved_path(studio, source).is_file() else None


def _print(results: list, single: bool) -> None:
    if single:
        emit(results[0])
    else:
        emit_lines(results)


@app.command()
def show(
    ctx: typer.Context,
    source: SourceArg = "-",
    text: Annotated[bool, typer.Option("--text", help="Print only the review card, as plain text (not JSON).")] = False,
) -> int:
    """Print the draft with its review card; writes nothing.

    --text prints the review cards alone as plain text, a blank line between drafts, for
    people to read rather than JSON (errors stay JSON).

    Example: bunzai create character --input '{"name": "Ada"}' | bunzai draft show --text
    """
    from bunzai.changes.review import review_card

    drafts, error, single = _drafts(source, ctx)
    if error is not None:
        return pass_error_on(error)
    if text:
        # Through sys.stdout, not typer.echo: click writes UTF-8 bytes past an ASCII stdout's encoding.
        sys.stdout.write("\n\n".join(review_card(draft) for draft in drafts) + "\n")
        sys.stdout.flush()
        return 0
    _print([dict(draft, review=review_card(draft)) for draft in drafts], single)
    return 0


@app.command()
def validate(ctx: typer.Context, source: SourceArg = "-") -> int:
    """Check that a draft would apply now.

    Re-parse the proposed piece and compare the stored revision; writes nothing.

    Example: bunzai create character --input '{"name": "Ada"}' | bunzai draft validate
    """
    from bunzai.changes.check import validate_draft

    drafts, error, single = _drafts(source, ctx)
    if error is not None:
        return pass_error_on(error)
    studio = studio_of(ctx)
    results = [validate_draft(studio, draft) for draft in drafts]
    _print(results, single)
    return 0 if all(r["would_apply"] for r in results) else 1


@app.command("list")
def list_(ctx: typer.Context) -> int:
    """List the drafts saved in the studio.

    The drafts saved in the studio (`cap run --save`): target, mode, baseline, stale or not.

    Example: bunzai draft list
    """
    from bunzai.changes.saved import list_saved

    drafts = list_saved(studio_of(ctx))
    emit({"count": len(drafts), "items": drafts})
    return 0


@app.command()
def discard(
    ctx: typer.Context, name: Annotated[str, typer.Argument(help="The saved draft's name (see `bunzai draft list`).")]
) -> int:
    """Remove a saved draft.

    Remove a saved draft; prints a `discarded` receipt. No piece is touched.

    Example: bunzai draft discard seraphina-rename
    """
    from bunzai.changes.saved import discard_saved

    emit(discard_saved(studio_of(ctx), name))
    return 0
