"""The wire, frame by frame: negotiation, ping, refusals, cancellation, start-up line, drop-in tools."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
from pathlib import Path

import pytest

import bunzai.tools as tools_package
from testkit import bunzai_executable


class Wire:
    def __init__(self, bunzai, *extra: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")} | {"HOME": str(bunzai.home)}
        self.proc = subprocess.Popen(
            bunzai_executable() + ["mcp", str(bunzai.studio), *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=bunzai.home,
        )

    def send(self, message) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def receive(self) -> dict:
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        assert ready, "the server said nothing for 60 s"
        line = self.proc.stdout.readline()
        assert line.endswith(b"\n"), line
        return json.loads(line)

    def request(self, request_id, method, params=None) -> dict:
        self.send(
            {"jsonrpc": "2.0", "id": request_id, "method": method, **({"params": params} if params is not None else {})}
        )
        return self.receive()

    def initialize(self, version="2025-06-18", capabilities=None) -> dict:
        answer = self.request(
            0,
            "initialize",
            {
                "protocolVersion": version,
                "capabilities": capabilities or {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def close(self) -> tuple[bytes, bytes]:
        out, err = self.proc.communicate(timeout=60)
        return out, err


@pytest.fixture
def wire(bunzai):
    opened = []

    def make(*extra):
        opened.append(Wire(bunzai, *extra))
        return opened[-1]

    yield make
    for item in opened:
        if item.proc.poll() is None:
            item.proc.kill()
            item.proc.wait()


@pytest.mark.parametrize(
    "asked, answered",
    [
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2024-11-05"),
        ("2099-01-01", "2025-11-25"),
    ],
)
def test_version_negotiation(wire, asked, answered):
    server = wire()
    result = server.initialize(asked)["result"]
    assert result["protocolVersion"] == answered
    assert result["capabilities"]["tools"] == {"listChanged": True}
    listed = server.request(1, "tools/list")["result"]["tools"]
    assert all(("annotations" in tool) == (answered >= "2025-03-26") for tool in listed)
    called = server.request(2, "tools/call", {"name": "studio_list", "arguments": {}})["result"]
    assert ("structuredContent" in called) == (answered >= "2025-06-18")


def test_stdout_holds_only_frames_and_stderr_one_line(wire):
    server = wire()
    server.initialize()
    assert server.request(1, "ping") == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert server.request(2, "no/such")["error"]["code"] == -32601
    server.send(b"{not json")
    assert server.receive()["error"]["code"] == -32700
    server.send([{"jsonrpc": "2.0", "id": 3, "method": "ping"}])
    assert server.receive()["error"]["code"] == -32600
    out, err = server.close()
    assert out == b"" and server.proc.returncode == 0
    lines = err.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bunzai mcp: serving studio ")


def test_tools_need_initialize_first(wire):
    server = wire()
    assert server.request(1, "tools/list")["error"]["code"] == -32600


def test_cancelled_call_gets_no_answer(wire):
    server = wire()
    server.initialize(capabilities={"elicitation": {}})
    server.send(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": "ask_choice", "arguments": {"question": "Which?", "choices": ["a", "b"]}},
        }
    )
    asked = server.receive()
    assert asked["method"] == "elicitation/create" and asked["params"]["requestedSchema"]["properties"]["choice"][
        "enum"
    ] == ["a", "b"]
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7, "reason": "test"}})
    assert server.request(8, "ping") == {"jsonrpc": "2.0", "id": 8, "result": {}}
    assert (
        server.request(9, "tools/call", {"name": "studio_list", "arguments": {}})["id"] == 9
    )  # nothing for 7 came first


def test_elicitation_answer_reaches_the_tool(wire):
    server = wire()
    server.initialize(capabilities={"elicitation": {}})
    server.send(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": "ask_choice", "arguments": {"question": "Which?", "choices": ["a", "b"]}},
        }
    )
    asked = server.receive()
    server.send({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {"choice": "z"}}})
    assert server.receive()["result"]["structuredContent"] == {
        "action": "cancel",
        "choice": None,
    }  # not one of the choices


def test_a_dropped_in_module_appears_with_no_other_edit(wire, bunzai, tmp_path, monkeypatch):
    # The module is dropped into a copy of the package, first on the server's PYTHONPATH, so the
    # checkout's bunzai/tools/ stays as it is for the tests running beside this one.
    package = Path(tools_package.__file__).resolve().parents[1]
    shutil.copytree(package, tmp_path / "src" / "bunzai", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "src"))
    name = "zz_probe"
    module = tmp_path / "src" / "bunzai" / "tools" / f"{name}.py"
    module.write_text(f'''"""A tool dropped in by a test."""
from pydantic import Field
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    word: str = Field(description="A word.")


def run(ctx, args):
    print("a stray print must not reach the client")  # stdout is the client's
    return {{"echo": untrusted(args.word)}}


TOOL = Tool(name="{name}", description="Echo a word back.", input_model=Args, effect="read", run=run)
''')
    server = wire()
    server.initialize()
    tools = {tool["name"]: tool for tool in server.request(1, "tools/list")["result"]["tools"]}
    assert tools[name]["annotations"]["readOnlyHint"] is True
    called = server.request(2, "tools/call", {"name": name, "arguments": {"word": "hi\u200b"}})["result"]
    assert called["structuredContent"]["echo"]["data"] == "hi"
    assert called["structuredContent"]["echo"]["omitted"]["invisible"] == 1


def test_a_missing_studio_writes_nothing_on_stdout(bunzai, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")} | {"HOME": str(bunzai.home)}
    proc = subprocess.run(
        bunzai_executable() + ["mcp", str(tmp_path / "nowhere")], input=b"", capture_output=True, env=env, timeout=60
    )
    assert proc.returncode == 1 and proc.stdout == b""
    assert "studio_missing" in proc.stderr.decode()


def test_global_studio_option_and_read_only(bunzai):
    env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")} | {"HOME": str(bunzai.home)}
    frames = [
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
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    data = "".join(json.dumps(frame) + "\n" for frame in frames).encode()
    proc = subprocess.run(
        bunzai_executable() + ["--studio", str(bunzai.studio), "mcp", "--read-only"],
        input=data,
        capture_output=True,
        env=env,
        cwd=bunzai.home,
        timeout=60,
    )
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    names = {tool["name"] for tool in answers[1]["result"]["tools"]}
    assert "studio_read" in names and "change_apply" not in names
    assert f"serving studio {bunzai.studio}" in proc.stderr.decode() and "read-only" in proc.stderr.decode()
