"""The text a lorebook key is matched against, as SillyTavern's WorldInfoBuffer.get builds it:
MATCHER (\\x01) + messages newest first joined by "\\n" + MATCHER; each extra source (persona,
description ...) joined the same way. So a regex key anchored with `^` never fires (a message
begins after \\x01), and `.` does not run from one message into the next."""

from __future__ import annotations

from bunzai.render.lore import activate


def _fired(key: dict, *messages: str, **entry) -> bool:
    books = [{"id": "b", "body": {"settings": {}, "entries": [{"uid": 1, "keys": [key], "content": "x", **entry}]}}]
    chat = [{"role": "user", "content": message} for message in messages]
    return activate(books, chat).entries[0]["fired"]


def test_an_anchored_regex_key_never_meets_a_messages_start() -> None:
    assert not _fired({"text": "^hello", "regex": True, "flags": "i"}, "hello there")
    assert not _fired({"text": "^hello", "regex": True, "flags": "im"}, "first", "hello there")
    assert _fired({"text": "\\x01hello", "regex": True, "flags": ""}, "hello there")


def test_a_dot_stops_at_a_messages_end() -> None:
    assert not _fired({"text": "newer.older", "regex": True, "flags": ""}, "older", "newer")
    assert _fired({"text": "newer\\n\\x01older", "regex": True, "flags": ""}, "older", "newer")


def test_plain_keys_still_fire_at_a_messages_start_and_across_messages() -> None:
    assert _fired({"text": "hello"}, "hello there")
    assert _fired({"text": "hello"}, "hello", match_whole_words=True)
    assert not _fired({"text": "newer older"}, "older", "newer")
