"""Arguments that fail a tool's schema: the tool's error result from 2025-11-25 on (SEP-1303), so the
model reads what was wrong and calls again; InvalidParams (-32602) in the revisions before, whose spec
lists invalid arguments as protocol errors. An unknown tool, or a request whose name or arguments are
not of tools/call's shape, is InvalidParams in every revision."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.capabilities.discovery import find_capability
from bunzai.mcp.protocol import ARGUMENT_ERRORS_AS_RESULTS_FROM, PROTOCOL_VERSIONS, ProtocolError
from bunzai.mcp.server import Server
from bunzai.store.studio import Studio
from ada_studio import ada_studio, dispatcher  # noqa: F401 - ada_studio is the studio fixture
from mcpkit import connect, run

NEWER = [v for v in PROTOCOL_VERSIONS if v >= ARGUMENT_ERRORS_AS_RESULTS_FROM]
OLDER = [v for v in PROTOCOL_VERSIONS if v < ARGUMENT_ERRORS_AS_RESULTS_FROM]
BAD_CALLS = [
    ("studio_read", {"ref": 42}, "ref"),
    ("studio_read", {"ref": "character/ada", "pointer": "/name", "limit": True}, "limit"),
    ("studio_read", {"ref": "character/ada", "pointr": "/name"}, "pointr"),
    ("studio_read", {}, "ref"),
    ("studio_search", {"query": "x", "limit": 0}, "limit"),
]


def test_the_revisions_split_at_2025_11_25():
    assert NEWER == ["2025-11-25"] and "2025-06-18" in OLDER


@pytest.mark.parametrize(("tool", "arguments", "argument"), BAD_CALLS)
def test_a_bad_argument_is_a_tool_result_from_2025_11_25_and_invalid_params_before(studio, tool, arguments, argument):
    session = dispatcher(studio)
    for version in OLDER:
        with pytest.raises(ProtocolError) as raised:
            session.call(tool, arguments, version)
        assert raised.value.code == -32602 and raised.value.data["argument"] == argument
    old = raised.value
    for version in NEWER:
        result = session.call(tool, arguments, version)
        assert result["isError"] is True
        doc = json.loads(result["content"][0]["text"])
        assert doc == result["structuredContent"]  # the text and the structured content say the same
        error = doc["error"]
        assert set(error) == {"code", "message", "hint", "details"}
        assert error["code"] == "invalid_input" and error["hint"]
        # the same words and the same details as the protocol error of the older revisions
        assert error["message"] == old.message and f"{argument!r}" in error["message"]
        assert error["details"] == old.data


def test_a_revealed_capabilitys_input_is_refused_the_same_way_and_makes_no_draft(studio):
    session = dispatcher(studio)
    [name] = session.reveal([find_capability("character.settings.update")])
    result = session.call(name, {"ref": "character/ada", "input": {"favorite": "yes"}}, NEWER[0])
    assert result["isError"] and result["structuredContent"]["error"]["details"]["argument"] == "input.favorite"
    misspelt = session.call(name, {"ref": "character/ada", "input": {"favourite": True}}, NEWER[0])
    assert "did you mean favorite?" in misspelt["structuredContent"]["error"]["hint"]
    assert not session.ctx.drafts
    made = session.call(name, {"ref": "character/ada", "input": {"favorite": True}}, NEWER[0])
    assert not made["isError"] and made["structuredContent"]["draft"] == "draft-1"


@pytest.mark.parametrize("version", PROTOCOL_VERSIONS)
@pytest.mark.parametrize(
    ("name", "arguments", "said"),
    [
        ("no_such_tool", {}, "Unknown tool"),
        (3, {}, "needs the tool's name"),
        ("studio_read", [], "must be a JSON object"),
    ],
)
def test_an_unknown_tool_or_a_malformed_request_is_invalid_params_in_every_revision(
    studio, version, name, arguments, said
):
    with pytest.raises(ProtocolError) as raised:
        dispatcher(studio).call(name, arguments, version)
    assert raised.value.code == -32602 and said in raised.value.message


ARGUMENT_NAME = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=12)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])  # refusals write nothing
@given(ARGUMENT_NAME.filter(lambda name: name not in ("ref", "outline", "pointer", "offset", "limit")))
def test_an_argument_the_tool_does_not_take_is_named_with_those_it_does(studio, name):
    result = dispatcher(studio).call("studio_read", {"ref": "character/ada", name: 1}, NEWER[0])
    error = result["structuredContent"]["error"]
    assert result["isError"] and error["details"]["argument"] == name
    assert f"{name!r}" in error["message"]
    assert error["hint"].endswith(f"{name!r} is not one of its arguments: ref, outline, pointer, offset, limit)") or (
        error["hint"] == f"{name!r} is not one of its arguments: ref, outline, pointer, offset, limit"
    )


def frames(studio, messages: list[dict]) -> dict:
    """The server in-process: each answer by its request's id."""
    out = io.BytesIO()
    lines = b"".join(json.dumps(message).encode() + b"\n" for message in messages)
    Server(Studio(studio.studio), stdin=io.BytesIO(lines), stdout=out).serve()
    answers = [json.loads(line) for line in out.getvalue().decode().splitlines()]
    return {answer["id"]: answer for answer in answers if "id" in answer}


def initialize(request_id, version: str) -> dict:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}


def test_the_negotiated_revision_decides_and_a_new_initialize_renegotiates_it(studio):
    bad = {"name": "studio_read", "arguments": {"ref": "character/ada", "limit": "5"}}
    call = {"jsonrpc": "2.0", "method": "tools/call", "params": bad}
    answers = frames(
        studio, [initialize("i1", OLDER[0]), dict(call, id="old"), initialize("i2", NEWER[0]), dict(call, id="new")]
    )
    assert answers["i1"]["result"]["protocolVersion"] == OLDER[0]
    assert answers["old"]["error"]["code"] == -32602 and "result" not in answers["old"]
    assert answers["i2"]["result"]["protocolVersion"] == NEWER[0]
    assert answers["new"]["result"]["isError"] is True and "error" not in answers["new"]
    assert answers["new"]["result"]["structuredContent"]["error"]["details"]["argument"] == "limit"


def test_the_sdk_client_on_2025_11_25_reads_the_refusal_and_goes_on(studio):
    async def body():
        async with connect(studio.home, studio.studio) as client:
            assert client.init.protocol_version == "2025-11-25"
            refused = await client.call("studio_read", {"ref": "character/ada", "pointer": "/name", "limit": "2"})
            assert refused.is_error
            assert json.loads(refused.content[0].text) == refused.structured_content
            error = refused.structured_content["error"]
            assert error["code"] == "invalid_input" and "'limit'" in error["message"]
            assert error["details"]["problems"][0]["argument"] == "limit"
            # the session goes on: the corrected call, and the tool list
            page = await client.doc("studio_read", {"ref": "character/ada", "pointer": "/name", "limit": 2})
            assert page["page"]["data"]["value"] == "Ad"
            assert "studio_read" in await client.names()

    run(body)


def test_a_misspelt_argument_is_named_in_the_hint_beside_the_missing_one(studio):
    result = dispatcher(studio).call("studio_read", {"reff": "character/ada"}, NEWER[0])
    error = result["structuredContent"]["error"]
    assert error["details"]["argument"] == "ref"  # the first problem: ref is missing
    assert [p["argument"] for p in error["details"]["problems"]] == ["ref", "reff"]
    assert error["hint"].startswith("did you mean ref? ('reff' is not one of its arguments: ")
