"""`bunzai draft show|validate`: look at a draft without writing anything."""

from __future__ import annotations

from typing import Annotated

import typer

from bunzai.cli.context import studio_of
from bunzai.cli.output import emit, emit_lines, pass_error_on

app = typer.Typer(help="Look at drafts without writing: show, validate.", no_args_is_help=True)

SourceArg = Annotated[str, typer.Argument(help="Draft file, or - for stdin (one draft, a JSON array, or JSON lines).")]


def _drafts(source: str):
    from bunzai.changes.draft import parse_draft
    from bunzai.cli.inputs import read_documents

    docs, single = read_documents(source)
    for doc in docs:
        if isinstance(doc, dict) and "error" in doc:
            return None, doc, single
    return [parse_draft(doc) for doc in docs], None, single


def _print(results: list, single: bool) -> None:
    if single:
        emit(results[0])
    else:
        emit_lines(results)


@app.command()
def show(source: SourceArg = "-") -> int:
    """Print the draft with its review card as text; writes nothing.

    Example: bunzai create character --input '{"name": "Ada"}' | bunzai draft show
    """
    from bunzai.changes.review import review_card

    drafts, error, single = _drafts(source)
    if error is not None:
        return pass_error_on(error)
    _print([dict(draft, review=review_card(draft)) for draft in drafts], single)
    return 0


@app.command()
def validate(ctx: typer.Context, source: SourceArg = "-") -> int:
    """Re-parse the proposed piece and compare the stored revision; writes nothing.

    Example: bunzai create character --input '{"name": "Ada"}' | bunzai draft validate
    """
    from bunzai.changes.check import validate_draft

    drafts, error, single = _drafts(source)
    if error is not None:
        return pass_error_on(error)
    studio = studio_of(ctx)
    results = [validate_draft(studio, draft) for draft in drafts]
    _print(results, single)
    return 0 if all(r["would_apply"] for r in results) else 1
