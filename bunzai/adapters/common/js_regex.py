"""Whether `new RegExp(pattern, flags)` throws: a conservative JavaScript regex syntax check.

Spokes decide with it how a platform reads a key (SillyTavern takes a `/pattern/flags` key
that does not compile as plain text; RisuAI ends an entry's search at one). They cannot use
bunzai.regexlab's engine (the layer contract), so this reads the syntax in Python, as
ECMAScript with Annex B (the web's reading) and with the `u` flag's stricter rules.

`compiles` answers True or False only where the rules are plain, and None where it cannot
judge: the `v` flag, `\\p{...}` property names, regexp modifiers `(?i:...)`, repeated or
non-ASCII group names, `\\k` inside a class of a pattern with named groups (engines differ
on these, or the answer needs Unicode tables). Callers keep their reading for None.
The tests hold every True and False to QuickJS.
"""

from __future__ import annotations

import re

FLAGS = "dgimsuvy"

_SYNTAX = frozenset("^$\\.*+?()[]{}|/")  # what the u flag lets a backslash escape
_QUANTIFIER = re.compile(r"\{(\d+)(?:(,)(\d*))?\}")
_HEX2 = re.compile(r"[0-9a-fA-F]{2}")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_BRACED_HEX = re.compile(r"\{([0-9a-fA-F]+)\}")
_PROPERTY = re.compile(r"\{[^}]*\}")
_NAME = re.compile(r"<([^>]*)>")
_REF = re.compile(r"<([^<>]*)>")  # `\k<name>`: the name is judged against the groups' names
_ASCII_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")
_MODIFIERS = re.compile(r"\?[ims]*(?:-[ims]*)?:")
_OCTAL = re.compile(r"[0-3][0-7]{0,2}|[4-7][0-7]?")
_LETTER = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def flags_valid(flags: str) -> bool:
    """Whether `new RegExp` takes these flags: known letters, each once, not `u` with `v`."""
    return set(flags) <= set(FLAGS) and len(set(flags)) == len(flags) and not {"u", "v"} <= set(flags)


def compiles(pattern: str, flags: str) -> bool | None:
    """True when `new RegExp(pattern, flags)` succeeds, False when it throws, None when unsure."""
    if not flags_valid(flags):
        return False
    if "v" in flags:
        return None
    return _Reader(pattern, "u" in flags).verdict()


class _Bad(Exception):
    """The pattern does not compile."""


def _has_named_group(pattern: str) -> bool:
    """Whether a `(?<name>` opens a group outside every class, as V8 scans for them first."""
    at, in_class = 0, False
    while at < len(pattern):
        char = pattern[at]
        if char == "\\":
            at += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif pattern.startswith("(?<", at) and pattern[at + 3 : at + 4] not in ("=", "!", ""):
            return True
        at += 1
    return False


