"""Reading JSON from the command line: inline text, @FILE, or - for stdin.

All user JSON goes through `load_json_bytes`, so size and depth limits hold everywhere.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from bunzai.errors import BunzaiError
from bunzai.files import read_up_to
from bunzai.limits import WRAPPED_JSON_MAX_DEPTH
from bunzai.jsondoc.reading import load_json_bytes


def read_source_bytes(source: str) -> tuple[bytes, str]:
    """The bytes named by `source`: '-' is stdin, '@path' or a path is a file."""
    from bunzai.limits import JSON_MAX_BYTES

    if source == "-":
        return read_up_to(sys.stdin.fileno(), JSON_MAX_BYTES + 1), "standard input"
    path = Path(source[1:] if source.startswith("@") else source)
    try:
        with path.open("rb") as handle:
            return handle.read(JSON_MAX_BYTES + 1), str(path)
    except FileNotFoundError:
        raise BunzaiError("not_found", f"no file at {path}", "check the path") from None
    except IsADirectoryError:
        raise BunzaiError(
            "invalid_input", f"{path} is a folder, not a JSON file", "name the JSON file itself, not its folder"
        ) from None
    except OSError as exc:
        raise BunzaiError(
            "invalid_input", f"cannot read {path}: {exc.strerror}", "check the path and who owns the file"
        ) from None


def read_json_option(value: str, *, what: str = "--input") -> Any:
    """An --input value: inline JSON, @FILE, or - for stdin."""
    if value == "-" or value.startswith("@"):
        raw, where = read_source_bytes(value)
        return load_json_bytes(raw, what=f"{what} ({where})")
    return load_json_bytes(value.encode("utf-8"), what=what)


def read_documents(source: str) -> tuple[list[Any], bool]:
    """One JSON document, a JSON array, or JSON lines from a file or stdin.

    Returns the documents and whether the input held a single document (so the answer
    can be one document too, rather than JSON lines).
    """
    raw, where = read_source_bytes(source)
    text = raw.lstrip()
    if not text:
        raise BunzaiError(
            "invalid_json", f"{where} is empty", "pipe a draft in, e.g. `bunzai create ... | bunzai apply`"
        )
    lines = [line for line in raw.splitlines() if line.strip()]
    if len(lines) > 1 and all(line.lstrip()[:1] in (b"{", b"[") for line in lines):
        try:
            return [load_json_bytes(line, what=where, max_depth=WRAPPED_JSON_MAX_DEPTH) for line in lines], False
        except BunzaiError:
            pass  # not JSON lines: a pretty-printed document spans several lines
    doc = load_json_bytes(raw, what=where, max_depth=WRAPPED_JSON_MAX_DEPTH)
    if isinstance(doc, list):
        return doc, False
    return [doc], True


def document_stream(source: str, *, allow_empty: bool = False):
    """The documents of `source` ('-' for stdin, '@path' or a path), read one at a time; with
    `allow_empty`, an input of nothing but space holds no document (else it is invalid_json)."""
    import os

    from bunzai.changes.documents import DocumentStream
    from bunzai.limits import APPLY_IDLE_SECONDS

    if source == "-":
        return DocumentStream(
            sys.stdin.fileno(), "standard input", patience=APPLY_IDLE_SECONDS, allow_empty=allow_empty
        )
    path = Path(source[1:] if source.startswith("@") else source)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise BunzaiError("not_found", f"no file at {path}", "check the path") from None
    except OSError as exc:
        raise BunzaiError(
            "invalid_input", f"cannot read {path}: {exc.strerror}", "check the path and who owns the file"
        ) from None
    if path.is_dir():
        os.close(fd)
        raise BunzaiError(
            "invalid_input", f"{path} is a folder, not a JSON file", "name the JSON file itself, not its folder"
        )
    return DocumentStream(fd, str(path), allow_empty=allow_empty)
