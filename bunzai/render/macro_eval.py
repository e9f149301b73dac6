"""Evaluating SillyTavern macros the way its Macros 2.0 engine does (or its legacy engine, by the
`sillytavern-legacy` catalog), built on the catalog.

A token is read with the catalog's syntax (bunzai.macros.syntax), resolved to its entry and
canonical op (bunzai.macros.equivalence.resolve), and the op is evaluated here against a
`MacroContext`: names, card and persona fields, the chat, variables, a seed and a fixed
clock. Nothing is left to chance: `{{random}}`, `{{pick}}` and `{{roll}}` draw from a
generator seeded by (seed, where, offset), and time macros read the context's clock.

Every token that is not evaluated is reported with where it sits (`where`, offset, line,
column) and, for an unknown name, the closest names in the catalog (`did_you_mean`).
A token bunzai knows but cannot evaluate headless (an extension's value, an image prefix)
is reported as `unevaluated` and left as written.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import random
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.jstext import js_trim
from bunzai.macros.catalog import Catalog, catalog_for
from bunzai.macros.equivalence import canonical_args, resolve, utc_offset_minutes
from bunzai.macros.syntax import Token, tokenize
from bunzai.render.examples import example_blocks

FIXED_CLOCK = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
_FALSY = {"", "false", "off", "0", "no"}
_DICE = re.compile(r"^\s*(\d*)\s*(?:d\s*(\d+))?\s*([+-]\s*\d+)?\s*$", re.I)
_NUMBER = re.compile(r"^\s*-?\d+(?:\.\d+)?\s*$")
_INTEGER = re.compile(r"-?[0-9]+")
ORIGINAL_TOKEN = re.compile(r"\{\{\s*original\s*\}\}", re.IGNORECASE)  # {{original}} as written
_BARE_NAME = re.compile(r"\{\{([A-Za-z0-9_]+)\}\}")  # Marinara's catch-all for a preset variable (JS \w)
# the MacroContext field each card-field op reads
_FIELD_OF_OP = {
    "card.description": "description",
    "card.personality": "personality",
    "card.scenario": "scenario",
    "persona.description": "persona",
    "card.examples": "examples",
    "card.examples_raw": "examples",
    "card.system_prompt": "system_prompt",
    "prompt.system": "system_prompt",
    "card.post_history": "post_history",
    "card.depth_prompt": "depth_prompt",
    "card.creator_notes": "creator_notes",
}

# The legacy engine's card-field macros: its environment holds them only with replaceCharacterCard
# (substituteParamsLegacy), so inside a field, filled without, it leaves them as written
LEGACY = "sillytavern-legacy"
SYSPROMPT_CONTENT = "sysprompt:/body/templates/sequences/content"  # where the system prompt template's text is
_LEGACY_CARD_OPS = frozenset(_FIELD_OF_OP) - {"prompt.system"} | {"card.version"}


@dataclass
class MacroContext:
    """What the macros read: names, card fields, the chat, variables, a seed and a clock."""

    user: str = "User"
    char: str = ""
    description: str = ""
    personality: str = ""
    scenario: str = ""
    persona: str = ""
    examples: str = ""
    system_prompt: str = ""
    post_history: str = ""
    depth_prompt: str = ""
    creator_notes: str = ""
    version: str = ""
    first_message: str = ""
    greetings: list[str] = field(default_factory=list)
    authors_note: str = ""
    model: str = ""
    max_context: int = 0
    max_response: int = 0
    example_separator: str = ""
    text_completion: bool = False  # {{mesExamples}} heads its blocks with `<START>` in chat completion
    chat_start: str = ""
    chat: list[dict] = field(default_factory=list)  # {role, name, content}
    variables: dict[str, str] = field(default_factory=dict)
    global_variables: dict[str, str] = field(default_factory=dict)
    outlets: dict[str, str] = field(default_factory=dict)
    seed: int = 0
    clock: datetime = FIXED_CLOCK
    # {{original}}: the text a character's override replaces (None: no override), and where the
    # override stands in the text evaluated ((start, end) offsets; None: all of it). SillyTavern
    # gives it in the override only, once per substitution: each span's first {{original}} gets
    # the text, a later one ''; outside them it is left as written.
    original: str | None = None
    original_spans: list[tuple[int, int]] | None = None
    original_used: set[int] = field(default_factory=set)  # the spans whose {{original}} has been given
    # a card field's own macro problems (bunzai.render.card_fields), reported where the field is read
    field_problems: dict[str, list[dict]] = field(default_factory=dict)
    # a Marinara preset's variables, filled (bunzai.render.preset_variables): what a bare {{name}}
    # no macro resolves gives
    preset_variables: dict[str, str] = field(default_factory=dict)
    # False while a card field is filled (SillyTavern's replaceCharacterCard: false): no card to read
    card_fields: bool = True
    # SillyTavern's system prompt switch (power_user.sysprompt.enabled): off, {{systemPrompt}} gives ''
    sysprompt_on: bool = True
    # the active system prompt template's text as written (power_user.sysprompt.content): what
    # {{defaultSystemPrompt}} gives, and {{systemPrompt}} when the card has no system prompt
    sysprompt_text: str = ""
    # the instruct template's sequences when instruct mode is on (power_user.instruct), else None:
    # what {{instructInput}} and the other instruct macros give
    instruct: dict | None = None
    # each card field trimmed as written, and where: a macro reading a field fills it again from
    # this, once per evaluation (SillyTavern's lazy fields, once per substitution), its variable
    # macros running again (bunzai.render.card_fields fills them first, as Generate does)
    raw_fields: dict[str, tuple[str, str]] = field(default_factory=dict)
    # each field's variables as they were just before it was filled (bunzai.render.card_fields.fill_time_context)
    fill_variables: dict[str, tuple[dict, dict]] = field(default_factory=dict)


@dataclass
class Evaluated:
    text: str
    problems: list[dict]
    # problems of the card fields the text read, already placed in those fields
    field_problems: list[dict] = field(default_factory=list)


class MacroEvaluator:
    """Evaluates macro text for one engine (its catalog) against one context."""

    def __init__(self, context: MacroContext, engine: str = "sillytavern") -> None:
        cat = catalog_for(engine)
        if cat is None:
            raise BunzaiError(
                "invalid_input", f"bunzai has no macro catalog for {engine!r}", "engines: see `bunzai macro-lookup`"
            )
        self.cat: Catalog = cat
        self.ctx = context
        self.engine = engine
        # Where {{trim}} cuts, until the text is done: a mark no input can hold (a fixed one,
        # written into a card, trimmed the card's own text away).
        self.trim_mark = f"\x00bunzai-trim-{os.urandom(8).hex()}\x00"
        self.field_problems: list[dict] = []
        self.inside_field = False  # filling the card-field macros a field the legacy engine inserted holds
        # filling a text the legacy engine's instruct macro of this rank inserted (_LEGACY_INSTRUCT_ORDER)
        self.inserted_by: int | None = None
        self.refilled: dict[str, str] = {}  # the fields this evaluation read, filled again

    # --- public -------------------------------------------------------------------------
    def evaluate(self, text: str, where: str, *, markers: bool = True) -> Evaluated:
        """`text` evaluated; `markers` False: SillyTavern's angle markers left as written (a text the
        legacy engine inserts after it replaced them)."""
        problems: list[dict] = []
        self.field_problems = []
        self.refilled = {}  # each evaluation is one substitution: a field read is filled again once in it
        source, text, moved = text, *_markers_as_macros(text, self.engine if markers else "")
        out = self._run(text, where, 0, text, problems, 0)
        out = _trim_markers(out, self.trim_mark)
        if moved:  # each problem where it stands in the text as written
            problems = [
                self._problem_at(problem, _before_markers(problem["offset"], moved), source) for problem in problems
            ]
        return Evaluated(out, problems, self.field_problems)

    def _problem_at(self, problem: dict, offset: int, whole: str) -> dict:
        placed = self._problem(problem["kind"], problem["token"], problem["where"], offset, whole, problem["message"])
        return problem | {key: placed[key] for key in ("offset", "line", "column")}

    def _card_fields_in(self, value: str) -> str:
        """A field the legacy engine inserts, with the card-field macros it was filled without
        filled now: the engine's later replacements run over the inserted text, and a prompt is
        substituted again as it is placed (preparePrompt). One level: what they insert stays.
        Its other macros ran when it was filled; their problems were reported there."""
        inner = MacroEvaluator(self.ctx, self.engine)
        inner.inside_field = True
        return inner._run(value, "field", 0, value, [], 0)

    def _sysprompt(self, token: Token) -> str:
        """The system prompt template's text as {{systemPrompt}} and {{defaultSystemPrompt}} insert it
        (instruct-macros.js)."""
        return self._inserted(self.ctx.sysprompt_text, token, SYSPROMPT_CONTENT)

    def _inserted(self, text: str, token: Token, where: str) -> str:
        """A template's text as one of SillyTavern's instruct macros inserts it (the instruct sequences,
        the system prompt, chat start and example separator): as written in the 2.0 engine, which
        does not evaluate what a macro gives. The legacy engine runs its replacements one after
        another over the whole text (macros.js evaluateMacros): the angle markers, {{roll}}, then
        the instruct macros in getInstructMacros' order, then the rest; so in the inserted text the
        macros after this one are filled, and those before it (and itself) stay as written."""
        if self.engine != LEGACY or "{{" not in text:
            return text
        inner = MacroEvaluator(self.ctx, self.engine)
        inner.inserted_by = _LEGACY_INSTRUCT_ORDER.get(token.name.lower(), len(_LEGACY_INSTRUCT_ORDER))
        filled = inner.evaluate(text, where, markers=False)  # replaced before the instruct macros
        self.field_problems.extend(filled.problems + filled.field_problems)
        return filled.text

    def _ran_before(self, op: str, token: Token) -> bool:
        """Whether, in text a legacy instruct macro inserted, `token`'s replacement has already run:
        {{roll}}, and the instruct macros up to the inserting one (macros.js evaluateMacros' order)."""
        if op == "dice.roll":
            return True
        rank = _LEGACY_INSTRUCT_ORDER.get(token.name.lower())
        return rank is not None and self.inserted_by is not None and rank <= self.inserted_by

    def _field(self, name: str) -> str:
        """The card field `name` as a macro reads it: filled again from its text as written when
        it holds macros (its problems were reported when it was first filled), once per evaluation."""
        c = self.ctx
        text, where = c.raw_fields.get(name, ("", ""))
        if not c.card_fields or "{{" not in text:
            return getattr(c, name)
        if name not in self.refilled:
            bare = replace(c, **dict.fromkeys(c.raw_fields, ""), card_fields=False, raw_fields={})
            self.refilled[name] = MacroEvaluator(bare, self.engine).evaluate(text, where).text
        return self.refilled[name]

    # --- the walk -----------------------------------------------------------------------
    def _run(self, text: str, where: str, base: int, whole: str, problems: list[dict], depth: int) -> str:
        if "{{" not in text:
            return text
        if depth > limits.MACRO_NESTING_MAX:
            problems.append(self._problem("too_deep", text[:40], where, base, whole, "macros nested too deep"))
            return text
        tokens = tokenize(text, self.cat.syntax, self.cat.fold)
        pieces: list[str] = []
        pos = 0
        index = 0
        while index < len(tokens):
            token = tokens[index]
            if token.parent is not None:
                index += 1
                continue
            pieces.append(text[pos : token.start])
            if token.paired:
                closer = tokens[token.partner]
                body_tokens = [i for i in range(index + 1, token.partner) if tokens[i].parent == index]
                pieces.append(self._block(text, tokens, index, body_tokens, where, base, whole, problems, depth))
                pos = closer.end
                index = token.partner + 1
                continue
            pieces.append(self._token(token, where, base, whole, problems, depth))
            pos = token.end
            index += 1
        pieces.append(text[pos:])
        return "".join(pieces)

    def _token(self, token: Token, where: str, base: int, whole: str, problems: list[dict], depth: int) -> str:
        if token.name == "//":
            return ""

        def left(kind: str, message: str) -> str:  # the token stays as written, and why
            problems.append(self._problem(kind, token.raw, where, base + token.start, whole, message))
            return token.raw

        if token.closing:
            return left("unresolved", f"a closing {token.raw} with no opening tag")
        entry = resolve(self.cat, token)
        if entry is None:
            bare = _BARE_NAME.fullmatch(token.raw)
            if bare and bare.group(1) in self.ctx.preset_variables:  # as the variable stands now
                return self.ctx.variables.get(bare.group(1), self.ctx.preset_variables[bare.group(1)])
            problems.append(self._unknown(token, where, base, whole))
            return token.raw
        if self.engine == LEGACY and entry.op in _LEGACY_CARD_OPS:
            if not self.ctx.card_fields:
                return token.raw  # filled by the prompt that sends the field
            if self.inside_field:
                return self._op(entry.op or "", token, [], where, base + token.start) or ""
        args = [self._run(a, where, base + token.start, whole, problems, depth + 1) for a in token.args]
        value = self._op(entry.op or "", token, args, where, base + token.start)
        if value is not None and self.engine == LEGACY and entry.op in _LEGACY_CARD_OPS and "{{" in value:
            value = self._card_fields_in(value)
        if value is not None and entry.op in _FIELD_OF_OP:
            self.field_problems.extend(self.ctx.field_problems.get(_FIELD_OF_OP[entry.op], ()))
        if value is None and entry.op == "prompt.original":
            return left(
                "unresolved",
                f"{token.raw} has a value only in a character's override (its system prompt standing in for "
                "the main prompt, its post-history instructions for the preset's); SillyTavern leaves it "
                "as written here",
            )
        if value is None:
            return left("unevaluated", f"bunzai does not evaluate {entry.op or entry.name} headless; left as written")
        return value

    def _block(
        self,
        text: str,
        tokens: list[Token],
        index: int,
        children: list[int],
        where: str,
        base: int,
        whole: str,
        problems: list[dict],
        depth: int,
    ) -> str:
        opener = tokens[index]
        closer = tokens[opener.partner]
        entry = resolve(self.cat, opener)
        if entry is None:
            problems.append(self._unknown(opener, where, base, whole))
            return text[opener.start : closer.end]
        keep_space = "#" in opener.flags
        op = entry.op or ""
        if op == "cond.if":
            elses = [i for i in children if tokens[i].name.lower() == "else" and not tokens[i].closing]
            cut = tokens[elses[0]] if elses else None
            then_part = text[opener.end : cut.start] if cut else text[opener.end : closer.start]
            else_part = text[cut.end : closer.start] if cut else ""
            truthy = self._condition(
                opener.args[0] if opener.args else "", where, base + opener.start, whole, problems, depth
            )
            chosen, offset = (then_part, opener.end) if truthy else (else_part, cut.end if cut else closer.start)
            out = self._run(chosen, where, base + offset, whole, problems, depth + 1)
            return out if keep_space else _dedent_trim(out)
        body = self._run(text[opener.end : closer.start], where, base + opener.end, whole, problems, depth + 1)
        if not keep_space:
            body = _dedent_trim(body)
        if op == "comment":
            return ""
        args = [self._run(a, where, base + opener.start, whole, problems, depth + 1) for a in opener.args] + [body]
        value = self._op(op, opener, args, where, base + opener.start)
        if value is None:
            problems.append(
                self._problem(
                    "unevaluated",
                    opener.raw,
                    where,
                    base + opener.start,
                    whole,
                    f"bunzai does not evaluate the block {opener.raw} headless",
                )
            )
            return text[opener.start : closer.end]
        return value

    def _condition(self, raw: str, where: str, base: int, whole: str, problems: list[dict], depth: int) -> bool:
        raw = raw.strip()
        negate = raw.startswith("!")
        if negate:
            raw = raw[1:].strip()
        if raw and "{{" not in raw and re.fullmatch(r"[A-Za-z_][\w.-]*", raw):
            probe = tokenize("{{" + raw + "}}", self.cat.syntax, self.cat.fold)[0]
            entry = resolve(self.cat, probe)
            value = self._op(entry.op or "", probe, [], where, base) if entry is not None else None
            value = raw if value is None else value
        else:
            value = self._run(raw, where, base, whole, problems, depth + 1)
        truthy = value.strip().lower() not in _FALSY
        return truthy != negate

    # --- the ops ------------------------------------------------------------------------
    def _rng(self, where: str, offset: int) -> random.Random:
        digest = hashlib.sha256(f"{self.ctx.seed}\x00{where}\x00{offset}".encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def _op(self, op: str, token: Token, args: list[str], where: str, offset: int) -> str | None:
        c = self.ctx
        if self.inserted_by is not None and self._ran_before(op, token):
            return token.raw
        if op in _FIELD_OF_OP:
            text = self._field(_FIELD_OF_OP[op])
            if op == "card.examples":
                return _examples(text, c.example_separator if c.text_completion else None)
            if op == "prompt.system":  # the card's prompt first (prefer_character_prompt, on by default)
                return "" if not c.sysprompt_on else text or self._sysprompt(token)
            return text
        if op == "instruct.sequence":
            return self._inserted(
                _instruct_sequence(c.instruct, token.name), token, "instruct:/body/templates/sequences"
            )
        if op in ("prompt.chat_start", "prompt.example_separator"):  # the context template's, inserted as the above
            text = c.chat_start if op == "prompt.chat_start" else c.example_separator
            return self._inserted(text, token, "context:/body/templates/sequences")
        if op == "prompt.system_default":
            return self._sysprompt(token) if c.sysprompt_on else ""
        simple = {
            "user.name": c.user,
            "char.name": c.char,
            "group.members": c.char,
            "group.members_unmuted": c.char,
            "group.others": "",
            "card.version": c.version,
            "prompt.authors_note": c.authors_note,
            "prompt.summary": "",
            "prompt.reasoning_prefix": "",
            "prompt.reasoning_suffix": "",
            "prompt.reasoning_separator": "",
            "text.noop": "",
            "gen.banned_word": "",
            "comment": "",
            "sys.model": c.model,
            "sys.max_prompt": str(max(c.max_context - c.max_response, 0)),
            "sys.max_context": str(c.max_context),
            "sys.max_response": str(c.max_response),
            "sys.is_mobile": "false",
            "sys.has_extension": "false",
            "chat.input_draft": "",
            "chat.last_generation_type": "normal",
            "time.idle": "just now",
        }
        if op in simple:
            return simple[op]
        if op in ("text.space", "text.newline"):
            count = _integer(args[0]) if args else 1
            if count is None or count < 0:  # SillyTavern refuses the argument (or repeat() throws)
                return token.raw
            return (" " if op == "text.space" else "\n") * min(count, limits.RENDER_REPEAT_MAX)
        if op == "text.trim_around":
            return self.trim_mark
        if op == "text.trim":
            return args[-1].strip() if args else ""
        if op == "text.reverse":
            return args[0][::-1] if args else ""
        if op == "cond.if":
            if len(args) >= 2:
                truthy = args[0].strip().lower() not in _FALSY
                return args[1] if truthy else ""
            return None
        if op == "card.first_message":
            n = _integer(args[0]) if args else 0
            if n is None:
                return token.raw
            return self._field("first_message") if n == 0 else c.greetings[n - 1] if 0 < n <= len(c.greetings) else ""
        if op == "prompt.original":
            span = self._override_at(offset)
            if span is None:
                return None  # no override here: left as written (_token says why)
            if span in c.original_used:
                return ""
            c.original_used.add(span)
            return c.original
        if op == "wi.outlet":
            return c.outlets.get(args[0].strip(), "") if args else ""
        if op.startswith("chat."):
            return self._chat(op)
        if op in ("random.pick", "random.pick_stable"):
            items = _items(args, token)
            if not items:
                return ""
            return self._rng(where if op == "random.pick" else "pick", offset).choice(items)
        if op == "random.percent":
            return str(self._rng(where, offset).randint(0, 100))
        if op == "dice.roll":
            return _roll(args[0] if args else "", self._rng(where, offset))
        if op in ("time.now", "date.now", "weekday.now", "time.format", "time.diff"):
            return self._time(op, token, args)
        if op.startswith("var.") or op.startswith("gvar."):
            return self._var(op, token, args)
        return None

    def _override_at(self, offset: int) -> int | None:
        """Which of the context's override spans holds `offset` (-1: the override is the whole
        text), or None where no override stands."""
        c = self.ctx
        if c.original is None:
            return None
        if c.original_spans is None:
            return -1
        return next((n for n, (start, end) in enumerate(c.original_spans) if start <= offset < end), None)

    def _chat(self, op: str) -> str | None:
        chat = self.ctx.chat
        last = len(chat) - 1

        def last_of(role: str) -> str:
            for message in reversed(chat):
                if message.get("role") == role:
                    return message.get("content", "")
            return ""

        values = {
            "chat.last_message": chat[-1].get("content", "") if chat else "",
            "chat.last_message_id": str(last) if chat else "",
            "chat.last_user_message": last_of("user"),
            "chat.last_char_message": last_of("assistant"),
            "chat.first_included_id": "0" if chat else "",
            "chat.first_displayed_id": "0" if chat else "",
            "chat.last_swipe_id": "1" if chat else "",
            "chat.current_swipe_id": "1" if chat else "",
            "chat.id_range": f"0-{last}" if chat else "",
        }
        return values.get(op)

    def _time(self, op: str, token: Token, args: list[str]) -> str | None:
        now = self.ctx.clock
        entry = resolve(self.cat, token) if op == "time.now" and args else None
        if entry is not None and entry.utc_offset:
            # the catalog's reading: UTC±N as moment.js reads N; anything else is no offset (local time)
            offset = canonical_args(self.cat, entry, args)
            if offset:
                now = now.astimezone(UTC) + timedelta(minutes=utc_offset_minutes(offset[0]))
        name = token.name.lower()
        if op == "time.now":
            return now.strftime("%H:%M") if name == "isotime" else _moment(now, "LT")
        if op == "date.now":
            return now.strftime("%Y-%m-%d") if name == "isodate" else _moment(now, "LL")
        if op == "weekday.now":
            return now.strftime("%A")
        if op == "time.format":
            return _moment(now, args[0] if args else "")
        return None

    def _var(self, op: str, token: Token, args: list[str]) -> str | None:
        store = self.ctx.global_variables if op.startswith("gvar.") else self.ctx.variables
        what = op.split(".", 1)[1]
        name = args[0].strip() if args else ""
        value = args[1] if len(args) > 1 else ""
        current = store.get(name, "")
        if what == "get":
            return current
        if what == "set":
            store[name] = value
            return ""
        if what in ("add", "sub"):
            if _NUMBER.match(current or "0") and _NUMBER.match(value):
                number = float(current or 0) + (float(value) if what == "add" else -float(value))
                store[name] = _num(number)
            else:
                store[name] = current + value
            return ""
        if what in ("inc", "dec"):
            number = float(current) if _NUMBER.match(current or "") else 0.0
            store[name] = _num(number + (1 if what == "inc" else -1))
            return store[name]
        if what == "has":
            return "true" if name in store else "false"
        if what == "del":
            store.pop(name, None)
            return ""
        lazy = (token.shorthand or "").endswith(("||", "||="))
        missing = (not current) if lazy else name not in store
        if what == "get_or":
            return value if missing else current
        if what == "set_default":
            if missing:
                store[name] = value
            return store[name]
        if what == "compare":
            operator = (token.shorthand or "")[1:]
            return "true" if _compare(current, value, operator) else "false"
        return None

    # --- problems -----------------------------------------------------------------------
    def _unknown(self, token: Token, where: str, base: int, whole: str) -> dict:
        names = sorted({s for e in self.cat.entries for s in e.spellings if s[:1].isalpha()})
        close = difflib.get_close_matches(token.name, names, n=3, cutoff=0.6)
        if not close:
            lowered = {n.lower(): n for n in names}
            close = [lowered[m] for m in difflib.get_close_matches(token.name.lower(), list(lowered), n=3, cutoff=0.6)]
        problem = self._problem(
            "unknown",
            token.raw,
            where,
            base + token.start,
            whole,
            f"{token.raw} is not a {self.cat.title} macro (or not with these arguments)",
        )
        if close:
            problem["did_you_mean"] = ["{{" + name + "}}" for name in close]
            problem["message"] += f"; did you mean {{{{{close[0]}}}}}?"
        return problem

    def _problem(self, kind: str, raw: str, where: str, offset: int, whole: str, message: str) -> dict:
        line = whole.count("\n", 0, offset) + 1
        column = offset - (whole.rfind("\n", 0, offset) + 1) + 1
        return {
            "kind": kind,
            "token": raw,
            "where": where,
            "offset": offset,
            "line": line,
            "column": column,
            "message": message,
        }


# SillyTavern's instruct macros, one row per macro: its names (the 2.0 engine's and the legacy
# one's aliases), and the sequences it gives (the first that is set: the first and last input and
# output ones fall back to the plain one). The rows are in the order the legacy engine replaces
# them (instruct-mode.js getInstructMacros; the last four give no sequence); the 2.0 engine's are
# instruct-macros.js registerSimple.
_INSTRUCT_MACROS = (
    ("instructStoryStringPrefix", ("story_string_prefix",)),
    ("instructStoryStringSuffix", ("story_string_suffix",)),
    ("instructInput instructUserPrefix", ("input_sequence",)),
    ("instructUserSuffix", ("input_suffix",)),
    ("instructOutput instructAssistantPrefix", ("output_sequence",)),
    ("instructSeparator instructAssistantSuffix", ("output_suffix",)),
    ("instructSystemPrefix", ("system_sequence",)),
    ("instructSystemSuffix", ("system_suffix",)),
    (
        "instructFirstOutput instructFirstAssistantPrefix instructFirstOutputPrefix",
        ("first_output_sequence", "output_sequence"),
    ),
    (
        "instructLastOutput instructLastAssistantPrefix instructLastOutputPrefix",
        ("last_output_sequence", "output_sequence"),
    ),
    ("instructStop", ("stop_sequence",)),
    ("instructUserFiller", ("user_alignment_message",)),
    ("instructSystemInstructionPrefix", ("last_system_sequence",)),
    ("instructFirstInput instructFirstUserPrefix", ("first_input_sequence", "input_sequence")),
    ("instructLastInput instructLastUserPrefix", ("last_input_sequence", "input_sequence")),
    ("systemPrompt", ()),
    ("defaultSystemPrompt instructSystem instructSystemPrompt", ()),
    ("chatSeparator", ()),
    ("chatStart", ()),
)
# by lowercased name: the sequences it gives, and its rank in the legacy engine's order
_INSTRUCT_SEQUENCES = {name: keys for names, keys in _INSTRUCT_MACROS for name in names.lower().split()}
_LEGACY_INSTRUCT_ORDER = {
    name: rank for rank, (names, _keys) in enumerate(_INSTRUCT_MACROS) for name in names.lower().split()
}


def _instruct_sequence(sequences: dict | None, name: str) -> str:
    """What an instruct macro gives: its sequence (or the one it falls back to when empty) with
    instruct mode on, '' with it off."""
    if sequences is None:
        return ""
    for key in _INSTRUCT_SEQUENCES.get(name.lower(), ()):
        value = sequences.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


# SillyTavern's markers of the Tavern days, in angle brackets: both engines fill them before any
# macro (MacroEngine.js's core:legacy-markers pre-processor rewrites them into these macros;
# macros.js evaluateMacros replaces them first), in a card field or a prompt alike
_ANGLE_MARKERS = re.compile(r"<(USER|BOT|CHAR|GROUP|CHARIFNOTGROUP)>", re.IGNORECASE)
_MARKER_MACROS = {"user": "{{user}}", "bot": "{{char}}", "char": "{{char}}", "group": "{{group}}"}
_MARKER_MACROS["charifnotgroup"] = "{{charIfNotGroup}}"


def has_macros(text: str, engine: str) -> bool:
    """Whether evaluating `text` can change it: a `{{`, or for SillyTavern an angle marker."""
    return "{{" in text or engine in ("sillytavern", LEGACY) and "<" in text and _ANGLE_MARKERS.search(text) is not None


def _markers_as_macros(text: str, engine: str) -> tuple[str, list[tuple[int, int, int]]]:
    """`text` with SillyTavern's angle markers (`<USER>`, `<BOT>` ...) as the macros they stand
    for, and where each was: (start in the new text, its length there, length as written)."""
    if engine not in ("sillytavern", LEGACY) or "<" not in text or not _ANGLE_MARKERS.search(text):
        return text, []
    pieces, moved, shift, pos = [], [], 0, 0
    for match in _ANGLE_MARKERS.finditer(text):
        macro = _MARKER_MACROS[match.group(1).lower()]
        pieces += [text[pos : match.start()], macro]
        moved.append((match.start() + shift, len(macro), match.end() - match.start()))
        shift += len(macro) - (match.end() - match.start())
        pos = match.end()
    pieces.append(text[pos:])
    return "".join(pieces), moved


def _before_markers(offset: int, moved: list[tuple[int, int, int]]) -> int:
    """An offset into the text with its markers rewritten, as an offset into the text as written."""
    shift = 0
    for start, now, was in moved:
        if offset < start:
            break
        if offset < start + now:  # inside a rewritten marker: the marker's own start
            return start - shift
        shift += now - was
    return offset - shift


def _trim_markers(text: str, mark: str) -> str:
    """`text` with each {{trim}} cut, with the line breaks around it and nothing else, as both of
    SillyTavern's engines cut it (`/(?:\r?\n)*{{trim}}(?:\r?\n)*/gi`: macros.js, and MacroEngine.js's
    core:legacy-trim post-processor): spaces and tabs beside it stay."""
    if mark not in text:
        return text
    return re.sub(r"(?:\r?\n)*" + re.escape(mark) + r"(?:\r?\n)*", "", text)


def _dedent_trim(text: str) -> str:
    import textwrap

    return textwrap.dedent(text).strip()


def _integer(arg: str) -> int | None:
    """An integer argument as SillyTavern's macro engine checks it (`/^-?\\d+$/` on the trimmed
    text: ASCII digits only, so not '²' or Arabic-Indic '٣'), or None: the macro stays as written.
    Past JavaScript's exact integers (a roll's digit bound) is None too, never reaching int()."""
    text = js_trim(arg)
    if not _INTEGER.fullmatch(text) or len(text) > limits.RENDER_ROLL_MAX_DIGITS:
        return None
    return int(text)


def _items(args: list[str], token: Token) -> list[str]:
    if len(args) == 1:
        parts = re.split(r"(?<!\\),", args[0])
        return [p.strip().replace("\\,", ",") for p in parts]
    return [a.strip() for a in args]


def _roll(formula: str, rng: random.Random) -> str:
    match = _DICE.match(formula)
    if not match or not (match.group(1) or match.group(2)):
        return ""
    if any(len(group.lstrip("+- 0")) > limits.RENDER_ROLL_MAX_DIGITS for group in match.groups() if group):
        return ""  # before int(), which refuses past 4,300 digits
    if match.group(2) is None:  # a bare N is 1dN
        count, sides = 1, int(match.group(1))
    else:
        count, sides = int(match.group(1) or 1), int(match.group(2))
    if sides <= 0 or count > limits.RENDER_DICE_MAX:
        return ""
    bonus = int(match.group(3).replace(" ", "")) if match.group(3) else 0
    return str(sum(rng.randint(1, sides) for _ in range(count)) + bonus)


def _examples(raw: str, separator: str | None) -> str:
    """`{{mesExamples}}`: each block (parseMesExamples) after its heading, `<START>` in chat completion
    (`separator` None), else the context's separator, and ending in a newline."""
    heading = "<START>\n" if separator is None else f"{separator}\n" if separator else ""
    return "".join(f"{heading}{block}\n" for block, _ in example_blocks(raw))


def _num(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def _compare(left: str, right: str, operator: str) -> bool:
    if _NUMBER.match(left or "") and _NUMBER.match(right or ""):
        a, b = float(left), float(right)
    else:
        a, b = left, right  # type: ignore[assignment]
    return {"==": a == b, "!=": a != b, ">": a > b, ">=": a >= b, "<": a < b, "<=": a <= b}.get(operator, False)


_MOMENT = [
    ("dddd", "%A"),
    ("ddd", "%a"),
    ("MMMM", "%B"),
    ("MMM", "%b"),
    ("YYYY", "%Y"),
    ("YY", "%y"),
    ("MM", "%m"),
    ("DD", "%d"),
    ("HH", "%H"),
    ("hh", "%I"),
    ("mm", "%M"),
    ("ss", "%S"),
    ("A", "%p"),
]


def _moment(now: datetime, pattern: str) -> str:
    """The moment.js formats the macros use (LT, LL and the common tokens), in English."""
    if pattern == "LT":
        return now.strftime("%I:%M %p").lstrip("0")
    if pattern == "LL":
        return f"{now.strftime('%B')} {now.day}, {now.year}"
    out, i = [], 0
    while i < len(pattern):
        for token, code in _MOMENT:
            if pattern.startswith(token, i):
                out.append(now.strftime(code))
                i += len(token)
                break
        else:
            if pattern[i] == "D":
                out.append(str(now.day))
            elif pattern[i] == "H":
                out.append(str(now.hour))
            elif pattern[i] == "M":
                out.append(str(now.month))
            else:
                out.append(pattern[i])
            i += 1
    return "".join(out)


def unresolved_only(problems: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [p for p in problems if p["kind"] in ("unknown", "unresolved")]
