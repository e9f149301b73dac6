"""tools/call arguments are taken as the tool's inputSchema types them: a boolean is no integer, "5"
is no number, 1 is no boolean. A mismatch names the argument, for the belt's tools and for a revealed
capability's `input` alike: InvalidParams (-32602) in the revisions before 2025-11-25 (VERSION here),
the tool's error result from 2025-11-25 on (tests/mcp/test_argument_errors.py)."""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.capabilities.discovery import find_capability
from bunzai.mcp.protocol import ProtocolError
from ada_studio import ada_studio, dispatcher  # noqa: F401 - ada_studio is the studio fixture
from mcpkit import connect, run

VERSION = "2025-06-18"


def refused(dispatcher, tool, arguments) -> dict:
    with pytest.raises(ProtocolError) as raised:
        dispatcher.call(tool, arguments, VERSION)
    assert raised.value.code == -32602, raised.value.message
    return raised.value.data


@pytest.mark.parametrize("value", [True, False, "5", "x", [5], {"n": 5}, 5.5])
def test_an_integer_argument_takes_only_an_integer(studio, value):
    data = refused(dispatcher(studio), "studio_read", {"ref": "character/ada", "pointer": "/name", "limit": value})
    assert data["argument"] == "limit"


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # a refusal writes nothing to share
@given(st.integers(min_value=0, max_value=10**6).map(str) | st.booleans())
def test_no_string_of_digits_and_no_boolean_is_an_offset(studio, value):
    data = refused(dispatcher(studio), "studio_read", {"ref": "character/ada", "pointer": "/name", "offset": value})
    assert data["argument"] == "offset"


def test_integers_still_read_and_an_integral_number_is_an_integer(studio):
    session = dispatcher(studio)
    for limit in (2, 2.0):  # JSON Schema counts 2.0 an integer
        result = session.call("studio_read", {"ref": "character/ada", "pointer": "/name", "limit": limit}, VERSION)
        assert not result["isError"] and result["structuredContent"]["page"]["data"]["value"] == "Ad"


def test_a_boolean_argument_takes_only_a_boolean(studio):
    data = refused(dispatcher(studio), "studio_read", {"ref": "character/ada", "outline": 1})
    assert data["argument"] == "outline"


@pytest.mark.parametrize("value", [1, "true", "yes", 0])
def test_a_capability_input_is_held_to_its_schema_too(studio, value):
    session = dispatcher(studio)
    [name] = session.reveal([find_capability("character.settings.update")])
    data = refused(session, name, {"ref": "character/ada", "input": {"favorite": value}})
    assert data["argument"] == "input.favorite"
    assert not session.ctx.drafts  # no draft was made


def test_a_capability_input_of_the_right_type_makes_its_draft(studio):
    session = dispatcher(studio)
    [name] = session.reveal([find_capability("character.settings.update")])
    result = session.call(name, {"ref": "character/ada", "input": {"favorite": True}}, VERSION)
    assert not result["isError"], result["content"][0]["text"]
    assert result["structuredContent"]["draft"] == "draft-1"


def test_over_the_wire_a_boolean_limit_is_a_refusal_naming_it(studio):
    """The SDK's client speaks 2025-11-25: a bad argument is the tool's error result (SEP-1303)."""

    async def body():
        async with connect(studio.home, studio.studio) as client:
            assert client.init.protocol_version == "2025-11-25"
            result = await client.call("studio_read", {"ref": "character/ada", "pointer": "/name", "limit": True})
            assert result.is_error
            error = result.structured_content["error"]
            assert error["code"] == "invalid_input" and "'limit'" in error["message"]
            assert error["details"]["argument"] == "limit"

    run(body)
