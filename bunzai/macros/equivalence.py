"""The join on meaning: which entry a token is in its engine, and how another engine says the same.

Nothing here names an engine. A token is resolved in its own catalog (by folded name,
argument count, separator and shape), its op is looked up in the target catalog, and each
candidate spelling is checked by reading it back with the target's own syntax: a spelling is
only offered if the target would understand it as the same op. Adding an engine is adding a
catalog file; every direction then follows.
"""

from __future__ import annotations

import re

from bunzai.jstext import js_trim
from bunzai.limits import MACRO_CANDIDATES_MAX
from bunzai.macros import ops
from bunzai.macros.catalog import Catalog, Entry, all_catalogs
from bunzai.macros.syntax import SHORTHAND_OPERATORS, Token, parse_token, parsed, split_top

_KEPT_COMMA = "\\,"  # a comma inside a list item, as SillyTavern and RisuAI write one


def resolve(
    cat: Catalog,
    token: Token,
    *,
    paired: bool | None = None,
    within: frozenset[str] = frozenset(),
    bare: bool = True,
) -> Entry | None:
    """The catalog entry this engine would run for `token`, or None if it has no such macro.

    `within`: the ops of the blocks the token sits in; a form read only inside a block (`inside`)
    is tried first there (Agnai's grammar tries a loop's fields before any placeholder) and
    never elsewhere. A `bare` form still goes first: a regular expression run over the text
    before the grammar reads it (Agnai's BOT_REPLACE takes `{{name}}` in a card's scenario);
    `bare=False` for a word inside another token (a condition's), which that expression never sees."""
    if token.closing:
        return None
    entries = cat.by_key.get(cat.fold(token.name))
    if not entries:
        return None
    if within:
        entries = sorted(entries, key=lambda e: (not e.bare, e.inside is None))
    paired = token.paired if paired is None else paired
    fallback = None
    for entry in entries:
        if entry.inside is not None and within.isdisjoint(entry.inside):
            continue
        if entry.exact_case and token.name not in entry.spellings:
            continue
        if entry.bare and (not bare or cat.fold(token.raw[2:-2]) not in {cat.fold(s) for s in entry.spellings}):
            continue
        args = token.args
        if entry.first_arg is not None:
            if not args or args[0].strip().lower() not in (entry.first_arg, *entry.first_arg_aliases):
                continue
            args = args[1:]
        if not entry.accepts_count(len(args)):
            continue
        if args and token.shorthand is None and token.name != "//" and token.sep not in cat.seps(entry):
            continue
        if entry.when == "numeric" and not token.all_numeric():
            continue
        if entry.when == "text" and token.all_numeric():
            continue
        if not entry.takes_args(args):
            continue
        is_block = entry.block in ("block", "optional")
        if paired and is_block or not paired and entry.block != "block":
            return entry if admitted(cat, token, entry, within) else None
        fallback = fallback or entry
    # A block written around a macro that has no scoped form: the opener still means this.
    return fallback if paired and admitted(cat, token, fallback, within) else None


def admitting(cat: Catalog, within: frozenset[str]) -> list[Entry]:
    """The blocks around a token (by their ops) that read only some macros in their body (`admits`)."""
    return [e for op in within for e in cat.by_op.get(op, ()) if e.admits is not None]


def admitted(cat: Catalog, token: Token, entry: Entry | None, within: frozenset[str]) -> bool:
    """Whether each block around the token that reads only some macros in its body reads this one:
    an op it admits (no pipe after it: Agnai's loop placeholder takes none), a form read inside
    it, or a condition on such a form (Agnai's `{{#if .isuser}}` in `{{#each msg}}`)."""
    if entry is None:
        return True
    for block in admitting(cat, within):
        if entry.inside is not None and block.op in entry.inside:
            continue
        if entry.op in block.admits and not token.pipes:
            continue
        if (
            entry.op == "cond.if"
            and block.field_conditions
            and len(token.args) == 1
            and field_of(cat, token.args[0], block, within)
        ):
            continue
        return False
    return True


def field_of(cat: Catalog, text: str, block: Entry, within: frozenset[str]) -> bool:
    """Whether `text`, as a token's inside, is a form read only inside `block`."""
    token = parse_token("{{" + text.strip(" ") + "}}", 0, cat.syntax)
    found = resolve(cat, token, paired=False, within=within, bare=False)
    return found is not None and found.inside is not None and block.op in found.inside


def is_shorthand(cat: Catalog, entry: Entry) -> bool:
    return (
        bool(cat.syntax.shorthand)
        and entry.name[:1] in cat.syntax.shorthand
        and (entry.name[1:] == "" or entry.name[1:] in SHORTHAND_OPERATORS)
    )


