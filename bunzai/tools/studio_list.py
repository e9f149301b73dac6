"""studio_list: the pieces on the shelf (`bunzai list`), a page at a time."""

from pydantic import Field

from bunzai.errors import BunzaiError
from bunzai.limits import MCP_LIST_PAGE_MAX
from bunzai.model import KIND_NAMES
from bunzai.query.reading import linking_shelf, list_shelf
from bunzai.store.studio import check_id
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted
from bunzai.validate import check_kind


class Args(ToolArgs):
    kind: str | None = Field(
        None,
        description=(
            "Only this kind: character, lorebook, persona, preset, regex, quickreply, pack, htmldoc or promptbook."
        ),
    )
    links_to: str | None = Field(
        None,
        description=(
            "Only the pieces that link to this piece, kind/id (a character's lorebooks, regex and quick-reply "
            "sets and sprite pack; a persona's lorebook; a promptbook phase's preset, cards and regex sets). It "
            "need not exist: before or after studio_delete, these are the pieces pointing at it."
        ),
    )
    after: str | None = Field(
        None,
        description=(
            "Start after this piece, kind/id (the last answer's next_after): the page holds its place when "
            "pieces are added or removed, where an offset shifts. Use it rather than offset."
        ),
    )
    offset: int = Field(0, ge=0, description="First piece of the page (the last answer's next_offset).")
    limit: int = Field(
        MCP_LIST_PAGE_MAX, ge=1, le=MCP_LIST_PAGE_MAX, description=f"Pieces in the page (at most {MCP_LIST_PAGE_MAX})."
    )


def after_key(after: str) -> tuple[str, str]:
    """(kind, id) of an `after` ref, checked as a ref is (the piece itself need not exist)."""
    kind, slash, piece_id = after.partition("/")
    if not slash:
        raise BunzaiError(
            "invalid_id", f"{after!r} is not a piece reference", hint="write kind/id, as the last answer's next_after"
        )
    return check_kind(kind), check_id(piece_id)


def run(ctx, args: Args):
    if args.after is not None and args.offset:
        raise BunzaiError(
            "invalid_input", "give after or offset, not both", hint="after (the last answer's next_after) alone"
        )
    if args.links_to is not None:
        return _linking(ctx, args)
    if args.after is None:
        return _by_offset(ctx, args)
    return _by_after(ctx, args, after_key(args.after))


def _linking(ctx, args: Args) -> dict:
    """A page of the pieces linking to `links_to`: few, so read whole and paged here, by `after`
    as the index pages (its (kind, id) order) or by offset."""
    doc = linking_shelf(ctx.studio, args.links_to, args.kind)
    rows = doc["items"]
    if args.after is not None:
        after = after_key(args.after)
        rows = [row for row in rows if (row["kind"], row["id"]) > after]
    start = 0 if args.after is not None else args.offset
    page = rows[start : start + args.limit]
    end = start + len(page)
    left = len(rows) - end
    if args.after is not None:
        answer = {"count": len(page), "total": doc["count"], "after": args.after, "next_after": None}
        return _finish(answer, args, page, doc["damaged"], left)
    answer = {"count": len(page), "total": doc["count"], "offset": args.offset, "next_offset": end if left else None}
    return _finish(answer, args, page, doc["damaged"], left, end)


def _by_after(ctx, args: Args, after: tuple[str, str]) -> dict:
    from bunzai.query.index import list_after  # lazy, as list_shelf imports it

    kinds = KIND_NAMES if args.kind is None else (check_kind(args.kind),)
    page, total, left, damaged = list_after(ctx.studio, kinds, after, args.limit)
    answer = {"count": len(page), "total": total, "after": args.after, "next_after": None}
    return _finish(answer, args, page, damaged, left)


def _by_offset(ctx, args: Args) -> dict:
    doc = list_shelf(ctx.studio, args.kind)
    page = doc["items"][args.offset : args.offset + args.limit]
    end = args.offset + len(page)
    left = max(doc["count"] - end, 0)
    answer = {"count": len(page), "total": doc["count"], "offset": args.offset, "next_offset": end if left else None}
    return _finish(answer, args, page, doc["damaged"], left, end)


def _finish(answer: dict, args: Args, page: list, damaged: list, left: int, end: int | None = None) -> dict:
    """The answer with next_after, the rows and, where pieces are left, a hint naming the next page."""
    last = f"{page[-1]['kind']}/{page[-1]['id']}" if page and left else None
    answer.update(next_after=last, items=untrusted(page), damaged=damaged)
    if left:
        same_kind = f" and kind {args.kind!r}" if args.kind else ""
        same_kind += f" and links_to {args.links_to!r}" if args.links_to else ""
        where = f"after {last!r}" if end is None else f"offset {end} (or after {last!r})"
        answer["hint"] = f"{left} more: call studio_list again with {where}{same_kind}"
    return answer


TOOL = Tool(
    name="studio_list",
    title="List pieces",
    input_model=Args,
    effect="read",
    run=run,
    description=(
        "List the pieces in the studio (kind, id, name, revision), optionally of one kind or only those linking "
        "to a piece (links_to: who points at it before a delete), sorted by kind then id, "
        f"{MCP_LIST_PAGE_MAX} at most per page. Page with after=next_after (null on the last page): "
        "a page keyed on a piece never skips or repeats one when pieces are added or removed meanwhile. "
        "offset=next_offset still works, but shifts when pieces before it come or go."
    ),
)
