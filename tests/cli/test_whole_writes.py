"""Every byte of an answer reaches stdout, or the command says it could not (bunzai.cli.stdio).

CPython drops what a non-blocking pipe cannot take at once, and what an unbuffered stream's
write leaves over, without an error: a 1 MB answer arrived as its first 64 KiB, with exit 0.
A descriptor is non-blocking when the parent left O_NONBLOCK on the pipe it hands over (some
event loops do), so an agent's tool call can meet it.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
import time

import pytest
from testkit import bunzai_executable, start_writing_into, v2_card_png

_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)  # Linux: a small pipe fills on the first write


def big_book(bunzai, tmp_path) -> str:
    """A stored lorebook whose JSON is about 1 MB; its ref."""
    world = {
        "entries": {
            str(uid): {"uid": uid, "key": [f"keeper {uid}"], "content": f"The keeper of light {uid} waits. " * 100}
            for uid in range(300)
        }
    }
    path = tmp_path / "Keepers.json"
    path.write_text(json.dumps(world), encoding="utf-8")
    drafts = bunzai("import", str(path), "--id", "keepers", check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    return "lorebook/keepers"


def run_into_a_non_blocking_pipe(bunzai, args: list[str], *, buffered: bool) -> tuple[bytes, int, str]:
    """Run `bunzai ARGS` with stdout a small non-blocking pipe that is read only after a pause
    (so the pipe is full when the command writes); (all of stdout, exit status, stderr)."""
    reading, writing = os.pipe()
    try:
        fcntl.fcntl(writing, _SETPIPE_SZ, 4096)
    except OSError:  # not Linux, or not allowed: the default size still fills on a 1 MB answer
        pass
    os.set_blocking(writing, False)
    proc = start_writing_into(bunzai, args, writing, buffered=buffered)
    time.sleep(0.3)  # not an assertion on time: it lets the command meet a full pipe, as a slow reader's
    with os.fdopen(reading, "rb") as out:
        data = out.read()
    stderr = proc.stderr.read().decode("utf-8", "replace")
    return data, proc.wait(timeout=120), stderr


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_a_big_answer_reaches_a_non_blocking_pipe_whole(bunzai, tmp_path, buffered):
    ref = big_book(bunzai, tmp_path)
    expected = bunzai("read", ref, check=True).stdout.encode("utf-8")
    assert len(expected) > 1 << 20
    data, status, stderr = run_into_a_non_blocking_pipe(bunzai, ["read", ref], buffered=buffered)
    assert (status, stderr) == (0, "")
    assert hashlib.sha256(data).hexdigest() == hashlib.sha256(expected).hexdigest()


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_streamed_lines_and_a_list_reach_a_non_blocking_pipe_whole(bunzai, tmp_path, buffered):
    folder = tmp_path / "cards"
    folder.mkdir()
    for index in range(40):
        name = f"Keeper {index}"
        (folder / f"keeper-{index}.png").write_bytes(v2_card_png(name, description=f"{name} keeps a light. " * 80))
    data, status, stderr = run_into_a_non_blocking_pipe(bunzai, ["import", str(folder)], buffered=buffered)
    assert (status, stderr) == (0, "")
    drafts = data.decode("utf-8").splitlines()
    assert len(drafts) == 40 and all(json.loads(line)["type"] == "bunzai.draft" for line in drafts)
    bunzai("apply", "--yes", input=data.decode("utf-8"), check=True)
    data, status, stderr = run_into_a_non_blocking_pipe(bunzai, ["list"], buffered=buffered)
    assert (status, stderr) == (0, "")
    assert json.loads(data)["count"] == 40


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_converted_bytes_reach_a_non_blocking_pipe_whole(bunzai, tmp_path, buffered):
    card = tmp_path / "keeper.png"
    card.write_bytes(v2_card_png("Keeper", description="The keeper of the light waits. " * 8000))
    target = tmp_path / "keeper.json"
    bunzai("convert", str(card), "--to", "ccv3.json", "-o", str(target), check=True)
    data, status, stderr = run_into_a_non_blocking_pipe(
        bunzai, ["convert", str(card), "--to", "ccv3.json", "-o", "-"], buffered=buffered
    )
    assert status == 0, stderr
    assert len(data) > 1 << 16 and data == target.read_bytes()


def test_unbuffered_a_reader_gone_within_one_write_ends_with_status_1(bunzai, tmp_path):
    """Under PYTHONUNBUFFERED the answer goes out in one write; the reader leaving during it
    cut it short, and Python's text layer, ignoring the short count, let the command exit 0."""
    ref = big_book(bunzai, tmp_path)
    env = bunzai.env() | {"PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        bunzai_executable() + ["read", ref],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=bunzai.cwd,
        start_new_session=True,
    )
    assert proc.stdout.read(100)
    proc.stdout.close()
    stderr = proc.stderr.read().decode("utf-8", "replace")
    assert (proc.wait(timeout=120), stderr) == (1, "")
