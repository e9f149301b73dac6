"""The server keeps the ids of cancelled requests only while those requests are in flight: a cancel
for a request already answered, still queued, or never sent leaves nothing behind, so a long
session does not grow the set."""

from __future__ import annotations

import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.mcp.server import Server
from bunzai.store.studio import init_studio

INIT = {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {"protocolVersion": "2025-06-18"}}


def cancel(request_id) -> dict:
    return {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}}


def call(request_id) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "studio_list"}}


def served(studio, frames: list[dict]) -> tuple[Server, dict]:
    out = io.BytesIO()
    server = Server(studio, stdin=io.BytesIO(b"".join(json.dumps(f).encode() + b"\n" for f in frames)), stdout=out)
    assert server.serve() == 0
    answers = {}
    for line in out.getvalue().decode().splitlines():
        answer = json.loads(line)
        answers.setdefault(answer.get("id"), []).append(answer)
    return server, answers


def test_cancels_of_answered_and_unknown_requests_are_not_kept(tmp_path):
    studio, _ = init_studio(tmp_path / "studio")
    frames = [INIT]
    for n in range(200):
        frames += [call(n), {"jsonrpc": "2.0", "id": f"ping-{n}", "method": "ping"}, cancel(n), cancel(f"never-{n}")]
    frames.append(call("last"))
    server, answers = served(studio, frames)
    assert server.cancelled == set() and not server.in_flight
    assert answers["last"][0]["result"]["isError"] is False  # the session still answers


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["call", "cancel"]), st.integers(0, 5)), max_size=30))
def test_no_cancelled_id_outlives_the_session(tmp_path_factory, steps):
    studio, _ = init_studio(tmp_path_factory.mktemp("studio") / "studio")
    frames = [INIT] + [call(n) if op == "call" else cancel(n) for op, n in steps]
    server, answers = served(studio, frames)
    assert server.cancelled == set() and not server.in_flight
    for op, n in steps:  # a request no cancel named is answered, once per time it was sent
        if op == "call" and ("cancel", n) not in steps:
            assert len(answers[n]) == sum(1 for step in steps if step == ("call", n))
