"""YAML as text-generation-webui's character files are written: keys in order, multi-line
strings as `|` block scalars, no line folding.

textgen reads them with PyYAML, which speaks YAML 1.1: there a plain `yes`, `Off` or `1:30`
is a boolean or a number, not the text bunzai (YAML 1.2) writes unquoted. Such strings are
quoted, so textgen reads the text that was written.

The pretty form is checked by reading it back; where the emitter could not keep a value
exact in it, the plain form is written instead, and as a last resort the form with non-ASCII
escaped, so the file always reads as the document.
"""

from __future__ import annotations

import functools
import io
from typing import Any

from bunzai.adapters.common.yamltext import load_yaml_bytes

# Long lines stay on one line: folding a scalar is legal YAML but makes diffs noisy.
_NO_FOLDING = 1 << 20


@functools.cache
def _yaml_1_1() -> Any:
    """ruamel's resolver for YAML 1.1, the version PyYAML (textgen's reader) implements."""
    from ruamel.yaml.resolver import VersionedResolver

    return VersionedResolver(version=(1, 1))


def yaml_bytes(document: Any) -> bytes:
    for attempt in (_dump(_styled(document, blocks=True)), _dump(_styled(document, blocks=False))):
        if load_yaml_bytes(attempt, what="the written YAML") == document:
            return attempt
    # Characters YAML treats as line breaks (NEL, LS, PS) only survive escaped.
    return _dump(_styled(document, blocks=False), escape_unicode=True)


def _styled(value: Any, *, blocks: bool) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import LiteralScalarString

    if isinstance(value, dict):
        # a key is never a block: a multi-line key would need YAML's `? ` form
        return CommentedMap((_styled(key, blocks=False), _styled(item, blocks=blocks)) for key, item in value.items())
    if isinstance(value, list):
        return CommentedSeq(_styled(item, blocks=blocks) for item in value)
    if not isinstance(value, str):
        return value
    if blocks and "\n" in value and _block_safe(value):
        return LiteralScalarString(value)
    return _quoted_if_not_text_in_yaml_1_1(value)


def _quoted_if_not_text_in_yaml_1_1(text: str) -> Any:
    """`text` single-quoted where a plain scalar of it is no string to a YAML 1.1 reader (PyYAML)."""
    from ruamel.yaml.nodes import ScalarNode
    from ruamel.yaml.scalarstring import SingleQuotedScalarString

    if "\n" in text or _yaml_1_1().resolve(ScalarNode, text, (True, False)) == "tag:yaml.org,2002:str":
        return text  # a multi-line plain scalar is never resolved; ruamel quotes what 1.2 would misread
    return SingleQuotedScalarString(text)


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
