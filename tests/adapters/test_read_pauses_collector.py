"""A read pauses the garbage collector while it builds its trees (bunzai/adapters/inspect.py,
read_bytes) and gives it back as it found it: on after a read that found it on, whether the read
answered or refused; off after one that found it off (a caller's own choice is kept)."""

from __future__ import annotations

import gc
import json

import pytest

from bunzai.adapters.inspect import read_bytes
from bunzai.errors import BunzaiError

WORLD = json.dumps({"entries": {"0": {"uid": 0, "key": ["a"], "content": "A."}}}).encode()


@pytest.fixture
def collector_state():
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def test_the_collector_is_off_during_a_read_and_on_again_after_it(collector_state, monkeypatch):
    from bunzai.adapters import inspect

    seen = []
    real = inspect._read

    def watched(*args):
        seen.append(gc.isenabled())
        return real(*args)

    monkeypatch.setattr(inspect, "_read", watched)
    gc.enable()
    read_bytes(WORLD, "world.json")
    assert seen == [False] and gc.isenabled()


def test_a_refused_read_gives_the_collector_back(collector_state):
    gc.enable()
    with pytest.raises(BunzaiError):
        read_bytes(b"\x89PNG\r\n\x1a\nnot a png", "card.png")
    assert gc.isenabled()


def test_a_collector_the_caller_turned_off_stays_off(collector_state):
    gc.disable()
    read_bytes(WORLD, "world.json")
    assert not gc.isenabled()
