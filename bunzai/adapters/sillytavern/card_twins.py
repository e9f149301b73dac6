"""The `chara` chunk read through the `ccv3` chunk it mirrors.

SillyTavern writes the same card twice: `chara` (V2) and `ccv3`, the same object with `spec`
and `spec_version` relabelled. The escrow keeps both documents; rather than parse the second
text in full, its document is built from the first when the two JSON texts are character for
character the same outside those two top-level values (whose own text is parsed). Anything
else (another difference, a repeated top-level key, a lone surrogate, any doubt) returns
None and the chunk is read on its own, so the result is always what a full parse gives.
"""

from __future__ import annotations

import re
from json.decoder import scanstring
from typing import Any

_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace
_RELABELLED = ("spec", "spec_version")


def top_level(text: str, decoder: Any) -> tuple[dict, dict[str, tuple[int, int]]] | None:
    """A JSON object's document and where each top-level value sits in `text` ([start, end)),
    parsed by `decoder`'s own scanner (its hooks apply to every nested value); None when the
    text is not one object, or repeats a top-level key."""
    space = _SPACE.match
    pos = space(text, 0).end()
    if text[pos : pos + 1] != "{":
        return None
    pos = space(text, pos + 1).end()
    document: dict = {}
    spans: dict[str, tuple[int, int]] = {}
    if text[pos : pos + 1] == "}":
        pos += 1
    else:
        while True:
            if text[pos : pos + 1] != '"':
                return None
            key, pos = scanstring(text, pos + 1, True)
            pos = space(text, pos).end()
            if text[pos : pos + 1] != ":" or key in document:
                return None
            pos = space(text, pos + 1).end()
            value, end = decoder.scan_once(text, pos)
            document[key], spans[key] = value, (pos, end)
            pos = space(text, end).end()
            mark = text[pos : pos + 1]
            pos = space(text, pos + 1).end()
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
