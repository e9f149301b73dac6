"""Reading a JavaScript pattern's clauses: a small parser for `explain`, for lint's shape
checks (nested quantifiers, flags that do nothing) and for building sample strings.

It reads the syntax people write in roleplay rules (groups, classes, escapes, quantifiers,
lookarounds, backreferences, named groups, alternation). It never decides whether a
pattern is valid or what it matches: the engine does (bunzai.regexlab.engine). Where the
reading fails, callers fall back to saying less, never to a wrong answer from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bunzai import limits

INFINITE = -1


@dataclass
class Node:
    kind: str  # alt, seq, group, quant, class, escape, dot, start, end, literal, backref, boundary
    text: str
    children: list[Node] = field(default_factory=list)
    group: str = (
        ""  # capture, named, noncapture, lookahead, negative lookahead, lookbehind, negative lookbehind, modifiers
    )
    name: str = ""
    low: int = 0
    high: int = 0
    lazy: bool = False
    negated: bool = False
    number: int = 0  # capture number (groups) or referenced number (backrefs)


class PatternSyntaxError(ValueError):
    pass


_ESCAPE_WORDS = {
    "d": "a digit",
    "D": "a character that is not a digit",
    "w": "a word character (letter, digit or _)",
    "W": "a character that is not a word character",
    "s": "a whitespace character",
    "S": "a character that is not whitespace",
    "b": "a word boundary",
    "B": "a place that is not a word boundary",
    "n": "a line feed",
    "r": "a carriage return",
    "t": "a tab",
    "f": "a form feed",
    "v": "a vertical tab",
    "0": "a NUL character",
}
_CHAR_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "f": "\f", "v": "\v", "0": "\0"}
_SAMPLE = {"d": "0", "D": "a", "w": "a", "W": "!", "s": " ", "S": "x"}


class _Reader:
    def __init__(self, source: str) -> None:
        self.s = source
        self.i = 0
        self.captures = 0
        self.depth = 0

    def peek(self, n: int = 0) -> str:
        j = self.i + n
        return self.s[j] if j < len(self.s) else ""

    def alt(self, stop: str = "") -> Node:
        start = self.i
        branches = [self.seq()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.seq())
        if stop and self.peek() != stop:
            raise PatternSyntaxError(f"missing {stop!r} for the group opened before position {start}")
        return Node("alt", self.s[start : self.i], branches)

    def seq(self) -> Node:
        start = self.i
        items: list[Node] = []
        while self.i < len(self.s) and self.peek() not in "|)":
            atom = self.atom()
            items.append(self.quantified(atom))
        return Node("seq", self.s[start : self.i], items)

    def quantified(self, atom: Node) -> Node:
        start = self.i
        c = self.peek()
        low, high = None, None
        if c == "*":
            low, high = 0, INFINITE
            self.i += 1
        elif c == "+":
            low, high = 1, INFINITE
            self.i += 1
        elif c == "?":
            low, high = 0, 1
            self.i += 1
        elif c == "{":
            close = self.s.find("}", self.i)
            body = self.s[self.i + 1 : close] if close > 0 else ""
            parts = body.split(",")
            if (
                close > 0
                and 1 <= len(parts) <= 2
                and parts[0].isdigit()
                and (len(parts) == 1 or parts[1] == "" or parts[1].isdigit())
            ):
                low = int(parts[0])
                high = low if len(parts) == 1 else (INFINITE if parts[1] == "" else int(parts[1]))
                self.i = close + 1
        if low is None:
            return atom
        if atom.kind in ("start", "end", "boundary"):
            raise PatternSyntaxError(f"nothing to repeat at position {start}")
        lazy = self.peek() == "?"
        if lazy:
            self.i += 1
        return Node("quant", atom.text + self.s[start : self.i], [atom], low=low, high=high, lazy=lazy)

    def atom(self) -> Node:
        start = self.i
        c = self.peek()
        self.i += 1
        if c == "(":
            return self.group(start)
        if c == "[":
            return self.char_class(start)
        if c == "\\":
            return self.escape(start)
        if c == ".":
            return Node("dot", ".")
        if c == "^":
            return Node("start", "^")
        if c == "$":
            return Node("end", "$")
        if c in "*+?":
            raise PatternSyntaxError(f"nothing to repeat at position {start}")
        return Node("literal", c)

    def group(self, start: int) -> Node:
        self.depth += 1
        if self.depth > limits.REGEX_READ_MAX_DEPTH:
            raise PatternSyntaxError(f"groups nested more than {limits.REGEX_READ_MAX_DEPTH} deep, too deep to read")
        kind, name = "capture", ""
        if self.s.startswith("?:", self.i):
            kind = "noncapture"
            self.i += 2
        elif self.s.startswith("?=", self.i):
            kind = "lookahead"
            self.i += 2
        elif self.s.startswith("?!", self.i):
            kind = "negative lookahead"
            self.i += 2
        elif self.s.startswith("?<=", self.i):
            kind = "lookbehind"
            self.i += 3
        elif self.s.startswith("?<!", self.i):
            kind = "negative lookbehind"
            self.i += 3
        elif self.s.startswith("?<", self.i):
            close = self.s.find(">", self.i)
            if close < 0:
                raise PatternSyntaxError(f"unfinished group name at position {start}")
            kind, name = "named", self.s[self.i + 2 : close]
            self.i = close + 1
        elif self.peek() == "?":
            close = self.s.find(":", self.i)
            if close < 0:
                raise PatternSyntaxError(f"unknown group at position {start}")
            kind, name = "modifiers", self.s[self.i + 1 : close]
            self.i = close + 1
        number = 0
        if kind in ("capture", "named"):
            self.captures += 1
            number = self.captures
        body = self.alt(stop=")")
        self.i += 1
        self.depth -= 1
        return Node("group", self.s[start : self.i], [body], group=kind, name=name, number=number)

    def char_class(self, start: int) -> Node:
        negated = self.peek() == "^"
        if negated:
            self.i += 1
        depth = 1
        while self.i < len(self.s):
            c = self.peek()
            if c == "\\":
                self.i += 2
                continue
            if c == "[":
                depth += 1  # nested classes exist with the v flag
            elif c == "]":
                depth -= 1
                if depth == 0:
                    self.i += 1
                    return Node("class", self.s[start : self.i], negated=negated)
            self.i += 1
        raise PatternSyntaxError(f"missing ']' for the class opened at position {start}")

    def escape(self, start: int) -> Node:
        c = self.peek()
        if not c:
            raise PatternSyntaxError("the pattern ends with a lone backslash")
        self.i += 1
        if c in "bB":
            return Node("boundary", self.s[start : self.i], name=c)
        if c.isdigit() and c != "0":
            while self.peek().isdigit():
                self.i += 1
            return Node("backref", self.s[start : self.i], number=int(self.s[start + 1 : self.i]))
        if c == "k" and self.peek() == "<":
            close = self.s.find(">", self.i)
            self.i = close + 1 if close > 0 else len(self.s)
            return Node("backref", self.s[start : self.i], name=self.s[start + 3 : self.i - 1])
        if c in "pP" and self.peek() == "{":
            close = self.s.find("}", self.i)
            self.i = close + 1 if close > 0 else len(self.s)
            return Node("escape", self.s[start : self.i], name=c, negated=c == "P")
        if c == "u" and self.peek() == "{":
            close = self.s.find("}", self.i)
            self.i = close + 1 if close > 0 else len(self.s)
        elif c == "u":
            self.i += 4
        elif c == "x":
            self.i += 2
        elif c == "c":
            self.i += 1
        return Node("escape", self.s[start : self.i], name=c)


def parse(source: str) -> Node:
    """The clause tree of a pattern; PatternSyntaxError where this reader cannot follow it."""
    reader = _Reader(source)
    tree = reader.alt()
    if reader.i < len(source):
        raise PatternSyntaxError(f"unmatched ')' at position {reader.i}")
    return tree


def walk(node: Node):
    yield node
    for child in node.children:
        yield from walk(child)


def prefix_of(tree: Node, target: Node) -> list[Node]:
    """The clauses that come before `target` in its sequence, outermost first."""

    def search(node: Node, before: list[Node]) -> list[Node] | None:
        if node is target:
            return before
        if node.kind == "seq":
            for index, child in enumerate(node.children):
                found = search(child, before + node.children[:index])
                if found is not None:
                    return found
            return None
        for child in node.children:
            found = search(child, before)
            if found is not None:
                return found
        return None

    return search(tree, []) or []


def nested_quantifiers(tree: Node) -> list[Node]:
    """Quantified groups whose body holds an unbounded quantifier (`(a+)+`, `(\\w+\\s?)*`):
    the shape behind catastrophic backtracking."""
    found = []
    for node in walk(tree):
        if node.kind == "quant" and (node.high == INFINITE or node.high > 1):
            inner = node.children[0]
            if (
                inner.kind == "group"
                and inner.group in ("capture", "named", "noncapture")
                and any(n.kind == "quant" and n.high == INFINITE for n in walk(inner))
            ):
                found.append(node)
    return found


def uses(tree: Node) -> dict[str, bool]:
    """What a flag could act on: letters (i), anchors (m), dots (s)."""
    letters = anchors = dots = False
    for node in walk(tree):
        if node.kind == "literal" and node.text.lower() != node.text.upper():
            letters = True
        elif node.kind == "class" and any(ch.lower() != ch.upper() for ch in node.text):
            letters = True
        elif node.kind in ("backref",) or (node.kind == "escape" and node.name in "pPwWbB"):
            letters = True
        elif node.kind in ("start", "end"):
            anchors = True
        elif node.kind == "dot":
            dots = True
    return {"i": letters, "m": anchors, "s": dots}


# --- plain words ----------------------------------------------------------------------


def _count(node: Node) -> str:
    low, high = node.low, node.high
    if (low, high) == (0, INFINITE):
        words = "zero or more times"
    elif (low, high) == (1, INFINITE):
        words = "one or more times"
    elif (low, high) == (0, 1):
        words = "optionally (zero or one time)"
    elif high == INFINITE:
        words = f"{low} or more times"
    elif low == high:
        words = f"exactly {low} times"
    else:
        words = f"between {low} and {high} times"
    return words + (", as few as possible (lazy)" if node.lazy else ", as many as possible")


def describe(node: Node) -> str:
    if node.kind == "text":
        return f"the text {node.text!r}"
    if node.kind == "literal":
        return f"the character {node.text!r}"
    if node.kind == "dot":
        return "any character except a line break (any at all with the s flag)"
    if node.kind == "start":
        return "the start of the text (of each line with the m flag)"
    if node.kind == "end":
        return "the end of the text (of each line with the m flag)"
    if node.kind == "boundary":
        return _ESCAPE_WORDS[node.name]
    if node.kind == "backref":
        return f"the same text group {node.name or node.number} matched"
    if node.kind == "escape":
        if node.name in _ESCAPE_WORDS:
            return _ESCAPE_WORDS[node.name]
        if node.name in "pP":
            return f"a character {'without' if node.negated else 'with'} the Unicode property {node.text[3:-1]}"
        if node.name in "uxc":
            return f"the character written {node.text}"
        return f"the character {node.name!r} itself"
    if node.kind == "class":
        return f"{'one character not' if node.negated else 'one character'} among {node.text}"
    if node.kind == "quant":
        if node.children[0].kind == "group":
            return f"{_count(node)}: {describe(node.children[0])}"
        return f"{describe(node.children[0])}, {_count(node)}"
    if node.kind == "group":
        inside = _phrase(node.children[0])
        if node.group == "capture":
            return f"group {node.number} (captured): {inside}"
        if node.group == "named":
            return f"group {node.number} named {node.name!r} (captured): {inside}"
        if node.group == "noncapture":
            return f"a group (not captured): {inside}"
        if node.group == "modifiers":
            return f"with flags {node.name!r} inside: {inside}"
        return f"a {node.group} (checks without consuming): {inside}"
    if node.kind in ("alt", "seq"):
        return _phrase(node)
    return f"the part {node.text!r}"


def _phrase(node: Node) -> str:
    if node.kind == "alt":
        if len(node.children) == 1:
            return _phrase(node.children[0])
        return "either " + " or ".join(f"({_phrase(branch)})" for branch in node.children)
    if node.kind == "seq":
        if not node.children:
            return "nothing (the empty string)"
        return ", then ".join(describe(item) for item in _merge_literals(node.children))
    return describe(node)


def _merge_literals(items: list[Node]) -> list[Node]:
    """Runs of plain characters read as one text ('the text "Hello"')."""
    merged: list[Node] = []
    for item in items:
        if item.kind == "literal" and merged and merged[-1].kind == "text":
            merged[-1] = Node("text", merged[-1].text + item.text)
        elif item.kind == "literal":
            merged.append(Node("text", item.text))
        else:
            merged.append(item)
    return [Node("literal", m.text) if m.kind == "text" and len(m.text) == 1 else m for m in merged]


def clauses(tree: Node) -> list[dict]:
    """The top-level clauses, in order: [{clause, means, parts?}], alternatives as branches."""

    def rows(seq: Node) -> list[dict]:
        out = []
        for item in _merge_literals(seq.children):
            row = {"clause": item.text, "means": describe(item)}
            inner = item.children[0] if item.kind == "quant" else item
            if inner.kind == "group" and inner.children[0].children:
                parts = branches(inner.children[0])
                if len(parts) > 1 or (parts and ("either" in parts[0] or "parts" in parts[0])):
                    row["parts"] = parts
            out.append(row)
        return out

    def branches(alt: Node) -> list:
        if len(alt.children) == 1:
            return rows(alt.children[0])
        return [
            {
                "clause": alt.text,
                "means": f"one of {len(alt.children)} alternatives, tried left to right",
                "either": [rows(branch) for branch in alt.children],
            }
        ]

    return branches(tree)


# --- samples --------------------------------------------------------------------------


def samples(tree: Node, count: int) -> list[str]:
    """Up to `count` strings built to match the pattern (each alternative, each repeat count
    taken in turn). Unchecked: the caller keeps those the engine agrees match."""
    out: list[str] = []
    for variant in range(count * 2):
        text = sample_of(tree, variant, {})
        if text not in out:
            out.append(text)
        if len(out) >= count:
            break
    return out


def sample_of(node: Node, variant: int, captured: dict) -> str:
    """One string built to match `node` (the `variant` picks alternatives and repeat counts)."""
    kind = node.kind
    if kind == "alt":
        return sample_of(node.children[variant % len(node.children)], variant // len(node.children), captured)
    if kind == "seq":
        return "".join(sample_of(child, variant, captured) for child in node.children)
    if kind == "literal":
        return node.text
    if kind == "dot":
        return "x"
    if kind in ("start", "end", "boundary"):
        return ""
    if kind == "escape":
        if node.name in _SAMPLE:
            return _SAMPLE[node.name]
        if node.name in _CHAR_ESCAPES:
            return _CHAR_ESCAPES[node.name]
        digits = node.text[2:]
        if node.name in "xu" and len(digits) in (2, 4) and all(c in "0123456789abcdefABCDEF" for c in digits):
            return chr(int(digits, 16))
        if node.name in "pP":
            return "a"
        return node.name
    if kind == "class":
        return _class_sample(node)
    if kind == "backref":
        return captured.get(node.name or node.number, "")
    if kind == "quant":
        reps = (
            max(node.low, 1) if variant % 2 == 0 else max(node.low, min(2, node.high if node.high != INFINITE else 2))
        )
        return "".join(sample_of(node.children[0], variant // 2, captured) for _ in range(reps))
    if kind == "group":
        if node.group in ("lookahead", "negative lookahead", "lookbehind", "negative lookbehind"):
            return ""
        text = sample_of(node.children[0], variant, captured)
        if node.number:
            captured[node.number] = text
            if node.name:
                captured[node.name] = text
        return text
    return ""


def _class_sample(node: Node) -> str:
    body = node.text[2:-1] if node.negated else node.text[1:-1]
    if node.negated:
        for candidate in "qa0 !x":
            if candidate not in body:
                return candidate
        return "~"
    if not body:
        return ""
    if body[0] == "\\" and len(body) > 1:
        return _SAMPLE.get(body[1], _CHAR_ESCAPES.get(body[1], body[1]))
    return body[0]
