"""Media in drafts: carried inline, or named by where their bytes are.

An import draft names each medium by its SHA-256 and its place in the source file instead
of carrying it (a 552 KB card would otherwise make 1.5 MB of draft):

    "attachments": {<sha256>: {"ext": "png", "mime": "image/png", "size": 511562,
                               "from": {"path": "/abs/card.png", "spans": [[0, 511550], ...]}}}

`from` holds the source file's absolute `path` and one of: `spans` (byte ranges of the file,
concatenated; absent for the whole file) or `member` (a member of the ZIP archive at
`path`). Drafts made elsewhere may still carry `{"ext", "mime", "base64"}`. Either way,
`apply` checks the bytes against the hash before storing them, so a source that changed
since the draft was made is refused (`source_changed`), as is one that vanished
(`source_missing`); nothing is written for that draft.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from pathlib import Path
from typing import Any

from bunzai import limits
from bunzai.adapters.common.zipsafe import open_archive
from bunzai.errors import BunzaiError
from bunzai.files import read_file_bytes


def attachment_of(blob, source: Path | None) -> dict:
    """The draft attachment for an adapter's blob: by reference when it knows its place."""
    origin = blob.origin
    if origin is None or source is None:
        return {"ext": blob.ext, "mime": blob.mime, "base64": base64.b64encode(blob.data).decode("ascii")}
    where: dict[str, Any]
    if origin.file:
        where = {"path": os.fspath(source / origin.file)}
    elif origin.member:
        where = {"path": os.fspath(source), "member": origin.member}
    else:
        where = {"path": os.fspath(source)}
        if origin.spans != ((0, blob.size),) or source.stat().st_size != blob.size:
            where["spans"] = [list(span) for span in origin.spans]
    return {"ext": blob.ext, "mime": blob.mime, "size": blob.size, "from": where}


def attachment_problem(item: Any) -> str | None:
    """What is wrong with an attachment's shape, or None (parse_draft's check)."""
    if not isinstance(item, dict) or not isinstance(item.get("ext"), str):
        return "must be {ext, mime, base64} or {ext, mime, size, from}"
    if "base64" in item:
        return None if isinstance(item["base64"], str) else "base64 must be a string"
    where = item.get("from")
    if not isinstance(where, dict) or not isinstance(where.get("path"), str) or not os.path.isabs(where["path"]):
        return "from must name the absolute path of the source file"
    size = item.get("size")
    if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= limits.ASSET_MAX_BYTES:
        return f"size must be a byte count up to {limits.ASSET_MAX_BYTES}"
    if "member" in where and not isinstance(where["member"], str):
        return "from.member must be a string"
    spans = where.get("spans", [])
    if not isinstance(spans, list) or not all(
        isinstance(span, list)
        and len(span) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in span)
        and 0 <= span[0] <= span[1]
        for span in spans
    ):
        return "from.spans must be [[start, end], ...] byte ranges"
    if spans and sum(end - start for start, end in spans) != size:
        return "from.spans must add up to size"
    return None


def splice_plan(attachments: dict) -> dict[str, tuple[str, list[tuple[int, int]]]]:
    """Whole-file attachments to store as a splice of another attachment of the same file (a
    card PNG beside its portrait, which is the file without its text chunks): sha256 -> (the
    part's sha256, where it sits in the file). A part qualifies when it holds at least
    `limits.ASSET_SPLICE_MIN_BYTES` and its spans are in order, apart and inside the file (any
    other, as a hand-made draft may give, leaves the file stored plain); of several, the
    largest. Shapes are checked already (`attachment_problem`); the bytes are checked at read."""
    parts: dict[str, list[tuple[int, str, dict]]] = {}
    for sha256, item in attachments.items():
        where = item.get("from")
        if isinstance(where, dict) and "member" not in where and where.get("spans"):
            if item["size"] >= limits.ASSET_SPLICE_MIN_BYTES:
                parts.setdefault(where["path"], []).append((item["size"], sha256, item))
    plan = {}
    for sha256, item in attachments.items():
        where = item.get("from")
        if not isinstance(where, dict) or "member" in where or "spans" in where or where["path"] not in parts:
            continue
        for _size, part, part_item in sorted(parts[where["path"]], key=lambda found: -found[0]):
            spans = _in_order(part_item["from"]["spans"], item["size"])
            if spans is not None and part != sha256:
                plan[sha256] = (part, spans)
                break
    return plan


def _in_order(spans: list, size: int) -> list[tuple[int, int]] | None:
    """`spans` without the empty ones, adjacent ones joined, when they are in order, apart and
    within `size` bytes; else None."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        if start == end:
            continue
        if end > size or (out and start < out[-1][1]):
            return None
        if out and start == out[-1][1]:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out or None


class SourceReader:
    """Reads attachments' bytes for `apply`, keeping the last source file open in memory
    (a card's portrait and original are two attachments of one file)."""

    def __init__(self) -> None:
        self._path = ""
        self._bytes = b""
        self._archive = None

    def read(self, sha256: str, item: dict) -> bytes:
        """The attachment's bytes, checked against `sha256`."""
        if "base64" in item:
            try:
                data = base64.b64decode(item["base64"], validate=True)
            except (binascii.Error, ValueError):
                raise BunzaiError(
                    "invalid_draft",
                    f"attachment {sha256[:12]}… is not valid base64",
                    "make the draft again; its attachments are not edited by hand",
                ) from None
            if hashlib.sha256(data).hexdigest() != sha256:
                raise BunzaiError(
                    "invalid_draft",
                    f"attachment {sha256[:12]}… does not hash to its name",
                    "make the draft again; its attachments are not edited by hand",
                )
            return data
        where = item["from"]
        path = where["path"]
        if "member" in where:
            data = self._member(path, where["member"])
        else:
            whole = self._file(path)
            spans = where.get("spans") or [[0, len(whole)]]
            if any(end > len(whole) for _, end in spans):
                raise _changed(path, sha256, "it is shorter than when the draft was made")
            data = b"".join(whole[start:end] for start, end in spans)
        if len(data) != item["size"] or hashlib.sha256(data).hexdigest() != sha256:
            raise _changed(path, sha256, "its bytes no longer hash to the draft's")
        return data

    def _file(self, path: str) -> bytes:
        if path != self._path:
            self._path, self._bytes, self._archive = path, _read_source(path), None
        return self._bytes

    def _member(self, path: str, member: str) -> bytes:
        whole = self._file(path)
        if self._archive is None:
            try:
                self._archive = open_archive(whole)
            except BunzaiError as error:
                raise _changed(path, "", f"it no longer opens as an archive ({error.message})") from None
        if not self._archive.has(member):
            raise _changed(path, "", f"it no longer holds {member!r}")
        return self._archive.read(member)


def _read_source(path: str) -> bytes:
    try:
        return read_file_bytes(Path(path))
    except BunzaiError as error:
        if error.code == "not_found":
            raise BunzaiError(
                "source_missing",
                f"{path}, named by the draft, is gone",
                "import the file again, or restore it; nothing was written for this draft",
            ) from None
        raise _changed(path, "", error.message) from None


def _changed(path: str, sha256: str, why: str) -> BunzaiError:
    what = f"medium {sha256[:12]}… in " if sha256 else ""
    return BunzaiError(
        "source_changed",
        f"{what}{path} changed since the draft was made: {why}",
        "import the file again to make a fresh draft; nothing was written for this draft",
    )
