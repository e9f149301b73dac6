"""The `chara` chunk read through the `ccv3` chunk it mirrors.

SillyTavern writes the same card twice: `chara` (V2) and `ccv3`, the same object with `spec`
and `spec_version` relabelled. The escrow keeps both documents; rather than parse the second
text in full, its document is built from the first when the two JSON texts are character for
character the same outside those two top-level values (whose own text is parsed). Anything
else (another difference, a repeated top-level key, a lone surrogate, any doubt) returns
None and the chunk is read on its own, so the result is always what a full parse gives.

`twin_in_base64` makes the same comparison on the chunks' base64 texts, so the second chunk
is not even decoded: only the few base64 blocks over its `spec` and `spec_version` values.
"""

from __future__ import annotations

import binascii
import re
from json.decoder import scanstring
from typing import Any

_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace
_BLANK = " \t\n\r"  # (the empty string at the end of the text is `in` it too: the pattern then matches nothing)
_RELABELLED = ("spec", "spec_version")


def top_level(text: str, decoder: Any) -> tuple[dict, dict[str, tuple[int, int]]] | None:
    """A JSON object's document and where each top-level value sits in `text` ([start, end)),
    parsed by `decoder`'s own scanner (its hooks apply to every nested value); None when the
    text is not one object, or repeats a top-level key."""
    space, scan = _SPACE.match, decoder.scan_once
    pos = space(text, 0).end()
    if text[pos : pos + 1] != "{":
        return None
    pos = space(text, pos + 1).end()
    document: dict = {}
    spans: dict[str, tuple[int, int]] = {}
    if text[pos : pos + 1] == "}":
        pos += 1
    else:
        # Whitespace is skipped by the pattern only where there is some (compact JSON has none).
        while True:
            if text[pos : pos + 1] != '"':
                return None
            key, pos = scanstring(text, pos + 1, True)
            if text[pos : pos + 1] in _BLANK:
                pos = space(text, pos).end()
            if text[pos : pos + 1] != ":" or key in document:
                return None
            pos += 1
            if text[pos : pos + 1] in _BLANK:
                pos = space(text, pos).end()
            value, end = scan(text, pos)
            document[key], spans[key] = value, (pos, end)
            if text[end : end + 1] in _BLANK:
                end = space(text, end).end()
            mark = text[end : end + 1]
            pos = end + 1
            if text[pos : pos + 1] in _BLANK:
                pos = space(text, pos).end()
            if mark == "}":
                break
            if mark != ",":
                return None
    return (document, spans) if space(text, pos).end() == len(text) else None


def twin_document(
    first: dict, spans: dict[str, tuple[int, int]], first_text: str, text: str, decoder: Any
) -> dict | None:
    """`text`'s document, built from `first` (parsed from `first_text`, top-level `spans`) when
    the texts differ only inside the top-level `spec` and `spec_version` values; else None.

    The result shares its nested values with `first` (both are kept read-only in an escrow;
    writers copy before they edit)."""
    if len(text) != len(first_text):
        return None
    cuts = sorted(spans[key] for key in _RELABELLED if key in spans)
    pos = 0
    for start, end in cuts:
        if text[pos:start] != first_text[pos:start]:
            return None
        pos = end
    if text[pos:] != first_text[pos:]:
        return None
    document = dict(first)
    for key in _RELABELLED:
        if key in spans:
            start, end = spans[key]
            value, stop = decoder.scan_once(text, start)
            if stop != end:
                return None
            document[key] = value
    return document


def twin_in_base64(
    first: dict,
    spans: dict[str, tuple[int, int]],
    first_text: str,
    first_raw: bytes,
    first_b64: bytes,
    b64: bytes,
    decoder: Any,
) -> dict | None:
    """What `twin_document` gives for the text `b64` decodes to, decoding only the base64
    blocks over the relabelled values; None when that cannot be shown this way (the caller
    then decodes the chunk). `first_raw` is `first_b64` decoded, `first_text` its text.

    Base64 turns each 3 bytes into 4 characters, so when `first_b64` holds no line breaks,
    texts of the same length that agree outside some blocks decode to bytes that agree
    outside those blocks' bytes."""
    size = len(first_b64)
    if (
        len(b64) != size
        or size % 4
        or len(first_raw) != size // 4 * 3 - first_b64[-2:].count(b"=")
        or first_raw.startswith(b"\xef\xbb\xbf")
    ):
        return None  # a line break, padding inside, or a byte-order mark: not block for block
    cuts, char, byte = [], 0, 0
    for key in sorted((key for key in _RELABELLED if key in spans), key=lambda key: spans[key]):
        start, end = spans[key]
        if not cuts and start > len(first_text) // 2:  # byte offsets: encode the shorter side of the text
            byte = len(first_raw) - len(first_text[start:].encode("utf-8"))
        else:
            byte += len(first_text[char:start].encode("utf-8"))
        cuts.append((key, byte, byte + len(first_text[start:end].encode("utf-8"))))
        char = start
    document = dict(first)
    pos, same = 0, memoryview(first_b64)  # compared in place: the texts are large
    for blocks, inside in _block_ranges(cuts):
        if not b64.startswith(same[pos : blocks[0]], pos):
            return None
        pos = blocks[1]
        try:
            segment = binascii.a2b_base64(b64[blocks[0] : blocks[1]], strict_mode=True)
        except binascii.Error:
            return None
        offset = blocks[0] // 4 * 3
        if len(segment) != (blocks[1] - blocks[0]) // 4 * 3:
            return None  # padding: fewer bytes than the blocks' width
        mine, theirs = segment, first_raw[offset : offset + len(segment)]
        here = 0
        for key, start, end in inside:
            if mine[here : start - offset] != theirs[here : start - offset]:
                return None
            value = _scalar(mine[start - offset : end - offset], decoder)
            if value is None:
                return None
            document[key] = value[0]
            here = end - offset
        if mine[here:] != theirs[here:]:
            return None
    return document if b64.startswith(same[pos:], pos) else None


def _block_ranges(cuts: list[tuple[str, int, int]]) -> list[tuple[tuple[int, int], list[tuple[str, int, int]]]]:
    """The base64 character ranges covering each cut (byte span), overlapping ones merged."""
    ranges: list[tuple[tuple[int, int], list[tuple[str, int, int]]]] = []
    for cut in cuts:
        start, end = cut[1] // 3 * 4, -(-cut[2] // 3) * 4
        if ranges and start <= ranges[-1][0][1]:
            (first, last), inside = ranges[-1]
            ranges[-1] = ((first, max(last, end)), inside + [cut])
        else:
            ranges.append(((start, end), [cut]))
    return ranges


def _scalar(raw: bytes, decoder: Any) -> tuple[Any] | None:
    """(value,) when `raw` is exactly one JSON string, number, true, false or null, as the
    decoder reads it (its hooks apply); None otherwise (an escape, which a full read may mend,
    or a container, whose depth a full read checks, included)."""
    if b"\\u" in raw:
        return None
    try:
        text = raw.decode("utf-8")
        value, stop = decoder.scan_once(text, 0)
    except (UnicodeDecodeError, StopIteration, ValueError):
        return None
    return (value,) if stop == len(text) and not isinstance(value, (dict, list)) else None
