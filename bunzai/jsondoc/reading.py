"""Bounded JSON parsing: the one parser for JSON that bunzai did not write itself.

Piece files, drafts, `--input` and the JSON inside cards all go through `load_json_bytes`
(or `json_text` + `json_decoder` + `check_parsed_bounds` for a reader that drives the
scanner): it refuses documents over `limits.JSON_MAX_BYTES` before parsing them, and nesting
over `limits.JSON_MAX_DEPTH` as too_deep: a document with fewer brackets than the limit
cannot nest past it; any other is measured on its parse, the scanner itself stopping at
Python's recursion limit with a RecursionError that is reported as too_deep too, so hostile
input can neither exhaust memory nor crash the reader. A repeated key keeps its last value
and lone surrogates become U+FFFD, both noted in `read_notes` so readers can say so; NaN,
Infinity and numbers too large for a float are refused.
"""

from __future__ import annotations

import json
import re
from contextvars import ContextVar
from itertools import accumulate

from bunzai import limits
from bunzai.errors import BunzaiError

TYPE_CHECKING = False  # typing costs 3 ms to import; `bunzai read` never needs it
if TYPE_CHECKING:
    from typing import Any


# A JSON string (escapes included; DOTALL so an escaped byte is any byte), or one that never
# closes, which runs to the end: atomic, so a string that does not close is read once, not again
# from each escaped quote in it (hostile text of many `\"` made this quadratic).
_JSON_STRING = re.compile(rb'"(?>[^"\\]*)(?>\\.[^"\\]*)*+(?:"|\\?\Z)', re.DOTALL)
# Keep only brackets, mapped to signed bytes: opening -> +1 (0x01), closing -> -1 (0xff).
_BRACKETS_ONLY = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_INF = float("inf")


def json_depth(raw: bytes) -> int:
    """How deep `raw` nests arrays and objects (0 for a scalar), brackets in strings ignored.

    Linear and iterative: safe on any input, however deep.
    """
    structure = _JSON_STRING.sub(b"", raw).translate(_BRACKETS_ONLY, _NOT_BRACKETS)
    if not structure:
        return 0
    return max(0, max(accumulate(memoryview(structure).cast("b"))))


def _check_size(raw: bytes, what: str) -> None:
    if len(raw) > limits.JSON_MAX_BYTES:
        raise BunzaiError(
            "too_large",
            f"{what} is {len(raw)} bytes; bunzai reads at most {limits.JSON_MAX_BYTES} bytes of JSON",
            hint="split the document, or move large media into assets",
        )


def may_nest_past(raw: bytes | str, max_depth: int, start: int = 0, end: int | None = None) -> bool:
    """Whether `raw` (or its part from `start` to `end`; bytes or text) has brackets enough to
    nest past `max_depth` (a document cannot nest deeper than it has brackets: most have too
    few to need a closer look).

    Counted in stretches that double from 16 KB, stopping once the count is past the limit:
    a large document full of brackets (a world of hundreds of entries) is counted over its
    first hundred KB or so, not over all of it (`bytes.count` is a byte-by-byte loop here)."""
    square, curly = ("[", "{") if isinstance(raw, str) else (b"[", b"{")
    count, stretch, stop = 0, 16_384, len(raw) if end is None else end
    while start < stop:
        upto = start + stretch if start + stretch < stop else stop  # min() is a slower call
        count += raw.count(square, start, upto) + raw.count(curly, start, upto)
        if count > max_depth:
            return True
        start, stretch = upto, stretch * 2
    return False


def _refuse_depth(depth: int, what: str, max_depth: int) -> None:
    if depth > max_depth:
        raise BunzaiError(
            "too_deep",
            f"{what} nests {depth} levels deep; bunzai reads at most {max_depth}",
            hint="flatten the document",
        )


_CONTAINERS = (dict, list)


