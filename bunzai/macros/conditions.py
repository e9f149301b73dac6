"""The condition of an `if` block carried between engines that judge truth differently.

SillyTavern's `{{if cond}}` (public/scripts/macros/definitions/core-macros.js) strips a leading
`!` (which inverts), resolves the rest, reads `.name` / `$name` as a local / global variable and
a bare macro name as that macro, and counts every value true but "" and, trimmed and in any
case, "off", "false" and "0". RisuAI's `{{#when cond}}` and `{{#if cond}}`
(src/ts/parser.svelte.ts, blockStartMatcher) count only "true" and "1" as true; `#when`'s
`::`-operator forms (not, and, or, is, isnot, var ...) build a condition of their own.

`carried` gives the condition, in the target's spelling, that is true exactly when the source
condition was; None where bunzai cannot say it (the block is then flattened, and reported).
A condition with no macro in it is judged now and written as the target's own literal truth.
Agnai's `{{#if name}}` tests one placeholder by name (see `_from_agnai`). Lumiverse's
`{{if::cond}}` (conditions.ts evaluateMacroCondition) resolves the macros in it, trims it, strips a
`!`, replaces `.name` (a variable of one render, not SillyTavern's chat variable) and `$name` (a
global one) where they begin a word, and takes a bare word as the word itself; it counts a value
holding `{{`…`}}` false, compares one holding `==`, `!=`, `<`, `>`, `<=` or `>=`, and counts every
other true but "" and, in any case, "0", "false", "null", "undefined", "no" and "off".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bunzai.jstext import JS_WHITESPACE, js_trim
from bunzai.macros.catalog import Entry, catalog_for

# Engines whose truth rule is modelled here.
TRUTH = {"sillytavern": "sillytavern", "risuai": "risuai", "agnai": "agnai", "lumiverse": "lumiverse"}
_SHORTHAND = re.compile(r"^([.$])([a-zA-Z](?:[\w\-]*\w)?)$")  # MACRO_VARIABLE_SHORTHAND_PATTERN
_FALSE_WORDS = ("off", "false", "0")
_NAME = re.compile(r"^[A-Za-z_][\w\-]*$")
_NO_MACRO = "judged now: the condition holds no macro"
_GETVAR = re.compile(r"^\{\{(getvar|getglobalvar)::([^{}:]+)\}\}$")


def differs(source: str, target: str) -> bool:
    """The two engines judge an `if` condition by different rules that bunzai models (Agnai's
    names a placeholder, which no other engine reads so)."""
    if source == "agnai":
        return target != source
    return source in TRUTH and target in TRUTH and TRUTH[source] != TRUTH[target]


# translate(one source macro) -> (the source knows it as a macro, its target spelling or None)
Spell = Callable[[str], tuple[bool, str | None]]
_AGREE = (
    "RisuAI counts only 1 and true as true, SillyTavern all but empty, off, false and 0: they agree on 1, true, "
    "0, false, off and empty; any other value is true in SillyTavern and false in RisuAI"
)


def carried(source: str, target: str, args: list[str], translate: Spell) -> tuple[str, str] | None:
    """(the target's condition, a note) for a block's canonical condition args, or None.

    `args` have their nested macros already in the target's spelling; `translate` spells one
    source-engine macro (`{{description}}`) for the target."""
    if source == "sillytavern" and target == "risuai" and len(args) == 1:
        return _st_to_risu(args[0], translate)
    if source == "sillytavern" and target == "lumiverse" and len(args) == 1:
        return _st_to_lumiverse(args[0], translate)
    if source == "lumiverse" and len(args) == 1 and target in ("sillytavern", "risuai"):
        return _from_lumiverse(target, args[0])
    if source == "risuai" and target == "lumiverse" and len(args) == 1 and "{{" not in args[0]:
        return ("1" if risu_truthy(args[0]) else "0"), _NO_MACRO
    if source == "risuai" and target == "sillytavern":
        return _risu_to_st(args, translate)
    if source == "agnai":
        return _from_agnai(target, args, translate)
    if target == "agnai" and source == "sillytavern" and len(args) == 1:
        return _st_to_agnai(args[0], translate)
    return None  # RisuAI's 1-or-true truth has no spelling in Agnai, which tests a placeholder by name


def st_truthy(value: str) -> bool:
    return value != "" and js_trim(value).lower() not in _FALSE_WORDS


def risu_truthy(value: str) -> bool:
    return value in ("true", "1")


def _st_to_risu(condition: str, translate: Spell) -> tuple[str, str] | None:
    inverted, tested = _st_negation(condition)
    value = _st_value(tested, translate)
    if value is None:
        return None
    return _judged_now(value, inverted) or (_st_truth_in_risu(value, inverted), _SPELLED_OUT)


def _st_negation(condition: str) -> tuple[bool, str]:
    """(inverted, what is tested): SillyTavern strips a leading `!`, which inverts."""
    inverted = condition.lstrip().startswith("!")
    return inverted, condition.lstrip()[1:].lstrip() if inverted else condition


def _judged_now(value: str, inverted: bool) -> tuple[str, str] | None:
    """A SillyTavern condition with no macro in it, judged by SillyTavern's truth: `1` or `0`."""
    if "{{" in value:
        return None
    return ("1" if st_truthy(value) != inverted else "0"), _NO_MACRO


_SPELLED_OUT = "SillyTavern's truth (all but empty, off, false, 0) spelled out: RisuAI counts only 1 and true"
_ALL_OPEN = "{{all::{{notequal::"
_FIRST_END = "::}}::{{notequal::{{lower::{{trim::"


def _st_truth_in_risu(value: str, inverted: bool) -> str:
    """RisuAI's condition that holds exactly when SillyTavern's `{{if}}` holds for `value`."""
    parts = [
        f"{{{{notequal::{value}::}}}}",
        *(f"{{{{notequal::{{{{lower::{{{{trim::{value}}}}}}}}}::{word}}}}}" for word in _FALSE_WORDS),
    ]
    test = "{{all::" + "::".join(parts) + "}}"
    return "{{not::" + test + "}}" if inverted else test


def st_truth_read_back(args: list[str]) -> tuple[str, bool] | None:
    """(the value, inverted) when a RisuAI `#when` condition is exactly bunzai's spelling of
    SillyTavern's truth (`_st_truth_in_risu`), so a crossing back to SillyTavern gives its
    `{{if}}` again instead of flattening macros SillyTavern lacks (`all`, `notequal`); else None."""
    if len(args) != 1:
        return None
    test = args[0].strip()
    inverted = test.startswith("{{not::" + _ALL_OPEN)
    inner = test[len("{{not::") : -2] if inverted else test
    if not inner.startswith(_ALL_OPEN) or _FIRST_END not in inner:
        return None
    value = inner[len(_ALL_OPEN) : inner.index(_FIRST_END)]
    return (value, inverted) if _st_truth_in_risu(value, inverted) == test else None


def st_condition(value: str, inverted: bool) -> str:
    """SillyTavern's `{{if}}` condition testing `value` (SillyTavern's spelling of a macro): a
    chat or global variable as its shorthand, a bare macro by its name, as `_st_value` reads them."""
    found = _GETVAR.match(value)
    if found and _SHORTHAND.match("." + found.group(2)):
        value = ("." if found.group(1) == "getvar" else "$") + found.group(2)
    else:
        bare = _BARE.match(value)
        value = bare.group(1) if bare else value
    return ("!" if inverted else "") + value


def _st_value(condition: str, translate: Spell) -> str | None:
    """What SillyTavern compares: a variable shorthand or a bare macro name resolved (None: a
    macro the target cannot spell)."""
    shorthand = _SHORTHAND.match(condition)
    if shorthand:
        prefix, name = shorthand.groups()
        return translate(f"{{{{{'getvar' if prefix == '.' else 'getglobalvar'}::{name}}}}}")[1]
    if _NAME.match(condition):
        known, spelled = translate("{{" + condition + "}}")
        if known:
            return spelled
    return condition


def _risu_to_st(args: list[str], translate: Spell) -> tuple[str, str] | None:
    inverted = False
    if len(args) >= 2 and args[0] == "not":
        inverted, args = True, args[1:]
    if len(args) == 2 and args[0] == "var":  # `#when::var::x` tests the chat variable x
        value = translate("{{getvar::" + args[1] + "}}")[1]
        if value is None:
            return None
        args = [value]
    if len(args) != 1:
        return None  # is, isnot, and, or, toggle ...: not translated (SillyTavern compares variables only)
    value = args[0]
    if "{{" not in value:
        truth = risu_truthy(value) != inverted
        return ("1" if truth else "0"), _NO_MACRO
    return ("!" + value if inverted else value), _AGREE


# Agnai's `{{#if name}}` (common/grammar.ts `Condition`, template-parser.ts renderCondition) tests
# the placeholder `name`, exactly as written (the grammar folds no alias and no case there), and
# counts it true when it renders non-empty. Any other word renders nothing: always false.
_AGNAI_NOTE = "Agnai counts a placeholder true when it is not empty; SillyTavern also counts off, false and 0 as false"
_BARE = re.compile(r"^\{\{([A-Za-z_][\w]*)\}\}$")


def _from_agnai(target: str, args: list[str], translate: Spell) -> tuple[str, str] | None:
    if len(args) != 1 or not (_NAME.match(args[0]) or _agnai_word(args[0])):
        return None
    name = args[0]
    if name.startswith("json.") or _agnai_takes_args(name):
        # getPlaceholder's first test reads `json.x` as the chat's JSON value of that name; and its
        # cases for `roll` and `random` read their arguments, which a condition has none of
        # (`{{#if roll}}` is "NaN", shown; `{{#if random}}` throws): not judged here
        return None
    if _agnai_placeholder(name) != name:  # a word with spaces or symbols ("scenario ") names none
        return "0", f"judged now: Agnai has no placeholder {name!r}, so its #if is always false"
    if _agnai_op(name) == _CONDITION_VALUE:  # getPlaceholder's value case: an #if is given no condition text
        return "0", "judged now: Agnai's #if value has no condition text to test, so it is always false"
    value = translate("{{" + name + "}}")[1]
    if value is None:
        return None
    if target == "sillytavern":
        bare = _BARE.match(value)  # SillyTavern resolves a bare macro name itself: {{if scenario}}
        return (bare.group(1) if bare else value), _AGNAI_NOTE
    if target == "risuai":
        return "{{notequal::" + value + "::}}", "Agnai's truth (not empty) spelled out: RisuAI counts only 1 and true"
    if target == "lumiverse":  # it resolves the macro, and would take the bare word as itself
        return value, "Agnai counts a placeholder true when it is not empty; " + _LUMIVERSE_ALSO
    return None


_LUMIVERSE_ALSO = (
    "Lumiverse also counts 0, false, null, undefined, no and off as false (any case) and a blank value, "
    "compares a value holding ==, !=, < or >, counts one holding {{ and }} false, negates one beginning "
    "with ! and reads .name and $name in it as variables"
)
_LUMIVERSE_INTO_ST = (
    "Lumiverse counts 0, false, null, undefined, no, off and a blank value false, compares a value holding "
    "==, !=, < or >, counts one holding {{ and }} false, negates one beginning with ! and reads .name and $name "
    "in it as variables; SillyTavern counts only empty, off, false and 0 false, and reads a value that is a "
    "variable's shorthand or a macro's name as that"
)
_LUMIVERSE_OPERATORS = ("==", "!=", "<", ">")
# A shorthand where it begins a word: JavaScript's \s, as Lumiverse's replace reads it
_LUMIVERSE_SHORTHAND = re.compile("(?:^|[" + re.escape(JS_WHITESPACE) + "])[.$@][a-zA-Z]")
_LUMIVERSE_FALSE = ("0", "false", "null", "undefined", "no", "off")


def _from_lumiverse(target: str, condition: str) -> tuple[str, str] | None:
    """Lumiverse's condition for SillyTavern (its `!` and its macros as they are) or RisuAI (judged
    now only); None where Lumiverse reads a variable's shorthand or compares in it."""
    tested = js_trim(condition)
    inverted = tested.startswith("!")
    tested = js_trim(tested[1:]) if inverted else tested
    shorthand = _SHORTHAND.match(tested)
    if target == "sillytavern" and shorthand and shorthand.group(1) == "$":
        return ("!" if inverted else "") + tested, _LUMIVERSE_INTO_ST  # a global variable in both
    if any(op in tested for op in _LUMIVERSE_OPERATORS) or _LUMIVERSE_SHORTHAND.search(tested):
        # a comparison, or a variable of its own: `.name` lasts one render, `@name` (in the space
        # form `{{if @name}}` the lexer's chat variable) and a `$name` SillyTavern spells otherwise
        return None
    if "{{" not in tested:
        truth = bool(tested) and tested.lower() not in _LUMIVERSE_FALSE
        return ("1" if truth != inverted else "0"), _NO_MACRO
    if target != "sillytavern":
        return None  # RisuAI's 1-or-true truth is not spelled out from Lumiverse's
    return ("!" if inverted else "") + tested, _LUMIVERSE_INTO_ST


# Lumiverse's lexer: flags (! ? ~ > / #) may come before the name, and a space or a tab after it
# begins the space-separated arguments
_LUMIVERSE_SPACE_IF = re.compile(r"\{\{\s*[!?~>/#]*\s*(?:if|unless)[ \t]", re.IGNORECASE)


def lumiverse_opener(written: str, spelled: str) -> str:
    """A Lumiverse `if` (or `unless`) opener written into Lumiverse: the space form (`{{if @alive}}`,
    `{{#if\t@alive}}`) as written, for there `@name` is the chat variable, which the catalog's
    `{{if::@alive}}` reads as the text (always true); any other as the catalog spells it."""
    return written if _LUMIVERSE_SPACE_IF.match(written) else spelled


_ST_INTO_LUMIVERSE = "SillyTavern counts all but empty, off, false and 0 as true; " + _LUMIVERSE_ALSO


def _st_to_lumiverse(condition: str, translate: Spell) -> tuple[str, str] | None:
    """SillyTavern's condition for Lumiverse: a bare macro name, or a variable's shorthand, as the
    macro that reads it (Lumiverse would test the word, and reads `.name` as another variable)."""
    inverted, tested = _st_negation(condition)
    value = _st_value(tested, translate)
    if value is None:
        return None
    return _judged_now(value, inverted) or (("!" if inverted else "") + value, _ST_INTO_LUMIVERSE)


def _st_to_agnai(condition: str, translate: Spell) -> tuple[str, str] | None:
    if condition.lstrip().startswith("!"):
        return None  # Agnai's #if cannot be negated
    found = _BARE.match(_st_value(condition, translate) or "")
    name = _agnai_placeholder(found.group(1)) if found else None
    return (name, _AGNAI_NOTE) if name else None


def _agnai_word(text: str) -> bool:
    """Whether `text` is the grammar's Word, which `#if` tests as written (catalog: its `keywords`)."""
    forms = [form for form in catalog_for("agnai").syntax.keywords if form.name == "#if" and form.word]
    return bool(forms) and re.fullmatch(forms[0].word, text) is not None


_CONDITION_VALUE = "x.agnai.condition_value"  # `{{value}}`: the text of the condition a body is in


def _agnai_named(name: str) -> list[Entry]:
    """The Agnai entries named exactly `name`: getPlaceholder's switch matches the word as written."""
    cat = catalog_for("agnai")
    return [e for e in cat.by_key.get(cat.fold(name), []) if e.name == name]


def _agnai_op(name: str) -> str | None:
    """The op of the Agnai macro named exactly `name`, or None."""
    return next((e.op for e in _agnai_named(name)), None)


def _agnai_takes_args(name: str) -> bool:
    """Whether `name` is, exactly so written, an Agnai macro that takes arguments (`roll`, `random`)."""
    return any(e.min_args > 0 and e.block is None for e in _agnai_named(name))


def _agnai_placeholder(name: str) -> str | None:
    """The placeholder name Agnai's `#if` tests for a macro Agnai reads as `{{name}}`."""
    cat = catalog_for("agnai")
    # `#if` looks its word up among the grammar's placeholders: never a form read only in some
    # fields, nor a loop's field (`{{#if .isuser}}` in a loop is the grammar's HistoryCondition).
    found = cat.by_key.get(cat.fold(name), [])
    entries = [e for e in found if e.min_args == 0 and e.block is None and e.op and e.fields is None and not e.inside]
    return entries[0].name if entries else None
