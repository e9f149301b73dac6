"""Frames that are neither a request nor an answer are refused as Invalid Request, with their id,
so a client waiting on that id is told instead of waiting for ever."""

from __future__ import annotations

import io
import json

import pytest

from bunzai.mcp.server import Server
from bunzai.store.studio import init_studio

INIT = {"jsonrpc": "2.0", "id": "i", "method": "initialize", "params": {"protocolVersion": "2025-06-18"}}


def _answers(tmp_path, frame: dict) -> dict:
    studio, _ = init_studio(tmp_path / "studio")
    lines = [INIT, frame, {"jsonrpc": "2.0", "id": "last", "method": "ping"}]
    out = io.BytesIO()
    Server(studio, stdin=io.BytesIO(b"".join(json.dumps(line).encode() + b"\n" for line in lines)), stdout=out).serve()
    return {answer.get("id"): answer for answer in map(json.loads, out.getvalue().decode().splitlines())}


@pytest.mark.parametrize(
    "frame",
    [
        {"jsonrpc": "2.0", "id": 7},
        {"jsonrpc": "2.0", "id": 7, "method": 5},
        {"jsonrpc": "2.0", "id": 7, "method": None, "params": {}},
        {"jsonrpc": "2.0", "id": 7, "method": ["tools/list"]},
    ],
)
def test_a_frame_without_a_method_string_is_an_invalid_request(tmp_path, frame):
    answers = _answers(tmp_path, frame)
    assert answers[7]["error"]["code"] == -32600
    assert answers["last"] == {"jsonrpc": "2.0", "id": "last", "result": {}}


def test_an_answer_to_no_request_of_ours_is_still_ignored(tmp_path):
    answers = _answers(tmp_path, {"jsonrpc": "2.0", "id": 7, "result": {}})
    assert 7 not in answers and answers["last"]["result"] == {}


@pytest.mark.parametrize("method", ["notifications/initialized", "notifications/cancelled", "notifications/foo"])
def test_a_notification_sent_with_an_id_is_answered(tmp_path, method):
    # JSON-RPC answers every request: a client that gave a notification an id would wait for ever
    answers = _answers(tmp_path, {"jsonrpc": "2.0", "id": 7, "method": method, "params": {}})
    assert answers[7]["error"]["code"] == -32600
    assert "without an id" in answers[7]["error"]["message"]
    assert answers["last"]["result"] == {}


def _raw_answers(tmp_path, middle: bytes) -> list[dict]:
    studio, _ = init_studio(tmp_path / "studio")
    ping = json.dumps({"jsonrpc": "2.0", "id": "last", "method": "ping"}).encode()
    stdin = io.BytesIO(json.dumps(INIT).encode() + b"\n" + middle + b"\n" + ping + b"\n")
    out = io.BytesIO()
    assert Server(studio, stdin=stdin, stdout=out).serve() == 0
    return [json.loads(line) for line in out.getvalue().decode().splitlines()]


@pytest.mark.parametrize("depth", [300, 1_000, 100_000])
def test_a_frame_nested_past_the_limit_is_a_parse_error_and_the_server_goes_on(tmp_path, depth):
    from bunzai.limits import MCP_FRAME_MAX_DEPTH

    assert depth > MCP_FRAME_MAX_DEPTH
    frame = b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":' + b"[" * depth + b"]" * depth + b"}}"
    answers = {a.get("id"): a for a in _raw_answers(tmp_path, frame)}  # the reader answers pings and errors at once
    assert sorted(answers, key=str) == [None, "i", "last"]
    assert answers[None]["error"]["code"] == -32700 and "levels deep" in answers[None]["error"]["message"]


def test_a_frame_as_deep_as_a_wrapped_document_is_read(tmp_path):
    from bunzai.limits import WRAPPED_JSON_MAX_DEPTH

    depth = WRAPPED_JSON_MAX_DEPTH
    frame = b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":' + b"[" * depth + b"]" * depth + b"}}"
    answers = {a.get("id"): a for a in _raw_answers(tmp_path, frame)}
    assert (answers[2]["result"], answers["last"]["result"]) == ({}, {})


@pytest.mark.parametrize("constant", [b"NaN", b"Infinity", b"-Infinity"])
def test_a_frame_holding_what_json_has_not_is_a_parse_error(tmp_path, constant):
    frame = b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"studio_wait","arguments":{"timeout":'
    answers = {a.get("id"): a for a in _raw_answers(tmp_path, frame + constant + b"}}}")}
    assert answers[None]["error"]["code"] == -32700 and "is not a JSON value" in answers[None]["error"]["message"]
    assert 2 not in answers and answers["last"]["result"] == {}


def test_an_id_past_a_floats_range_is_refused_not_answered_as_infinity(tmp_path):
    answers = {a.get("id"): a for a in _raw_answers(tmp_path, b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}')}
    assert answers[None]["error"]["code"] == -32700 and "past the range" in answers[None]["error"]["message"]
