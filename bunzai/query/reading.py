"""The read commands' answers as documents: read a piece, list the shelf, search it.

`bunzai read/list/search` print these, and the MCP tools studio_read, studio_list and
studio_search return them, so both give the same answer. Light imports only: the CLI's hot
path runs this without pydantic.
"""

from __future__ import annotations


def read_piece(studio, ref: str, *, outline: bool = False, pointer: str | None = None, offset: int = 0,
               limit: int | None = None) -> tuple[dict, str]:
    """(head, what) with what "piece", "outline" or "page"; head holds kind, id, revision, path
    and the answer under `piece`, or the outline/page keys."""
    from bunzai.query.outline import outline as outline_of
    from bunzai.query.outline import page
    from bunzai.store.pieces import read_stored, resolve_ref

    kind, piece_id = resolve_ref(studio, ref)
    stored = read_stored(studio, kind, piece_id)
    head = {"kind": kind, "id": piece_id, "revision": stored.revision, "path": stored.path.relative_to(studio.root).as_posix()}
    if outline:
        return head | outline_of(stored.data, pointer or ""), "outline"
    if pointer is not None or limit is not None or offset:
        return head | page(stored.data, pointer or "", offset, limit), "page"
    return head | {"piece": stored.data}, "piece"


def list_shelf(studio, kind: str | None = None) -> dict:
    """{count, pieces, damaged}: every piece (or one kind's) with kind, id, name, revision."""
    from bunzai.model import KIND_NAMES
    from bunzai.query.index import list_pieces
    from bunzai.store.studio import check_kind

    kinds = KIND_NAMES if kind is None else (check_kind(kind),)
    rows, damaged = list_pieces(studio, kinds)
    return {"count": len(rows), "pieces": rows, "damaged": damaged}


def search_shelf(studio, query: str, kind: str | None = None, limit: int | None = None) -> dict:
    """{query, count, hits}: BM25-ranked hits naming the field (pointer) with a snippet."""
    from bunzai.errors import BunzaiError
    from bunzai.limits import SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT
    from bunzai.model import KIND_NAMES
    from bunzai.query.index import search_pieces
    from bunzai.store.studio import check_kind

    limit = SEARCH_DEFAULT_LIMIT if limit is None else limit
    if not 1 <= limit <= SEARCH_MAX_LIMIT:
        raise BunzaiError("invalid_input", f"--limit must be between 1 and {SEARCH_MAX_LIMIT}")
    if kind is not None:
        check_kind(kind)
    hits = search_pieces(studio, KIND_NAMES if kind is None else (kind,), query, limit)
    return {"query": query, "count": len(hits), "hits": hits}
