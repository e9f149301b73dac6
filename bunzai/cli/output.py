"""Where every command's result and every error is rendered: JSON on stdout, words on stderr.

A command prints exactly one JSON document (pretty on a terminal, one compact line in a
pipe) or JSON lines for commands that stream many results; characters that could drive a
terminal or hide text are written as `\\u` escapes (`hidden_chars.json_escaped`). An error is the document
`{"error": {"code", "message", "hint"}}` on stdout plus one human line on stderr.
"""

from __future__ import annotations

import codecs
import json
import re
import sys
from collections.abc import Iterable

from bunzai.changes.hidden_chars import json_escaped
from bunzai.errors import BunzaiError

TYPE_CHECKING = False  # typing costs 3 ms to import; list, search and read never need it
if TYPE_CHECKING:
    from typing import Any


def stdout_is_utf8() -> bool:
    """Whether stdout writes UTF-8 (Python's own choice almost everywhere; PYTHONIOENCODING or a
    legacy locale may choose otherwise). A stream without an encoding (a test's) counts as UTF-8."""
    encoding = getattr(sys.stdout, "encoding", None)
    if not encoding:
        return True
    try:
        return codecs.lookup(encoding).name == "utf-8"  # (codecs is loaded with the interpreter)
    except LookupError:
        return False


# Outside its strings JSON text is ASCII: a character past it is inside a string, where its \u escape
# parses to the same value. (json.dumps's own ensure_ascii would write lone surrogates in a row as a pair.)
_NON_ASCII = re.compile("[^\x00-\x7f]")
_LINE_ESCAPES = {"\n": "\\n", "\t": "\\t"}  # a human line stays one line


def to_text(doc: Any, *, pretty: bool | None = None) -> str:
    if pretty is None:
        pretty = sys.stdout.isatty()
    options = {"indent": 2} if pretty else {"separators": (",", ":")}
    # Hidden characters (controls, bidi, invisible, lone surrogates) as \u escapes, always, not
    # only on a terminal: the parsed value is the same, a pipe often ends on one (`| less -R`),
    # and the bytes do not depend on where they go. Other text (emoji, CJK) stays readable.
    text = json_escaped(json.dumps(doc, ensure_ascii=False, **options))
    if not stdout_is_utf8():  # the same JSON, in ASCII with \u escapes: it survives any encoding
        return _NON_ASCII.sub(lambda match: json.dumps(match.group())[1:-1], text)
    return text


# How list-like answers print: "json" (the default), "table" (--table or BUNZAI_OUTPUT=table:
# aligned columns for people) or "nl" (--nl: one JSON object per item, per line).
OUTPUT_MODES = ("json", "table", "nl")
_mode: str | None = None


def set_output_mode(mode: str) -> None:
    global _mode
    _mode = mode


def output_mode() -> str:
    """--table / --nl when given, else $BUNZAI_OUTPUT when it names a mode, else json."""
    if _mode is not None:
        return _mode
    import os

    chosen = os.environ.get("BUNZAI_OUTPUT", "json")
    return chosen if chosen in OUTPUT_MODES else "json"


def emit(doc: Any) -> None:
    """Print one JSON document on stdout (a list-like answer as a table or JSON lines when
    that output was chosen; see `bunzai.cli.table`)."""
    mode = output_mode()
    if mode != "json" and isinstance(doc, dict) and "error" not in doc:
        from bunzai.cli.table import items_of, table_text

        items = items_of(doc)
        if items is not None:
            if mode == "nl":
                emit_lines(items)
                return
            sys.stdout.write(table_text(items, encoding=None if stdout_is_utf8() else sys.stdout.encoding))
            sys.stdout.flush()
            return
    sys.stdout.write(to_text(doc) + "\n")
    sys.stdout.flush()


def emit_line(doc: Any) -> None:
    """Print one JSON line (for streaming commands: always compact, one per line)."""
    sys.stdout.write(to_text(doc, pretty=False) + "\n")
    sys.stdout.flush()


def emit_lines(docs: Iterable[Any]) -> None:
    for doc in docs:
        emit_line(doc)


def say(text: str) -> None:
    """A human line on stderr (progress, notes); never on stdout."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def visible(text: str) -> str:
    """`text` for a human line on stderr: each hidden character written as the JSON on stdout
    writes it (`\\u001b`, `\\u202e`, a surrogate pair past U+FFFF), newline and tab as `\\n` and
    `\\t`: a message quoting a card or a file name can neither drive the terminal nor break the line."""
    if text.isprintable():  # (every hidden character, newline and tab are unprintable)
        return text
    from bunzai.changes.hidden_chars import SUSPECT, json_escape_at

    def shown(match: re.Match) -> str:
        return _LINE_ESCAPES.get(match.group()) or json_escape_at(text, match.start())

    return re.sub(f"[\t\n]|{SUSPECT.pattern}", shown, text)


def render_error(error: BunzaiError) -> int:
    """Print an error document and its stderr line; return the exit code."""
    emit(error.to_json())
    line = f"bunzai: {error.code}: {visible(error.message)}"
    if error.hint:
        line += f" ({visible(error.hint)})"
    say(line)
    return error.exit_code


def pass_error_on(doc: dict) -> int:
    """A draft that is itself an error document: print it unchanged, exit as a refusal."""
    emit(doc)
    err = doc.get("error") if isinstance(doc.get("error"), dict) else {}
    code = str(err.get("code", "error"))
    say(f"bunzai: {visible(code)}: {visible(str(err.get('message', 'the input was an error document')))}")
    from bunzai.errors import CODES, REFUSAL

    return CODES.get(code, REFUSAL)
