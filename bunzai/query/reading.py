"""The read commands' answers as documents: read a piece, list the shelf, search it.

`bunzai read/list/search` print these, and the MCP tools studio_read, studio_list and
studio_search return them, so both give the same answer. Light imports only: the CLI's hot
path runs this without pydantic. The hot paths differ: `bunzai search` answers from a fresh
index without reading a piece file and `bunzai read` reads one without opening the index, so
the modules only one of them needs are imported inside the functions that need them.
"""

from __future__ import annotations

from bunzai.errors import BunzaiError
from bunzai.limits import SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT
from bunzai.model import KIND_NAMES
from bunzai.query.pointer import resolve
from bunzai.store.studio import check_ext, check_id, check_sha256
from bunzai.validate import check_kind


def read_piece(
    studio, ref: str, *, outline: bool = False, pointer: str | None = None, offset: int = 0, limit: int | None = None
) -> tuple[dict, str]:
    """(head, what) with what "piece", "outline" or "page"; head holds kind, id, revision, path
    and the answer under `piece`, or the outline/page keys."""
    # lazy: bunzai search (answered from the index) imports this module but reads no piece
    from bunzai.query.outline import outline as outline_of
    from bunzai.query.outline import page
    from bunzai.store.pieces import PIECE_SUFFIX, read_stored, ref_of, resolve_ref

    kind, piece_id = resolve_ref(studio, ref)
    stored = read_stored(studio, kind, piece_id)
    head = {
        "kind": kind,
        "id": piece_id,
        "revision": stored.revision,
        "path": ref_of(kind, piece_id) + PIECE_SUFFIX,  # where `piece_path` puts it, inside the studio
    }
    if outline:
        return head | outline_of(stored.data, pointer or "", offset, limit), "outline"
    if pointer is not None or limit is not None or offset:
        return head | page(stored.data, pointer or "", offset, limit), "page"
    return head | {"piece": stored.data}, "piece"


def list_shelf(studio, kind: str | None = None) -> dict:
    """{count, items, damaged}: every piece (or one kind's) with kind, id, name, revision."""
    from bunzai.query.index import list_pieces  # lazy: bunzai read imports this module but opens no index

    kinds = KIND_NAMES if kind is None else (check_kind(kind),)
    rows, damaged = list_pieces(studio, kinds)
    return {"count": len(rows), "items": rows, "damaged": damaged}


def linking_shelf(studio, ref: str, kind: str | None = None) -> dict:
    """`list_shelf` of the pieces (of one kind, or any) that link to `ref`, a kind/id that need
    not exist (the pieces still pointing at one removed are the ones worth finding)."""
    from bunzai.query.index import linking_pieces  # lazy, as list_shelf imports it

    target_kind, slash, target_id = ref.partition("/")
    if not slash:  # a bare id names no kind when the piece is gone
        raise BunzaiError(
            "invalid_id", f"{ref!r} is not a piece reference", hint="write kind/id, e.g. lorebook/eldoria"
        )
    target = (check_kind(target_kind), check_id(target_id))
    rows, damaged = linking_pieces(studio, KIND_NAMES if kind is None else (check_kind(kind),), *target)
    return {"count": len(rows), "items": rows, "damaged": damaged}


def search_shelf(studio, query: str, kind: str | None = None, limit: int | None = None) -> dict:
    """{query, count, items}: BM25-ranked hits naming the field (pointer) with a snippet."""
    # lazy: bunzai read imports this module but opens no index
    from bunzai.query.index import parse_query, search_pieces

    if not parse_query(query).match:  # no piece could match it: say so, not "no piece matched"
        raise BunzaiError(
            "usage",
            f"the query {query!r} holds no word to search for (words are letters and digits: "
            "punctuation, symbols and emoji are not indexed)",
            'give a word, "a phrase" or a prefix*; `bunzai list` lists every piece',
        )
    limit = SEARCH_DEFAULT_LIMIT if limit is None else limit
    if not 1 <= limit <= SEARCH_MAX_LIMIT:
        raise BunzaiError(
            "invalid_input",
            f"--limit must be between 1 and {SEARCH_MAX_LIMIT}",
            "narrow the query, or search one kind, to see fewer and closer hits",
        )
    if kind is not None:
        check_kind(kind)
    hits = search_pieces(studio, KIND_NAMES if kind is None else (kind,), query, limit)
    return {"query": query, "count": len(hits), "items": hits}


def piece_text(studio, ref: str, pointer: str = "/body") -> str:
    """The text at `pointer` in a stored piece; every string under it, joined, when not a string."""
    # lazy: query.search is off the path of bunzai read, store.pieces off that of bunzai search
    from bunzai.query.search import text_fields
    from bunzai.store.pieces import read_stored, resolve_ref

    kind, piece_id = resolve_ref(studio, ref)
    value = resolve(read_stored(studio, kind, piece_id).data, pointer)
    if isinstance(value, str):
        return value
    return "\n\n".join(found for _, found in text_fields(value))


