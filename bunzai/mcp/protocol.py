"""The MCP wire: newline-delimited JSON-RPC 2.0 frames on stdio, and the protocol revisions.

stdout carries only frames; a frame is one line of JSON (no embedded newline: json.dumps
escapes them; control, bidi and invisible characters are escaped too, as in the CLI's JSON).
Writes are serialised by a lock, because the reader thread answers `ping` while a tool runs.
"""

from __future__ import annotations

import json
import threading
from typing import Any, BinaryIO

from bunzai import limits
from bunzai.changes.hidden_chars import json_escaped
from bunzai.jsondoc.reading import json_depth, may_nest_past

# Newest first: the server answers a client's revision when it knows it, else its newest.
PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
# Revisions that know tool annotations (2025-03-26 on) and structured content / titles (2025-06-18 on).
ANNOTATIONS_FROM = "2025-03-26"
STRUCTURED_FROM = "2025-06-18"
# From 2025-11-25 (SEP-1303) arguments that fail a tool's schema are the tool's error result, which the
# model reads and corrects; earlier revisions list them as protocol errors (InvalidParams).
ARGUMENT_ERRORS_AS_RESULTS_FROM = "2025-11-25"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


def negotiate(requested: object) -> str:
    return requested if isinstance(requested, str) and requested in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0]


def at_least(version: str, floor: str) -> bool:
    """Revisions are dates, so they compare as strings (all known ones are in PROTOCOL_VERSIONS)."""
    return version >= floor


class ProtocolError(Exception):
    """A JSON-RPC error answer (InvalidParams, MethodNotFound ...), not a tool's refusal."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_json(self) -> dict:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class Wire:
    """Frames out, serialised."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out
        self._lock = threading.Lock()

    def send(self, message: dict) -> None:
        # Hidden characters (and a lone surrogate, which has no UTF-8) outside an envelope as \u escapes.
        data = json_escaped(json.dumps(message, ensure_ascii=False, separators=(",", ":"))).encode("utf-8")
        with self._lock:
            _write_whole(self._out, data + b"\n")
            self._out.flush()

    def result(self, request_id: Any, result: dict) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "result": result})

    def error(self, request_id: Any, error: ProtocolError) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "error": error.to_json()})

    def notify(self, method: str, params: dict | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)


def _write_whole(out: BinaryIO, data: bytes) -> None:
    """Write all of `data`. Under `python -u` or PYTHONUNBUFFERED stdout is a raw file, whose
    write may take part of a frame (a client that leaves midway): the rest is written again, so
    a frame is never cut without notice, and a client gone raises BrokenPipeError here."""
    view = memoryview(data)
    while view:
        written = out.write(view)
        if written is None:  # a non-blocking stdout that is full: not a stream a client reads
            raise BlockingIOError("stdout would block")
        view = view[written:]


def _not_json(name: str):
    """NaN, Infinity and -Infinity, which Python's reader takes and JSON has not."""
    raise ValueError(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    """A JSON number as a float; one past a float's range (1e400) would be written back as
    Infinity, which is no JSON, so the frame is refused."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:40]} is past the range of a float")
    return value


def read_frames(source: BinaryIO, max_bytes: int):
    """Yield each line's parsed JSON, or a ProtocolError for a line that is not JSON / too long."""
    while True:
        line = source.readline(max_bytes + 1)
        if not line:
            return
        if len(line) > max_bytes and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # skip the rest of the oversized line
                line = source.readline(max_bytes + 1)
            yield ProtocolError(PARSE_ERROR, f"a frame is longer than {max_bytes} bytes")
            continue
        if not line.strip():
            continue
        if may_nest_past(line, limits.MCP_FRAME_MAX_DEPTH) and json_depth(line) > limits.MCP_FRAME_MAX_DEPTH:
            # refused unparsed: the parser and every reader after it recurse once a level
            yield ProtocolError(PARSE_ERROR, f"a frame nests more than {limits.MCP_FRAME_MAX_DEPTH} levels deep")
            continue
        try:
            yield json.loads(line.decode("utf-8"), parse_constant=_not_json, parse_float=_finite)
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            yield ProtocolError(PARSE_ERROR, f"not a JSON frame: {error}")
