"""Which conditions on a loop's field an engine like Agnai reads wherever they stand.

Agnai's grammar reads `{{#if .name}}...{{/if}}` as a field condition (BotCondition,
HistoryCondition) as soon as the text from the opener to the first `{{/if}}` holds nothing its
loop text refuses: no other loop's field, no `{{char}}`, `{{user}}`, `{{random}}` or `{{roll}}`,
no `{{/each}}`, no other field condition that matches; the condition's own loop's fields are
taken. The text of `{{#insert}}` and `{{#lowpriority}}` stops wherever one matches, even one
whose `{{/if}}` lies past the block's own closer, and the block is then text; a loop's text
stops at one that is a condition of another loop alone, even inside the loop's own condition
(`{{#each msg}}{{#if isuser}}{{#if .personality}}{{/if}}{{/each}}` is text). Nothing here names
an engine: the loops are the catalog's blocks that `admits`, with `field_conditions`.
"""

from __future__ import annotations

from bunzai.macros.catalog import Catalog, Entry
from bunzai.macros.equivalence import field_of, resolve
from bunzai.macros.syntax import Token


def closed_field_conditions(cat: Catalog, tokens: list[Token]) -> dict[int, tuple[int, frozenset[str]]]:
    """Each field condition's opener index -> the index of the `{{/if}}` that closes it, and the
    ops of the loops it is a condition of there, for the openers whose run to that closer holds
    nothing that loop's text refuses. One pass from the end, so a text of many such openers costs
    each token once."""
    loops = [e for e in cat.entries if e.admits is not None and e.block in ("block", "optional")]
    conditioned = [loop for loop in loops if loop.field_conditions]
    if not conditioned:
        return {}
    kinds = _Kinds(cat, loops, conditioned)
    closed: dict[int, tuple[int, frozenset[str]]] = {}
    next_if: int | None = None
    refused = {loop.op: len(tokens) for loop in conditioned}  # per loop: the next token its text refuses
    for index in range(len(tokens) - 1, -1, -1):
        token = tokens[index]
        if token.closing:
            name = cat.fold(token.name).lstrip("/")
            if name == "if":
                next_if = index
            elif name == "each":
                refused = dict.fromkeys(refused, index)
            continue
        on = kinds.conditions(token)
        if on:
            matched = frozenset(op for op in on if next_if is not None and refused[op] > next_if)
            if matched:
                closed[index] = (next_if, matched)
                refused = dict.fromkeys(refused, index)  # a condition that matches is refused by all
            continue  # one that does not match is text to the loop
        taken = kinds.refused_except(token)
        if taken is not None:
            for op in refused:
                if op not in taken:
                    refused[op] = index
    return closed


class _Kinds:
    """What a token is to the loops' text, by its spelling (a text repeats its tokens)."""

    def __init__(self, cat: Catalog, loops: list[Entry], conditioned: list[Entry]) -> None:
        self.cat, self.loops, self.conditioned = cat, loops, conditioned
        self.admitted = {op for loop in loops for op in loop.admits or ()}
        self.seen_conditions: dict[str, frozenset[str]] = {}
        self.seen_refused: dict[str, frozenset[str] | None] = {}

    def conditions(self, token: Token) -> frozenset[str]:
        """The ops of the loops whose field this token is a condition on (empty: none)."""
        if token.raw not in self.seen_conditions:
            found: frozenset[str] = frozenset()
            entry = resolve(self.cat, token, paired=True)
            if entry is not None and entry.op == "cond.if" and len(token.args) == 1:
                found = frozenset(
                    loop.op
                    for loop in self.conditioned
                    if field_of(self.cat, token.args[0], loop, frozenset({loop.op}))
                )
            self.seen_conditions[token.raw] = found
        return self.seen_conditions[token.raw]

    def refused_except(self, token: Token) -> frozenset[str] | None:
        """None where every loop's text takes the token; else the ops of the loops whose
        condition takes it as one of its own fields (every other loop's text stops there)."""
        if token.raw not in self.seen_refused:
            own = frozenset(
                loop.op
                for loop in self.loops
                if (found := resolve(self.cat, token, paired=False, within=frozenset({loop.op}))) is not None
                and found.inside is not None
                and loop.op in found.inside
            )
            plain = resolve(self.cat, token, paired=False)
            # a bare form is replaced before the grammar reads the text (Agnai's `{{name}}` in a
            # card's scenario is the character's name by then): text to the loop, as it is there
            placeholder = plain is not None and plain.op in self.admitted and not token.pipes and not plain.bare
            self.seen_refused[token.raw] = own if own or placeholder else None
        return self.seen_refused[token.raw]