def stored_data(studio, ref: str, kind: str | None = None) -> dict:
    """A stored piece's data; invalid_input when it is not of `kind`."""
    from bunzai.store.pieces import read_stored, resolve_ref  # lazy: not on the path of bunzai search

    found, piece_id = resolve_ref(studio, ref)
    if kind is not None and found != kind:
        raise BunzaiError("invalid_input", f"{found}/{piece_id} is not a {kind}", f"name a {kind}")
    return read_stored(studio, found, piece_id).data


def stored_drawing(studio, ref: str) -> tuple[str, str, list[str]]:
    """(markup, name, declared slots) of a studio htmldoc."""
    from bunzai.store.pieces import read_stored, resolve_ref  # lazy: not on the path of bunzai search

    kind, piece_id = resolve_ref(studio, ref)
    if kind != "htmldoc":
        raise BunzaiError("invalid_input", f"{kind}/{piece_id} is not a drawing", "name an htmldoc or an HTML file")
    data = read_stored(studio, kind, piece_id).data
    body = data.get("body") or {}
    return (
        str(body.get("markup") or ""),
        str(data.get("name") or data.get("id")),
        [s.get("name") for s in body.get("slots") or []],
    )


def art_of(studio, ref: str) -> dict:
    """Where a piece's media is (pointer, stored file, type, size), never the bytes."""
    from bunzai.store.assets import stored_file
    from bunzai.store.pieces import read_stored, resolve_ref  # lazy: not on the path of bunzai search

    kind, piece_id = resolve_ref(studio, ref)
    data = read_stored(studio, kind, piece_id).data
    rows: list[dict] = []
    stack: list[tuple[str, object]] = [("", data)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("sha256"), str) and isinstance(value.get("ext"), str) and pointer != "/original":
                path = studio.asset_path(value["sha256"], value["ext"]) if _asset_like(value) else None
                found = stored_file(studio, value["sha256"], value["ext"]) if path else None
                rows.append(
                    {
                        "pointer": pointer or "/",
                        "sha256": value["sha256"],
                        "ext": value["ext"],
                        "mime": value.get("mime", ""),
                        "path": (found[0] if found else path).relative_to(studio.root).as_posix() if path else None,
                        "stored": found is not None,
                        "size": found[1] if found else None,
                    }
                )
                continue
            if pointer == "/original":
                continue
            stack.extend((f"{pointer}/{_escape(key)}", item) for key, item in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((f"{pointer}/{index}", item) for index, item in reversed(list(enumerate(value))))
    return {"kind": kind, "id": piece_id, "count": len(rows), "items": rows}


def _asset_like(value: dict) -> bool:
    try:
        check_sha256(value["sha256"])
        check_ext(value["ext"])
    except BunzaiError:
        return False
    return True


def _escape(key: object) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def main_art(studio, ref: str) -> dict:
    """The one image that stands for a piece: its portrait, else (a pack) the item showing the
    default face (the one whose id is the face first, as SillyTavern shows `neutral.png` before
    `neutral-1.png`), else the pack's first item. A row of `art_of`; no_art when there is none
    or its file is not in the studio."""
    found = art_of(studio, ref)
    rows = {row["pointer"]: row for row in found["items"]}
    name = f"{found['kind']}/{found['id']}"
    choice = rows.get("/body/portrait") or _pack_face(studio, found, rows)
    if choice is None:
        raise BunzaiError(
            "no_art",
            f"{name} has no portrait or face image",
            "see `bunzai read` for its media; add a portrait with a character.media capability",
        )
    if not choice["stored"]:
        raise BunzaiError(
            "no_art",
            f"{name}'s image at {choice['pointer']} is not stored in the studio",
            "import the piece again with its image",
        )
    return found | {"art": choice}


def _pack_face(studio, found: dict, rows: dict) -> dict | None:
    if found["kind"] != "pack":
        return None
    from bunzai.store.pieces import read_stored  # lazy: not on the path of bunzai search

    body = read_stored(studio, "pack", found["id"]).data.get("body") or {}
    items = body.get("items") or []
    face = body.get("default_face")
    faces = [index for index, item in enumerate(items) if face and item.get("label") == face]
    # As SillyTavern: the sprite whose file is named as the label comes first (neutral.png before
    # neutral-1.png), then the others in order. An item's id is its file's stem.
    faces.sort(key=lambda index: items[index].get("id") != face)
    for pointer in [f"/body/items/{index}/asset" for index in faces + list(range(len(items)))]:
        if pointer in rows:
            return rows[pointer]
    return None
