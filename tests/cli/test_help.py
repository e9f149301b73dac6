"""`--help` as people read it: every short summary fits its line, every `Example:` runs.

Both walk the real Typer app, so a new command is covered the day it is registered.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from bunzai.cli.app import app
from testkit import CORPUS

_WIDTH = 78  # click's help width on an 80-column terminal; a command row is indented and padded


def _commands(group=None, path=()):
    group = group or typer.main.get_command(app)
    names = group.list_commands(None)
    room = _WIDTH - 6 - max(len(name) for name in names)  # what click leaves for a row's summary
    for name in names:
        command = group.get_command(None, name)
        yield " ".join(path + (name,)), command, room
        if hasattr(command, "list_commands"):
            yield from _commands(command, path + (name,))


def test_every_command_summary_is_one_whole_sentence_that_fits_its_row() -> None:
    cut = []
    for name, command, room in _commands():
        first = " ".join((command.help or "").split("\n\n")[0].split())
        if not first.endswith(".") or len(first) > room or command.get_short_help_str(limit=room) != first:
            cut.append(f"{name}: {first!r} ({len(first)} > {room}?)")
    assert cut == []


def _examples() -> list[tuple[str, str]]:
    found = []
    for name, command, _ in _commands():
        for line in (command.help or "").splitlines():
            if line.strip().startswith("Example:"):
                found.append((name, line.strip()[len("Example:") :].strip()))
    return found


# Examples that cannot run as printed in a throwaway folder, each with the reason.
_NOT_RUN = {
    "mcp": "runs the `claude` client, not bunzai",
    "graveyard restore": "an entry's name holds the time it was buried",
    "docs summaries scaffold": "writes the project's own docs/summaries (tests/docs/test_docs_summaries.py covers it)",
    "docs summaries stamp": "writes the project's own docs/summaries",
    "docs summaries review": "writes the project's own docs/summary-reviews",
    "docs summaries check": "its answer depends on the review state of the project's pages (make check runs it)",
}
# Examples whose documented answer is a non-zero exit.
_EXITS = {"preset-verify": (0, 1)}

_SETUP = """
set -e
bunzai init "$BUNZAI_STUDIO" >/dev/null
cp "$CORPUS/sillytavern/characters/default_Seraphina.png" Seraphina.png
cp Seraphina.png card.png
cp "$CORPUS/sillytavern/presets/instruct/ChatML.json" ChatML.json
bunzai import Seraphina.png | bunzai apply --yes >/dev/null
bunzai import "$CORPUS/sillytavern/presets/openai/Default.json" | bunzai apply --yes >/dev/null
bunzai create character --input '{"name": "Ada Lovelace", "description": "Lovelace wrote the first program."}' \\
  | bunzai apply --yes >/dev/null
bunzai duplicate ada-lovelace ada-2 | bunzai apply --yes >/dev/null
bunzai create regex --input '{"name": "Display"}' | bunzai apply --yes >/dev/null
bunzai create regex --input '{"name": "My rules"}' | bunzai apply --yes >/dev/null
bunzai create promptbook --input '{"name": "My book", "starter": "think-then-write"}' | bunzai apply --yes >/dev/null
bunzai cap run character.identity.update seraphina --input '{"nickname": "Sera"}' \\
  --save --name seraphina-rename >/dev/null
printf '<div class="mood">{{mood}}</div>\\n' > card.html
printf '{"user_name":"You","character_name":"Seraphina"}\\n{"name":"You","is_user":true,"mes":"Hello"}\\n' > chat.jsonl
mkdir -p SillyTavern/data/default-user/worlds SillyTavern/data/default-user/characters
cp "$CORPUS/sillytavern/worlds/Eldoria.json" SillyTavern/data/default-user/worlds/
printf '{"entries": {"0": {"uid": 0, "key": ["moon"], "content": "The moon is red.", "comment": "Moon"}}}' \\
  > SillyTavern/data/default-user/worlds/Moonfall.json
cp Seraphina.png SillyTavern/data/default-user/characters/
"""


def _env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")}
    env.update(
        HOME=str(home),
        BUNZAI_STUDIO=str(home / "studio"),
        CORPUS=str(CORPUS),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
    )
    return env


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Path:
    """A home with a studio holding Seraphina (from the corpus), Ada, presets, and a SillyTavern folder."""
    if not CORPUS.is_dir():
        pytest.skip(f"the help examples use Seraphina from {CORPUS}, which is absent")
    home = tmp_path_factory.mktemp("prepared") / "home"
    home.mkdir()
    subprocess.run(["bash", "-c", _SETUP], cwd=home, env=_env(home), check=True, capture_output=True, timeout=300)
    return home


def test_every_help_example_is_collected_and_the_unrun_ones_are_named() -> None:
    names = [name for name, _ in _examples()]
    assert len(names) >= 60 and set(_NOT_RUN) <= set(names)


@pytest.mark.parametrize("name,example", [pytest.param(n, e, id=n) for n, e in _examples() if n not in _NOT_RUN])
def test_help_example_runs_as_printed(name: str, example: str, prepared: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(prepared, home, symlinks=True)
    if name.startswith("folder "):  # a grant keeps the real path, so it is made in this copy
        example = f"bunzai folder grant ~/SillyTavern/data/default-user >/dev/null && {example}"
    proc = subprocess.run(
        ["bash", "-o", "pipefail", "-c", example],
        cwd=home,
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=120,
        start_new_session=True,
    )
    assert proc.returncode in _EXITS.get(name, (0,)), (
        f"{name}: `{example}` exited {proc.returncode}: {proc.stdout[-800:]} {proc.stderr[-800:]}"
    )
