"""Macros across engines: `macro translate`, `macro engines`, `macro-lookup`, `block-lookup`.

Thin: parse, call bunzai.macros, print one JSON document. Catalogs are parsed inside the
commands, so other commands never pay for them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from bunzai.cli.groups import SuggestingGroup

from bunzai.cli.output import emit

app = typer.Typer(
    cls=SuggestingGroup,
    help="Macros across engines.\n\nMacros across engines: translate text, list the engines bunzai models.",
    no_args_is_help=True,
)


@app.command()
def translate(
    source: Annotated[str, typer.Argument(help="A text file, or - for standard input.")] = "-",
    from_: Annotated[str, typer.Option("--from", help="The engine the text was written for.")] = ...,
    to: Annotated[str, typer.Option("--to", help="The engine to translate it for.")] = ...,
) -> int:
    """Translate a text's macros between engines.

    Translate the macros of a text from one engine to another, with one verdict per token.

    Verdicts: portable (re-spelled), collision (kept, flagged), absent (removed, candidates
    named), flatten (block kept as its first branch), unknown (not in the source catalog).
    An engine bunzai does not model answers "checked": false.

    Example: echo '{{random::1::10}}' | bunzai macro translate --from rolecall --to sillytavern
    """
    from bunzai.macros.translate import translate_text

    text = _read_text(source)
    result = translate_text(text, from_, to)
    emit({"from": from_, "to": to, **result.to_json()})
    return 0


@app.command()
def engines() -> int:
    """List the engines with macro catalogs.

    List the engines bunzai has macro catalogs for, with their sizes.

    Example: bunzai macro engines
    """
    from bunzai.macros.catalog import all_catalogs

    rows = []
    for engine, cat in sorted(all_catalogs().items()):
        row = {
            "engine": engine,
            "title": cat.title,
            "forms": len(cat.entries),
            "names": len(cat.by_key),
            "ops": len(cat.by_op),
            "comment": cat.syntax.comment is not None,
        }
        if cat.partial:
            row["partial"] = True
        if cat.note:
            row["note"] = cat.note
        rows.append(row)
    emit({"count": len(rows), "items": rows})
    return 0


def macro_lookup(
    name: Annotated[str, typer.Argument(help="A macro name, e.g. random or {{setvar}}.")],
    engine: Annotated[str | None, typer.Option("--engine", help="Only this engine's forms.")] = None,
    to: Annotated[str | None, typer.Option("--to", help="Also say what each form becomes on this engine.")] = None,
) -> int:
    """What a macro does in each engine.

    What a macro does in an engine (op, forms, notes) and what it is on another platform.

    Example: bunzai macro-lookup random --engine rolecall --to sillytavern
    """
    from bunzai.macros.lookup import macro_lookup as lookup

    emit(lookup(name, engine, to))
    return 0


def block_lookup(
    kind: Annotated[str | None, typer.Argument(help="A kind of prompt block; omit to list them.")] = None,
) -> int:
    """Kinds of prompt block, with a starting block.

    Kinds of prompt block: what each is for, how it is built, what goes wrong, a starting block.

    Example: bunzai block-lookup tracker
    """
    from bunzai.macros.blocks import block_lookup as lookup

    emit(lookup(kind))
    return 0


def _read_text(source: str) -> str:
    from bunzai.errors import BunzaiError
    from bunzai.files import read_up_to
    from bunzai.limits import MACRO_TEXT_MAX_BYTES

    if source == "-":
        data = read_up_to(sys.stdin.fileno(), MACRO_TEXT_MAX_BYTES + 1)
        where = "standard input"
    else:
        path = Path(source)
        try:
            with path.open("rb") as handle:
                data = handle.read(MACRO_TEXT_MAX_BYTES + 1)
        except FileNotFoundError:
            raise BunzaiError("not_found", f"no file at {path}", "check the path") from None
        except IsADirectoryError:
            raise BunzaiError(
                "invalid_input", f"{path} is a folder, not a text file", "name the text file itself, not its folder"
            ) from None
        where = str(path)
    if len(data) > MACRO_TEXT_MAX_BYTES:
        raise BunzaiError(
            "too_large", f"{where} is over {MACRO_TEXT_MAX_BYTES} bytes", "translate the prompts one at a time"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BunzaiError(
            "invalid_input", f"{where} is not UTF-8 text (byte {error.start})", "save the text as UTF-8"
        ) from None


def register(root: typer.Typer) -> None:
    root.command("macro-lookup")(macro_lookup)
    root.command("block-lookup")(block_lookup)
