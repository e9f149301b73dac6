"""Characters a piece's author can use to hide or disguise text, defined once for every reader.

- `controls`:   C0 and C1 control characters and DEL, but newline and tab (ESC starts a
                terminal escape sequence, BEL ends one, CR rewrites a line ...);
- `bidi`:       bidirectional overrides and isolates (text shown in another order than stored);
- `invisible`:  invisible format characters: zero-width spaces, word joiners, soft hyphens,
                tag characters ... (a zero-width joiner between two emoji is part of the emoji);
- `surrogates`: lone surrogates (half a character, which no encoding writes).

The MCP envelope removes them and counts them (`bunzai.mcp.envelope.clean`); text written to
a terminal for a person (the review `apply` shows before it asks, `draft show --text`) shows
each as a visible escape instead (`escape`), so a card can neither drive the terminal nor
hide what the person is confirming. JSON bunzai prints writes each as a `\\u` escape
(`json_escaped`): the text shows no such character, and parses to the same value.
"""

from __future__ import annotations

import re
from functools import cache

_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f"
_BIDI = "\u202a-\u202e\u2066-\u2069"
# Unicode category Cf (format characters), Unicode 14; the bidi ones are counted as bidi.
_FORMAT = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u2060-\u2064"
    "\u206a-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
_SURROGATES = "\ud800-\udfff"
ZWJ = "\u200d"
# Emoji modifiers and variation selectors that may sit between an emoji and a joiner.
_EMOJI_TAIL = re.compile("[\ufe0e\ufe0f\U0001f3fb-\U0001f3ff]")
_NAMED = {"\n": "\\n", "\t": "\\t"}


# The two long classes are compiled on first use (a millisecond): every command's JSON output
# imports this module, and `json_escaped` rarely needs them.
@cache
def _suspect() -> re.Pattern:
    return re.compile(f"[{_CONTROLS}{_BIDI}{_FORMAT}{_SURROGATES}]")


@cache
def _shown() -> re.Pattern:
    """What `escape` shows: the hidden characters, and newline and tab (a row of a review is one line)."""
    return re.compile(f"[\t\n{_CONTROLS}{_BIDI}{_FORMAT}{_SURROGATES}]")


def __getattr__(name: str):
    if name == "SUSPECT":  # the pattern of every hidden character, compiled when first asked for
        return _suspect()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _emoji(char: str) -> bool:
    import regex

    return bool(regex.match(r"\p{Extended_Pictographic}", char))


def class_of(char: str) -> str:
    """Which class a character `SUSPECT` matches is in."""
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        return "surrogates"
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return "controls"
    if 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069:
        return "bidi"
    return "invisible"


def joins_emoji(text: str, index: int) -> bool:
    """A zero-width joiner at `index` between two emoji (past modifiers) is part of the emoji."""
    before = index - 1
    while before >= 0 and _EMOJI_TAIL.match(text[before]):
        before -= 1
    after = index + 1
    return before >= 0 and after < len(text) and _emoji(text[before]) and _emoji(text[after])


def escape(text: str) -> str:
    """`text` fit for a terminal, on one line: every hidden character written as a visible escape
    (`\\x1b`, `\\x9b`, `\\u202e`, `\\U000e0041`), newline as `\\n` and tab as `\\t`."""
    if _shown().search(text) is None:
        return text
    return _shown().sub(lambda match: _escaped(text, match.start()), text)


def escape_parts(text: str) -> list[str]:
    """`escape(text)` one character of `text` at a time, so a cut can keep whole escapes."""
    shown = _shown()
    if shown.search(text) is None:
        return list(text)
    return [_escaped(text, index) if shown.match(char) else char for index, char in enumerate(text)]


def _escaped(text: str, index: int) -> str:
    char = text[index]
    if char in _NAMED:
        return _NAMED[char]
    if char == ZWJ and joins_emoji(text, index):
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def json_escaped(text: str) -> str:
    """JSON text (from `json.dumps(..., ensure_ascii=False)`) with every hidden character written
    as a JSON `\\u202e`-style escape (a surrogate pair past U+FFFF), but a zero-width joiner inside an
    emoji. Outside its strings JSON text is ASCII, so each such character is inside a string,
    where its escape parses to the same value; text that holds none is returned as it is.

    The one value no JSON can write is a lone high surrogate followed by a lone low one: every
    reader joins their escapes into one character. Those two are written `\\ufffd\\ufffd`, what
    bunzai's reader makes of any lone surrogate (`jsondoc.reading`), never one character."""
    if text.isascii():  # the common case, at memory speed: json.dumps escaped C0 already, DEL is left
        return text if "\x7f" not in text else _suspect().sub(_json_escape, text)
    # Every hidden character is unprintable; `isprintable` is several times faster than a search.
    if text.replace("\n", "").isprintable():  # (the newlines of indented JSON are all structural)
        return text
    return _suspect().sub(_json_escape, text)


def _json_escape(match: re.Match) -> str:
    return json_escape_at(match.string, match.start())


def json_escape_at(text: str, index: int) -> str:
    """The hidden character at `index` of `text` as `json_escaped` writes it (a joiner inside an
    emoji as it is, a lone surrogate of a high-low pair as U+FFFD)."""
    char = text[index]
    if char == ZWJ and joins_emoji(text, index):
        return char
    if _halves_in_a_row(text, index):
        return "\\ufffd"
    code = ord(char)
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 | code >> 10:04x}\\u{0xDC00 | code & 0x3FF:04x}"
    return f"\\u{code:04x}"


def _halves_in_a_row(text: str, index: int) -> bool:
    """Whether the character at `index` is a high surrogate just before a low one, or that low one."""
    code = ord(text[index])
    if 0xD800 <= code <= 0xDBFF:
        return index + 1 < len(text) and 0xDC00 <= ord(text[index + 1]) <= 0xDFFF
    return 0xDC00 <= code <= 0xDFFF and index > 0 and 0xD800 <= ord(text[index - 1]) <= 0xDBFF
