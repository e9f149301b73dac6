"""Answers of `bunzai formats`, `bunzai --help` and the hot commands' `--help` kept ready, each
under a digest of its sources.

They are fixed by the code: `formats` by the adapter modules, the help texts by the Typer
application in `bunzai/cli/`. Building them means importing every adapter (and with them
pydantic) or every command module and Typer, several times the cost of starting Python. So
`bunzai/generated/hot.json` holds each answer beside a digest of the source files it comes
from (`bunzai/adapters/**.py`, `bunzai/cli/**.py`); the hot path uses an answer only when the
digest of the files as they are now matches, and otherwise builds it the slow way. An edited
adapter or command is never answered from a stale table; it only costs the slow path until
`make hot` writes the table again (a test checks the table is current).

The help is kept at Click's widest layout (a terminal of at least 80 columns, or no
terminal); a narrower terminal gets Typer's own rendering.

    .venv/bin/python -m bunzai.cli.hot_tables [--check]     # `make hot`
"""

from __future__ import annotations

import json
import os
import sys

TABLE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "generated", "hot.json")
_PACKAGE = os.path.dirname(os.path.dirname(__file__))
SOURCES = {"formats": "adapters", "help": "cli", "command_help": "cli"}  # answer -> the folder it comes from
HOT_COMMANDS = ("read", "list", "search", "formats")  # whose `--help` is kept (see `bunzai.cli.hot`)
HELP_COLUMNS = 80  # Click lays help out for min(columns, 80): any terminal this wide reads the same text


def sources_digest(folder: str) -> str:
    """CRC-32 and length of every `.py` file under bunzai/<folder> (relative path and bytes),
    in name order. It tells an edited source from the one the table was built from; nothing
    depends on it resisting a forged collision, and a CRC costs a tenth of a SHA here."""
    import zlib

    crc, size = 0, 0
    root = os.path.join(_PACKAGE, folder)
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(base, name)
                with open(path, "rb") as handle:
                    data = os.path.relpath(path, root).replace(os.sep, "/").encode() + b"\0" + handle.read() + b"\0"
                crc, size = zlib.crc32(data, crc), size + len(data)
    return f"{crc:08x}-{size}"


def cached(answer: str):
    """The kept answer (the formats rows, or the help text), or None when absent or stale."""
    try:
        with open(TABLE, encoding="utf-8") as handle:
            entry = json.load(handle)[answer]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(entry, dict) or entry.get("digest") != sources_digest(SOURCES[answer]):
        return None
    return entry.get("value")


def wide_terminal() -> bool:
    """Whether Click would lay help out at its full width (as `shutil.get_terminal_size` sees it)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = HELP_COLUMNS  # shutil's fallback when there is no terminal
    return columns >= HELP_COLUMNS


def build_formats() -> list[dict]:
    from bunzai.adapters.registry import all_adapters

    return [adapter.describe() for adapter in all_adapters()]


def build_help(command_name: str | None = None) -> str:
    """`bunzai --help` (or `bunzai COMMAND --help`) as Typer prints it on a wide terminal."""
    import io
    from contextlib import redirect_stdout

    from typer.main import get_command

    from bunzai.cli.app import app

    command = get_command(app)
    out = io.StringIO()
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(HELP_COLUMNS)
    try:
        with redirect_stdout(out):
            args = ["--help"] if command_name is None else [command_name, "--help"]
            command.main(args=args, prog_name="bunzai", standalone_mode=False)
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return out.getvalue()


def build_table() -> dict:
    return {
        "formats": {"digest": sources_digest("adapters"), "value": build_formats()},
        "help": {"digest": sources_digest("cli"), "value": build_help()},
        "command_help": {"digest": sources_digest("cli"), "value": {name: build_help(name) for name in HOT_COMMANDS}},
    }


def table_text(table: dict) -> str:
    return json.dumps(table, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main(args: list[str]) -> int:
    from bunzai.files import write_or_check_table

    text = table_text(build_table())
    stale = "bunzai/generated/hot.json is stale: run `make hot`"
    return write_or_check_table(TABLE, text, check=args == ["--check"], stale=stale)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
