"""The regex lab: `regex-lab try|race|explain|lint|recipes|from-examples`, `regex-from-drawing`,
`html-will-draw`. All reads: nothing is stored.

Thin: parse, call one function of bunzai.regexlab / bunzai.render, print one JSON document.
Everything is imported inside the commands, so other commands never pay for the engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bunzai.cli.groups import SuggestingGroup

from bunzai.cli.output import emit

app = typer.Typer(
    cls=SuggestingGroup,
    help=(
        "Run regexes as SillyTavern and RisuAI do.\n\nRun JavaScript regexes as SillyTavern and RisuAI do: try, "
        "race, explain, lint; recipes and from-examples suggest rules. Stores nothing."
    ),
    no_args_is_help=True,
)

Platform = Annotated[
    str,
    typer.Option(
        "--platform", "-p", help="How the pattern and replacement are read: javascript, sillytavern or risuai."
    ),
]
Flags = Annotated[
    str | None,
    typer.Option(
        "--flags", help="Flags; the pattern is then bare (no /.../). risuai: as its custom-flag field (<cbs> ...)."
    ),
]


def _typed(platform: str, flags: str | None, replace: str | None = None) -> dict:
    """--flags as RisuAI reads a script's custom-flag field (regex_scripts.typed_flags) for the
    OUT --replace, for --platform risuai; as given otherwise."""
    if platform != "risuai" or flags is None:
        return {"flags": flags, "cbs": False, "no_end_newline": False, "actions": [], "notes": []}
    from bunzai.adapters.risu.regex_scripts import typed_flags

    return typed_flags(flags, replace or "")


def _text_of(ctx: typer.Context, text: str | None, file: str | None, ref: str | None, pointer: str) -> str:
    """The text to run over: --text, --file (or - for stdin), or a string in a studio piece."""
    from bunzai.errors import BunzaiError

    given = [value for value in (text, file, ref) if value is not None]
    if len(given) != 1:
        raise BunzaiError(
            "usage", "give the text one way: --text T, --file F or a piece REF", "e.g. --text 'Hello *world*'"
        )
    if text is not None:
        return text
    if file is not None:
        return _read_text(file)
    from bunzai.cli.context import studio_of
    from bunzai.query.reading import piece_text

    return piece_text(studio_of(ctx), ref, pointer)


def _read_text(source: str) -> str:
    import sys

    from bunzai.errors import BunzaiError
    from bunzai.files import read_up_to
    from bunzai.limits import DRAWING_MAX_BYTES, REGEX_TEXT_MAX_CHARS

    most = max(REGEX_TEXT_MAX_CHARS * 4, DRAWING_MAX_BYTES)  # characters are up to 4 UTF-8 bytes
    if source == "-":
        data, where = read_up_to(sys.stdin.fileno(), most + 1), "standard input"
    else:
        path = Path(source)
        try:
            with path.open("rb") as handle:
                data = handle.read(most + 1)
        except FileNotFoundError:
            raise BunzaiError("not_found", f"no file at {path}", "check the path") from None
        except IsADirectoryError:
            raise BunzaiError(
                "invalid_input", f"{path} is a folder, not a text file", "name the text file itself, not its folder"
            ) from None
        where = str(path)
    if len(data) > most:
        raise BunzaiError("too_large", f"{where} is over {most} bytes", "use a shorter excerpt")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BunzaiError(
            "invalid_input", f"{where} is not UTF-8 text (byte {error.start})", "save the text as UTF-8"
        ) from None


def _pairs(values: list[str], what: str) -> dict[str, str]:
    from bunzai.errors import BunzaiError

    pairs = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name:
            raise BunzaiError("usage", f"{what} {value!r} is not NAME=VALUE", f"e.g. {what} user=Ann")
        pairs[name] = rest
    return pairs


@app.command("try")
def try_(
    ctx: typer.Context,
    pattern: Annotated[str, typer.Argument(help="The find-regex: /pattern/flags or a bare pattern.")],
    ref: Annotated[
        str | None, typer.Argument(metavar="[REF]", help="A studio piece whose text to run over (see --pointer).")
    ] = None,
    text: Annotated[str | None, typer.Option("--text", "-t", help="The text to run over.")] = None,
    file: Annotated[str | None, typer.Option("--file", "-f", help="A text file to run over, or - for stdin.")] = None,
    pointer: Annotated[
        str,
        typer.Option("--pointer", help="With REF: the JSON pointer of the text (all its strings when not a string)."),
    ] = "/body",
    replace: Annotated[
        str | None, typer.Option("--replace", "-r", help="Also show the text after this replacement.")
    ] = None,
    platform: Platform = "javascript",
    flags: Flags = None,
    trim: Annotated[
        list[str], typer.Option("--trim", help="A trim string (SillyTavern): removed from each capture. Repeatable.")
    ] = None,
    macro: Annotated[
        list[str], typer.Option("--macro", help="A macro value NAME=VALUE, e.g. user=Ann. Repeatable.")
    ] = None,
    substitute: Annotated[
        str, typer.Option("--substitute", help="Macros in the pattern: none, raw or escaped.")
    ] = "none",
) -> int:
    """Every match with its span and groups.

    Every match with its span, groups and named groups; with --replace, the text after.

    Example: bunzai regex-lab try '/\\*(.+?)\\*/g' --text 'Hi *waves*' --replace '<i>$1</i>'
    """
    from bunzai.regexlab.lab import try_pattern, with_notes

    source = _text_of(ctx, text, file, ref, pointer)
    typed = _typed(platform, flags, replace)
    if typed["cbs"] and substitute == "none":
        substitute = "raw"  # RisuAI's <cbs>: the pattern's macros are expanded first
    emit(
        with_notes(
            try_pattern(
                pattern,
                source,
                replace=replace,
                platform=platform,
                flags=typed["flags"],
                trim_strings=trim or [],
                macros=_pairs(macro or [], "--macro"),
                substitute=substitute,
                no_end_newline=typed["no_end_newline"],
                actions=typed["actions"],
            ),
            typed["notes"],
        )
    )
    return 0


@app.command()
def race(
    patterns: Annotated[list[str], typer.Argument(help="Two or more candidate patterns.")],
    text: Annotated[str, typer.Option("--text", "-t", help="The text every candidate runs over.")] = ...,
    replace: Annotated[str | None, typer.Option("--replace", "-r", help="Also compare the replaced texts.")] = None,
    platform: Platform = "javascript",
    flags: Flags = None,
) -> int:
    """Candidates side by side on one text.

    Candidates side by side on one text: matches, replaced text, time (ms, one run).

    Example: bunzai regex-lab race '/a+/g' '/(a+)+$/' --text aaab
    """
    from bunzai.regexlab.lab import CBS_AS_WRITTEN, race_patterns, with_notes

    typed = _typed(platform, flags, replace)
    raced = race_patterns(
        patterns,
        text,
        replace=replace,
        platform=platform,
        flags=typed["flags"],
        no_end_newline=typed["no_end_newline"],
        actions=typed["actions"],
    )
    emit(with_notes(raced, typed["notes"] + [CBS_AS_WRITTEN] * typed["cbs"]))
    return 0


@app.command()
def explain(
    pattern: Annotated[str, typer.Argument(help="The find-regex: /pattern/flags or a bare pattern.")],
    platform: Platform = "javascript",
    flags: Flags = None,
) -> int:
    """The pattern in plain words.

    The pattern in plain words, clause by clause, and what its flags do.

    Example: bunzai regex-lab explain '/\\[OOC:(.*?)\\]/gi'
    """
    from bunzai.regexlab.explain import explain_pattern
    from bunzai.regexlab.lab import CBS_AS_WRITTEN, with_notes

    typed = _typed(platform, flags)
    emit(
        with_notes(
            explain_pattern(pattern, platform=platform, flags=typed["flags"]),
            typed["notes"] + [CBS_AS_WRITTEN] * typed["cbs"],
        )
    )
    return 0


@app.command()
def lint(
    ctx: typer.Context,
    source: Annotated[
        str, typer.Argument(metavar="REF|FILE", help="A studio regex set, or a SillyTavern/RisuAI regex file.")
    ],
) -> int:
    """Check a whole regex set.

    Check a whole regex set: patterns that do not compile or backtrack catastrophically,
    rules an earlier rule leaves nothing to match, flags that do nothing, missing groups,
    placements and depths that exclude every message.

    Example: bunzai regex-lab lint regex/my-rules
    """
    from bunzai.macros.catalog import names_macro
    from bunzai.regexlab.lint import lint_set

    emit(lint_set(_regex_piece(ctx, source), names_macro))
    return 0


def _regex_piece(ctx: typer.Context, source: str) -> dict:
    """A regex set from a file (read by its platform's adapter) or from the studio."""
    from bunzai.errors import BunzaiError

    path = Path(source)
    if path.is_file():
        from bunzai.adapters.inspect import read_bytes
        from bunzai.files import read_file_bytes
        from bunzai.model import dump_piece

        _, decoded = read_bytes(read_file_bytes(path), path.name)
        sets = [dump_piece(piece) for piece in decoded.pieces if piece.kind == "regex"]
        if not sets:
            raise BunzaiError(
                "invalid_input", f"{path} holds no regex set", "lint reads SillyTavern and RisuAI regex files"
            )
        return sets[0]
    from bunzai.cli.context import studio_of
    from bunzai.query.reading import stored_data

    return stored_data(studio_of(ctx), source)


@app.command()
def recipes(
    name: Annotated[str | None, typer.Argument(help="One recipe, with the rule to add; omit to list them.")] = None,
) -> int:
    """Common roleplay rules, each with a sample.

    Common roleplay rules (italic narration, thoughts, OOC removal, HTML cleanup, hiding a tracker ...), each with a
    sample and its result.

    Example: bunzai regex-lab recipes ooc-removal
    """
    from bunzai.regexlab.recipes import recipes as catalog

    emit(catalog(name))
    return 0


@app.command("from-examples")
def from_examples(
    match: Annotated[
        list[str], typer.Option("--match", "-m", help="A string the pattern must match. Repeatable.")
    ] = None,
    no_match: Annotated[
        list[str], typer.Option("--no-match", "-n", help="A string it must not match. Repeatable.")
    ] = None,
) -> int:
    """A candidate pattern built from examples.

    A candidate pattern built from examples, with its score on them.

    Example: bunzai regex-lab from-examples --match '*waves*' --match '*smiles*' --no-match 'plain'
    """
    from bunzai.regexlab.examples import from_examples as build

    emit(build(match or [], no_match or []))
    return 0


def regex_from_drawing(
    ctx: typer.Context,
    drawing: Annotated[str, typer.Argument(metavar="HTMLDOC", help="A studio htmldoc, or an HTML file.")],
    pattern: Annotated[str, typer.Option("--pattern", help="The find-regex whose captures fill the slots.")] = ...,
    slot: Annotated[
        list[str], typer.Option("--slot", help="NAME=N: the slot NAME is capture N (0 = the whole match). Repeatable.")
    ] = None,
    sample: Annotated[
        str | None, typer.Option("--sample", help="A text the rule must match; it is run in the engine.")
    ] = None,
    platform: Platform = "javascript",
    flags: Flags = None,
    name: Annotated[str | None, typer.Option("--name", help="The rule's name (default: the drawing's).")] = None,
    report: Annotated[
        bool, typer.Option("--report", help="Print the warnings and the sample's result with the rule.")
    ] = False,
) -> int:
    """Turn a drawing into a regex replacement rule.

    A drawing turned into a regex replacement: prints a rule ready for `regex.rules.add`.

    Example: bunzai regex-from-drawing card.html --platform sillytavern --pattern '/\\[mood:(\\w+)\\]/g'
    --slot mood=1 | bunzai cap run regex.rules.add regex/display --input -
    """
    from bunzai.cli.output import say
    from bunzai.errors import BunzaiError
    from bunzai.regexlab.drawing import regex_from_drawing as build

    markup, title, declared = _drawing(ctx, drawing)
    slots = {}
    for key, value in _pairs(slot or [], "--slot").items():
        if not value.strip().isdigit():
            raise BunzaiError("usage", f"--slot {key}={value}: the capture must be a number", f"e.g. --slot {key}=1")
        slots[key] = int(value)
    result = build(
        markup, pattern, slots, sample=sample, platform=platform, flags=flags, name=name or title, declared=declared
    )
    for warning in result["warnings"]:
        say(f"bunzai: warning: {warning}")
    if "sample" in result and not report:
        say(f"bunzai: the sample matched {result['sample']['matches']} time(s); --report shows the drawn text")
    emit(result if report else {"rules": result["rules"]})
    return 0


def _drawing(ctx: typer.Context, source: str) -> tuple[str, str, list[str]]:
    """(markup, name, declared slots) of an HTML file or a studio htmldoc."""

    path = Path(source)
    if path.is_file() or source == "-":
        return _read_text(source), path.stem if source != "-" else "drawing", []
    from bunzai.cli.context import studio_of
    from bunzai.query.reading import stored_drawing

    return stored_drawing(studio_of(ctx), source)


def html_will_draw(
    ctx: typer.Context,
    drawing: Annotated[str, typer.Argument(metavar="FILE|REF", help="An HTML file, - for stdin, or a studio htmldoc.")],
) -> int:
    """What a sealed preview strips from a drawing.

    What a sealed preview strips from a drawing, which http(s) addresses cannot load, which handlers never fire. Not a
    safety check.

    Example: bunzai html-will-draw card.html
    """
    from bunzai.render.will_draw import html_will_draw as check

    markup, _, _ = _drawing(ctx, drawing)
    emit(check(markup))
    return 0


def register(root: typer.Typer) -> None:
    root.command("regex-from-drawing")(regex_from_drawing)
    root.command("html-will-draw")(html_will_draw)
