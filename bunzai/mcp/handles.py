"""Result handles: a result too long for one reply is kept in the session as `result-N`.

The agent gets the handle and a peek; `result_query` gives stats, pages of at most
MCP_RESULT_READ_MAX_CHARS characters and literal searches. Handles name nothing on disk:
they are counters in this server's memory, evicted oldest first.
"""

from __future__ import annotations

from collections import OrderedDict

from bunzai.errors import BunzaiError
from bunzai.limits import (
    MCP_HANDLE_MAX_BYTES,
    MCP_HANDLES_MAX,
    MCP_HANDLES_TOTAL_MAX_BYTES,
    MCP_RESULT_PEEK_CHARS,
    MCP_RESULT_READ_MAX_CHARS,
    MCP_RESULT_SEARCH_CONTEXT_CHARS,
    MCP_RESULT_SEARCH_MAX_ROWS,
)


class Handles:
    def __init__(self) -> None:
        self._held: OrderedDict[str, tuple[str, int, str]] = OrderedDict()  # handle -> (text, bytes, tool)
        self._cut: set[str] = set()  # handles whose result had values cut to `…` to fit
        self._next = 1
        self.total = 0

    def keep(self, text: str, tool: str, *, truncated: bool = False) -> dict:
        """Hold `text` (one result's JSON); the reply that stands for it: handle, size, peek, and
        `truncated` when values were cut to fit (said here: the envelope that counts them may
        close the text, hundreds of pages on)."""
        from bunzai.mcp.envelope import envelope_text  # lazy: bunzai mcp answers initialize without the envelope

        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MCP_HANDLE_MAX_BYTES:
            raise BunzaiError(
                "too_large",
                f"a result of {size} bytes is over the {MCP_HANDLE_MAX_BYTES} a handle holds",
                "read a part of it (a pointer, an outline, a smaller limit)",
            )
        handle = f"result-{self._next}"
        self._next += 1
        self._held[handle] = (text, size, tool)
        if truncated:
            self._cut.add(handle)
        self.total += size
        while len(self._held) > MCP_HANDLES_MAX or self.total > MCP_HANDLES_TOTAL_MAX_BYTES:
            dropped_handle, (_, dropped, _) = self._held.popitem(last=False)
            self._cut.discard(dropped_handle)
            self.total -= dropped
        hint = (
            f"the result is over the inline size; read it with result_query (handle {handle!r}, "
            f"action read with offset and limit up to {MCP_RESULT_READ_MAX_CHARS}, or search)"
        )
        if truncated:
            hint += (
                f"; even so it was over the {MCP_HANDLE_MAX_BYTES} bytes a handle holds, so values were cut to "
                "'…': read the piece in parts (studio_read with outline, or pointer, offset and limit)"
            )
        return {
            "handle": handle,
            "tool": tool,
            "chars": len(text),
            "bytes": size,
            "truncated": truncated,
            "peek": envelope_text(text[:MCP_RESULT_PEEK_CHARS], truncated=len(text) > MCP_RESULT_PEEK_CHARS),
            "hint": hint,
        }

    def _text(self, handle: str) -> str:
        held = self._held.get(handle)
        if held is None:
            raise BunzaiError(
                "not_found",
                f"no result handle {handle!r} in this session",
                f"handles live in memory, the newest {MCP_HANDLES_MAX} at most; run the tool again",
            )
        return held[0]

    def stats(self, handle: str) -> dict:
        text = self._text(handle)
        return {
            "handle": handle,
            "tool": self._held[handle][2],
            "chars": len(text),
            "bytes": self._held[handle][1],
            "truncated": handle in self._cut,
            "lines": text.count("\n") + 1,
        }

    def read(self, handle: str, offset: int, limit: int | None) -> dict:
        from bunzai.mcp.envelope import envelope_text  # lazy: bunzai mcp answers initialize without the envelope

        text = self._text(handle)
        limit = MCP_RESULT_READ_MAX_CHARS if limit is None else limit
        if offset < 0 or not 1 <= limit <= MCP_RESULT_READ_MAX_CHARS:
            raise BunzaiError(
                "invalid_input",
                f"offset must be >= 0 and limit between 1 and {MCP_RESULT_READ_MAX_CHARS}",
                "leave limit out for the largest page",
            )
        if offset > len(text):  # a page past the end would answer an end before its own offset
            raise BunzaiError(
                "invalid_input",
                f"offset {offset} is past the end of {handle} ({len(text)} characters)",
                "read from offset 0; each page's next_offset says where the next one starts",
            )
        end = min(len(text), offset + limit)
        return {
            "handle": handle,
            "offset": offset,
            "end": end,
            "chars": len(text),
            "next_offset": end if end < len(text) else None,
            "text": envelope_text(text[offset:end], truncated=end < len(text)),
        }

    def search(self, handle: str, query: str, offset: int = 0) -> dict:
        """Literal, case-sensitive occurrences of `query` from `offset`, at most MCP_RESULT_SEARCH_MAX_ROWS."""
        from bunzai.mcp.envelope import envelope_text  # lazy: bunzai mcp answers initialize without the envelope

        text = self._text(handle)
        if not query:
            raise BunzaiError(
                "invalid_input",
                "search needs a non-empty query",
                "give query: the literal text to find (case-sensitive)",
            )
        rows, at = [], text.find(query, max(offset, 0))
        while at >= 0 and len(rows) < MCP_RESULT_SEARCH_MAX_ROWS:
            start = max(0, at - MCP_RESULT_SEARCH_CONTEXT_CHARS)
            rows.append(
                {
                    "offset": at,
                    "context_offset": start,
                    "context": text[start : at + len(query) + MCP_RESULT_SEARCH_CONTEXT_CHARS],
                }
            )
            at = text.find(query, at + max(1, len(query)))
        more = at >= 0
        return {
            "handle": handle,
            "query": envelope_text(query),
            "count": len(rows),
            "more": more,
            "next_offset": at if more else None,
            "rows": [dict(row, context=envelope_text(row["context"])) for row in rows],
        }