def spell(cat: Catalog, entry: Entry, args: list[str], *, flags: str = "", name: str | None = None) -> str | None:
    """The token `entry` written with `args` in this engine's punctuation; None if it cannot be."""
    flags = "".join(f for f in flags if f in cat.syntax.flags)
    if is_shorthand(cat, entry):
        prefix, operator = entry.name[0], entry.name[1:]
        if not args:
            return None
        if operator in ("", "++", "--"):
            return "{{" + flags + prefix + args[0] + operator + "}}" if len(args) == 1 else None
        if len(args) != 2:
            return None
        return "{{" + flags + f"{prefix}{args[0]} {operator} {args[1]}" + "}}"
    if entry.first_arg is not None:
        args = [entry.first_arg, *args]
    name = name or entry.name
    if entry.name == "//":
        return "{{// " + args[0] + "}}" if args else "{{//}}"
    if not args:
        return "{{" + flags + name + "}}"
    for sep in cat.seps(entry):
        if any(form.sep == sep and cat.fold(form.name) == cat.fold(name) for form in cat.syntax.glued):
            if len(args) == 1 and not flags:  # read only exactly so written (the read-back checks the argument)
                return "{{" + name + sep + args[0] + "}}"
            continue
        if sep == "::":
            if any(len(split_top(a, "::")) > 1 for a in args):
                continue  # an argument holding `::` would be read as two (Agnai's one item ":a::b")
            return "{{" + flags + name + "::" + "::".join(args) + "}}"
        mode = cat.syntax.colon if sep == ":" else cat.syntax.space
        if mode == "pairs":
            return "{{" + flags + name + sep + "::".join(args) + "}}"
        if mode == "one":
            if len(args) != 1:
                continue
            return "{{" + flags + name + sep + args[0] + "}}"
        if mode == "comma":
            lead = ": " if sep == ":" else " "
            if any("," in a and '"' in a for a in args):
                continue
            # Agnai's quoted phrase holds a comma (the read-back checks the rest of it)
            written = [f'"{a}"' if "," in a else a for a in args]
            return "{{" + flags + name + lead + ", ".join(written) + "}}"
        if sep == " " and any(not a or any(c.isspace() for c in a) for a in args):
            continue
        return "{{" + flags + name + sep + sep.join(args) + "}}"
    return None


def canonical_args(cat: Catalog, entry: Entry, args: list[str]) -> list[str]:
    """A token's arguments in canonical order, with comma lists split where the engine does."""
    if entry.fixed_args:
        return list(entry.fixed_args)
    args = [js_trim(a) for a in args] if cat.syntax.trim_args else list(args)
    if entry.first_arg is not None:
        args = args[1:]
    if entry.split_items and len(args) == 1:
        if entry.split_first and entry.split_first in args[0]:
            args = [js_trim(a) for a in split_top(args[0], entry.split_first)]
        elif any(c in args[0] for c in entry.split_items):
            args = list_items(args[0], entry.split_items)
    if entry.order and entry.op and len(args) == len(entry.order):
        names = [a.rstrip("?*") for a in ops.canonical_args(entry.op)]
        by_name = dict(zip(entry.order, args))
        if set(by_name) == set(names):
            args = [by_name[n] for n in names]
    if cat.syntax.trim_names and entry.op:
        names = [a.rstrip("?*") for a in ops.canonical_args(entry.op)]
        args = [js_trim(a) if i < len(names) and names[i] == "name" else a for i, a in enumerate(args)]
    if entry.utc_offset and args:
        offset = utc_offset(args[0], any_case=entry.utc_offset == "any_case")
        args = [offset] if offset is not None else []
    return args


_UTC_OFFSET = re.compile(r"UTC([+-])([0-9]+)")
_UTC_OFFSET_ANY_CASE = re.compile(_UTC_OFFSET.pattern, re.I)
_HOURS_BELOW = 16  # moment.js's utcOffset(n): n is hours when -16 < n < 16, else minutes


def utc_offset_minutes(arg: str, *, any_case: bool = False) -> int | None:
    """The offset `UTC±N` shifts SillyTavern's time of day by, in minutes (moment.js's
    utcOffset(N): N hours under 16, else N minutes), or None where it reads the argument as no
    offset at all (its time of day is then local)."""
    found = (_UTC_OFFSET_ANY_CASE if any_case else _UTC_OFFSET).fullmatch(arg)
    if found is None:
        return None
    digits = found.group(2).lstrip("0") or "0"
    if len(digits) > 15:  # no offset a clock shows: past the integers parseInt holds exactly, read as none
        return None
    written = int(found.group(1) + digits)
    return written * 60 if abs(written) < _HOURS_BELOW else written


