"""`bunzai mcp` under a client whose pipes are non-blocking (bunzai.cli.stdio).

O_NONBLOCK belongs to a pipe, and some event loops leave it set on the pipes they hand a
child (Bun's, for one). The server took the first empty read of such a stdin for the end of
its input and left at once, answering nothing; a frame longer than the pipe's buffer was cut.
Here frames arrive in pieces, with pauses, and an answer is larger than the pipe's buffer.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import time

from bunzai.store.studio import init_studio
from testkit import bunzai_executable

_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)


def frame(message: dict) -> bytes:
    return json.dumps(message).encode("utf-8") + b"\n"


def test_frames_in_pieces_and_a_big_answer_through_non_blocking_pipes(tmp_path):
    studio = tmp_path / "studio"
    init_studio(studio)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")} | {"HOME": str(tmp_path)}
    stdin_read, stdin_write = os.pipe()
    stdout_read, stdout_write = os.pipe()
    try:
        fcntl.fcntl(stdout_write, _SETPIPE_SZ, 4096)
    except OSError:  # not Linux, or not allowed: the tools list still passes the default size
        pass
    os.set_blocking(stdin_read, False)
    os.set_blocking(stdout_write, False)
    proc = subprocess.Popen(
        bunzai_executable() + ["mcp", str(studio)],
        stdin=stdin_read,
        stdout=stdout_write,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
    )
    os.close(stdin_read)
    os.close(stdout_write)
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    try:
        time.sleep(0.4)  # a pause, not an assertion: the server meets an empty stdin first
        for message in messages:
            data = frame(message)
            os.write(stdin_write, data[:7])
            time.sleep(0.2)  # the rest of the frame comes later, as from a slow client
            os.write(stdin_write, data[7:])
        time.sleep(0.5)  # the answers fill the small stdout pipe before anything reads it
        answers: dict[int, dict] = {}
        with os.fdopen(stdout_read, "rb") as out:
            while len(answers) < 2:
                line = out.readline()
                assert line, proc.stderr.read().decode("utf-8", "replace")
                answer = json.loads(line)
                answers[answer["id"]] = answer
                if len(answers) == 2:
                    os.close(stdin_write)  # the client is done: the server ends
    except BaseException:
        proc.kill()
        raise
    assert answers[1]["result"]["serverInfo"]["name"] == "bunzai"
    tools = answers[2]["result"]["tools"]
    assert len(json.dumps(answers[2])) > 4096 and any(tool["name"] == "studio_read" for tool in tools)
    assert proc.wait(timeout=60) == 0
