"""Import: platform files in, create drafts out (one per piece, a file's pieces as a group).

Nothing is written here: the drafts carry the pieces and their media to `bunzai apply`.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bunzai.changes.draft import new_draft
from bunzai.errors import BunzaiError
from bunzai.model.ids import id_problem
from bunzai.regexlab.probe import piece_probe_warnings


def drafts_from_bytes(data: bytes, name: str, *, piece_id: str | None = None, format_id: str | None = None) -> list[dict]:
    from bunzai.adapters.inspect import read_bytes

    adapter, decoded = read_bytes(data, name, format_id)
    return _drafts(adapter, decoded, name, hashlib.sha256(data).hexdigest(), piece_id)


def drafts_from_folder(path: Path, adapter, files: dict[str, bytes], *, piece_id: str | None = None) -> list[dict]:
    decoded = adapter.read(b"", str(path), files)
    digest = hashlib.sha256(b"".join(name.encode() + hashlib.sha256(blob).digest() for name, blob in sorted(files.items())))
    return _drafts(adapter, decoded, str(path), digest.hexdigest(), piece_id)


@dataclass(frozen=True)
class Skipped:
    """A file a folder walk passed over: no format claims it (a README, a loose image)."""

    reason: str


def drafts_from_path(path: Path, *, piece_id: str | None = None,
                     format_id: str | None = None) -> Iterator[tuple[Path, list[dict] | BunzaiError | Skipped]]:
    """(file, its drafts or the error reading it) for a file, or for everything in a folder.

    A folder a format claims as one piece (a sprite folder) is imported whole, at the top or
    anywhere inside a walked folder. In a walk, files no format claims are Skipped, not
    errors (a data folder holds notes and loose images); damaged and hostile files are
    errors. A single file named on the command line is always read, so its error shows.
    """
    from bunzai.files import read_file_bytes

    if not path.is_dir():
        yield path, drafts_from_bytes(read_file_bytes(path), path.name, piece_id=piece_id, format_id=format_id)
        return
    yield from _walk(path, 0, piece_id, format_id, [0])


def _walk(folder: Path, depth: int, piece_id: str | None, format_id: str | None, seen: list[int]):
    from bunzai.adapters.inspect import claim_folder
    from bunzai.files import list_folder, read_file_bytes
    from bunzai.limits import FOLDER_WALK_MAX_DEPTH

    claimed = claim_folder(folder) if format_id is None else None
    if claimed is not None:
        yield folder, drafts_from_folder(folder, *claimed, piece_id=piece_id)
        return
    from bunzai.limits import WALK_MAX_ENTRIES

    files, folders = list_folder(folder)
    seen[0] += len(files) + len(folders)
    if seen[0] > WALK_MAX_ENTRIES:
        raise BunzaiError("too_large", f"the folders walked hold more than {WALK_MAX_ENTRIES} entries",
                          "import a smaller folder")
    for file in files:
        try:
            yield file, drafts_from_bytes(read_file_bytes(file), file.name, format_id=format_id)
        except BunzaiError as error:
            yield file, Skipped(error.message) if _unclaimed(error, file) else error
    if depth < FOLDER_WALK_MAX_DEPTH:
        for sub in folders:
            yield from _walk(sub, depth + 1, None, format_id, seen)


def _unclaimed(error: BunzaiError, file: Path) -> bool:
    """Whether a walk may pass over the file: nothing claims it, and it does not look damaged."""
    if error.code == "unrecognized_file":
        return True
    if error.code == "invalid_json":  # text no format reads: notes, licences, scripts
        from bunzai.adapters.registry import all_adapters

        return not any(file.name.lower().endswith(ext) for a in all_adapters() for ext in a.extensions)
    return False


def _drafts(adapter, decoded, name: str, digest: str, piece_id: str | None) -> list[dict]:
    from bunzai.model import dump_piece

    if not decoded.pieces:
        raise BunzaiError("unrecognized_file", f"{name}: the file holds no piece")
    docs = [dump_piece(piece) for piece in decoded.pieces]
    if piece_id is not None:
        problem = id_problem(piece_id)
        if problem:
            raise BunzaiError("invalid_id", f"--id {piece_id!r}: {problem}", "ids are lowercase slugs like ada-lovelace")
        _rename(docs, piece_id)
    blobs = {blob.sha256: blob for blob in decoded.blobs}
    group = None
    size = len(docs)
    drafts = []
    for index, (piece, doc) in enumerate(zip(decoded.pieces, docs)):
        if size > 1:
            group = {"id": f"import-{digest[:16]}", "index": index, "size": size}
        operation = {"op": "import", "input": {"file": name, "format": adapter.format_id},
                     "warnings": list(decoded.warnings) if index == 0 else []}
        operation["warnings"] += piece_probe_warnings(doc)  # patterns that do not compile or run out of time
        drafts.append(new_draft(mode="create", proposed=doc, operations=[operation],
                                attachments=_attachments(piece, blobs, name), group=group))
    return drafts


def _attachments(piece, blobs: dict, name: str) -> dict:
    refs = list(piece.asset_refs())
    if piece.original is not None:
        refs += list(piece.original.files.values())
    attachments = {}
    for ref in refs:
        blob = blobs.get(ref.sha256)
        if blob is None:
            raise BunzaiError("internal", f"{name}: the reader referred to media it did not return ({ref.sha256[:12]}…)",
                              "this is a bug in the format's reader; please report it")
        attachments[ref.sha256] = {"ext": ref.ext, "mime": ref.mime, "base64": base64.b64encode(blob.data).decode("ascii")}
    return attachments


# Where pieces refer to other pieces by id, per kind (pointer path inside the body).
_LINKS = {
    "character": (("links", "lorebooks"), ("links", "regex"), ("links", "quickreplies"), ("media", "pack")),
    "persona": (("lorebook",),),
}


def _rename(docs: list[dict], new: str) -> None:
    """Give the primary piece a new id; carried pieces named after it (`<old>-book`) follow,
    and every link among the file's pieces is updated to the new ids."""
    old = docs[0]["id"]
    mapping = {(docs[0]["kind"], old): new}
    for doc in docs[1:]:
        if doc["id"].startswith(old + "-") and id_problem(new + doc["id"][len(old):]) is None:
            mapping[(doc["kind"], doc["id"])] = new + doc["id"][len(old):]
    for doc in docs:
        doc["id"] = mapping.get((doc["kind"], doc["id"]), doc["id"])
    renamed = {old_id: new_id for (_, old_id), new_id in mapping.items()}
    for doc in docs:
        for path in _LINKS.get(doc["kind"], ()):
            holder = doc["body"]
            for key in path[:-1]:
                holder = holder.get(key) if isinstance(holder.get(key), dict) else {}
            value = holder.get(path[-1])
            if isinstance(value, str) and value in renamed:
                holder[path[-1]] = renamed[value]
            elif isinstance(value, list):
                holder[path[-1]] = [renamed.get(item, item) for item in value]
