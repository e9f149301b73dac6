"""Reading `{{...}}` tokens the way a given engine reads them.

A token is found by balanced braces (so `{{setvar::x::{{char}}}}` is one token whose second
argument holds another), then split into flags, name and arguments by the engine's declared
syntax (catalog `syntax:`): which flag characters exist, what a single `:` or a space after
the name introduces, and which variable shorthand prefixes it has. Openers and `{{/name}}`
closers are paired here, so a translator knows each block's body and its else markers.
"""

from __future__ import annotations

import math
import re
import string
from dataclasses import dataclass, field
from functools import cache

from bunzai.jstext import JS_WHITESPACE, js_number, js_trim, js_trim_end, js_trim_start
from bunzai.limits import MACRO_TOKEN_CACHE, MACRO_UNCLOSED_NESTED_MAX
from bunzai.macros.catalog import GluedForm, KeywordForm, Syntax

_JS_SPACE_CLASS = re.escape(JS_WHITESPACE)
# A name runs to JavaScript's whitespace (SillyTavern's EndOfIdentifier is /\s+/), not Python's.
_NAME = re.compile(r":?[^:" + _JS_SPACE_CLASS + "]+")
_BRACES = re.compile(r"\{\{(?!\{)|\}\}")
# The operators of the variable shorthand, longest first so `||=` wins over `||`.
SHORTHAND_OPERATORS = ("||=", "??=", "+=", "-=", "==", "!=", ">=", "<=", "++", "--", "||", "??", "=", ">", "<")
# SillyTavern's (MacroLexer.js MACRO_VARIABLE_SHORTHAND_PATTERN): an ASCII letter, then ASCII word
# characters and hyphens, ending on a word character, so `{{.x-=2}}` subtracts from `x`
_SHORTHAND = re.compile(
    r"^(?P<var>[A-Za-z](?:[\w-]*\w)?)\s*(?P<op>"
    + "|".join(re.escape(o) for o in SHORTHAND_OPERATORS)
    + r")?\s*(?P<value>.*)$",
    re.S | re.A,
)
# What may follow a shorthand's name, no operator between, for SillyTavern's parser to recover
# the token as that variable (`{{.x y}}`, `{{.x!}}`): anything else (`{{.café}}`, `{{.x-}}`,
# `{{.x 1}}`) leaves its closing braces to the text, and the engine prints the token as written
_RECOVERED_AFTER_NAME = re.compile(r"\s*[A-Za-z!?]")


@dataclass
class Token:
    start: int
    end: int
    raw: str
    flags: str = ""
    name: str = ""
    args: list[str] = field(default_factory=list)
    sep: str | None = None
    closing: bool = False
    shorthand: str | None = None  # the catalog name of a shorthand form, e.g. ".||="
    pipes: list[str] = field(default_factory=list)  # `| upper` ... the engine parses after it and ignores
    text: bool = False  # the engine reads the whole token as text: whitespace or a list it does not take
    partner: int | None = None  # index of the matching closer (on an opener) or opener (on a closer)
    parent: int | None = None  # index of the innermost open block this token sits in

    @property
    def paired(self) -> bool:
        return self.partner is not None and not self.closing

    def all_numeric(self) -> bool:
        """Every argument a number as Lumiverse's random tests it (entropy.ts: non-blank, and
        `!isNaN(Number(a))`)."""
        return bool(self.args) and all(js_trim(a) and not math.isnan(js_number(a)) for a in self.args)


