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
