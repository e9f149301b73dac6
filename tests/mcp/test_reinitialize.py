"""A second `initialize` on one connection renegotiates, and keeps the session: the capability tools
capability_find revealed, the drafts and the result handles the client holds."""

from __future__ import annotations

import json

from mcpkit import connect, run

CARD = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Ada", "first_mes": "Hi."}}


async def _initialize_again(client):
    """A second initialize request on the wire (the SDK's initialize() answers a second call from memory)."""
    from mcp import types

    params = types.InitializeRequestParams(
        protocol_version=client.init.protocol_version,
        capabilities=types.ClientCapabilities(),
        client_info=types.Implementation(name="again", version="1"),
    )
    answer = await client.session.send_request(types.InitializeRequest(params=params), types.InitializeResult)
    await client.session.send_notification(types.InitializedNotification())
    return answer


def test_a_second_initialize_keeps_revealed_tools_and_drafts(bunzai):
    bunzai("apply", "--yes", input=bunzai("import", "-", input=json.dumps(CARD), check=True).stdout, check=True)

    async def body():
        async with connect(bunzai.home, bunzai.studio) as client:
            found = await client.doc("capability_find", {"query": "rename character"})
            assert "cap_character_identity_update" in found["tools"]
            draft = await client.doc(
                "cap_character_identity_update", {"ref": "character/ada", "input": {"name": "Ada L."}}
            )
            again = await _initialize_again(client)
            assert again.server_info.name == "bunzai"
            assert set(found["tools"]) <= await client.names()
            listed = await client.doc("change_query", {})
            assert [row["draft"] for row in listed["session"]] == [draft["draft"]]
            second = await client.doc(
                "cap_character_identity_update", {"ref": "character/ada", "input": {"nickname": "Countess"}}
            )
            assert second["draft"] != draft["draft"]
            receipt = await client.doc("change_apply", {"draft": draft["draft"]})
            assert receipt["status"] == "applied"

    run(body)
    assert bunzai("read", "character/ada", check=True).json["piece"]["name"] == "Ada L."