def find_tokens(text: str) -> list[tuple[int, int]]:
    """Spans of the outermost `{{...}}` tokens, braces balanced.

    An opener that never closes is text, and the tokens after and inside it still count, as
    the engines' own parsers read them. In a run of three or more `{` the last two open
    (SillyTavern's lexer reads `{{{char}}}` as a brace around `{{char}}`). One pass: a stray
    `{{` must not cost a scan to the end of the text.
    """
    pairs = []
    opened: list[int] = []
    for match in _BRACES.finditer(text):
        if match.group() == "{{":
            opened.append(match.start())
        elif opened:
            pairs.append((opened.pop(), match.end()))
    pairs.sort()
    spans, end = [], 0
    for a, b in pairs:  # pairs nest or are disjoint: the outermost are those no earlier pair holds
        if a >= end:
            spans.append((a, b))
            end = b
    return spans


def split_top(text: str, sep: str) -> list[str]:
    """Split on `sep`, but never inside a nested `{{...}}`."""
    if "{{" not in text:
        return text.split(sep)
    parts, depth, last, i = [], 0, 0, 0
    while i < len(text):
        if text.startswith("{{", i):
            depth += 1
            i += 2
        elif text.startswith("}}", i) and depth:
            depth -= 1
            i += 2
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[last:i])
            i += len(sep)
            last = i
        else:
            i += 1
    parts.append(text[last:])
    return parts


# Lumiverse's lexer (MacroLexer.ts, lexSpaceDelimitedArgs) parts words on these two alone, not
# on JavaScript's whitespace: a newline or a no-break space stays inside its word.
_WORD_GAP = " \t"


def _words(body: str) -> list[str]:
    """Lumiverse's space-separated arguments: words between runs of space and tab, a nested
    `{{...}}` inside its word. A `::`, or a word that starts with `:`, ends the words; what
    follows is split on `::` (its lexArgument stops at `::`, after a single `:` too)."""
    words: list[str] = []
    i, depth, start = 0, 0, None
    while i < len(body):
        if body.startswith("{{", i):
            depth, start, i = depth + 1, i if start is None else start, i + 2
            continue
        if depth:
            depth -= body.startswith("}}", i)
            i += 2 if body.startswith("}}", i) else 1
            continue
        char = body[i]
        if char in _WORD_GAP or body.startswith("::", i) or (char == ":" and start is None):
            if start is not None:
                words.append(body[start:i])
                start = None
            if char == ":":
                return words + split_top(body[i + (2 if body.startswith("::", i) else 1) :], "::")
            i += 1
            continue
        start = i if start is None else start
        i += 1
    if start is not None:
        words.append(body[start:])
    return words


# Agnai's grammar (grammar.ts): a Phrase is made of ASCII letters and digits, these symbols and
# spaces, with `"` too unquoted or `,` too quoted; anything else (a brace, a tab, `é`) is no phrase.
_PHRASE = frozenset(string.ascii_letters + string.digits + "'_-?!#@$^&*()=+%~:;<>./|`[] ")
_QUOTED, _COMMALESS = _PHRASE | {","}, _PHRASE | {'"'}


def _phrases(body: str) -> list[str] | None:
    """A comma list as Agnai's DelimitedWords reads it, `Phrase ("," WS Phrase)*` with each
    Phrase quoted (`"a, b"`) or free of commas; None where it cannot (the token is text). PEG:
    a quoted phrase that parses is kept even if what follows it then fails."""
    items, i = [], len(body) - len(body.lstrip(" "))
    while True:
        j = i + 1
        while body.startswith('"', i) and j < len(body) and body[j] in _QUOTED:
            j += 1
        if body.startswith('"', i) and j > i + 1 and body.startswith('"', j):
            items.append(body[i + 1 : j])
            i = j + 1
        else:
            j = i
            while j < len(body) and body[j] in _COMMALESS:
                j += 1
            if j == i:
                return None
            items.append(js_trim(body[i:j]))
            i = j
        if not body.startswith(",", i):
            return items if not body[i:].strip(" ") else None
        i += 1
        i += len(body[i:]) - len(body[i:].lstrip(" "))


def _args_after(body: str, mode: str, sep: str) -> list[str] | None:
    if mode == "one":
        return [js_trim(body) if sep == " " else body]
    if mode == "comma":
        return _phrases(body)
    if mode == "pairs":
        return split_top(body, "::")
    if sep == " ":
        return _words(body)
    return split_top(body, sep)


