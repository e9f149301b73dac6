"""A client that closes the server's stdout but keeps its stdin open: the server ends quietly.

Nothing more can reach such a client. Whichever thread finds it gone (the main thread
answering a request, or the reader answering a ping), `bunzai mcp` exits 1 with nothing on
stderr beyond its opening line: no traceback, and no "Fatal Python error" from Python's
shutdown meeting the reader thread still blocked on stdin (which killed it with SIGABRT).
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from bunzai.store.studio import init_studio
from testkit import bunzai_executable, v2_card_png

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "tests", "version": "1"}},
}


def frame(message: dict) -> bytes:
    return json.dumps(message).encode("utf-8") + b"\n"


def end_of(proc: subprocess.Popen) -> tuple[int, list[str]]:
    """(exit status, stderr's lines) of the server, which must end by itself within a minute."""
    status = proc.wait(timeout=60)
    proc.stdin.close()
    return status, proc.stderr.read().decode("utf-8", "replace").splitlines()


@pytest.mark.parametrize(
    "last",
    [
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},  # answered by the main thread
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},  # answered by the reader thread
    ],
    ids=lambda message: message["method"],
)
def test_a_client_that_stops_reading_ends_the_server_quietly(tmp_path, last):
    studio = tmp_path / "studio"
    init_studio(studio)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")} | {"HOME": str(tmp_path)}
    proc = subprocess.Popen(
        bunzai_executable() + ["mcp", str(studio)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
    )
    try:
        proc.stdin.write(frame(INITIALIZE))
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        proc.stdout.close()  # the client stops reading, and keeps stdin open
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "notifications/initialized"}) + frame(last))
        proc.stdin.flush()
        ended = end_of(proc)
    finally:
        if proc.poll() is None:  # a failed step: the server is not left behind
            proc.kill()
    assert ended == (1, [f"bunzai mcp: serving studio {studio} (read-write) on stdio"])


def test_an_answer_cut_short_by_a_client_leaving_ends_the_server_even_unbuffered(tmp_path):
    """Under PYTHONUNBUFFERED stdout is a raw file, whose write may take part of a frame and
    return: the server writes the rest, which finds the client gone, so it ends (exit 1) instead
    of waiting for the next request with half an answer sent."""
    studio, home = tmp_path / "studio", tmp_path / "home"
    init_studio(studio)
    home.mkdir()
    cards = tmp_path / "cards"
    cards.mkdir()
    for index in range(300):
        name = f"Keeper {index} of the Northern Light"
        (cards / f"keeper-{index}.png").write_bytes(v2_card_png(name, seed=index))
    env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")} | {"HOME": str(home)}
    drafts = subprocess.run(bunzai_executable() + ["import", str(cards)], env=env, capture_output=True, check=True)
    subprocess.run(
        bunzai_executable() + ["--studio", str(studio), "apply", "--yes"],
        input=drafts.stdout,
        env=env,
        capture_output=True,
        check=True,
    )
    proc = subprocess.Popen(
        bunzai_executable() + ["mcp", str(studio)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env | {"PYTHONUNBUFFERED": "1"},
        cwd=tmp_path,
    )
    try:
        proc.stdin.write(frame(INITIALIZE) + frame({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "studio_list", "arguments": {}}}
        proc.stdin.write(frame(call))
        proc.stdin.flush()
        assert proc.stdout.read(1000)  # a part of an answer larger than the pipe holds (64 KiB)
        proc.stdout.close()  # the client leaves, and keeps stdin open
        ended = end_of(proc)
    finally:
        if proc.poll() is None:  # a failed step: the server is not left behind
            proc.kill()
    assert ended == (1, [f"bunzai mcp: serving studio {studio} (read-write) on stdio"])
