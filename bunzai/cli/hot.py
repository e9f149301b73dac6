"""The hot commands without Typer: `read`, `list`, `search`, `formats` and `mcp`.

Typer (with its Click and pydantic) costs more to import than these commands cost to run, so
`bunzai.cli.entry` first offers the arguments to `fast_command`. It understands only the plain
forms (`--studio DIR` before the command; the command's own options as `--name VALUE`,
`--name=VALUE` or `-k VALUE`, each at most once; integers as plain digits) and answers None for
anything else: an unknown or repeated option, a missing or extra argument, a value
starting with `-`. Those go to Typer, which gives the same answers and the same usage errors as
before. `bunzai --help` and `bunzai COMMAND --help` of these commands are answered from the
kept table (`hot_tables`) while it is current. The commands themselves are the functions below, which the Typer
commands in
`pieces_cmd` and `crossing_cmd` call too, so both paths run the same code.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

from bunzai.cli.output import emit, say, to_text

_INT = re.compile(r"0|[1-9][0-9]{0,17}", re.ASCII)


def read_command(
    studio_option: str | None, ref: str, outline: bool, pointer: str | None, offset: int, limit: int | None
) -> int:
    from bunzai.query.reading import read_piece
    from bunzai.cli.studio_choice import open_studio

    doc, _ = read_piece(open_studio(studio_option), ref, outline=outline, pointer=pointer, offset=offset, limit=limit)
    emit(doc)
    return 0


def list_command(studio_option: str | None, kind: str | None, links_to: str | None = None) -> int:
    from bunzai.model import KIND_NAMES
    from bunzai.query.index import list_pieces, listed_pieces
    from bunzai.changes.hidden_chars import json_escaped
    from bunzai.cli.output import output_mode, stdout_is_utf8
    from bunzai.cli.studio_choice import open_studio
    from bunzai.validate import check_kind

    studio = open_studio(studio_option)
    kinds = KIND_NAMES if kind is None else (check_kind(kind),)
    compact = not sys.stdout.isatty() and output_mode() == "json" and stdout_is_utf8()
    if links_to is not None:
        from bunzai.query.reading import linking_shelf

        doc = linking_shelf(studio, links_to, kind)
        damaged = doc["damaged"]
        emit(doc)
    elif compact:  # the rows' JSON is in the index
        listed, damaged = listed_pieces(studio, kinds)
        text = f'{{"count":{len(listed)},"items":[{",".join(listed)}],"damaged":{to_text(damaged, pretty=False)}}}\n'
        sys.stdout.write(json_escaped(text))  # the rows as the index keeps them: escaped here, as emit does
        sys.stdout.flush()
    else:
        rows, damaged = list_pieces(studio, kinds)
        emit({"count": len(rows), "items": rows, "damaged": damaged})
    if damaged:  # named here too: --table and --nl print the items alone
        named = ", ".join(f"{row['kind']}/{row['id']}" for row in damaged[:5]) + (", ..." if len(damaged) > 5 else "")
        say(
            f"bunzai: {len(damaged)} piece file(s) do not read as pieces ({named}); the JSON answer lists "
            "them under `damaged` (see `bunzai doctor`)"
        )
    return 0


def search_command(studio_option: str | None, query: str, kind: str | None, limit: int | None) -> int:
    from bunzai.query.reading import search_shelf
    from bunzai.cli.studio_choice import open_studio

    emit(search_shelf(open_studio(studio_option), query, kind, limit))
    return 0


def formats_command() -> int:
    from bunzai.cli.hot_tables import build_formats, cached

    rows = cached("formats")  # the registry's rows, kept under a digest of the adapter sources
    if rows is None:
        rows = build_formats()
    emit({"count": len(rows), "items": rows})
    return 0


def _kept_help(command_name: str | None = None) -> Callable[[], int] | None:
    """`bunzai --help` (or `bunzai COMMAND --help`) from the kept table (see `hot_tables`),
    when it is current and the terminal is wide enough to read the same text."""
    from bunzai.cli.hot_tables import cached, wide_terminal

    if not wide_terminal():
        return None
    if command_name is None:
        text = cached("help")
    else:
        texts = cached("command_help")
        text = texts.get(command_name) if isinstance(texts, dict) else None
    if not isinstance(text, str):
        return None

    def show() -> int:
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0

    return show


# --- the fast path ---------------------------------------------------------------------------

# command -> (positional argument names, {option spelling: (parameter, "str" | "int" | "flag")})
_STR, _INTEGER, _FLAG = "str", "int", "flag"
_COMMANDS: dict[str, tuple[tuple[str, ...], dict[str, tuple[str, str]]]] = {
    "read": (
        ("ref",),
        {
            "--outline": ("outline", _FLAG),
            "--pointer": ("pointer", _STR),
            "-p": ("pointer", _STR),
            "--offset": ("offset", _INTEGER),
            "--limit": ("limit", _INTEGER),
        },
    ),
    "list": ((), {"--kind": ("kind", _STR), "-k": ("kind", _STR), "--links-to": ("links_to", _STR)}),
    "search": (("query",), {"--kind": ("kind", _STR), "-k": ("kind", _STR), "--limit": ("limit", _INTEGER)}),
    "formats": ((), {}),
}
_DEFAULTS = {
    "read": {"outline": False, "pointer": None, "offset": 0, "limit": None},
    "list": {"kind": None, "links_to": None},
    "search": {"kind": None, "limit": None},
    "formats": {},
}


def _plain(arg: str) -> bool:
    """An argument the fast path may take as a value: no leading dash, valid UTF-8."""
    if arg.startswith("-"):
        return False
    try:
        arg.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def fast_command(args: list[str]) -> Callable[[], int] | None:
    """The command to run for `args` without Typer, or None to leave them to Typer."""
    if args in (["--help"], ["-h"]):
        return _kept_help()
    if len(args) == 2 and args[0] in _COMMANDS and args[1] in ("--help", "-h"):
        return _kept_help(args[0])
    studio: str | None = None
    rest = list(args)
    if rest and rest[0] == "--studio" and len(rest) > 1 and _plain(rest[1]):
        studio, rest = rest[1], rest[2:]
    elif rest and rest[0].startswith("--studio=") and _plain(rest[0][len("--studio=") :] or "x"):
        studio, rest = rest[0][len("--studio=") :], rest[1:]
    if rest and rest[0] == "mcp":
        return _mcp_command(studio, rest[1:])
    if not rest or rest[0] not in _COMMANDS:
        return None
    name = rest[0]
    positional_names, options = _COMMANDS[name]
    values: dict[str, object] = dict(_DEFAULTS[name])
    seen: set[str] = set()
    positional: list[str] = []
    tokens = rest[1:]
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if not token.startswith("-"):
            if not _plain(token):
                return None
            positional.append(token)
            continue
        spelling, value = (token.split("=", 1) + [None])[:2] if token.startswith("--") else (token, None)
        if spelling not in options:
            return None
        parameter, form = options[spelling]
        if parameter in seen:
            return None
        seen.add(parameter)
        if form == _FLAG:
            if value is not None:
                return None
            values[parameter] = True
            continue
        if value is None:
            if index >= len(tokens):
                return None
            value = tokens[index]
            index += 1
        if not _plain(value) and value != "":
            return None
        if form == _INTEGER:
            if not _INT.fullmatch(value):
                return None
            values[parameter] = int(value)
        else:
            values[parameter] = value
    if len(positional) != len(positional_names):
        return None
    values.update(zip(positional_names, positional))
    if name == "read":
        return lambda: read_command(studio, **values)  # type: ignore[arg-type]
    if name == "list":
        return lambda: list_command(studio, **values)  # type: ignore[arg-type]
    if name == "search":
        return lambda: search_command(studio, **values)  # type: ignore[arg-type]
    return formats_command


def _mcp_command(studio: str | None, tokens: list[str]) -> Callable[[], int] | None:
    """`mcp [STUDIO] [--read-only]`: the server starts without Typer, so a client's first
    answer comes as soon as Python is up."""
    flags = [token for token in tokens if token == "--read-only"]
    named = [token for token in tokens if token != "--read-only"]
    if len(flags) > 1 or len(named) > 1 or not all(_plain(token) for token in named):
        return None

    def run() -> int:
        from bunzai.mcp.server import serve

        return serve(named[0] if named else studio, read_only=bool(flags))

    return run