class _Reader:
    def __init__(self, pattern: str, unicode: bool) -> None:
        # Without `u` JavaScript reads the pattern as UTF-16 code units (`[😀-😂]` is a bad range).
        self.text = pattern if unicode or pattern.isascii() else _utf16(pattern)
        self.u = unicode
        self.at = 0
        self.groups = 0
        self.backrefs = 0  # the highest `\N` (u only)
        self.names: list[str] = []
        self.refs: list[str] = []
        self.bare_k = False  # a `\k` without `<name>`
        # Annex B: without `u` and named groups `\k` is a plain `k` and what follows is pattern.
        self.k_refers = unicode or _has_named_group(pattern)
        self.class_k = False
        self.unsure = False

    def verdict(self) -> bool | None:
        try:
            self._pattern()
            self._references()
        except _Bad:
            return False
        return None if self.unsure else True

    # --- the pattern: alternatives of terms, groups on a stack (no recursion) ---

    def _pattern(self) -> None:
        text, end = self.text, len(self.text)
        open_groups: list[str] = []
        while self.at < end:
            char = text[self.at]
            if char == "|":
                self.at += 1
            elif char == ")":
                if not open_groups:
                    raise _Bad  # unmatched )
                kind = open_groups.pop()
                self.at += 1
                self._quantifier(kind == "group" or (kind == "lookahead" and not self.u))
            elif char == "(":
                open_groups.append(self._open_group())
            else:
                self._quantifier(self._atom(char))
        if open_groups:
            raise _Bad  # unterminated group

    def _atom(self, char: str) -> bool:
        """Read one atom or assertion; whether a quantifier may follow it."""
        if char in "*+?":
            raise _Bad  # nothing to repeat
        if char == "{":
            if self.u or _QUANTIFIER.match(self.text, self.at):
                raise _Bad  # a lone quantifier
            self.at += 1
            return True
        if char in "]}" and self.u:
            raise _Bad
        if char == "[":
            self._class()
            return True
        if char == "\\":
            return self._escape()
        self.at += 1
        return char not in "^$"

    def _quantifier(self, quantifiable: bool) -> None:
        text = self.text
        if self.at >= len(text):
            return
        char = text[self.at]
        if char in "*+?":
            size = 1
        elif char == "{":
            braced = _QUANTIFIER.match(text, self.at)
            if braced is None:
                if self.u:
                    raise _Bad  # incomplete quantifier
                return  # Annex B: a literal `{`, the next atom
            low, comma, high = braced.groups()
            if comma and high:
                if max(len(low), len(high)) > 15:  # JavaScript compares doubles
                    self.unsure = True
                elif int(low) > int(high):
                    raise _Bad  # numbers out of order
            size = braced.end() - self.at
        else:
            return
        if not quantifiable:
            raise _Bad
        self.at += size
        if text[self.at : self.at + 1] == "?":
            self.at += 1

    def _open_group(self) -> str:
        text = self.text
        self.at += 1
        if text[self.at : self.at + 1] != "?":
            self.groups += 1
            return "group"
        head = text[self.at + 1 : self.at + 3]
        if head[:1] == ":":
            self.at += 2
            return "group"
        if head[:1] in ("=", "!") and head:
            self.at += 2
            return "lookahead"
        if head in ("<=", "<!"):
            self.at += 3
            return "lookbehind"
        if head[:1] == "<":
            named = _NAME.match(text, self.at + 1)
            if named is None or not named.group(1):
                raise _Bad  # invalid capture group name
            self._group_name(named.group(1))
            self.groups += 1
            self.at = named.end()
            return "group"
        modifiers = _MODIFIERS.match(text, self.at)
        if modifiers is None:
            raise _Bad  # invalid group
        self.unsure = True  # regexp modifiers: newer engines only
        self.at = modifiers.end()
        return "group"

    def _group_name(self, name: str) -> None:
        if not _ASCII_NAME.match(name):
            if name.isascii() and "\\" not in name:
                raise _Bad
            self.unsure = True  # Unicode identifier rules or escapes in the name
        if name in self.names:
            self.unsure = True  # repeated names: allowed in other alternatives by newer engines
        self.names.append(name)

    def _references(self) -> None:
        if not (self.names or self.u):
            if self.refs or self.bare_k:  # a `(?<` that was no group (in a class): not judged
                self.unsure = True
            return  # Annex B: `\k` is a plain `k` in a pattern without named groups
        if self.bare_k:
            raise _Bad
        # A name spelled with escapes or beyond ASCII may equal another spelling: not judged here.
        spelled = any("\\" in name or not name.isascii() for name in self.names)
        for name in self.refs:
            if name not in self.names:
                if spelled or "\\" in name or not name.isascii():
                    self.unsure = True
                else:
                    raise _Bad
        if self.class_k:
            self.unsure = True
        if self.u and self.backrefs > self.groups:
            raise _Bad

    # --- escapes ---

    def _escape(self) -> bool:
        text = self.text
        self.at += 1
        if self.at >= len(text):
            raise _Bad  # \ at end of pattern
        char = text[self.at]
        if char in "bB":
            self.at += 1
            return False
        if char == "k" and not self.k_refers:
            self.at += 1
            return True
        if char == "k":
            ref = _REF.match(text, self.at + 1)
            if ref is None:
                self.bare_k = True
                self.at += 1
            else:
                self.refs.append(ref.group(1))
                self.at = ref.end()
            return True
        if char.isdigit() and char.isascii() and char != "0":
            digits = re.match(r"\d+", text[self.at :], re.ASCII)
            assert digits is not None
            if self.u:
                self.backrefs = max(self.backrefs, int(digits.group(0)))
            self.at += len(digits.group(0))
            return True
        self._character_escape(char, in_class=False)
        return True

    def _class(self) -> None:
        text = self.text
        self.at += 1
        if text[self.at : self.at + 1] == "^":
            self.at += 1
        while True:
            if self.at >= len(text):
                raise _Bad  # unterminated character class
            if text[self.at] == "]":
                self.at += 1
                return
            low = self._class_atom()
            if text[self.at : self.at + 1] == "-" and self.at + 1 < len(text) and text[self.at + 1] != "]":
                self.at += 1
                high = self._class_atom()
                if low is None or high is None:
                    if self.u:
                        raise _Bad  # a class escape in a range
                elif low > high:
                    raise _Bad  # range out of order

    def _class_atom(self) -> int | None:
        """One class atom's code value, None for a class escape (`\\d`, `\\p{L}`)."""
        text = self.text
        char = text[self.at]
        if char != "\\":
            self.at += 1
            return ord(char)
        self.at += 1
        if self.at >= len(text):
            raise _Bad
        char = text[self.at]
        if char == "b":
            self.at += 1
            return 8
        if char == "-":
            self.at += 1
            return 45
        if char == "k" and not self.u:
            self.class_k = True  # engines differ when the pattern has named groups
            self.at += 1
            return ord("k")
        if char.isascii() and char.isdigit() and char != "0":
            if self.u:
                raise _Bad
            octal = _OCTAL.match(text, self.at)
            if octal is None:  # \8, \9: the digit itself
                self.at += 1
                return ord(char)
            self.at = octal.end()
            return int(octal.group(0), 8)
        if char == "c" and not self.u:
            after = text[self.at + 1 : self.at + 2]
            if after and (after in _LETTER or after in "0123456789_"):
                self.at += 2
                return ord(after) % 32
            return ord("\\")  # Annex B: the backslash itself; `c` is the next atom
        return self._character_escape(char, in_class=True)

    def _character_escape(self, char: str, in_class: bool) -> int | None:
        """The escape at `self.at` (just past the backslash); its code value, None for a class escape."""
        text, at, u = self.text, self.at, self.u
        if char in "dDwWsS":
            self.at += 1
            return None
        if char in "pP" and u:
            braced = _PROPERTY.match(text, at + 1)
            if braced is None:
                raise _Bad
            self.unsure = True  # property names need Unicode's tables
            self.at = braced.end()
            return None
        if char == "c":
            after = text[at + 1 : at + 2]
            if after and after in _LETTER:
                self.at += 2
                return ord(after) % 32
            if u:
                raise _Bad
            return ord("\\")  # Annex B: the backslash itself; `c` is the next atom
        if char == "x" and _HEX2.match(text, at + 1):
            self.at += 3
            return int(text[at + 1 : at + 3], 16)
        if char == "u":
            return self._unicode_escape()
        if char == "0":
            if u and text[at + 1 : at + 2].isdigit():
                raise _Bad  # invalid decimal escape
            octal = _OCTAL.match(text, at) if in_class and not u else None
            self.at = octal.end() if octal else at + 1
            return int(octal.group(0), 8) if octal else 0
        if u and char not in _SYNTAX:
            raise _Bad  # the u flag escapes only syntax characters and /
        self.at += 1
        return ord(char)

    def _unicode_escape(self) -> int:
        text, at = self.text, self.at
        if _HEX4.match(text, at + 1):
            value = int(text[at + 1 : at + 5], 16)
            self.at = at + 5
            trail = text[self.at : self.at + 6]
            if self.u and 0xD800 <= value <= 0xDBFF and trail[:2] == "\\u" and _HEX4.match(trail, 2):
                low = int(trail[2:], 16)
                if 0xDC00 <= low <= 0xDFFF:  # a surrogate pair is one code point with `u`
                    self.at += 6
                    return 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            return value
        if self.u:
            braced = _BRACED_HEX.match(text, at + 1)
            if braced is None or int(braced.group(1), 16) > 0x10FFFF:
                raise _Bad
            self.at = braced.end()
            return int(braced.group(1), 16)
        self.at += 1  # Annex B: a plain `u`
        return ord("u")


def _utf16(text: str) -> str:
    """`text` as UTF-16 code units, each a str character (astral characters as surrogate pairs)."""
    data = text.encode("utf-16-le", "surrogatepass")
    return "".join(chr(int.from_bytes(data[index : index + 2], "little")) for index in range(0, len(data), 2))
