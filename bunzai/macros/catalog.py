"""Loading the per-engine macro catalogs (bunzai/catalogs/<engine>.yaml) into indexed objects.

A catalog declares, for one engine, how its tokens are written (`syntax`) and what each of
its own macros means (`macros`: one entry per form, with the canonical op from ops.py). A
file may declare variants of its engine (SillyTavern's legacy regex engine beside Macros
2.0): a variant overrides the syntax and keeps only the entries that are not restricted to
another variant. Files are parsed on first use and cached for the life of the process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bunzai.errors import BunzaiError
from bunzai.macros import ops
from bunzai.macros.catalog_cache import load_yaml_text

# What follows the name: one argument; words (Lumiverse's lexer: parted by spaces and tabs); a
# comma list of phrases (Agnai's grammar, DelimitedWords); arguments `::` parts (Lumiverse after
# a single `:`: its lexArgument stops at `::`, so `{{setvar:x::5}}` has two).
ArgMode = Literal["one", "split", "comma", "pairs"]
_ARGS = re.compile(r"^(\d+)(?:-(\d+)|(\+))?$")


@cache
def _arg_range(args: str) -> tuple[int, int | None]:
    m = _ARGS.match(args)
    low = int(m.group(1))
    return low, None if m.group(3) else int(m.group(2)) if m.group(2) else low


class CommentSyntax(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    open: str
    close: str
    forbid: str = "{}"  # characters that would end or break the comment early


class GluedForm(BaseModel):
    """A token the engine reads with its one argument glued to the name, no space: SillyTavern's
    `{{time_UTC+2}}` is `time`, `_`, then an argument matching `arg` (the whole token, in any case)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    sep: str
    arg: str  # a Python regex the argument must match in full


