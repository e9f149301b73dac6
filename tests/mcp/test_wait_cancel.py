"""studio_wait gives up once the client cancels it: tools run one at a time, so a wait held to
its timeout after a cancel would hold every later call of the session."""

from __future__ import annotations

import json
import threading

import pytest

from bunzai.limits import WAIT_MAX_SECONDS
from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.mcp.protocol import ProtocolError
from bunzai.store.studio import Studio
from bunzai.tools.contract import Context


def _dispatcher(bunzai, cancelled: threading.Event) -> Dispatcher:
    ctx = Context(studio=Studio(bunzai.studio), handles=Handles(), cancelled=cancelled.is_set)
    return Dispatcher(ctx)


def test_a_cancelled_wait_ends_before_its_timeout(bunzai):
    cancelled = threading.Event()
    dispatcher = _dispatcher(bunzai, cancelled)
    answers = []
    arguments = {"pieceExists": "character/never", "timeout": WAIT_MAX_SECONDS}
    waiting = threading.Thread(target=lambda: answers.append(dispatcher.call("studio_wait", arguments, "2025-06-18")))
    waiting.start()
    cancelled.set()
    # A bound, not a timing: the uncancelled wait would run the whole WAIT_MAX_SECONDS.
    waiting.join(WAIT_MAX_SECONDS * 2 / 3)
    assert not waiting.is_alive(), "the cancelled wait ran on to its timeout"
    assert answers[0]["structuredContent"]["met"] is False


def test_an_uncancelled_wait_still_sees_the_piece_land(bunzai):
    dispatcher = _dispatcher(bunzai, threading.Event())
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Ada", "first_mes": "Hi."}}
    drafts = bunzai("import", "-", input=json.dumps(card), check=True).stdout
    applying = threading.Timer(1.5, lambda: bunzai("apply", "--yes", input=drafts, check=True))
    applying.start()
    result = dispatcher.call("studio_wait", {"pieceExists": "character/ada", "timeout": 30}, "2025-06-18")
    applying.join()
    doc = result["structuredContent"]
    assert doc["met"] is True and doc["ref"] == "character/ada" and doc["timeout_seconds"] == 30


def test_a_timeout_over_the_most_is_invalid_params(bunzai):
    with pytest.raises(ProtocolError) as raised:
        _dispatcher(bunzai, threading.Event()).call(
            "studio_wait", {"changedSince": 0, "timeout": WAIT_MAX_SECONDS + 1}, "2025-06-18"
        )
    assert raised.value.code == -32602 and raised.value.data["argument"] == "timeout"
