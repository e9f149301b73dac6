"""Acceptance: studio_wait, studio_changes and studio_revert over a real MCP client, with
another process (its own BUNZAI_SESSION) editing the same studio."""

from __future__ import annotations

import json
import subprocess

import anyio

from mcpkit import connect, enveloped, run
from testkit import bunzai_executable


def _cli(bunzai, *args: str, input: str | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run(
        bunzai_executable() + list(args),
        input=input,
        capture_output=True,
        text=True,
        env=bunzai.env() | {"BUNZAI_SESSION": "person"},
        cwd=bunzai.cwd,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def _person_applies(bunzai, *draft_args: str) -> None:
    _cli(bunzai, "apply", "--yes", input=_cli(bunzai, *draft_args).stdout)


def _name(bunzai, ref: str) -> str:
    return bunzai("read", ref, check=True).json["piece"]["name"]


def test_wait_changes_and_revert_between_sessions(bunzai):
    for name in ("Ada", "Bob", "Cy"):
        _person_applies(bunzai, "create", "character", "--input", json.dumps({"name": name}))

    async def agent_renames(client, ref: str, name: str) -> None:
        draft = await client.doc("cap_character_identity_update", {"ref": ref, "input": {"name": name}})
        assert (await client.doc("change_apply", {"draft": draft["draft"]}))["status"] == "applied"

    async def body():
        async with connect(bunzai.home, bunzai.studio) as client:
            first = await client.doc("studio_changes", {})
            assert first["basis"] == "first-read" and first["head"] == 3  # nobody's edits reported yet
            await client.doc("capability_find", {"query": "rename character"})
            await agent_renames(client, "character/ada", "Ada (agent)")
            await agent_renames(client, "character/bob", "Bob (agent)")
            mine = await client.doc("studio_changes", {})
            head = mine["head"]
            assert head == 5

            async def person_later() -> None:
                await anyio.sleep(0.5)
                await anyio.to_thread.run_sync(
                    lambda: _person_applies(
                        bunzai, "cap", "run", "character.identity.update", "cy", "--input", '{"name": "Cy (person)"}'
                    )
                )

            async with anyio.create_task_group() as group:
                group.start_soon(person_later)
                woke = await client.doc("studio_wait", {"changedSince": head, "timeout": 50})
            assert woke["met"] is True
            change = enveloped(woke["change"])["data"]  # the writer's session label is data, not authority
            assert change["seq"] == head + 1 and change["session"] == "person"

            seen = await client.doc("studio_changes", {})
            assert seen["basis"] == "since-cursor"
            rows = enveloped(seen["items"])["data"]
            assert seen["count"] == len(rows) and [c["seq"] for c in rows if c["session"] == "person"] == [head + 1]

            undone = await client.doc("studio_revert", {})
            assert undone["reverted"] == 2 and undone["forbidden"] == 0
            rows = enveloped(undone["changes"])["data"]
            assert sorted(row["ref"] for row in rows) == ["character/ada", "character/bob"]

    run(body)
    assert _name(bunzai, "character/ada") == "Ada"
    assert _name(bunzai, "character/bob") == "Bob"
    assert _name(bunzai, "character/cy") == "Cy (person)"  # the other session's later edit stands
