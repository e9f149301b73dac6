"""Translating macro text from one engine to another, with one verdict per token.

Verdicts:
- `portable`: the target has the same op; the token is re-spelled in its punctuation and form.
- `collision`: the target reads the token as written as a different op, or a list macro's
  items as other items or as text (`as_text`), and cannot write these; it is left as written
  and flagged (a blind re-spelling would change what the prompt says).
- `absent`: the target has neither; the token is removed and same-family candidates are named
  (ops that must survive, like `{{original}}`, are kept and still reported).
- `flatten`: a block the target cannot express; the body of its first branch is kept, the
  scaffolding removed, and the dropped condition left as a comment in the target's own comment
  syntax (never holding a brace), or only in this report where the target has no comments.
- `unknown`: the source catalog does not know the token; it is left as written.
An engine bunzai does not model answers `checked: false`: unknown, never clean.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from dataclasses import dataclass, field

from bunzai.jstext import js_trim
from bunzai.limits import MACRO_NESTING_MAX, MACRO_TEXT_BLOCKS_NESTED_MAX, MACRO_UNCLOSED_NESTED_MAX
from bunzai.macros import ops
from bunzai.macros.catalog import Catalog, Entry, catalog_in
from bunzai.macros.equivalence import (
    admitting,
    by_name,
    candidates,
    canonical_args,
    field_of,
    portable_spelling,
    reads_items,
    resolve,
    spell,
)
from bunzai.macros import conditions
from bunzai.macros.field_conditions import closed_field_conditions
from bunzai.macros.syntax import Token, find_tokens, parse_token, tokenize

VERDICTS = ("portable", "collision", "absent", "flatten", "unknown")


@dataclass
class Translation:
    text: str
    verdicts: list[dict] = field(default_factory=list)
    checked: bool = True
    reason: str = ""

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(VERDICTS, 0)
        for verdict in self.verdicts:
            counts[verdict["verdict"]] += 1
        return counts

    def to_json(self) -> dict:
        doc = {"checked": self.checked, "text": self.text, "counts": self.counts(), "verdicts": self.verdicts}
        if self.reason:
            doc["reason"] = self.reason
        return doc


def translate_text(
    text: str, source_engine: str, target_engine: str, reads: int | None = None, where: str | None = None
) -> Translation:
    """`text` written for `source_engine`, rewritten for `target_engine`, with its verdicts.

    `reads`: how many macro passes the target runs over this text before it reaches the model
    (a crossing knows it per field, bunzai.macros.crossing); None where the field is not known.
    `where`: the field (`kind:pattern`), so a form an engine reads only in some fields is text
    in the others; None where the field is not known (every form is read)."""
    source, target = catalog_in(source_engine, where), catalog_in(target_engine, where)
    missing = [e for e, c in ((source_engine, source), (target_engine, target)) if c is None]
    if missing:
        return Translation(
            text, [], False, f"bunzai has no macro catalog for {', '.join(missing)}: the macros are unchecked"
        )
    if "{{" not in text:
        return Translation(text, [], True)
    out, verdicts = _Translator(source, target, reads).run(text, 0)
    return Translation(out, verdicts, True)


@dataclass
class _Reading:
    """What `_Translator.reading` found: the tokens (paired), each one's entry in the source (None:
    text) and the ops of the blocks around it, the blocks read as text (opener index -> what in
    its body stops it), and what the bounds left: spans of blocks not read, openers left
    unclosed, and the tokens inside those (-> the innermost of them around each)."""

    tokens: list[Token]
    entries: list[Entry | None]
    within: list[frozenset[str]]
    stopped: dict[int, str]
    unread: list[tuple[int, int]]
    unsettled: list[Token]
    held: dict[int, int]


class _Translator:
    def __init__(self, source: Catalog, target: Catalog, reads: int | None = None) -> None:
        self.source = source
        self.target = target
        self.reads = reads
        # Identical plain tokens get identical answers; presets repeat {{char}} thousands of times.
        self.memo: dict[tuple[str, frozenset[str], frozenset[str]], tuple[str | None, list[dict]]] = {}
        self.entries: dict[tuple[str, bool, frozenset[str]], Entry | None] = {}
        # `enclosed`'s answer for each opener on the pairing's stack, and the stack they are of
        self.levels: list[tuple[Token, frozenset[str], Entry | None]] = []
        self.levels_of: list[Token] | None = None
        # The ops of the blocks the token being judged sits in, in the source and in the target
        # (a block the target cannot express is not around it there): a loop's fields are read
        # only inside their loop (Agnai's `{{.name}}` in `{{#each bot}}`).
        self.here: frozenset[str] = frozenset()
        self.there: frozenset[str] = frozenset()
        self.spellings: dict[str, tuple[bool, str | None]] = {}  # `spelled`'s answers, by text
        self.conditions_of: list[Token] | None = None  # the tokens `conditions` was found in
        self.conditions: dict[int, tuple[int, frozenset[str]]] = {}

    def run(self, text: str, depth: int) -> tuple[str, list[dict]]:
        saved = self.here, self.there  # a nested run (a macro's arguments) is a text of its own
        reading = self.reading(text)
        tokens, entries, within, stopped = reading.tokens, reading.entries, reading.within, reading.stopped
        unread, unsettled, held = reading.unread, reading.unsettled, reading.held
        printed = risu_printed_elses(text, tokens, entries) if self.source.engine == "risuai" else {}
        for i in printed:
            entries[i] = None  # text to RisuAI, not a branch
        out_text, verdicts = self.write(text, tokens, entries, within, stopped, depth, printed)
        if unread:  # the blocks those hold were not read as blocks (other macros there were)
            note = (
                f"inside more than {MACRO_TEXT_BLOCKS_NESTED_MAX} blocks {self.source.engine} reads as text, "
                "one inside another: its blocks not read; left as written"
            )
            shut = {
                t.start
                for t in tokens
                if not t.paired and any(a <= t.start < b for a, b in unread) and self.has_block(t)
            }
            verdicts = [{**v, "note": note} if v["verdict"] == "unknown" and v["at"] in shut else v for v in verdicts]
        if unsettled:  # the pairings stopped with these openers unclosed: what they hold may differ, said so
            note = (
                f"past {MACRO_UNCLOSED_NESTED_MAX} openers {self.source.engine} leaves unclosed, one inside "
                "another: read as text, but the openers it holds were paired as if it were open, which "
                f"{self.source.engine} may read otherwise"
            )
            left = {t.start for t in unsettled}
            verdicts = [_noted(v, note) if v["at"] in left else v for v in verdicts]
            # An opener they hold that opens nothing was judged in the unclosed one as if it were
            # open: where the engine reads that one as text, this one may open after all.
            # (an else too: a block read only in a condition)
            shut = {
                tokens[i].start: f"{tokens[holder].raw} at {tokens[holder].start}"
                for i, holder in held.items()
                if not tokens[i].paired and not tokens[i].closing and self.opens_somewhere(tokens[i])
            }
            verdicts = [
                self.held_shut(v, shut[v["at"]]) if v["verdict"] == "unknown" and v["at"] in shut else v
                for v in verdicts
            ]
        self.here, self.there = saved
        return out_text, verdicts

    def reading(self, text: str) -> _Reading:
        """How the source reads `text`: its tokens paired, each token's entry and the blocks around it.

        A block the source reads as text does not open: its closer may close an enclosing block,
        and the blocks it held open where they are (Agnai's loop in a failed `{{#insert}}`).
        Each reading finds the outermost blocks read as text; those they held shut open on the
        next, so blocks read as text nested one inside another take a reading each: past
        MACRO_TEXT_BLOCKS_NESTED_MAX of them the blocks inside are not read as blocks, so hostile
        nesting costs a bounded number of linear passes (unbounded, 800 levels took 10 s)."""
        as_text: dict[int, str] = {}  # opener start -> what in its body makes the source read it as text
        unread: list[tuple[int, int]] = []  # spans of the last blocks read as text past the bound
        for count in range(MACRO_TEXT_BLOCKS_NESTED_MAX + 1):
            unsettled: list[Token] = []  # openers left unclosed past MACRO_UNCLOSED_NESTED_MAX
            held: dict[int, int] = {}  # a token inside one of those -> the innermost one around it
            tokens = tokenize(
                text,
                self.source.syntax,
                self.source.fold,
                lambda t, around: t.start not in as_text and self.opens(t, around),
                unsettled,
                held,
            )
            entries, within, found = self.read(tokens)
            as_text.update((tokens[i].start, stop) for i, stop in found.items())
            if not found:
                break
            if count == MACRO_TEXT_BLOCKS_NESTED_MAX:
                unread = [(tokens[i].end, tokens[tokens[i].partner].start) for i in found]
        stopped = {i: as_text[t.start] for i, t in enumerate(tokens) if t.start in as_text}
        return _Reading(tokens, entries, within, stopped, unread, unsettled, held)

    def held_shut(self, verdict: dict, holder: str) -> dict:
        """The verdict on an opener that opens nothing inside one left unclosed past the bound: its
        note, judged as if that one were open, is replaced (a note on a bound of its own is kept)."""
        engine = self.source.engine
        note = (
            f"inside {holder}, which {engine} leaves unclosed past {MACRO_UNCLOSED_NESTED_MAX} such openers "
            f"one inside another: judged as if that one were open, where this opens no block; {engine}, "
            "reading that one as text, may open this: left as written"
        )
        if verdict.get("note", "").startswith(f"inside more than {MACRO_TEXT_BLOCKS_NESTED_MAX} blocks"):
            return _noted(verdict, note)
        return {**verdict, "note": note}

    def opens_somewhere(self, token: Token) -> bool:
        """Whether the source has a block form of this token's name (read only inside some, maybe)."""
        return any(e.block in ("block", "optional") for e in self.source.by_key.get(self.source.fold(token.name), ()))

    def has_block(self, token: Token) -> bool:
        """Whether the source opens a block with `token` somewhere."""
        entry = resolve(self.source, token, paired=True)
        return entry is not None and entry.block in ("block", "optional")

    def read(self, tokens: list[Token]) -> tuple[list[Entry | None], list[frozenset[str]], dict[int, str]]:
        """Each token's entry and the ops of the blocks around it, and the paired blocks the source
        reads as text (opener index -> what in its body stops it)."""
        entries: list[Entry | None] = []
        within: list[frozenset[str]] = []
        stopped: dict[int, str] = {}
        for token in tokens:
            parent = token.parent
            if parent is None:
                around = frozenset()
            else:
                block = entries[parent]
                around = within[parent] | ({block.op} if block is not None and block.op else set())
            within.append(around)
            entries.append(self.resolved(token, around))
            block = entries[-1]
            if block is not None and (block.admits is not None or block.stopped_by) and token.paired:
                stop = self.stopper(tokens, len(entries) - 1, block, around)
                if stop is not None:  # the whole block is text: its body is read as if it were not there
                    entries[-1] = None
                    stopped[len(entries) - 1] = stop
        return entries, within, stopped

    def write(
        self,
        text: str,
        tokens: list[Token],
        entries: list[Entry | None],
        within: list[frozenset[str]],
        stopped: dict[int, str],
        depth: int,
        printed: dict[int, str] | None = None,
    ) -> tuple[str, list[dict]]:
        """The text in the target, and the verdict on each token. `printed`: else markers the source
        reads as text, not as a branch (index -> why), left as written and reported."""
        kept: dict[int, str] = {}  # opener index -> its op, where the target writes the block
        edits: dict[int, str] = {}  # token index -> replacement text
        cuts: list[tuple[int, int]] = []  # text ranges removed (untaken branches)
        moves: dict[int, tuple[str, int, int, str]] = {}  # closer index -> text before, a range moved there, after
        skipped: set[int] = set()
        verdicts: list[dict] = []
        around_kept: dict[int, frozenset[str]] = {}
        layout = _Layout.of(tokens)
        for i, token in enumerate(tokens):
            if i in skipped or token.closing:
                continue
            entry = entries[i]
            self.here, self.there = within[i], _kept_around(tokens, i, kept, around_kept)
            if entry is None:
                around = entries[token.parent] if token.parent is not None else None
                if printed and i in printed:
                    note = f"{self.source.engine} reads this as text, not a branch: {printed[i]}; left as written"
                    verdicts.append(_verdict("unknown", token, None, note=note))
                    continue
                if token.name.lower() in _ELSE_NAMES and self.else_only_as_block(token):
                    # Agnai's else is a block with its closer: `{{else}}` alone is text there, and
                    # the target may read it as a branch, so it is reported, not passed over
                    note = (
                        f"{self.source.engine} reads this as text in the condition, and {self.target.engine} may read "
                        "it as the condition's other branch (where its own rules take it as one): left as written"
                    )
                    verdicts.append(_verdict("unknown", token, None, note=note))
                    continue
                if token.name.lower() in _ELSE_NAMES or token.name.startswith("/") and token.name != "//":
                    continue  # a stray marker is scaffolding of nothing: leave it
                verdicts.append(self.unknown(token, stopped.get(i), around))
                continue
            if token.paired and entry.literal:
                verdicts.append(self.raw_block(i, tokens, entry, edits, cuts, skipped, text))
                continue
            inline = self.inline_if(token, entry, depth) if not token.paired else None
            if inline is not None:
                edits[i], found = inline
                verdicts.extend(found)
                continue
            if token.paired and entry.block in ("block", "optional"):
                own = self.own_condition(token, entry)
                args, inner = (token.args, []) if own else self.nested(token, depth)
                verdicts.extend(inner)
                lost = any(_removed(v) for v in inner)
                verdicts.append(
                    self.block(i, tokens, entries, args, edits, cuts, skipped, lost, text, own, moves, layout)
                )
                if verdicts[-1]["verdict"] == "portable" and entry.op:
                    kept[i] = entry.op
                    verdicts.extend(self.elseifs(i, tokens, entries, edits, layout, depth))
                continue
            replacement, found = self.plain(token, entry, depth)
            if replacement is not None:
                edits[i] = replacement
            verdicts.extend(found)
        return _apply(text, tokens, edits, cuts, moves), verdicts

    def opens(self, token: Token, enclosing: list[Token] = ()) -> bool:
        """The source lets `token` take a body: not the inline form of a name that has a block
        form (SillyTavern's `{{if a::b}}` has every argument; MacroCstWalker counts it no opener),
        nor a block the innermost of the blocks `enclosing` it does not nest (`nests`, `admits`:
        Agnai's `{{#each bot}}` in a loop or an `{{#if}}` is text)."""
        entry = resolve(self.source, token, paired=True)
        named = self.source.by_key.get(self.source.fold(token.name), [])
        if entry is not None and entry.block not in ("block", "optional"):
            return not any(e.block in ("block", "optional") for e in named)
        # A block read only inside others or in one case (Agnai's `{{#else}}`, in an `{{#if}}`;
        # `{{#each bot}}`, not `{{#EACH bot}}` or `{{#each foo}}`) is text otherwise, as is any
        # opener not of the engine's block forms where only those open (Agnai's `{{#insert x}}`,
        # `{{#lowpriority x}}`); elsewhere any other name a closer names opens, known or not.
        scoped = entry is None and (
            bool(named)
            and self.source.syntax.known_blocks_only
            or any((e.inside is not None or e.exact_case) and e.block in ("block", "optional") for e in named)
        )
        if entry is None and not scoped and self.source.syntax.known_blocks_only and not named:
            return False  # no block of the engine's: text, its closer too (Agnai: no general block rule)
        if not enclosing:
            return not scoped
        within, block = self.enclosed(enclosing)
        if entry is None and not scoped:  # no block of the engine: scaffolding, but text in a body that takes only some
            return block is None or block.nests is None and block.admits is None
        here = self.opener(token, within)
        return here is not None and (block is None or block.nests is None or here.op in block.nests)

    def enclosed(self, enclosing: list[Token]) -> tuple[frozenset[str], Entry | None]:
        """The ops of the blocks `enclosing` opens, and the innermost of them (None: none opens).

        Each level is judged once while its opener stays on the pairing's stack (tokenize's
        `opens` says why that holds): asking at every token from the outermost opener was
        quadratic in the nesting (4,000 nested blocks took 5 s)."""
        levels = self.levels
        if self.levels_of is not enclosing:  # another pass of the pairing: nothing carries over
            self.levels_of, levels[:] = enclosing, []
        kept = min(len(levels), len(enclosing))
        while kept and levels[kept - 1][0] is not enclosing[kept - 1]:
            kept -= 1  # popped since the last question: at most the pops and one push back
        del levels[kept:]
        within, block = levels[-1][1:] if levels else (frozenset(), None)
        for opener in enclosing[kept:]:
            block = self.opener(opener, within)
            within = within | {block.op} if block is not None and block.op else within
            levels.append((opener, within, block))
        return within, block

    def opener(self, token: Token, within: frozenset[str]) -> Entry | None:
        """The block `token` opens in the source, in the blocks `within` (None: it opens none there)."""
        key = (token.raw, True, within)
        if key not in self.entries:
            self.entries[key] = resolve(self.source, token, paired=True, within=within)
        return self.entries[key]

    def else_only_as_block(self, token: Token) -> bool:
        """Whether the source reads this else as no branch marker (Agnai's else is a block with its
        closer, `{{#else}}...{{/else}}`; `{{:else}}` is nothing to it), so that, unpaired, it is
        text, while the target reads it as one in the condition around it: the translation would
        then add a branch the source never had."""
        if token.paired or "cond.if" not in self.there:  # outside a kept condition, a branch of nothing
            return False
        if resolve(self.source, token, paired=False, within=frozenset({"cond.if"})) is not None:
            return False  # a branch marker there too
        theirs = by_name(self.target, token, paired=False, within=self.there)
        return theirs is not None and theirs.op in ("cond.else", "cond.elseif")

    def unknown(self, token: Token, stop: str | None = None, around: Entry | None = None) -> dict:
        """`around`: the block the token sits in, where a block it would open elsewhere is text there."""
        note = f"{self.source.engine} has no macro read this way; left as written"
        blocks = admitting(self.source, self.here)
        opened = resolve(self.source, token, paired=True) if around is not None else None
        if opened is not None and opened.block in ("block", "optional"):
            note = (
                f"{self.source.engine} reads this as text in the body of {around.name}, where no such block opens: "
                "left as written"
            )
        elif blocks and resolve(self.source, token, within=frozenset()) is not None:
            takes = ", ".join(blocks[0].admits)
            note = f"{self.source.engine} reads this as text in the body of {blocks[0].name}, which takes only {takes}"
            note += " and its own fields; left as written"
        if stop is not None:
            note = (
                f"{self.source.engine} reads this block as text, as its body holds {stop}, which the block does "
                "not take: left as written, its body read as if no block were around it"
            )
        same = by_name(self.target, token, paired=token.paired, within=self.there)
        if same is not None:  # RisuAI's `{{// x}}` is text there and a comment in SillyTavern
            note += f", and {self.target.engine} reads it as {same.op or same.name}"
        return _verdict("unknown", token, None, note=note)

    def stopper(self, tokens: list[Token], i: int, block: Entry, around: frozenset[str]) -> str | None:
        """The token in the body of the block at `i` that makes its engine read the whole block as
        text (`stopped_by`): a form read inside other blocks alone, a closer it stops at outside
        a condition it admits (Agnai's `{{.msg}}` or `{{/if}}` in `{{#each bot}}`), or a macro it
        admits inside such a condition, which takes the block's fields alone; None if none."""
        here = around | {block.op}
        others = {e.op for e in self.source.entries if e.admits is not None and e.op != block.op}
        end = tokens[i].partner
        # A field condition in the body whose `{{/if}}` lies past the block's closer stops a text
        # that stops at loops' fields (Agnai's InsertText); one closed inside stops it at `{{/if}}`.
        crossing = self.field_conditions(tokens) if block.admits is None and block.stopped_by_fields else {}
        for index in range(i + 1, end):
            token = tokens[index]
            if index in crossing and crossing[index][0] > end:
                closer = tokens[crossing[index][0]].raw
                return f"{token.raw}, a condition on a loop's field that runs past the block to its {closer}"
            if token.closing:
                opener = tokens[token.partner] if token.partner is not None else None
                # a closer in the body of a block nested here is that block's text, judged by it
                # (Agnai's ElseText stops at `{{/lowpriority}}`, but the LoopText of a loop in the
                # else takes one)
                if (
                    token.parent == i
                    and self.source.fold(token.name) in block.stopped_by
                    and (opener is None or resolve(self.source, opener, within=here) is None)
                ):
                    return token.raw
                continue
            found = resolve(self.source, token, within=here)
            if (
                found is not None
                and token.parent != i
                and found.inside is None
                and block.admits
                and block.field_conditions
            ):
                return token.raw  # a field condition reads the loop's fields alone (Agnai's HistoryCondition)
            if found is not None or not block.stopped_by_fields:
                continue
            for op in others:
                found = resolve(self.source, token, paired=False, within=around | {op})
                if found is not None and found.inside is not None and block.op not in found.inside:
                    return token.raw
        if block.admits is not None and block.field_conditions:
            # a condition of another loop alone, wherever in the body, even in this loop's own
            # condition (whose text it stops, so that one is text and this one is then reached)
            matched = self.field_conditions(tokens)
            for index in range(i + 1, end):
                if index in matched and block.op not in matched[index][1]:
                    return f"{tokens[index].raw}, a condition on another loop's field"
        return None

    def field_conditions(self, tokens: list[Token]) -> dict[int, tuple[int, frozenset[str]]]:
        """`closed_field_conditions` of this reading's tokens, found once for all its blocks."""
        if self.conditions_of is not tokens:
            self.conditions_of, self.conditions = tokens, closed_field_conditions(self.source, tokens)
        return self.conditions

    def on_a_field(self, token: Token) -> bool:
        """Whether an `#if` tests a field of a loop around it (Agnai's `{{#if .isuser}}`, or
        `{{#if isuser}}`, in `{{#each msg}}`): no target has such a condition."""
        return len(token.args) == 1 and any(
            field_of(self.source, token.args[0], block, self.here) for block in admitting(self.source, self.here)
        )

    def resolved(self, token: Token, within: frozenset[str]) -> Entry | None:
        key = (token.raw, token.partner is not None and not token.closing, within)  # Token.paired, inline
        found = self.entries.get(key, _UNSEEN)
        if found is _UNSEEN:
            found = self.entries[key] = resolve(self.source, token, within=within)
        return found

    def nested(self, token: Token, depth: int) -> tuple[list[str], list[dict]]:
        """Arguments with the macros inside them translated first."""
        if not any("{{" in a for a in token.args):
            return list(token.args), []
        if depth >= MACRO_NESTING_MAX:
            # Left in the source's spelling: said, so a deep token is never silently unconverted.
            note = f"nested deeper than {MACRO_NESTING_MAX} macros: not translated; left as written"
            deep = [
                {**_verdict("unknown", token, None, note=note), "token": arg[a:b]}
                for arg in token.args
                for a, b in find_tokens(arg)
            ]
            return list(token.args), deep
        args, found = [], []
        for arg in token.args:
            text, verdicts = self.run(arg, depth + 1) if "{{" in arg else (arg, [])
            args.append(text)
            for verdict in verdicts:
                verdict["at"] = token.start
            found.extend(verdicts)
        return args, found

    def plain(self, token: Token, entry: Entry, depth: int) -> tuple[str | None, list[dict]]:
        """A non-block token and the macros nested in it; identical tokens are answered once."""
        key = (token.raw, self.here, self.there)
        if key in self.memo:
            replacement, found = self.memo[key]
            return replacement, [{**v, "at": token.start} for v in found]
        args, found = self.nested(token, depth)
        replacement, verdict = self.judge(token, entry, args)
        if token.pipes:
            verdict = _noted(verdict, self.piped(token, replacement))
        if token.sep == "::" and self.source.syntax.colon == "comma" and verdict["verdict"] != "unknown":
            verdict = _noted(verdict, self.colon_items(token, args))
        found = [*found, verdict]
        self.memo[key] = (replacement, found)
        return replacement, [{**v, "at": token.start} for v in found]

    def judge(self, token: Token, entry: Entry, args: list[str]) -> tuple[str | None, dict]:
        """The verdict on one non-block token, and what replaces it (None: left as written)."""
        source, target = self.source, self.target
        op = entry.op
        if op is None:
            return self.by_same_name(token, entry, args)
        canon = canonical_args(source, entry, args)
        found = portable_spelling(target, op, token, canon, paired=False, within=self.there)
        if found is not None:
            t_entry, text = found
            notes = [n for n in (t_entry.note, self.spaces_lost(op, canon), self.no_offset(entry, args, canon)) if n]
            if entry.fields is not None and entry.note:  # a form read only in some fields: say which
                notes.insert(0, entry.note)
            same = by_name(target, token, paired=False, within=self.there)
            if same is not None and same.op != op and text != token.raw:
                notes.insert(0, f"{target.engine} reads {token.raw} as {same.op}; re-spelled to keep {op}")
            elif same is not None and same.fixed_args and text != token.raw:
                fixed = "::".join(same.fixed_args)
                notes.insert(0, f"{target.engine} reads {token.raw} as {op} at {fixed}; re-spelled")
            elif (
                same is not None
                and text != token.raw
                and not entry.fixed_args
                and (read := self.other_args(token, same, entry))
            ):
                notes.insert(0, f"{target.engine} reads {token.raw} as {op} with {read}; re-spelled")
            return text, _verdict("portable", token, op, to=text, note="; ".join(notes))
        added = self.as_addition(token, op, canon)
        if added is not None:
            return added
        same = by_name(target, token, paired=False, within=self.there)
        rewritten = self.unglued(token) if same is None else None
        read = by_name(target, parse_token(rewritten, 0, source.syntax), paired=False) if rewritten else None
        if read is not None and read.op != op:
            # one meaning, one outcome: the glued spelling is judged as the one its engine rewrites it to
            return None, _verdict(
                "collision",
                token,
                op,
                target_op=read.op,
                candidates=candidates(target, op, self.there),
                note=f"{source.engine} reads this as {rewritten}, which {target.engine} reads as {read.op}, "
                f"not {op}: left as written, as {rewritten} is",
            )
        if same is not None and same.op == op and not reads_items(target, token.raw, same, canon, entry):
            read = canonical_args(target, same, parse_token(token.raw, 0, target.syntax).args)
            what = "splits its list into" if same.split_items else f"reads {op} here with the arguments"
            return None, _verdict(
                "collision",
                token,
                op,
                target_op=op,
                candidates=[],
                note=f"{target.engine} {what} {json.dumps(read, ensure_ascii=False)}, "
                f"not {json.dumps(canon, ensure_ascii=False)}, and has no spelling for these: left as written",
            )
        if same is not None and same.op != op:
            return None, _verdict(
                "collision",
                token,
                op,
                target_op=same.op,
                candidates=candidates(target, op, self.there),
                note=f"{target.engine} reads this as {same.op or 'its own ' + same.name}, not {op}: left as written",
            )
        if same is not None:
            return None, _verdict("portable", token, op, to=token.raw, note=same.note)
        if ops.keeps_unresolved(op):
            return None, _verdict(
                "absent",
                token,
                op,
                kept=True,
                candidates=candidates(target, op, self.there),
                note=(
                    f"{target.engine} has no {op}; kept as written because it is filled in when the prompt is composed"
                ),
            )
        if target.by_op.get(op) and parse_token(token.raw, 0, target.syntax).text:
            # as when the target splits a list into other items: arguments it has no spelling for, kept
            return None, _verdict(
                "collision",
                token,
                op,
                as_text=True,
                candidates=candidates(target, op, self.there),
                note=f"{target.engine} reads this as text, and has no spelling of {op} with "
                f"{json.dumps(canon, ensure_ascii=False)}: left as written",
            )
        blocks = admitting(target, self.there)
        if target.by_op.get(op) and blocks and portable_spelling(target, op, token, canon, paired=False):
            lacks = f"{target.engine} reads no {op} in the body of {blocks[0].name}, which takes only "
            lacks += ", ".join(blocks[0].admits) + " and its own fields"
        elif target.by_op.get(op):
            lacks = f"{target.engine} has {op}, but no form of it with {json.dumps(canon, ensure_ascii=False)}"
        else:
            lacks = f"{target.engine} has no {op}"
        return "", _verdict(
            "absent", token, op, candidates=candidates(target, op, self.there), note=f"{lacks}: removed"
        )

    def unglued(self, token: Token) -> str | None:
        """`{{time::UTC+2}}` for a glued `{{time_UTC+2}}`: the spelling SillyTavern's 2.0 engine
        rewrites it to before it parses (core:legacy-time-syntax), which its legacy engine's glued
        form means too; None for any other token."""
        forms = self.source.syntax.glued
        if len(token.args) != 1 or not any(f.sep == token.sep and f.name == token.name.lower() for f in forms):
            return None
        return "{{" + token.name + self.source.syntax.separators[0] + token.args[0] + "}}"

    def by_same_name(self, token: Token, entry: Entry, args: list[str]) -> tuple[str | None, dict]:
        """An entry declaring no op: matched by name, which the gate allows only where engines agree."""
        t_entry = by_name(self.target, token, paired=False, within=self.there)
        if t_entry is not None:
            text = spell(self.target, t_entry, args, flags=token.flags) or token.raw
            return text, _verdict("portable", token, t_entry.op, to=text, note="matched by name (no op declared)")
        return "", _verdict(
            "absent", token, None, note=f"{self.target.engine} has no macro named {entry.name}: removed"
        )

    def block(
        self,
        i: int,
        tokens: list[Token],
        entries: list[Entry | None],
        args: list[str],
        edits: dict[int, str],
        cuts: list,
        skipped: set[int],
        lost: bool,
        text: str,
        own: tuple[str, str] | None,
        moves: dict[int, tuple[str, int, int, str]],
        layout: _Layout,
    ) -> dict:
        """A paired opener: re-spell the whole block, or flatten it to its first branch.

        `lost`: a macro in the opener's arguments was removed or flattened, so its condition no
        longer says what the source's did; judging or re-spelling what is left would turn it
        into another condition (RisuAI's `{{#if {{equal::{{metadata::language}}::ko}}}}` into
        SillyTavern's `{{if 0}}`), so the block is flattened and reported."""
        token, entry, target = tokens[i], entries[i], self.target
        closer = token.partner
        inside = layout.inside.get(i, [])
        branches = [
            j
            for j in inside
            if not tokens[j].closing and entries[j] is not None and entries[j].op in ("cond.else", "cond.elseif")
        ]
        marked = set(branches)
        else_closers = [j for j in inside if tokens[j].closing and tokens[j].partner in marked]
        op = entry.op
        skipped.update(branches)
        skipped.update(else_closers)
        canon = canonical_args(self.source, entry, args)
        truth_note, uncarried = "", False
        if own is not None:
            canon, truth_note = [own[0]], own[1]
        elif lost:
            op = None
        elif op == "cond.if" and self.source.engine != target.engine and self.on_a_field(token):
            op = None  # a condition on a loop's field (Agnai's HistoryCondition): flattened below
            uncarried = any(e.block == "block" for e in target.by_op.get(entry.op, []))
        elif op == "cond.if" and conditions.differs(self.source.engine, target.engine):
            condition = conditions.carried(self.source.engine, target.engine, canon, self.spelled)
            canon, truth_note = ([condition[0]], condition[1]) if condition else (canon, "")
            op = op if condition else None  # no condition the target judges alike: flattened below
            uncarried = condition is None and any(e.block == "block" for e in target.by_op.get(entry.op, []))
        found = portable_spelling(target, op, token, canon, paired=True) if op else None
        if (
            found is not None
            and op in ("cond.if", "cond.unless")
            and self.source.engine == target.engine == "lumiverse"
        ):
            found = found[0], conditions.lumiverse_opener(text[token.start : token.end], found[1])
        t_else = self.else_spelling(entries, branches)
        # An else with its closer (Agnai's) may end before the condition does: text after it is the
        # first branch's, and of several elses only the last is shown. A marker else runs to the
        # condition's end, so the last else block, translated, is moved there (`moves`: its text is
        # written at the closer as the rest of the text is written), and the others are cut.
        moved = bool(else_closers) and (
            len(branches) > 1 or _NOT_SPACE.search(text, tokens[else_closers[-1]].end, tokens[closer].start) is not None
        )
        # A closer in the condition that pairs with nothing here may end a block of the source's
        # there (Agnai's loop takes an `{{/else}}` into its body): the else blocks may not be
        # what they seem, and are not moved; nor are they where an else block stands beside an else
        # marker with no closer (`{{#else}}...{{/else}}{{#else}}`): which ends where is a guess.
        unsure = ""  # why the else blocks are not moved, where that is so
        if moved and layout.strays[closer] > layout.strays[i + 1]:
            unsure = _ELSE_UNSURE.format(source=self.source.engine)
        elif moved and any(tokens[j].partner is None for j in branches):
            unsure = _ELSE_MIXED.format(source=self.source.engine)
        if found is not None and t_else is not False and moved and not unsure:
            t_entry, spelled = found
            edits[i] = spelled
            last, shown = branches[-1], tokens[branches[-1]].partner
            for j in branches:
                cuts.append((tokens[j].start, tokens[tokens[j].partner].end))
                if j != last:  # never shown: what it holds is not translated
                    skipped.update(range(j, tokens[j].partner + 1))
            start, end = tokens[last].end, tokens[shown].start
            marker = t_else[0]
            if t_else[2]:  # on a line of its own
                # asked in place: a copy of the text before the closer was quadratic in the nesting
                marker = ("" if text.endswith("\n", 0, tokens[closer].start) else "\n") + marker
                marker += "" if text.startswith("\n", start, end) else "\n"
            after = (t_else[1] or "") + "{{/" + t_entry.name.lstrip("#:") + "}}"
            moves[closer] = (marker, start, end, after)
            shows = f"{self.source.engine} shows the text after it with the first branch"
            moved_note = f"its else block is written at its end: {shows}"
            if len(branches) > 1:
                moved_note += ", and only the last of its else blocks"
            note = "; ".join(n for n in (truth_note or t_entry.note, moved_note) if n)
            return _verdict("portable", token, op, to=spelled, note=note)
        if found is not None and t_else is not False and not moved:
            t_entry, spelled = found
            edits[i] = spelled
            close = "{{/" + t_entry.name.lstrip("#:") + "}}"
            for j in else_closers:
                edits[j] = ""
            for j in branches:
                edits[j] = _own_line(t_else[0], text, tokens[j]) if t_else[2] else t_else[0]
            if branches and t_else[1]:
                close = t_else[1] + close
            edits[closer] = close
            return _verdict("portable", token, op, to=spelled, note=truth_note or t_entry.note)
        op = entry.op
        # Flatten: keep the first branch, drop the rest and the scaffolding.
        edits[i] = self.note(token, "kept its first branch" if op and op.startswith("cond.") else "kept its body")
        edits[closer] = ""
        if branches and else_closers:  # else blocks: each cut, what stands after them kept
            for j in branches:
                end = tokens[j].partner if tokens[j].partner is not None else closer
                cuts.append((tokens[j].start, tokens[end].end if end != closer else tokens[closer].start))
                skipped.update(range(j, end + 1 if end != closer else closer))
        elif branches:
            first = branches[0]
            cuts.append((tokens[first].start, tokens[closer].start))
            skipped.update(j for j in range(first, closer))
        condition = " ".join(args).strip()
        comment = edits[i] or None
        return _verdict(
            "flatten",
            token,
            op,
            to=comment or "",
            dropped=("the condition and the other branches" if branches else "the condition")
            if op and op.startswith("cond.")
            else "the block's scaffolding",
            condition=_brace_free(condition),
            comment=comment,
            note=(
                unsure
                if unsure and found is not None and t_else is not False
                else self.no_else(entries, branches)
                if found is not None and t_else is False
                else _flatten_reason(target.engine, op or entry.name, lost, uncarried)
            )
            + "; the body of the first branch is kept"
            + (
                ""
                if comment
                else f"; {target.engine} has no comment syntax, so the dropped condition is only in this report"
            ),
        )

    def piped(self, token: Token, replacement: str | None) -> str:
        """What becomes of the pipes after a token (Agnai's `{{char | upper}}`): the source parses
        them and never applies them (template-parser.ts has no code for them)."""
        said = f"{self.source.engine} parses {' '.join('| ' + p for p in token.pipes)} and never applies it"
        return said + ("; dropped" if replacement is not None else "")

    def as_addition(self, token: Token, op: str, canon: list[str]) -> tuple[str, dict] | None:
        """A subtraction of a number written as the target's addition of its negative (SillyTavern's
        `{{.x-=2}}` is RisuAI's `{{addvar::x::-2}}`), where the target has no subtraction."""
        found = ops.as_addition(op, canon)
        spelled = found and portable_spelling(self.target, found[0], token, found[1], paired=False, within=self.there)
        if not spelled:
            return None
        t_entry, text = spelled
        said = (
            f"{self.target.engine} has no {op}: written as {found[0]} of {found[1][1]}, the same where "
            f"{found[1][0]} holds a number"
        )
        note = "; ".join(n for n in (said, t_entry.note) if n)
        return text, _verdict("portable", token, op, to=text, note=note)

    def other_args(self, token: Token, same: Entry, entry: Entry) -> str:
        """The arguments the target reads in the token as written, where they are not the source's
        (Agnai's `{{random::a, b}}` holds ":a"), as JSON; "" where they are the same. Both as
        written: a macro nested in them has its own verdict."""
        read = canonical_args(self.target, same, parse_token(token.raw, 0, self.target.syntax).args)
        written = canonical_args(self.source, entry, token.args)
        if [js_trim(a) for a in read] == [js_trim(a) for a in written]:
            return ""
        return json.dumps(read, ensure_ascii=False)

    def colon_items(self, token: Token, args: list[str]) -> str:
        """What Agnai's `{{random::a, b}}` holds: its grammar's `":"?` takes one colon, and the
        second begins the first item (a `::` inside an item parts nothing)."""
        items = json.dumps(args, ensure_ascii=False)
        return f"{self.source.engine} reads {token.raw} as the items {items}: its optional ':' takes one colon, not two"

    def no_offset(self, entry: Entry, args: list[str], canon: list[str]) -> str:
        """A note where the source reads a UTC offset's argument as no offset at all (local time)."""
        if not entry.utc_offset or not args or canon:
            return ""
        return f"{self.source.engine} reads {args[0].strip()!r} as no UTC offset: its local time"

    def spaces_lost(self, op: str, args: list[str]) -> str:
        """A note where the target trims arguments (or only a variable's name, SillyTavern's legacy
        engine) whose edge spaces the source keeps: RisuAI's `name ` and `name` are two variables."""
        source, target = self.source.syntax, self.target.syntax
        if source.trim_args:
            return ""
        if target.trim_args:
            what, trimmed = "its arguments", args
        elif target.trim_names and not source.trim_names:
            names = [n.rstrip("?*") for n in ops.canonical_args(op)]
            what, trimmed = "a variable's name", [a for n, a in zip(names, args) if n == "name"]
        else:
            return ""
        spaced = [a for a in trimmed if a != js_trim(a)]
        if not spaced:
            return ""
        said = f"{self.target.engine} trims {what}: the spaces around {', '.join(map(repr, spaced))} are lost"
        return said if target.trim_args else said + f", so it names another variable than in {self.source.engine}"

    def inline_if(self, token: Token, entry: Entry, depth: int) -> tuple[str, list[dict]] | None:
        """SillyTavern's `{{if cond::text}}` where the target has no inline form: translated as
        the source's own block `{{if cond}}text{{/if}}` (its condition carried, or flattened)."""
        if entry.op != "cond.if" or entry.block is not None or depth >= MACRO_NESTING_MAX:
            return None
        canon = canonical_args(self.source, entry, token.args)
        if len(canon) != 2 or portable_spelling(self.target, entry.op, token, canon, paired=False):
            return None
        found = portable_spelling(self.source, entry.op, token, canon[:1], paired=True)
        if found is None:
            return None
        opener = found[1]
        out, verdicts = self.run(opener + canon[1] + "{{/" + found[0].name.lstrip("#:") + "}}", depth + 1)
        for verdict in verdicts:
            if verdict["token"] == opener and verdict["at"] == 0:
                verdict["token"] = token.raw
                if verdict["verdict"] == "portable":
                    verdict["to"] = out
                verdict["note"] = "; ".join(n for n in ("the inline if, written as a block", verdict.get("note")) if n)
            verdict["at"] = token.start
        return out, verdicts

    def raw_block(
        self, i: int, tokens: list[Token], entry: Entry, edits: dict[int, str], cuts: list, skipped: set[int], text: str
    ):
        """A block whose body the source prints as text, its macros not run (RisuAI's `#pure`,
        `#puredisplay`, `#escape`): the body is never translated. Where the target has no block
        of the same op, the body is kept as the source prints it (trimmed, `{{` backslashed where
        the source does), its braces escaped where the target can say so; otherwise the verdict
        names the macros the target will run."""
        token, closer = tokens[i], tokens[i].partner
        skipped.update(range(i + 1, closer + 1))
        found = portable_spelling(self.target, entry.op, token, [], paired=True)
        if found is not None:
            edits[i], edits[closer] = found[1], "{{/" + found[0].name.lstrip("#:") + "}}"
            return _verdict("portable", token, entry.op, to=found[1], note=found[0].note)
        body = _printed(entry, text[token.end : tokens[closer].start])
        escape, runs = self.target.syntax.escape, self.runnable(body)
        said = f"{self.source.engine} prints this body as text, its macros not run; "
        said += f"{entry.note}; " if entry.note else ""
        if escape and ("{" in body or "}" in body):  # every brace: the engine drops the escape before any
            # Each pass drops one escape before a brace (SillyTavern's core:unescape-braces), so a
            # text read N times holds N of them; the crossing knows N per field.
            body = re.sub(r"[{}]", lambda m: escape * (self.reads or 1) + m.group(), body)
            said += self.escaped(escape, runs)
            runs = runs if self.reads is None else []
        elif runs:
            said += f"{self.target.engine} has no way to say so and will run {', '.join(runs)}"
        else:
            said += f"{self.target.engine} reads no macro in it"
        comment = self.note(token, "kept its body as text")
        edits[i], edits[closer] = comment + body, ""
        cuts.append((token.end, tokens[closer].start))
        return _verdict(
            "flatten",
            token,
            entry.op,
            to=comment,
            dropped="the block's scaffolding",
            comment=comment or None,
            runs=runs,
            note=said,
        )

    def escaped(self, escape: str, runs: list[str]) -> str:
        """What the verdict says of a literal body whose braces were escaped for the target."""
        target = self.target.engine
        if self.reads is not None:
            passes = "the one macro pass" if self.reads == 1 else f"each of the {self.reads} macro passes"
            return (
                f"its braces are escaped with {escape} for {passes} {target} runs over this field on its Chat "
                f"Completion path (one {escape} a pass), so it prints them"
            )
        said = f"its braces are escaped with {escape} so {target} prints them"
        if runs:  # the field is not known: say where one escape does not hold
            said += (
                f" in a text it reads once; where it reads a text again (a card's description, personality, "
                f"scenario, system prompt, post-history instructions and depth prompt, lorebook entries, and a "
                f"chat's first message at each generation) a later pass runs {', '.join(runs)}"
            )
        return said

    def runnable(self, text: str) -> list[str]:
        """The tokens in `text` the target would read as its own macros."""
        found = []
        for a, b in find_tokens(text):
            token = parse_token(text[a:b], 0, self.target.syntax)
            if resolve(self.target, token) or resolve(self.target, token, paired=True):
                found.append(text[a:b])
        return found

    def own_condition(self, token: Token, entry: Entry) -> tuple[str, str] | None:
        """(SillyTavern's condition, a note) for a RisuAI condition that is bunzai's own spelling
        of SillyTavern's truth, crossing back to SillyTavern; else None."""
        if entry.op != "cond.if" or (self.source.engine, self.target.engine) != ("risuai", "sillytavern"):
            return None
        found = conditions.st_truth_read_back(token.args)
        value = self.spelled(found[0])[1] if found else None
        if value is None:
            return None
        note = "bunzai's spelling of SillyTavern's truth, read back as SillyTavern's own condition"
        return conditions.st_condition(value, found[1]), note

    def spelled(self, text: str) -> tuple[bool, str | None]:
        """(the source reads `text` as a macro, its target spelling; None unless it crosses as it is).

        A text is read the same wherever it stands (a run starts from no block around it), so each
        is translated once: a preset asks this of the same condition hundreds of times."""
        if text not in self.spellings:
            out, verdicts = self.run(text, MACRO_NESTING_MAX - 1)
            known = not any(v["verdict"] == "unknown" for v in verdicts)
            self.spellings[text] = (
                known,
                out if verdicts and all(v["verdict"] == "portable" for v in verdicts) else None,
            )
        return self.spellings[text]

    def else_spelling(self, entries: list[Entry | None], branches: list[int]):
        """(marker, text before the closer, on its own line?) for the target's else; False if it has none."""
        if not branches:
            return ("", "", False)
        if any(entries[j].op == "cond.elseif" for j in branches) and not self.carries_elseif():
            return False  # its condition is not carried: flattened
        t_entries = self.target.by_op.get("cond.else", [])
        if not t_entries:
            return False
        t_else = t_entries[0]
        marker = "{{" + t_else.name + "}}"
        if t_else.block == "block":
            return (marker, "{{/" + t_else.name.lstrip("#:") + "}}", t_else.own_line)
        return (marker, "", t_else.own_line)

    def carries_elseif(self) -> bool:
        """Whether an elseif's condition crosses: only into its own engine (Lumiverse alone has
        one), where it reads as it did. Into another, its condition, judged by other rules and
        after the if's, would need rewriting as nested conditions: not done, so flattened."""
        return self.source.engine == self.target.engine and bool(self.target.by_op.get("cond.elseif"))

    def elseifs(
        self,
        i: int,
        tokens: list[Token],
        entries: list[Entry | None],
        edits: dict[int, str],
        layout: _Layout,
        depth: int,
    ) -> list[dict]:
        """The elseif branches of the condition at `i`, written by `block` as else markers,
        spelled again with their conditions (carries_elseif); the verdicts of the macros in them."""
        found: list[dict] = []
        for j in layout.inside.get(i, []):
            if tokens[j].closing or entries[j] is None or entries[j].op != "cond.elseif":
                continue
            args, inner = self.nested(tokens[j], depth)
            found.extend(inner)
            token = tokens[j]
            edits[j] = (
                token.raw
                if args == list(token.args)
                else spell(self.target, entries[j], args, flags=token.flags, name=token.name) or token.raw
            )
        return found

    def no_else(self, entries: list[Entry | None], branches: list[int]) -> str:
        """Why a condition whose opener the target spells is flattened: its branches (else_spelling)."""
        target = self.target.engine
        if any(entries[j].op == "cond.elseif" for j in branches):
            if self.target.by_op.get("cond.elseif"):
                return "bunzai does not carry an elseif's condition"
            return f"{target} has no elseif"
        return f"{target} has no else"

    def note(self, token: Token, kept: str) -> str:
        """The dropped opener, as a comment the target will not run: no braces inside."""
        comment = self.target.syntax.comment
        if comment is None:
            return ""
        body = _brace_free(f"bunzai: dropped {token.raw[2:-2].strip()}; {kept}")
        body = "".join(c for c in body if c not in comment.forbid)
        return comment.open + body + comment.close


_ELSE_UNSURE = (
    "its else block does not end it, and a closer in it pairs with nothing, which may end another block there in "
    "{source}, so bunzai does not move the else block to the condition's end"
)
_ELSE_MIXED = (
    "its else block does not end it, and an else with no closer stands beside it: where each branch ends in "
    "{source} is not clear, so bunzai does not move the else block to the condition's end"
)


_RISU_ELSE = "{{:else}}"


def risu_printed_elses(text: str, tokens: list[Token], entries: list[Entry | None]) -> dict[int, str]:
    """The `{{:else}}` markers RisuAI reads as text, not as a branch, index -> why (parser.svelte.ts,
    blockEndMatcher): it finds one only in a `#when`, written exactly so, and one only: in a body
    of one line the first, in a body of several the first standing alone on its line. The lines are
    counted on the body as written, where RisuAI counts them after its macros run. One pass: a
    block's else markers come in order, and its body is looked at in place, not copied."""
    printed: dict[int, str] = {}
    taken: set[int] = set()  # the #when blocks whose else is found
    several: dict[int, bool] = {}  # #when block -> its body holds a line break
    for i, token in enumerate(tokens):
        entry, parent = entries[i], token.parent
        if entry is None or entry.op != "cond.else" or parent is None:
            continue
        opener, block = tokens[parent], entries[parent]
        if block is None or opener.partner is None:
            continue
        start, end = opener.end, tokens[opener.partner].start
        if block.name != "#when":
            printed[i] = f"its {block.name} has no else (only #when has)"
        elif token.raw != _RISU_ELSE:
            printed[i] = f"it finds the else only as {_RISU_ELSE}, written exactly so"
        elif parent in taken:
            printed[i] = "a #when takes its first else only"
        elif _lines(several, parent, text, start, end) and not _alone_on_line(text, token.start, token.end, start, end):
            printed[i] = "in a body of several lines it finds the else only on a line of its own"
        else:
            taken.add(parent)
    return printed


def _lines(seen: dict[int, bool], block: int, text: str, start: int, end: int) -> bool:
    """Whether the body `start`-`end` of `block` holds a line break, looked for once a block."""
    if block not in seen:
        seen[block] = text.find("\n", start, end) >= 0
    return seen[block]


def _alone_on_line(text: str, start: int, end: int, body_start: int, body_end: int) -> bool:
    """Whether the marker at `start`-`end` is alone on its line of the body `body_start`-`body_end`."""
    line_start = text.rfind("\n", body_start, start) + 1 or body_start
    line_end = text.find("\n", end, body_end)
    return js_trim(text[line_start : body_end if line_end < 0 else line_end]) == _RISU_ELSE


def _flatten_reason(target: str, what: str, lost: bool, uncarried: bool) -> str:
    if lost:
        return f"its arguments hold a macro {target} has no equivalent for"
    if uncarried:  # the target has the block; it is the condition that does not cross
        return f"its condition cannot be carried into {target}"
    return f"{target} cannot express {what} as a block"


def _own_line(marker: str, text: str, token: Token) -> str:
    """The marker with line breaks around it, where the text has none."""
    before = "" if token.start == 0 or text[token.start - 1] == "\n" else "\n"
    after = "" if text[token.end : token.end + 1] in ("\n", "") else "\n"
    return before + marker + after


def _removed(verdict: dict) -> bool:
    """The token was taken out of the text (or its block flattened): what held it now says less."""
    return verdict["verdict"] == "flatten" or verdict["verdict"] == "absent" and not verdict.get("kept")


def _printed(entry: Entry, body: str) -> str:
    """The text a literal block's body becomes in its own engine: trimmed, `{{` backslashed where it says so."""
    body = js_trim(body)  # blockEndMatcher's p1.trim()
    if entry.literal == "backslashed":
        body = body.replace("{{", "\\{\\{").replace("}}", "\\}\\}")
    return body


def _brace_free(text: str) -> str:
    return text.replace("{", "").replace("}", "")


def _noted(verdict: dict, note: str) -> dict:
    return {**verdict, "note": "; ".join(n for n in (verdict.get("note"), note) if n)}


_UNSEEN = object()  # a memo's miss, where None is an answer
_NOT_SPACE = re.compile(r"\S")  # str.strip's white space: found in a range without copying it
_ELSE_NAMES = ("else", ":else", "#else")  # the else markers' names, in any case


@dataclass(frozen=True)
class _Layout:
    """What `write` asks of the token list again and again, found in one walk: scanning each
    block's body for them was quadratic in the nesting (3,000 nested Agnai elses took 5 s)."""

    inside: dict[int, list[int]]  # opener index -> the indices of the tokens directly in its body
    strays: list[int]  # strays[j]: how many closers pairing with nothing stand before token j

    @classmethod
    def of(cls, tokens: list[Token]) -> _Layout:
        inside: dict[int, list[int]] = {}
        strays, count = [], 0
        for j, token in enumerate(tokens):
            strays.append(count)
            count += token.closing and token.partner is None
            if token.parent is not None:
                inside.setdefault(token.parent, []).append(j)
        strays.append(count)
        return cls(inside, strays)


def _kept_around(tokens: list[Token], i: int, kept: dict[int, str], known: dict[int, frozenset[str]]) -> frozenset[str]:
    """The ops of the blocks around token `i` that the target writes too.

    `known`: each opener's answer for the tokens inside it (its own op among them), found once:
    walking every token's ancestors was quadratic in the nesting. Tokens are judged in order,
    so an opener's place in `kept` is settled before any token inside it asks."""
    path, parent = [], tokens[i].parent
    while parent is not None and parent not in known:
        path.append(parent)
        parent = tokens[parent].parent
    found = known[parent] if parent is not None else frozenset()
    for opener in reversed(path):
        if opener in kept:
            found = found | {kept[opener]}
        known[opener] = found
    return found


def _verdict(kind: str, token: Token, op: str | None, **extra) -> dict:
    verdict = {"verdict": kind, "token": token.raw, "at": token.start, "op": op}
    verdict.update({k: v for k, v in extra.items() if v not in (None, "", [])})
    return verdict


def _apply(
    text: str,
    tokens: list[Token],
    edits: dict[int, str],
    cuts: list[tuple[int, int]],
    moves: dict[int, tuple[str, int, int, str]] | None = None,
) -> str:
    """`text` with each token's edit, each cut removed, and each moved range written, as the text
    around it is, in place of the closer it was moved to (a range may hold other moves)."""
    if not edits and not cuts and not moves:
        return text
    pieces = [(tokens[i].start, tokens[i].end, rep) for i, rep in edits.items()] + [(a, b, "") for a, b in cuts]
    moved = {(tokens[i].start, tokens[i].end): move for i, move in (moves or {}).items()}
    pieces += [(start, end, "") for start, end in moved]  # a closer's span: no cut is one token's
    pieces.sort()
    return _laid(text, pieces, moved)


def _laid(
    text: str, pieces: list[tuple[int, int, str]], moved: dict[tuple[int, int], tuple[str, int, int, str]]
) -> str:
    """`text` with `pieces` (start, end, replacement; sorted) laid over it, a piece inside one laid
    before it left out (a removed branch), and each moved range (`moved`, by the span of the closer it
    goes to: text before, the range, text after) written there as its own text is.

    One pass, every piece met once in each range it is written in, and each removed range
    stepped over by bisection: writing each moved range's text anew for the range around it was
    quadratic in the nesting of else blocks moved inside else blocks."""
    starts = [piece[0] for piece in pieces]
    out: list[str] = []
    frames = [(0, 0, len(text), "")]  # the ranges being written: next piece, position, end, text after
    while frames:
        index, pos, hi, after = frames.pop()
        while index < len(pieces) and starts[index] <= hi:
            start, end, rep = pieces[index]
            if end > hi:  # reaches past the range (the closer of the else block it is): not of it
                index += 1
            elif start < pos:  # inside a piece laid before (a removed branch): step past them all
                index = bisect_left(starts, pos, index)
            elif (start, end) in moved and not rep:
                before, lo, moved_hi, moved_after = moved[start, end]
                out += (text[pos:start], before)
                frames.append((index + 1, end, hi, after))  # this range goes on after the moved one
                frames.append((bisect_left(starts, lo), lo, moved_hi, moved_after))
                break
            else:
                out += (text[pos:start], rep)
                pos, index = end, index + 1
        else:
            out += (text[pos:hi], after)
    return "".join(out)