class KeywordForm(BaseModel):
    """A name the engine reads with its argument after `between` (a Python regex), which may be
    nothing: Agnai's `"#each" WS` reads `{{#eachbot}}` as `{{#each bot}}`, its `"#insert"i WS "="? WS`
    reads `{{#insert=1}}` as `{{#insert 1}}`. The name is matched in any case (an entry's
    `exact_case` still decides), and only where an argument follows. With `word` (a Python regex),
    an argument that is all such a word is the one argument as written, its trailing spaces kept:
    Agnai's `"#if" WS Word` reads `{{#if scenario }}` as a test of "scenario ", no placeholder."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    between: str
    word: str | None = None


class Syntax(BaseModel):
    """How one engine recognises a token (reference/macros.md §2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    fold: Literal["case", "case_strip"] = "case"  # case_strip also drops `_`, `-` and spaces
    flags: str = ""  # flag characters that may precede a name, e.g. "!?~>#"
    colon: ArgMode = "one"  # what follows a single `:` after the name
    space: ArgMode = "one"  # what follows whitespace after the name
    separators: tuple[str, ...] = ("::",)  # default separators an entry accepts
    shorthand: str = ""  # variable shorthand prefixes, e.g. ".$@"
    trim_args: bool = False  # the engine drops the whitespace around each argument
    trim_names: bool = False  # ... around an argument naming a variable only (values keep theirs)
    escape: str | None = None  # written before a brace, the engine prints the brace as text
    comment: CommentSyntax | None = None  # where a note can be left for the author
    glued: tuple[GluedForm, ...] = ()  # names read with their argument glued on (`{{time_UTC+2}}`)
    keywords: tuple[KeywordForm, ...] = ()  # names whose argument may follow with no space (`{{#eachbot}}`)
    # Handlers a `|` after a macro may name, which the engine parses and never applies (Agnai's
    # `{{char | upper}}` is `{{char}}`), and the names whose free-text arguments swallow them.
    pipes: tuple[str, ...] = ()
    pipes_as_text: tuple[str, ...] = ()
    # Names whose separator must touch the name: after a space, a `:` is the argument's own
    # (Agnai's `{{random :a, b}}` picks ":a" or "b"; its roll takes `{{roll : 2d6}}`).
    colon_glued: tuple[str, ...] = ()
    # Only the catalog's blocks open: a block name the engine has none of (`{{#foo}}`) is text
    # with its closer, whatever it holds (Agnai's grammar has no general block rule). Otherwise
    # such a name and its closer pair as scaffolding, so a closer does not end another block.
    known_blocks_only: bool = False
    # The only whitespace the engine takes inside a token (around its name and arguments; a
    # pipe's `|` may also have tabs): any other makes the token text. None: JavaScript's whitespace.
    # Agnai's grammar has `WS = " "*`, so `{{\tchar}}` is text there.
    pad: str | None = None
    # The whitespace the engine skips between `{{` and the name (and after a flag); None:
    # JavaScript's. Lumiverse's lexer skips " " and "\t" alone: `{{\nchar}}` names nothing there.
    lead: str | None = None
    # The variable shorthand as the engine's own lexer scans it: the name (a regular expression,
    # matched from the prefix on), then its operators, longest first, with `lead` around them; a
    # token with anything else left over is text. None: SillyTavern's reading (syntax.py _SHORTHAND).
    shorthand_name: str | None = None
    shorthand_operators: tuple[str, ...] = ()


def _known_op(value: str | None) -> str | None:
    if value is not None and not ops.is_known(value):
        raise ValueError(f"op {value!r} is neither in bunzai.macros.ops nor an x.<engine>.<what> id")
    return value


class Entry(BaseModel):
    """One form of one macro: a name (and aliases), an argument shape, and what it means."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    aliases: tuple[str, ...] = ()
    args: str = "0"  # "0", "1", "0-1", "2-3", "1+"
    sep: tuple[str, ...] | None = None  # separators this form accepts (default: the syntax's)
    op: str | None = None  # absent: the meaning is matched by name (right only where engines agree)
    when: Literal["numeric", "text"] | None = None  # all arguments numeric / not all numeric
    first_arg: str | None = None  # a literal first argument that selects this form (`#each bot`)
    first_arg_aliases: tuple[str, ...] = ()  # other spellings of it the engine takes (`#each bots`)
    fixed_args: tuple[str, ...] = ()  # canonical arguments this form means without writing them
    # The argument is a UTC offset `UTC±N`, N read as moment.js reads it (hours under 16, else
    # minutes); written otherwise it is no offset (local time). `any_case`: `utc` in any case too.
    utc_offset: Literal["exact", "any_case"] | None = None
    # A single argument is a list of items, split on these characters (`\,` is a comma kept in an
    # item); where it holds `split_first` (SillyTavern's `::`), on that instead.
    split_items: str = ""
    split_first: str = ""
    dice: Literal["strict", "loose"] | None = None  # strict: only NdS; loose: also a bare N
    # A Python regex each argument must match in full, else the engine has no such form and the
    # token is text (Agnai's `{{#insert}}` takes one or two digits: `{{#insert 100}}` is text).
    arg_pattern: str | None = None
    example_args: tuple[str, ...] = ()  # what an example shows where `arg_pattern` refuses the canonical names
    block: Literal["block", "optional", "branch"] | None = None
    own_line: bool = False  # a branch marker the engine finds only on a line of its own
    # A block whose body the engine prints as text, its macros not run: as written, or with
    # each `{{` and `}}` written `\{\{` and `\}\}` (RisuAI's #puredisplay).
    literal: Literal["as_written", "backslashed"] | None = None
    order: tuple[str, ...] | None = None  # the engine's argument order, in canonical names
    status: str = "current"
    only: str | None = None  # the one variant (engine id) this form belongs to
    # The fields (`kind:pattern`, as bunzai.macros.crossing.MACRO_FIELDS names them) where the
    # engine reads this form; elsewhere it is text. Agnai's `{{name}}` is a regex replacement
    # over some card fields, not a word of its template grammar.
    fields: tuple[str, ...] | None = None
    # Read only in the body of a block with one of these ops, the block itself or an enclosing one
    # (Agnai's `{{.name}}` inside `{{#each bot}}`: its grammar's BotRef); elsewhere it is text.
    inside: tuple[str, ...] | None = None
    # On a block: in its body only these ops are read, besides the forms read `inside` it and a
    # condition on one of those forms; any other macro there is text (Agnai's loops read `{{char}}`,
    # `{{user}}`, `{{random}}` and `{{roll}}`: `{{scenario}}` in `{{#each msg}}` is text).
    admits: tuple[str, ...] | None = None
    # On a block, closers (by name) that make the engine read the whole block as
    # text where its body holds one outside an admitted condition (Agnai's LoopText stops at
    # `{{/if}}`), as a form read `inside` other blocks alone always does (`{{.msg}}` in
    # `{{#each bot}}`); the body is then read as if no block were around it.
    stopped_by: tuple[str, ...] = ()
    # On a block with `stopped_by`: whether a form read inside other blocks alone stops it too
    # (Agnai's ElseText stops at closers alone: `{{.name}}` in an `{{#else}}` is text there).
    stopped_by_fields: bool = True
    # On a block that `admits`: whether its body takes a condition on one of its own fields
    # (Agnai's bot and history loops have BotCondition and HistoryCondition; its chat_embed loop
    # has none, so `{{#if .name}}` there is text and its `{{/if}}` stops the loop).
    field_conditions: bool = True
    # On a block: the ops of the blocks its body reads; any other opener there is text, and its
    # closer closes nothing (Agnai's `{{#if}}` body is Placeholder / Condition / LowPriority /
    # ElseBlock: a loop in it is text). None: any block nests. A block that `admits` nests only
    # what it admits (a field condition), whatever this says.
    nests: tuple[str, ...] | None = None
    # Read only in the case written here (Agnai's grammar has `"#if"`, not `"#if"i`).
    exact_case: bool = False
    # Read only written exactly so, nothing else between the braces, in any case: a regex
    # replacement, not the engine's parser (Agnai's BOT_REPLACE matches `{{name}}`, not `{{ name }}`).
    bare: bool = False
    note: str = ""

    @field_validator("args")
    @classmethod
    def _args_shape(cls, value: str) -> str:
        if not _ARGS.match(value):
            raise ValueError(f"args must look like 0, 1-2 or 1+, not {value!r}")
        return value

    @field_validator("op")
    @classmethod
    def _known_op(cls, value: str | None) -> str | None:
        return _known_op(value)

    @field_validator("arg_pattern")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            _pattern(value)  # re.error names what is wrong with it
        return value

    @model_validator(mode="after")
    def _example_read(self) -> Entry:
        if self.arg_pattern is not None and not (self.example_args and self.takes_args(list(self.example_args))):
            raise ValueError(f"{self.name}: example_args must be given, each matching arg_pattern")
        return self

    def takes_args(self, args: list[str]) -> bool:
        """Whether each argument is of the shape the engine reads (`arg_pattern`)."""
        return self.arg_pattern is None or all(_pattern(self.arg_pattern).fullmatch(a) for a in args)

    @field_validator("inside", "admits", "nests")
    @classmethod
    def _known_blocks(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        for op in value or ():
            _known_op(op)
        return value

    @property
    def min_args(self) -> int:
        return _arg_range(self.args)[0]

    @property
    def max_args(self) -> int | None:
        return _arg_range(self.args)[1]

    def accepts_count(self, count: int) -> bool:
        top = self.max_args
        return count >= self.min_args and (top is None or count <= top)

    @property
    def spellings(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@cache
def _pattern(pattern: str) -> re.Pattern:
    return re.compile(pattern)


class VariantFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    title: str
    note: str = ""
    syntax: dict = Field(default_factory=dict)


class CatalogFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    engine: str
    title: str
    partial: bool = False
    oracle: str  # the fact file in shared/corpus/macros/ this catalog is held against
    note: str = ""
    syntax: Syntax
    variants: dict[str, VariantFile] = Field(default_factory=dict)
    macros: list[Entry]


@dataclass
class Catalog:
    """One engine's catalog, indexed by folded spelling and by op."""

    engine: str
    title: str
    partial: bool
    oracle: str
    note: str
    syntax: Syntax
    entries: list[Entry]
    by_key: dict[str, list[Entry]] = field(default_factory=dict)
    by_op: dict[str, list[Entry]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for entry in self.entries:
            for spelling in entry.spellings:
                self.by_key.setdefault(self.fold(spelling), []).append(entry)
            if entry.op:
                self.by_op.setdefault(entry.op, []).append(entry)

    def fold(self, name: str) -> str:
        """The engine's own name normalisation: what two spellings it treats as one."""
        key = name.lower()
        if self.syntax.fold == "case_strip":
            key = key.replace("_", "").replace("-", "").replace(" ", "")
        return key

    def seps(self, entry: Entry) -> tuple[str, ...]:
        return entry.sep if entry.sep is not None else self.syntax.separators


def catalog_files() -> list[str]:
    """The catalog files shipped in the package (blocks.yaml is not a macro catalog)."""
    folder = resources.files("bunzai") / "catalogs"
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".yaml") and p.name != "blocks.yaml")