def utc_offset(arg: str, *, any_case: bool = False) -> str | None:
    """`UTC±N` in its shortest spelling of the same offset (`UTC+00`, `UTC-0` and `UTC+0` are
    one; `UTC+60` is `UTC+1`), or None where SillyTavern reads the argument as no offset."""
    minutes = utc_offset_minutes(arg, any_case=any_case)
    if minutes is None:
        return None
    hours, rest = divmod(abs(minutes), 60)
    shown = hours if rest == 0 and hours < _HOURS_BELOW else abs(minutes)
    return f"UTC{'-' if minutes < 0 else '+'}{shown}"


def list_items(arg: str, chars: str) -> list[str]:
    """A single argument's items, split where the engine splits it: on any of `chars` outside a
    nested `{{...}}`, each `\\,` kept as a comma in its item (SillyTavern's and RisuAI's escape)."""
    items, current, depth, i = [], [], 0, 0
    while i < len(arg):
        pair = arg[i : i + 2]
        if pair in ("{{", "}}") and (pair == "{{" or depth):
            depth += 1 if pair == "{{" else -1
            current.append(pair)
            i += 2
        elif depth == 0 and pair == _KEPT_COMMA and "," in chars:
            current.append(",")
            i += 2
        elif depth == 0 and arg[i] in chars:
            items.append("".join(current))
            current = []
            i += 1
        else:
            current.append(arg[i])
            i += 1
    items.append("".join(current))
    return [js_trim(item) for item in items]


def engine_args(entry: Entry, args: list[str]) -> list[str]:
    """Canonical arguments put in this entry's order and dialect."""
    args = list(args)
    if entry.split_items and len(args) == 1:
        # one item is written as one argument, which the engine splits: its commas kept by escaping
        args = [args[0].replace(",", _KEPT_COMMA)] if "," in entry.split_items else args
    if entry.order and entry.op and len(args) == len(entry.order):
        names = [a.rstrip("?*") for a in ops.canonical_args(entry.op)]
        by_name = dict(zip(names, args))
        if set(by_name) == set(entry.order):
            args = [by_name[n] for n in entry.order]
    if entry.dice == "strict" and len(args) == 1 and args[0].strip().isdigit():
        args = [f"1d{args[0].strip()}"]
    return args


def _ranked(cat: Catalog, entries: list[Entry], written: str, shorthand: bool) -> list[Entry]:
    def rank(entry: Entry):
        same_name = any(cat.fold(s) == cat.fold(written) for s in entry.spellings)
        # A deprecated form last, whatever its name: RisuAI's `#if` has no `{{:else}}` (only `#when` does).
        return (
            entry.status != "current",
            not same_name,
            is_shorthand(cat, entry) != shorthand,
        )

    return sorted(entries, key=rank)


def portable_spelling(
    target: Catalog, op: str, token: Token, args: list[str], *, paired: bool, within: frozenset[str] = frozenset()
) -> tuple[Entry, str] | None:
    """How the target writes `op` with these canonical args, checked by reading it back (in the
    blocks `within`, where the token sits in the target)."""
    for entry in _ranked(target, target.by_op.get(op, []), token.name, token.shorthand is not None):
        is_block = entry.block in ("block", "optional")
        if paired and not is_block or not paired and entry.block == "block":
            continue
        if entry.fixed_args and list(entry.fixed_args) != list(args):
            continue
        these = [] if entry.fixed_args else engine_args(entry, args)
        names = [s for s in entry.spellings if target.fold(s) == target.fold(token.name)] or [entry.name]
        text = spell(target, entry, these, flags=token.flags, name=names[0])
        if text is None:
            continue
        back = resolve(target, parsed(text, target.syntax), paired=paired, within=within)
        if back is not None and back.op == op and reads_items(target, text, back, args):
            return entry, text
    return None


def reads_items(cat: Catalog, text: str, entry: Entry, items: list[str], source: Entry | None = None) -> bool:
    """Whether the engine reads `text` as these canonical arguments, where they may differ from
    what is written: a list macro's items, or a form that stands for fixed arguments (on either
    side: `source`, the entry the arguments were read with). Any other macro: as many arguments."""
    read = canonical_args(cat, entry, parsed(text, cat.syntax).args)
    if not (entry.split_items or entry.fixed_args or entry.utc_offset or (source is not None and source.fixed_args)):
        # as many arguments at least: an argument holding `::` is two (Agnai's one item ":a::b")
        return len(read) == len(items)
    return read == items


