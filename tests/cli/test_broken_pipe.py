"""A reader that stops early (`bunzai list --nl | head -1`) ends the command quietly.

When the other end of stdout closes, writing to it fails with EPIPE. bunzai then stops where it
is, with no traceback and no "internal error" (which it could not print anyway), and exits 1,
as Click does for the commands that go through Typer: the hot commands, which do not, must
end the same way. A read-only command has changed nothing when it stops.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from testkit import bunzai_executable, corpus_path, start_writing_into, v2_card_png


def first_line_then_close(bunzai, *args: str) -> tuple[bytes, int, str]:
    """Run `bunzai ARGS`, read one line of its stdout, close the pipe; (line, exit status, stderr)."""
    proc = subprocess.Popen(
        bunzai_executable() + list(args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=bunzai.env(),
        cwd=bunzai.cwd,
        start_new_session=True,
    )
    line = proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode("utf-8", "replace")
    return line, proc.wait(timeout=120), stderr


def cards(folder, count: int):
    """`count` small V2 card PNGs, each with a long description, so that their drafts fill
    more than a pipe's buffer (64 KiB on Linux)."""
    folder.mkdir()
    for index in range(count):
        name = f"Keeper {index} of the Northern Light on the Drowned Coast"
        (folder / f"keeper-{index}.png").write_bytes(v2_card_png(name, description=f"{name} keeps a light. " * 60))
    return folder


def test_import_into_a_closed_pipe_stops_quietly(bunzai, tmp_path):
    folder = cards(tmp_path / "cards", 60)
    line, status, stderr = first_line_then_close(bunzai, "import", str(folder))
    assert json.loads(line)["type"] == "bunzai.draft"
    assert status == 1, stderr
    assert stderr == ""


def test_list_into_a_closed_pipe_stops_quietly_and_changes_nothing(bunzai, tmp_path):
    drafts = bunzai("import", str(cards(tmp_path / "cards", 400)), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    assert len(bunzai("list", "--nl", check=True).stdout.encode()) > 1 << 16  # past the pipe's buffer
    before = sorted(path.name for path in (bunzai.studio / "character").iterdir())
    line, status, stderr = first_line_then_close(bunzai, "list", "--nl")  # the hot path, without Typer
    assert json.loads(line)["kind"] == "character"
    assert (status, stderr) == (1, "")
    assert sorted(path.name for path in (bunzai.studio / "character").iterdir()) == before


def into_a_closed_pipe(bunzai, args: list[str], *, buffered: bool) -> tuple[int, str]:
    """Run `bunzai ARGS` with stdout a pipe whose reading end is closed before it starts, so its
    first write (or flush) fails; (exit status, stderr). `buffered` False runs Python unbuffered
    (PYTHONUNBUFFERED), where a write fails at once rather than at the flush."""
    reading, writing = os.pipe()
    os.close(reading)
    proc = start_writing_into(bunzai, args, writing, buffered=buffered)
    stderr = proc.stderr.read()
    proc.wait(timeout=60)
    return proc.returncode, stderr.decode("utf-8", "replace")


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize(
    "args",
    [
        ["read", "nobody"],  # an error document, on the hot path
        ["lsit"],  # a usage error, from Typer
        ["import", "/no/such/file.png"],  # an error document in a stream
        ["formats"],  # an answer
        ["--version"],  # answered before anything else is imported
        ["list", "--kind", "character"],  # an answer, through Typer
    ],
    ids=" ".join,
)
def test_a_reader_gone_before_the_command_starts(bunzai, args, buffered):
    """An error document bunzai means to print is no exception."""
    assert into_a_closed_pipe(bunzai, args, buffered=buffered) == (1, "")


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_text_a_command_leaves_unflushed_meets_the_closed_pipe_before_exit(bunzai, buffered):
    """`render --text` writes the prompt without flushing: buffered, the write first fails in the
    flush after the command has returned, which must end the same way."""
    preset = corpus_path("sillytavern", "presets", "openai", "Default.json")
    drafts = bunzai("import", str(preset), "--id", "default", check=True).stdout
    drafts += bunzai(
        "create", "character", "--input", '{"name": "Ada", "body": {"description": "A"}}', check=True
    ).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    assert bunzai("render", "preset/default", "-c", "character/ada", "--text", check=True).stdout.strip()
    args = ["render", "preset/default", "-c", "character/ada", "--text"]
    assert into_a_closed_pipe(bunzai, args, buffered=buffered) == (1, "")
