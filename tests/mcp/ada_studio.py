"""A studio holding one card, Ada, and a tools/call dispatcher over it: the tests of argument
checking call tools on it directly, without a server process."""

from __future__ import annotations

import json

import pytest

from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.store.studio import Studio
from bunzai.tools.contract import Context

CARD = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Ada", "description": "Ada keeps the light."}}


@pytest.fixture(name="studio")
def ada_studio(bunzai):
    """The studio of the `bunzai` fixture, holding Ada (a module imports this to use `studio`)."""
    bunzai("apply", "--yes", input=bunzai("import", "-", input=json.dumps(CARD), check=True).stdout, check=True)
    return bunzai


def dispatcher(bunzai) -> Dispatcher:
    return Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))
