"""The hot commands without Typer: `read`, `list`, `search`, `formats` and `mcp`.

Typer (with its Click and pydantic) costs more to import than these commands cost to run, so
`bunzai.cli.entry` first offers the arguments to `fast_command`. It understands only the plain
forms (`--studio DIR` before the command; the command's own options as `--name VALUE`,
`--name=VALUE` or `-k VALUE`, each at most once; integers as plain digits) and answers None for
anything else: `--help`, an unknown or repeated option, a missing or extra argument, a value
starting with `-`. Those go to Typer, which gives the same answers and the same usage errors as
before. The commands themselves are the functions below, which the Typer commands in
`pieces_cmd` and `crossing_cmd` call too, so both paths run the same code.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bunzai.cli.output import emit, say

_INT = re.compile(r"0|[1-9][0-9]{0,17}", re.ASCII)


def read_command(studio_option: str | None, ref: str, outline: bool, pointer: str | None, offset: int,
                 limit: int | None) -> int:
    from bunzai.query.reading import read_piece
    from bunzai.cli.studio_choice import open_studio

    doc, _ = read_piece(open_studio(studio_option), ref, outline=outline, pointer=pointer, offset=offset, limit=limit)
    emit(doc)
    return 0


def list_command(studio_option: str | None, kind: str | None) -> int:
    from bunzai.query.reading import list_shelf
    from bunzai.cli.studio_choice import open_studio

    doc = list_shelf(open_studio(studio_option), kind)
    emit(doc)
    if doc["damaged"]:
        say(f"bunzai: {len(doc['damaged'])} piece file(s) do not read as pieces and are listed under `damaged` "
            "(see `bunzai doctor`)")
    return 0


def search_command(studio_option: str | None, query: str, kind: str | None, limit: int | None) -> int:
    from bunzai.query.reading import search_shelf
    from bunzai.cli.studio_choice import open_studio

    emit(search_shelf(open_studio(studio_option), query, kind, limit))
    return 0


def formats_command() -> int:
    from bunzai.adapters.registry import all_adapters

    rows = [adapter.describe() for adapter in all_adapters()]
    emit({"count": len(rows), "formats": rows})
    return 0


# --- the fast path ---------------------------------------------------------------------------

# command -> (positional argument names, {option spelling: (parameter, "str" | "int" | "flag")})
_STR, _INTEGER, _FLAG = "str", "int", "flag"
_COMMANDS: dict[str, tuple[tuple[str, ...], dict[str, tuple[str, str]]]] = {
    "read": (("ref",), {"--outline": ("outline", _FLAG), "--pointer": ("pointer", _STR), "-p": ("pointer", _STR),
                        "--offset": ("offset", _INTEGER), "--limit": ("limit", _INTEGER)}),
    "list": ((), {"--kind": ("kind", _STR), "-k": ("kind", _STR)}),
    "search": (("query",), {"--kind": ("kind", _STR), "-k": ("kind", _STR), "--limit": ("limit", _INTEGER)}),
    "formats": ((), {}),
}
_DEFAULTS = {"read": {"outline": False, "pointer": None, "offset": 0, "limit": None},
             "list": {"kind": None}, "search": {"kind": None, "limit": None}, "formats": {}}


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
    studio: str | None = None
    rest = list(args)
    if rest and rest[0] == "--studio" and len(rest) > 1 and _plain(rest[1]):
        studio, rest = rest[1], rest[2:]
    elif rest and rest[0].startswith("--studio=") and _plain(rest[0][len("--studio="):] or "x"):
        studio, rest = rest[0][len("--studio="):], rest[1:]
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
