"""YAML as text-generation-webui's character files are written: keys in order, multi-line
strings as `|` block scalars, no line folding.

The pretty form is checked by reading it back; where the emitter could not keep a value
exact in it, the plain form is written instead, and as a last resort the form with non-ASCII
escaped, so the file always reads as the document.
"""

from __future__ import annotations

import io
from typing import Any

from bunzai.adapters.common.yamltext import load_yaml_bytes

# Long lines stay on one line: folding a scalar is legal YAML but makes diffs noisy.
_NO_FOLDING = 1 << 20


def yaml_bytes(document: Any) -> bytes:
    for attempt in (_dump(_styled(document)), _dump(document)):
        if load_yaml_bytes(attempt, what="the written YAML") == document:
            return attempt
    # Characters YAML treats as line breaks (NEL, LS, PS) only survive escaped.
    return _dump(document, escape_unicode=True)


def _styled(value: Any) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import LiteralScalarString

    if isinstance(value, dict):
        return CommentedMap((key, _styled(item)) for key, item in value.items())
    if isinstance(value, list):
        return CommentedSeq(_styled(item) for item in value)
    if isinstance(value, str) and "\n" in value and _block_safe(value):
        return LiteralScalarString(value)
    return value


def _block_safe(text: str) -> bool:
    """A `|` block keeps `text` exactly when it is printable, without CR or tabs, blank-free line ends and start."""
    return (
        all(char == "\n" or char.isprintable() for char in text)
        and not text.startswith((" ", "\n"))
        and all(line == line.rstrip(" ") for line in text.split("\n"))
    )


def _dump(document: Any, *, escape_unicode: bool = False) -> bytes:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt", pure=True)
    yaml.width = _NO_FOLDING
    yaml.allow_unicode = not escape_unicode
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue().encode("utf-8")
