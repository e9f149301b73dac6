"""The server in-process on byte streams: whatever arrives, stdout gets only JSON-RPC frames."""

from __future__ import annotations

import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.mcp.server import Server
from bunzai.store.studio import init_studio

INIT = {
    "jsonrpc": "2.0",
    "id": "i",
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def serve(studio, lines: list[bytes]) -> list[dict]:
    out = io.BytesIO()
    Server(studio, stdin=io.BytesIO(b"".join(line + b"\n" for line in lines)), stdout=out).serve()
    text = out.getvalue().decode("utf-8")
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


junk = st.one_of(
    st.binary(max_size=40).filter(lambda b: b"\n" not in b),
    st.text(max_size=40).map(lambda t: t.replace("\n", " ").encode("utf-8", "surrogatepass")),
    st.sampled_from(
        [
            '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[1]}}',
            '{"jsonrpc":"2.0","id":{},"method":"ping"}',
            '{"jsonrpc":"2.0","id":"r","result":{}}',
            '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":3}}',
            '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"studio_read","arguments":[]}}',
        ]
    ).map(str.encode),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(["jsonrpc", "id", "method", "params", "requestId", "x"]), inner, max_size=4
            )
        ),
        max_leaves=8,
    ).map(lambda value: json.dumps(value).encode()),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(junk, max_size=6))
def test_junk_never_breaks_the_framing(tmp_path, lines):
    studio, _ = init_studio(tmp_path / "studio")
    answers = serve(studio, [json.dumps(INIT).encode(), *lines, b'{"jsonrpc":"2.0","id":"last","method":"ping"}'])
    for answer in answers:
        assert answer.get("jsonrpc") == "2.0"
        assert ("result" in answer) != ("error" in answer) or "method" in answer
    by_id = {answer.get("id"): answer for answer in answers}  # a ping is answered at once, out of order
    assert by_id["i"]["result"]["serverInfo"]["name"] == "bunzai"
    assert by_id["last"] == {"jsonrpc": "2.0", "id": "last", "result": {}}


def test_a_tool_call_in_process(tmp_path):
    studio, _ = init_studio(tmp_path / "studio")
    answers = serve(
        studio,
        [
            json.dumps(INIT).encode(),
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 2,
                    "method": "tools/call",
                    "params": {"name": "studio_list", "arguments": {"kind": "lorebook"}},
                }
            ).encode(),
        ],
    )
    assert answers[1]["result"]["structuredContent"]["count"] == 0
