"""Driving `bunzai mcp` with the official MCP SDK's client (a test dependency)."""

from __future__ import annotations

import json
import os
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest

mcp = pytest.importorskip("mcp", reason="the MCP SDK (test dependency, in the dev extra) is not installed")

from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from testkit import bunzai_executable  # noqa: E402


class Client:
    """A connected session plus what the server sent on its own (list_changed)."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session
        self.list_changed = anyio.Event()
        self.notes: list[str] = []

    async def call(self, name: str, arguments: dict | None = None):
        return await self.session.call_tool(name, arguments or {})

    async def doc(self, name: str, arguments: dict | None = None) -> dict:
        """A tool's structured result; the test fails on isError."""
        result = await self.call(name, arguments)
        assert not result.is_error, result.content[0].text
        text = json.loads(result.content[0].text)
        assert text == result.structured_content  # the text and the structured content say the same
        return result.structured_content

    async def names(self) -> set[str]:
        return {tool.name for tool in (await self.session.list_tools()).tools}


@asynccontextmanager
async def connect(home: Path, studio: Path, *extra: str, elicit=None):
    command = bunzai_executable()
    env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")}
    env["HOME"] = str(home)
    params = StdioServerParameters(
        command=command[0], args=command[1:] + ["mcp", str(studio), *extra], env=env, cwd=str(home)
    )
    holder: dict = {}

    async def on_message(message) -> None:
        if getattr(message, "method", None) == "notifications/tools/list_changed":
            holder["client"].notes.append(message.method)
            holder["client"].list_changed.set()

    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            options = {"message_handler": on_message}
            if elicit is not None:
                options["elicitation_callback"] = elicit
            async with ClientSession(read, write, **options) as session:
                client = Client(session)
                holder["client"] = client
                client.init = await session.initialize()
                yield client


def run(coroutine_fn, *args):
    """Run an async test body under anyio, bounded so a hung server fails the test."""

    async def bounded():
        with anyio.fail_after(120):
            return await coroutine_fn(*args)

    return anyio.run(bounded)


def enveloped(value) -> dict:
    assert isinstance(value, dict) and value.get("untrusted") is True, value
    assert set(value) == {"untrusted", "note", "data", "truncated", "omitted"}
    return value
