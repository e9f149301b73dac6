"""Shell completion of values: kinds, format ids, engines and piece refs from the studio.

Completion runs on every <TAB>, so it stays light: piece refs come from listing the kind
folders (no piece is read), and nothing here fails loudly (a shell shows no error).
"""

import os

import typer

# No `from __future__ import annotations`: Typer reads these annotations to pass ctx and incomplete.


def kinds(incomplete: str) -> list[str]:
    from bunzai.model import KIND_NAMES

    return [kind for kind in KIND_NAMES if kind.startswith(incomplete)]


def formats(incomplete: str) -> list[str]:
    from bunzai.adapters.registry import all_adapters

    return [adapter.format_id for adapter in all_adapters() if adapter.format_id.startswith(incomplete)]


def engines(incomplete: str) -> list[str]:
    from bunzai.macros.catalog import engine_ids

    return [engine for engine in engine_ids() if engine.startswith(incomplete)]


def piece_refs(ctx: typer.Context, incomplete: str) -> list[str]:
    """Bare ids (kind/id when a kind is typed, or when several kinds hold the id) of the
    studio's pieces that start with `incomplete`."""
    from bunzai import limits
    from bunzai.errors import BunzaiError
    from bunzai.model import KIND_NAMES
    from bunzai.store.studio import find_studio

    try:
        studio = find_studio(_studio_given(ctx), create=False)
    except BunzaiError:
        return []
    held: dict[str, list[str]] = {}
    seen = 0
    for kind in KIND_NAMES:
        try:
            entries = os.scandir(studio.root / kind)
        except OSError:
            continue
        with entries:
            for entry in entries:
                seen += 1
                if seen > limits.WALK_MAX_ENTRIES:
                    break
                if entry.name.endswith(".json") and not entry.name.startswith("."):
                    held.setdefault(entry.name[: -len(".json")], []).append(kind)
    offered = []
    for piece_id, kinds_holding in sorted(held.items()):
        for kind in kinds_holding:
            ref = f"{kind}/{piece_id}"
            if "/" in incomplete or len(kinds_holding) > 1:
                if ref.startswith(incomplete):
                    offered.append(ref)
            elif piece_id.startswith(incomplete):
                offered.append(piece_id)
    return offered


def _studio_given(ctx: typer.Context | None) -> str | None:
    """The --studio of the line being completed, before the command or after it.

    A command line is run with `--studio` moved to the front (cli.entry.studio_first), but
    click parses the completion words as typed, so after the command it is read from them."""
    root = ctx.find_root() if ctx is not None else None
    option = root.params.get("studio") if root is not None else None
    if option:
        return option
    words = shell_words(os.environ.get("COMP_WORDS", ""))[1:]
    for index, word in enumerate(words):
        if word == "--studio" and index + 1 < len(words):
            return words[index + 1]
        if word.startswith("--studio="):
            return word[len("--studio=") :]
    return None


def shell_words(line: str) -> list[str]:
    """The words of a command line being typed, as a POSIX shell splits them; an unclosed
    quote or a trailing backslash (the word still being typed) ends the last word as it is.
    (The standard library's shlex, not click's helper: click is not among bunzai's
    dependencies, and Typer no longer brings it.)"""
    import shlex

    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    try:
        words.extend(lexer)
    except ValueError:  # the line ends inside a quote or after an escape: keep what was typed
        words.append(lexer.token)
    return words