@cache
def _shorthand_name(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def _scanned_shorthand(rest: str, syntax: Syntax) -> tuple[str, str, str] | None:
    """(name, operator, value) of a variable shorthand after its prefix, as Lumiverse's lexer
    scans one (MacroLexer.ts lexMacroContent, lexOperator): the name, `lead` whitespace, an
    operator, `lead` whitespace, then a value up to a `::` (its trailing whitespace trimmed);
    None where something else is left before the closing braces (the lexer then closes the
    token early and prints the rest garbled): the token is no shorthand bunzai reads."""
    gap = syntax.lead if syntax.lead is not None else JS_WHITESPACE

    def skip(i: int) -> int:
        while i < len(rest) and rest[i] in gap:
            i += 1
        return i

    name = _shorthand_name(syntax.shorthand_name).match(rest)
    i = skip(name.end())
    operator = next((o for o in syntax.shorthand_operators if rest.startswith(o, i)), "")
    i = skip(i + len(operator))
    if operator in ("", "++", "--"):  # no value: only the closing braces may follow
        return (name.group(), operator, "") if i == len(rest) else None
    value = rest[i:]
    if len(split_top(value, "::")) > 1:
        return None
    return name.group(), operator, js_trim_end(value)


def _recovered(match: re.Match) -> bool:
    """Whether SillyTavern's parser reads a shorthand whose name is followed by something that is no
    operator as the variable all the same (it skips a word or `!`), rather than as text."""
    return _RECOVERED_AFTER_NAME.match(match.string, match.end("var")) is not None


@cache
def _glued(form: GluedForm) -> re.Pattern:
    return re.compile(re.escape(form.name) + re.escape(form.sep) + "(" + form.arg + ")", re.I | re.S)


@cache
def _keyword(form: KeywordForm) -> re.Pattern:
    # the name in any case, what may stand between, then the argument's first character
    return re.compile(re.escape(form.name) + "(?:" + form.between + r")(?=\S)", re.I)


@cache
def _word(pattern: str) -> re.Pattern:
    return re.compile(pattern)


@cache
def _pipe_chain(handlers: tuple[str, ...]) -> re.Pattern:
    # Agnai's grammar: the name, spaces, then each `|` with spaces or tabs around it and a handler
    # (its own case), then spaces before the closing braces.
    return re.compile(r"(?:[ \t]*\|[ \t]*(?:" + "|".join(map(re.escape, handlers)) + r"))+ *$")


def _foreign_space(inner: str, syntax: Syntax) -> bool:
    """Whether the token holds whitespace its engine does not take (`syntax.pad`): a pipe chain's
    own tabs aside, any JavaScript whitespace but the pad makes the whole token text."""
    if syntax.pipes:
        chain = _pipe_chain(syntax.pipes).search(inner)
        inner = inner[: chain.start()] if chain else inner
    return any(c in JS_WHITESPACE and c not in syntax.pad for c in inner)


def parse_token(raw: str, start: int, syntax: Syntax) -> Token:
    """Flags, name and arguments of one token, as this engine reads them."""
    token = Token(start, start + len(raw), raw)
    if syntax.pad is not None and _foreign_space(raw[2:-2], syntax):
        token.name, token.text = raw[2:-2], True  # text to the engine: no entry is named so
        return token
    for form in syntax.glued:  # exactly so written: no space, no flag (SillyTavern matches it by regex)
        glued = _glued(form).fullmatch(raw, 2, len(raw) - 2)
        if glued:
            token.name, token.sep, token.args = raw[2 : 2 + len(form.name)], form.sep, [glued.group(1)]
            return token
    # Only the space before the name goes: a last argument keeps its trailing spaces, which an
    # engine that does not trim (SillyTavern's legacy `{{setvar::x::  v  }}`) stores.
    skip = js_trim_start if syntax.lead is None else lambda text: text.lstrip(syntax.lead)
    s = skip(raw[2:-2])
    while s and syntax.flags and s[0] in syntax.flags and len(s) > 1 and not s.startswith("//"):
        token.flags += s[0]
        s = skip(s[1:])
    if s.startswith("//"):
        token.name = "//"
        rest = js_trim(s[2:])
        token.args = [rest] if rest else []
        token.sep = " " if rest else None
        return token
    if s.startswith("/") and len(s) > 1:
        token.closing = True
        token.name = js_trim(s[1:])
        return token
    if syntax.shorthand and s[:1] in syntax.shorthand and syntax.shorthand_name is not None:
        scanned = _scanned_shorthand(s[1:], syntax)
        if scanned is None:
            token.name, token.text = raw[2:-2], True
            return token
        name, operator, value = scanned
        token.shorthand = token.name = s[0] + operator
        token.args = [name, value] if value else [name]  # an empty value is no argument (parseVariableShorthand)
        return token
    if syntax.shorthand and s[:1] in syntax.shorthand:
        match = _SHORTHAND.match(s[1:])
        if match is None or not (match.group("op") or not match.group("value").strip() or _recovered(match)):
            token.name, token.text = raw[2:-2], True  # no name SillyTavern's lexer takes (`{{._x}}`, `{{.1x}}`)
            return token
        if match:
            operator = match.group("op") or ""
            token.shorthand = s[0] + operator
            token.name = token.shorthand
            token.args = [match.group("var")]
            value = js_trim(match.group("value"))
            if value or operator in ("=", "+=", "-=", "||", "??", "||=", "??=", "==", "!=", ">", ">=", "<", "<="):
                token.args.append(value)
            return token
    for form in syntax.keywords:  # Agnai's `{{#eachbot}}`, `{{#insert=1}}`: read as after one space
        keyword = _keyword(form).match(s)
        if keyword and form.word is not None and _word(form.word).fullmatch(s, keyword.end()):
            token.name, token.sep, token.args = s[: len(form.name)], " ", [s[keyword.end() :]]
            return token
        if keyword:
            s = s[: len(form.name)] + " " + s[keyword.end() :]
            break
    if syntax.pipes and not s.startswith("#"):  # a block opener takes no pipe
        chain = _pipe_chain(syntax.pipes).search(s)
        head = _NAME.match(s[: chain.start()]) if chain else None
        if head and head.group(0).lower() not in syntax.pipes_as_text:
            token.pipes = re.findall("|".join(map(re.escape, syntax.pipes)), s[chain.start() :])
            s = s[: chain.start()]
    match = _NAME.match(s)
    if not match:
        token.name = s
        return token
    token.name = match.group(0)
    rest = s[match.end() :]
    lead = js_trim_start(rest)  # `{{random :: a}}`: space before a separator is skipped (ST lexer, RisuAI's name fold)
    if lead != rest and token.name.lower() in syntax.colon_glued:
        lead = ""  # Agnai's `"random"i ":"? WS`: after a space a colon is the first item's (`{{random :a}}`)
    if lead.startswith("::"):
        token.sep = "::"
        # Agnai's `":"?` takes one colon and the list starts at the second: `{{random::a::b}}` is
        # the one item ":a::b", `{{random::a, b}}` the items ":a" and "b"; a rest that is no
        # phrase list (`é`) leaves the token text.
        token.args = _phrases(lead[1:]) if syntax.colon == "comma" else split_top(lead[2:], "::")
    elif lead.startswith(":"):
        token.sep = ":"
        token.args = _args_after(lead[1:], syntax.colon, ":")
    elif js_trim(rest):
        body = js_trim(rest)
        if syntax.space == "one" and "::" in body and len(split_top(body, "::")) > 1:
            # `{{if cond::text}}`: a space after the name, then `::`-separated arguments.
            token.sep = "::"
            token.args = split_top(body, "::")
        else:
            token.sep = " "
            # split words keep what JavaScript's trim would take but Lumiverse's lexer does not
            token.args = _args_after(rest if syntax.space == "split" else body, syntax.space, " ")
    if token.args is None:  # a list the engine cannot read: the token is text
        token.name, token.sep, token.args, token.text = raw[2:-2], None, [], True
    return token


_PARSED: dict[tuple[str, int], tuple[Syntax, Token]] = {}


def parsed(raw: str, syntax: Syntax) -> Token:
    """`parse_token(raw, 0, syntax)`, cached: the token is shared, never to be changed."""
    # Keyed by the syntax object's identity (hashing a pydantic model per token cost half a
    # translation); the entry holds the syntax itself, so its id cannot be reused meanwhile.
    key = (raw, id(syntax))
    hit = _PARSED.get(key)
    if hit is None or hit[0] is not syntax:
        if len(_PARSED) >= MACRO_TOKEN_CACHE:
            _PARSED.clear()
        hit = _PARSED[key] = (syntax, parse_token(raw, 0, syntax))
    return hit[1]


def tokenize(
    text: str,
    syntax: Syntax,
    fold,
    opens=None,
    unsettled: list[Token] | None = None,
    held: dict[int, int] | None = None,
) -> list[Token]:
    """Every top-level token of `text`, with block openers and closers paired by folded name.

    `opens(token, enclosing)`: whether the engine lets this token take a body where it sits, in
    the openers `enclosing` (outermost first; default: any name a closer names). `enclosing` is
    the pairing's own stack, changed as it goes: read it, never keep or change it; within one
    pass it is the same list, and a token on it always has the same tokens below it. SillyTavern's
    inline `{{if a::b}}` has all its arguments and never opens; Agnai's `{{#each bot}}` in a loop
    is text, so the loop ends at the first `{{/each}}`. `unsettled` gets the openers still
    unclosed when the pairings stop, past `limits.MACRO_UNCLOSED_NESTED_MAX` levels of them: text,
    though one inside another might open on a later pairing, and the openers they hold stay paired
    as if they were open, where another pairing, without them, might have paired those otherwise;
    `held` gets, for each token inside one of those, the index of the innermost of them around it."""
    tokens = []
    for a, b in find_tokens(text):
        seen = parsed(text[a:b], syntax)  # presets repeat the same tokens thousands of times
        # A token of its own (its partner and parent are this text's), sharing the cached parse's
        # argument and pipe lists, which nothing changes after parse_token: copying both per token
        # took a twentieth to a fifth of a translation (bench/translate.py; the collector's passes).
        tokens.append(
            Token(
                a,
                b,
                seen.raw,
                seen.flags,
                seen.name,
                seen.args,
                seen.sep,
                seen.closing,
                seen.shorthand,
                seen.pipes,
                text=seen.text,
            )
        )
    # Only a name that some closer names can open a block; the rest never enter the stack.
    closed = {fold(t.name).lstrip("#:") for t in tokens if t.closing}
    refused: set[int] = set()
    for pairing in range(MACRO_UNCLOSED_NESTED_MAX + 1 if closed else 0):  # a level each, and the last
        unclosed = _pair(tokens, closed, fold, opens, refused)
        # An opener never closed is text to a parser like Agnai's, so the openers it held open or
        # not as where they sit outside it: pair again without it, where `opens` asks where.
        if opens is None or not unclosed:
            break
        if pairing == MACRO_UNCLOSED_NESTED_MAX:  # bounded: hostile nesting stays linear
            if unsettled is not None:
                unsettled.extend(tokens[i] for i in sorted(unclosed))
            if held is not None:  # before the parents are moved out of them, below
                held.update(_holders(tokens, unclosed))
            break
        refused |= _outermost(tokens, unclosed)
    # Openers never closed are plain tokens: their children belong to the enclosing block.
    for token in tokens:
        while token.parent is not None and tokens[token.parent].partner is None:
            token.parent = tokens[token.parent].parent
    return tokens


def _holders(tokens: list[Token], unclosed: set[int]) -> dict[int, int]:
    """Each token inside an opener left unclosed -> the innermost such opener around it. One pass
    in order: a parent comes before its children."""
    holders: dict[int, int] = {}
    for index, token in enumerate(tokens):
        parent = token.parent
        if parent is not None and (parent in unclosed or parent in holders):
            holders[index] = parent if parent in unclosed else holders[parent]
    return holders


def _outermost(tokens: list[Token], unclosed: set[int]) -> set[int]:
    """The openers left unclosed to read as text now: those inside no other. One inside another
    may open, or close, once that one is text (a loop in an unclosed `{{#if}}` opens then, with the
    field condition in it), as Agnai's parser reads on after the outer one fails; so it waits for
    the next pairing, unless it is the same token right inside one read as text now (`{{#if a}}`
    twice): where that one opened, it opens too, and no closer it could take is nearer."""
    holders = _holders(tokens, unclosed)
    now: set[int] = set()
    for index in sorted(unclosed):  # a holder before what it holds
        holder = holders.get(index)
        if holder is None or holder == index - 1 and holder in now and tokens[holder].raw == tokens[index].raw:
            now.add(index)
    return now


def _pair(tokens: list[Token], closed: set[str], fold, opens, refused: set[int]) -> set[int]:
    """Pairs openers and closers by folded name (an opener in `refused` opens nothing); the
    indices of the openers left unclosed.

    A closer pairs with the innermost open opener whose name, folded, is its own, with or
    without the `#`/`:` marks. Each name's places on the stack are kept (`at`), so a closer
    finds its opener at once: searching the stack down from the top was quadratic in the
    nesting for closers that pair with nothing (3,000 deep took 6 s)."""
    open_stack: list[int] = []
    # The open tokens themselves, kept beside their indices and handed to `opens` as they are:
    # one list for the whole pass, never rebuilt per token (a copy per token was quadratic in the
    # nesting), and a new one for each pass, so `opens` can tell a pass from the next.
    open_tokens: list[Token] = []
    open_keys: list[tuple[str, str]] = []  # each open opener's names: folded bare, folded whole
    at: dict[tuple[bool, str], list[int]] = {}  # (bare?, name) -> the stack depths opened so
    unclosed: set[int] = set()
    for index, token in enumerate(tokens):
        token.partner = None
        token.parent = open_stack[-1] if open_stack else None
        if token.closing:
            key = fold(token.name)
            bare, whole = at.get((True, key.lstrip("#:"))), at.get((False, key))
            depth = max(bare[-1] if bare else -1, whole[-1] if whole else -1)
            if depth >= 0:
                opener = open_tokens[depth]
                opener.partner, token.partner = index, open_stack[depth]
                token.parent = opener.parent
                unclosed.update(open_stack[depth + 1 :])
                for bare_name, whole_name in open_keys[depth:]:  # each is the last of its lists
                    at[True, bare_name].pop()
                    at[False, whole_name].pop()
                del open_stack[depth:]
                del open_tokens[depth:]
                del open_keys[depth:]
        elif (
            index not in refused
            and token.shorthand is None
            and token.name != "//"
            and fold(token.name).lstrip("#:") in closed
            and (opens is None or opens(token, open_tokens))
        ):
            names = (fold(token.name.lstrip("#:")), fold(token.name))
            at.setdefault((True, names[0]), []).append(len(open_stack))
            at.setdefault((False, names[1]), []).append(len(open_stack))
            open_stack.append(index)
            open_tokens.append(token)
            open_keys.append(names)
    return unclosed | set(open_stack)