def parsed_depth(doc: Any) -> int:
    """How deep a parsed document nests arrays and objects (0 for a scalar), as `json_depth`
    counts its text. Iterative; it visits every value once, without looking into strings,
    which is several times cheaper than `json_depth`'s pass over the text of a large
    document (a 200-entry world: about a tenth)."""
    if doc.__class__ not in _CONTAINERS:
        return 0
    deepest, stack = 1, [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        deeper = depth + 1
        for item in value.values() if value.__class__ is dict else value:
            if item.__class__ in _CONTAINERS:
                if deeper > deepest:
                    deepest = deeper
                stack.append((item, deeper))
    return deepest


def check_parsed_bounds(doc: Any, raw: bytes, *, what: str, max_depth: int = limits.JSON_MAX_DEPTH) -> None:
    """Refuse `doc`, with its text `raw` (parsed from it, or to be written as it), when it is
    over the size or depth limit (too_large / too_deep). The depth is counted on `doc`
    (`parsed_depth`), not by scanning `raw` past its strings (`json_depth`, kept for text no
    parse could measure).

    `max_depth` is `limits.JSON_MAX_DEPTH` for documents from outside, and
    `limits.WRAPPED_JSON_MAX_DEPTH` for bunzai's own pieces and drafts, which wrap such a
    document a few levels deeper: what import accepts, apply and the store accept too."""
    _check_size(raw, what)
    if may_nest_past(raw, max_depth):
        _refuse_depth(parsed_depth(doc), what, max_depth)


def refuse_constant(name: str) -> Any:
    """json's parse_constant: NaN and Infinity are not JSON."""
    raise ValueError(f"{name} is not a JSON number")


def finite_float(text: str) -> float:
    """json's parse_float: a number too large for a float (1e400) is refused, as a writer
    would refuse the infinity it becomes, so read and write agree on what a number is."""
    value = float(text)
    if value in (_INF, -_INF):
        raise ValueError(f"{text} is too large for a number")
    return value


_LONE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # a UTF-16 surrogate written as an escape


class ReadNotes:
    """What `load_json_bytes` mended or noticed while reading, for the reader's warnings.
    (A plain class: importing dataclasses costs 13 ms, and every `bunzai read` makes one.)"""

    __slots__ = ("surrogates", "duplicate_keys")

    def __init__(self, surrogates: int = 0, duplicate_keys: list[str] | None = None) -> None:
        self.surrogates = surrogates  # lone surrogates replaced by U+FFFD
        self.duplicate_keys = [] if duplicate_keys is None else duplicate_keys  # keys held twice (the last kept)

    def __eq__(self, other: object) -> bool:
        if type(other) is not ReadNotes:
            return NotImplemented
        return (self.surrogates, self.duplicate_keys) == (other.surrogates, other.duplicate_keys)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ReadNotes(surrogates={self.surrogates!r}, duplicate_keys={self.duplicate_keys!r})"


_notes: ContextVar[ReadNotes | None] = ContextVar("bunzai_read_notes", default=None)


class read_notes:  # noqa: N801 - used as a function: `with read_notes() as notes`
    """Collect what every `load_json_bytes` within the block mended or noticed.

    A class, not a @contextmanager generator: every file read enters one, and the
    generator machinery cost more than the rest of a small card's bookkeeping."""

    __slots__ = ("notes", "_token")

    def __enter__(self) -> ReadNotes:
        self.notes = ReadNotes()
        self._token = _notes.set(self.notes)
        return self.notes

    def __exit__(self, *_exc: object) -> None:
        _notes.reset(self._token)


def note_duplicate_keys(keys: list[str]) -> None:
    """Note keys an object held more than once (the last value kept), for the reader's warning.
    The one rule for every format bunzai parses, JSON and YAML alike: see docs/formats/index.md."""
    notes = _notes.get()
    if notes is not None:
        notes.duplicate_keys += keys


def _keep_last(pairs: list[tuple[str, Any]]) -> dict:
    """json's object_pairs_hook: an object as JavaScript's JSON.parse (every platform) builds
    it, the last of a repeated key winning, with the repeated keys noted."""
    made = dict(pairs)
    if len(made) != len(pairs):
        seen: set[str] = set()
        note_duplicate_keys([key for key, _ in pairs if key in seen or seen.add(key)])
    return made


def _replace_lone_surrogates(doc: Any) -> tuple[Any, int]:
    """`doc` with every lone UTF-16 surrogate (half an emoji, as JavaScript may write) in its
    strings and keys replaced by U+FFFD, and how many were replaced. Such text cannot be
    written as UTF-8, so it is mended where it enters rather than refused later."""
    count = 0

    def mend(text: str) -> str:
        nonlocal count
        found = len(_SURROGATE.findall(text))
        count += found
        return _SURROGATE.sub("\ufffd", text) if found else text

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return mend(value)
        if isinstance(value, list):
            return [walk(item) for item in value]
        if isinstance(value, dict):
            return {mend(key): walk(item) for key, item in value.items()}
        return value

    return walk(doc), count


_SURROGATE = re.compile("[\ud800-\udfff]")


_DECODER: list[json.JSONDecoder] = []


def _decoder() -> json.JSONDecoder:
    """One decoder for every read (json.loads with hooks builds a new one per call)."""
    if not _DECODER:
        _DECODER.append(
            json.JSONDecoder(parse_constant=refuse_constant, parse_float=finite_float, object_pairs_hook=_keep_last)
        )
    return _DECODER[0]


_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace, as json.decoder skips it


def _decode(text: str) -> Any:
    """`json_decoder().decode(text)` with its two Python layers (decode, raw_decode) written
    out: the same scanner and the same errors, two calls fewer for every document read."""
    end = _SPACE.match(text, 0).end()
    try:
        doc, end = _decoder().scan_once(text, end)
    except StopIteration as error:
        raise json.JSONDecodeError("Expecting value", text, error.value) from None
    end = _SPACE.match(text, end).end()
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return doc


def json_decoder() -> json.JSONDecoder:
    """The decoder `load_json_bytes` parses with (its hooks: last key wins and is noted, NaN,
    Infinity and numbers too large for a float refused), for a reader that drives its scanner."""
    return _decoder()


def utf8_text(raw: bytes) -> str:
    """`raw` decoded as UTF-8, one leading byte-order mark dropped: what the "utf-8-sig" codec
    gives, without its Python-level wrapper (a call that is a tenth of a small card's JSON read).
    UnicodeDecodeError as the codec raises it, its offset counted from the file's first byte."""
    text = raw.decode("utf-8")
    return text[1:] if text.startswith("\ufeff") else text


def json_text(raw: bytes, *, what: str) -> str | None:
    """`raw` as text for `json_decoder`, within the size limit `load_json_bytes` checks; None
    when it holds an escaped lone surrogate (which `load_json_bytes` mends). UnicodeDecodeError
    when it is not UTF-8. The caller checks what it parses with `check_parsed_bounds` (the scanner
    itself stops at Python's recursion limit with RecursionError, never deeper)."""
    _check_size(raw, what)
    if _LONE_ESCAPE.search(raw):
        return None
    return utf8_text(raw)


def load_json_bytes(raw: bytes | str, *, what: str, max_depth: int = limits.JSON_MAX_DEPTH) -> Any:
    """Parse JSON from a user or a file, within `limits`; `what` names it in messages.

    Raises BunzaiError too_large, too_deep or invalid_json (not UTF-8, not JSON, NaN or
    Infinity, numbers too large for a float, integers too long to convert). A UTF-8
    byte-order mark is accepted. Lone UTF-16 surrogates written as escapes (`"\\ud800"`)
    are replaced by U+FFFD; a key repeated in an object keeps its last value, as JavaScript's
    JSON.parse does. Both are noted (see `read_notes`) so readers can say so.
    """
    if isinstance(raw, str):
        try:
            raw = raw.encode("utf-8")
        except UnicodeEncodeError as error:
            raise BunzaiError(
                "invalid_json", f"{what} is not valid text: {error.reason}", hint="send UTF-8 text"
            ) from None
    _check_size(raw, what)
    # A document with brackets enough to nest past the limit has its depth measured on the
    # parse, not on the text: the scanner stops itself at Python's recursion limit (about
    # 1,000 levels, RecursionError), and counting a parsed document's levels is several
    # times cheaper than scanning its text past every string.
    deep = may_nest_past(raw, max_depth)
    try:
        text = utf8_text(raw)
    except UnicodeDecodeError as error:
        raise BunzaiError(
            "invalid_json",
            f"{what} is not UTF-8 text (bad byte at offset {error.start})",
            hint="save the file as UTF-8",
        ) from None
    try:
        doc = _decode(text)
    except json.JSONDecodeError as error:
        if deep:  # a broken document that also nests past the limit is refused for its depth, as before
            _refuse_depth(json_depth(raw), what, max_depth)
        raise BunzaiError(
            "invalid_json",
            f"{what} is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}",
            hint="check the document with a JSON validator",
        ) from None
    except RecursionError:
        _refuse_depth(json_depth(raw), what, max_depth)  # too deep to parse: say how deep
        raise BunzaiError("invalid_json", f"{what} nests too deep to parse here", hint="flatten the document") from None
    except ValueError as error:
        raise BunzaiError(
            "invalid_json", f"{what} is not valid JSON: {error}", hint="check the document with a JSON validator"
        ) from None
    if deep:
        _refuse_depth(parsed_depth(doc), what, max_depth)
    return mend_lone_surrogates(doc) if _LONE_ESCAPE.search(raw) else doc


def mend_lone_surrogates(doc: Any) -> Any:
    """`doc` with lone surrogates replaced by U+FFFD, counted in the read notes (for any
    parser whose text can carry them: JSON escapes, YAML's "\\ud800")."""
    doc, count = _replace_lone_surrogates(doc)
    notes = _notes.get()
    if notes is not None:
        notes.surrogates += count
    return doc