def catalogs_from_document(doc: dict, what: str) -> dict[str, Catalog]:
    """The engine (and its variants) a parsed catalog document declares."""
    from pydantic import ValidationError

    try:
        parsed = CatalogFile.model_validate(doc)
    except ValidationError as error:
        raise BunzaiError(
            "internal",
            f"{what} does not validate: {error.errors()[0]['msg']} at {error.errors()[0]['loc']}",
            f"fix bunzai/catalogs/{what}, or reinstall bunzai",
        ) from None
    found = {parsed.engine: _catalog(parsed, parsed.engine, parsed.title, parsed.note, parsed.syntax)}
    for variant, spec in parsed.variants.items():
        syntax = parsed.syntax.model_copy(update=spec.syntax)
        found[variant] = _catalog(parsed, variant, spec.title, spec.note, Syntax.model_validate(syntax.model_dump()))
    return found


def _catalog(parsed: CatalogFile, engine: str, title: str, note: str, syntax: Syntax) -> Catalog:
    entries = [e for e in parsed.macros if e.only in (None, engine)]
    return Catalog(engine, title, parsed.partial, parsed.oracle, note, syntax, entries)


@cache
def all_catalogs() -> dict[str, Catalog]:
    """Every engine bunzai models, by id (parsed once per process)."""
    folder = resources.files("bunzai") / "catalogs"
    found: dict[str, Catalog] = {}
    for name in catalog_files():
        text = (folder / name).read_text(encoding="utf-8")
        found.update(catalogs_from_document(load_yaml_text(text, name), name))
    return found


def catalog_for(engine: str) -> Catalog | None:
    """The catalog of an engine, or None where bunzai does not model it (answers: unchecked)."""
    return all_catalogs().get(engine.lower())


@cache
def catalog_in(engine: str, where: str | None) -> Catalog | None:
    """The catalog of an engine as it reads the field `where` (`kind:pattern`): without the
    forms it reads only in other fields. None for `where`: every form (the field is not known)."""
    catalog = catalog_for(engine)
    if catalog is None or where is None or all(e.fields is None for e in catalog.entries):
        return catalog
    entries = [e for e in catalog.entries if e.fields is None or where in e.fields]
    return Catalog(
        catalog.engine, catalog.title, catalog.partial, catalog.oracle, catalog.note, catalog.syntax, entries
    )


def names_macro(engine: str, name: str) -> bool:
    """Whether `name` (as written between the braces, before any `::`) is a macro of `engine`."""
    catalog = catalog_for(engine)
    # a form read only inside a block (Agnai's `{{.name}}` in `{{#each bot}}`) is no macro of its own
    return catalog is not None and any(e.inside is None for e in catalog.by_key.get(catalog.fold(name), []))


def engine_ids() -> list[str]:
    return sorted(all_catalogs())