def by_name(target: Catalog, token: Token, *, paired: bool, within: frozenset[str] = frozenset()) -> Entry | None:
    """The target's reading of the token exactly as written (how a collision is found)."""
    return resolve(target, parsed(token.raw, target.syntax), paired=paired, within=within)


def example(cat: Catalog, entry: Entry) -> str:
    """A spelled example of an entry, with its canonical argument names as placeholders."""
    names = [a.rstrip("?*") for a in ops.canonical_args(entry.op)] if entry.op else []
    want = max(entry.min_args, min(len(names), entry.max_args if entry.max_args is not None else len(names)))
    placeholders = (names or ["x"] * want)[:want] if want else []
    placeholders += ["x"] * (want - len(placeholders))
    if entry.when == "numeric":
        placeholders = [str(1 + 9 * i) for i in range(len(placeholders))]  # 1, 10: a range's ends
    if entry.example_args:  # the names would not read (`arg_pattern`: Agnai's insert takes digits)
        placeholders = list(entry.example_args[: len(placeholders)])
    if entry.utc_offset:
        placeholders = ["UTC+2"][: len(placeholders)]  # the word `offset` would read as no offset at all
    return spell(cat, entry, engine_args(entry, placeholders)) or "{{" + entry.name + "}}"


def candidates(target: Catalog, op: str | None, within: frozenset[str] = frozenset()) -> list[dict]:
    """Same-family alternatives the target has, nearest first (same verb, then same scope), each
    in a form the target reads as it in the blocks `within` (Agnai's loop takes no `{{personality}}`,
    and a loop's `{{.name}}` is text outside it)."""
    if not op:
        return []
    family = ops.family_of(op)
    prefix, verb = op.rsplit(".", 1)[0], op.rsplit(".", 1)[-1]
    found = []
    seen = set()
    for other_op, entries in target.by_op.items():
        if other_op == op or ops.family_of(other_op) != family:
            continue
        shown = next(((e, f) for e in entries if (f := _read_here(target, e, other_op, within)) is not None), None)
        if shown is None or shown[0].name in seen:
            continue
        seen.add(shown[0].name)
        o_prefix, o_verb = other_op.rsplit(".", 1)[0], other_op.rsplit(".", 1)[-1]
        stem = o_verb.split("_")[0] == verb.split("_")[0]
        found.append(((o_verb != verb, not stem, o_prefix != prefix, other_op), {"op": other_op, "form": shown[1]}))
    found.sort(key=lambda pair: pair[0])
    return [c for _, c in found[:MACRO_CANDIDATES_MAX]]


def _read_here(cat: Catalog, entry: Entry, op: str, within: frozenset[str]) -> str | None:
    """The entry's example, where the engine reads it as `op` in the blocks `within`; else None.
    A block's example is not read back: its opener alone may want a body or arguments to read."""
    form = example(cat, entry)
    if entry.block in ("block", "optional"):
        return form
    back = resolve(cat, parse_token(form, 0, cat.syntax), paired=False, within=within)
    return form if back is not None and back.op == op else None


def _cross_key(name: str) -> str:
    """A spelling compared across engines: case, `_`, `-` and spaces ignored."""
    return name.lower().replace("_", "").replace("-", "").replace(" ", "")


def unannotated_divergence(catalogs: dict[str, Catalog] | None = None) -> list[dict]:
    """Names several engines share, with differing shapes, where some side declares no op.

    Such a name would be matched by name alone across engines whose forms disagree, which is
    exactly where name matching is wrong. The suite asserts this list is empty.
    """
    catalogs = all_catalogs() if catalogs is None else catalogs
    shared: dict[str, dict[str, list[Entry]]] = {}
    for engine, cat in catalogs.items():
        for entry in cat.entries:
            for spelling in entry.spellings:
                shared.setdefault(_cross_key(spelling), {}).setdefault(engine, []).append(entry)
    found = []
    for key, per_engine in sorted(shared.items()):
        if len(per_engine) < 2:
            continue
        shapes = {e: sorted({(x.args, x.block or "") for x in entries}) for e, entries in per_engine.items()}
        if len({tuple(s) for s in shapes.values()}) < 2:
            continue
        bare = sorted(e for e, entries in per_engine.items() if any(x.op is None for x in entries))
        if bare:
            found.append(
                {
                    "name": key,
                    "shapes": {e: [f"{a}{' ' + b if b else ''}" for a, b in s] for e, s in shapes.items()},
                    "unannotated": bare,
                }
            )
    return found
