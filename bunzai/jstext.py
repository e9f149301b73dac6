"""JavaScript's reading of user text, where bunzai mirrors a platform's JavaScript in Python.

Python's str.strip() trims another set than String.prototype.trim: it takes U+001C..U+001F
and U+0085, which JavaScript keeps, and keeps U+FEFF, which JavaScript trims. JavaScript trims
WhiteSpace and LineTerminator (ECMA-262 §12.2, §12.3): tab, VT, FF, space, NBSP, ZWNBSP
(U+FEFF), the Zs category, LF, CR, U+2028 and U+2029; the same set `\\s` matches and
parseInt skips. This module imports nothing of bunzai, so every layer may use it.
"""

from __future__ import annotations

import math
import re

JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    """String.prototype.trim."""
    return text.strip(JS_WHITESPACE)


def js_trim_start(text: str) -> str:
    """String.prototype.trimStart."""
    return text.lstrip(JS_WHITESPACE)


def js_trim_end(text: str) -> str:
    """String.prototype.trimEnd."""
    return text.rstrip(JS_WHITESPACE)


_SIGN = re.compile(r"[+-]?")
_HEX = re.compile(r"[0-9a-fA-F]*")
_DEC = re.compile(r"[0-9]*")


def js_parse_int(text: str) -> float:
    """parseInt(text) with no radix: leading JavaScript whitespace skipped, a sign, then decimal
    digits, or hexadecimal after 0x (`0x` with no digit after it is NaN); the digits up to the
    first other character, NaN when there are none. A float, as JavaScript's number is."""
    rest = js_trim_start(text)
    sign = _SIGN.match(rest).group()
    rest = rest[len(sign) :]
    if rest[:2] in ("0x", "0X"):
        digits, base = _HEX.match(rest, 2).group(), 16
    else:
        digits, base = _DEC.match(rest).group(), 10
    if not digits:
        return math.nan
    try:
        value = float(int(digits, base))
    except OverflowError:  # past a double's range JavaScript says Infinity
        value = math.inf
    return -value if sign == "-" else value


_NUMBER_LITERAL = re.compile(
    r"[+-]?(?:Infinity|[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)"
    r"|0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+"
)


def js_number(text: str) -> float:
    """Number(text) of a string: JavaScript's whitespace trimmed, "" is 0, then a decimal literal
    (sign, `Infinity`, exponent) or an unsigned 0x/0o/0b integer; anything else NaN. ASCII digits
    only, no `_` (Python's float() takes both)."""
    body = js_trim(text)
    if not body:
        return 0.0
    if not _NUMBER_LITERAL.fullmatch(body):
        return math.nan
    if body[:2].lower() in ("0x", "0o", "0b"):
        return float(int(body, 0))
    return float(body.replace("Infinity", "inf"))
