"""A stream of JSON documents read one at a time: JSON lines, documents one after another
(pretty-printed drafts), or the elements of one JSON array.

`bunzai apply` reads its input through this, so a pipe of any length is applied in bounded
memory: only the document being read is held, and the size limit (`limits.JSON_MAX_BYTES`)
and depth limit apply to each document, not to the stream. A document that is not JSON
ends the stream with an `invalid_json` error (there is no telling where the next one
starts); one over a limit is refused and the stream goes on when it could be read past.
"""

from __future__ import annotations

import codecs
import json
import re
import select
from collections.abc import Iterator
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.files import read_some
from bunzai.jsondoc.reading import check_parsed_bounds, finite_float, may_nest_past, refuse_constant

_SPACE = re.compile(r"[ \t\n\r]*")
_READ_BYTES = 1 << 16
_DECODER = json.JSONDecoder(parse_constant=refuse_constant, parse_float=finite_float)


class Idle:
    """Yielded between documents when the input has paused: a consumer holding work (apply's
    open batch window) finishes it rather than wait."""


IDLE = Idle()


class DocumentStream:
    """Iterate to get each document (or a BunzaiError for one that was refused); with
    `patience`, `IDLE` too, when no input came for that many seconds between documents."""

    def __init__(self, fd: int, what: str, *, patience: float | None = None, allow_empty: bool = False) -> None:
        self.fd = fd
        self.what = what
        self.patience = patience
        self.allow_empty = allow_empty  # an input of no document at all holds none, not an error
        self.count = 0
        self.array = False
        self._text = ""
        self._pos = 0
        self._eof = False
        self._utf8 = codecs.getincrementaldecoder("utf-8-sig")()

    @property
    def single(self) -> bool:
        """Whether the input held exactly one document, not inside an array."""
        return self.count == 1 and not self.array

    def __iter__(self) -> Iterator[Any]:
        try:
            self._skip_space()
            if self._at_end() and self.allow_empty:
                return
            if self._at_end():
                raise BunzaiError(
                    "invalid_json", f"{self.what} is empty", "pipe a draft in, e.g. `bunzai create ... | bunzai apply`"
                )
            if self._text[self._pos] == "[":
                self.array = True
                self._pos += 1
                yield from self._elements()
            else:
                yield from self._sequence()
        except BunzaiError as error:
            yield error

    def _sequence(self) -> Iterator[Any]:
        while True:
            yield from self._pause()
            self._skip_space()
            if self._at_end():
                return
            yield self._document()

    def _elements(self) -> Iterator[Any]:
        first = True
        while True:
            yield from self._pause()
            self._skip_space()
            if self._at_end():
                raise self._broken("the array is not closed")
            if self._text[self._pos] == "]":
                self._pos += 1
                self._skip_space()
                if not self._at_end():
                    raise self._broken("text follows the closing ]")
                return
            if not first:
                if self._text[self._pos] != ",":
                    raise self._broken("expected , between array elements")
                self._pos += 1
                self._skip_space()
            first = False
            yield self._document()

    def _pause(self) -> Iterator[Idle]:
        """IDLE when nothing is buffered past this point and no input comes within `patience`."""
        if self.patience is None or self._eof:
            return
        self._pos = _SPACE.match(self._text, self._pos).end()
        if self._text.find("\n", self._pos) >= 0:
            return  # a whole line is buffered: no waiting for it
        try:
            ready, _, _ = select.select([self.fd], [], [], self.patience)
        except (OSError, ValueError):
            return
        if not ready:
            yield IDLE

    def _document(self) -> Any:
        """The next document, reading more input until it is complete."""
        while True:
            try:
                value, end = _DECODER.raw_decode(self._text, self._pos)
            except json.JSONDecodeError as error:
                if self._eof:
                    raise self._broken(f"{error.msg} at line {error.lineno} column {error.colno}") from None
                self._more(len(self._text) - self._pos)
                continue
            except RecursionError:
                raise BunzaiError(
                    "too_deep", f"a document in {self.what} nests deeper than bunzai reads", "flatten the document"
                ) from None
            except ValueError as error:
                raise self._broken(str(error)) from None
            if end == len(self._text) and not self._eof and not isinstance(value, (dict, list, str)):
                self._more(0)  # a number may go on in the next chunk
                continue
            start, self._pos = self._pos, end
            self.count += 1
            return self._checked(value, start, end)

    def _checked(self, value: Any, start: int, end: int) -> Any:
        """`value`, or the refusal of a document over the size or depth limit."""
        text = self._text
        if end - start > limits.JSON_MAX_BYTES or may_nest_past(text, limits.WRAPPED_JSON_MAX_DEPTH, start, end):
            try:
                check_parsed_bounds(
                    value,
                    text[start:end].encode("utf-8", "surrogatepass"),
                    what=f"document {self.count} of {self.what}",
                    max_depth=limits.WRAPPED_JSON_MAX_DEPTH,
                )
            except BunzaiError as error:
                return error
        return value

    def _more(self, pending: int) -> None:
        """Read more input: at least as much again as the unfinished document (so a big one is
        re-parsed a logarithmic number of times), refusing one past the size limit."""
        if pending > limits.JSON_MAX_BYTES:
            raise BunzaiError(
                "too_large",
                f"a document in {self.what} is over {limits.JSON_MAX_BYTES} bytes",
                "split the document, or move large media into assets",
            )
        chunks, got = [], 0
        while not self._eof and (not chunks or got < pending):  # one read between documents
            data = read_some(self.fd, max(_READ_BYTES, min(pending - got, 1 << 24)))
            if not data:
                self._eof = True
            chunks.append(data)
            got += len(data)
        try:
            text = self._utf8.decode(b"".join(chunks), final=self._eof)
        except UnicodeDecodeError as error:
            raise BunzaiError(
                "invalid_json", f"{self.what} is not UTF-8 text ({error.reason})", "send UTF-8 text"
            ) from None
        self._text = self._text[self._pos :] + text
        self._pos = 0

    def _skip_space(self) -> None:
        while True:
            self._pos = _SPACE.match(self._text, self._pos).end()
            if self._pos < len(self._text) or self._eof:
                return
            self._more(0)

    def _at_end(self) -> bool:
        return self._pos >= len(self._text) and self._eof

    def _broken(self, why: str) -> BunzaiError:
        return BunzaiError(
            "invalid_json",
            f"{self.what} is not valid JSON after {self.count} document(s): {why}",
            "check the input; the documents before this point were applied",
        )
