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


def _activate(entries: list[dict], *messages: str, recursive: bool = True, extra: dict | None = None) -> dict:
    settings = {"recursive_scanning": recursive}
    books = [{"id": "b", "body": {"settings": settings, "entries": entries}}]
    chat = [{"role": "user", "content": message} for message in messages]
    verdicts = activate(books, chat, extra_sources=extra or {}).entries
    return {verdict["uid"]: verdict for verdict in verdicts}


def _keyed(uid: int, key: str, content: str = "x", *, key_extra: dict | None = None, **extra) -> dict:
    return {"uid": uid, "keys": [{"text": key, **(key_extra or {})}], "content": content, **extra}


def test_a_recursion_step_rescans_the_chat_with_what_fired() -> None:
    # WorldInfoBuffer.get adds the recursion buffer to the chat's own string: a secondary key in
    # the chat holds for an entry its primary key finds in a fired entry's content
    entries = [
        _keyed(1, "hello", "Dragon lore."),
        _keyed(2, "dragon", secondary_keys=[{"text": "there"}], selective=True, selective_logic="and_any"),
    ]
    assert _activate(entries, "hello there")[2]["fired"]


def test_an_entry_waiting_for_recursion_fires_on_the_chat_in_a_recursion_step() -> None:
    entries = [_keyed(1, "hello", "Some lore."), _keyed(2, "there", delay_until_recursion=True)]
    verdicts = _activate(entries, "hello there")
    assert verdicts[2]["fired"] and "recursion step 1" in verdicts[2]["why"]


def test_recursed_content_begins_after_the_matcher_too() -> None:
    entries = [_keyed(1, "hello", "Dragon lore."), _keyed(2, "^dragon", key_extra={"regex": True, "flags": "i"})]
    assert not _activate(entries, "hello there")[2]["fired"]


def test_scan_depth_0_scans_an_empty_text_not_even_its_sources() -> None:
    entry = _keyed(1, "tester", scan_depth=0, match_character_description=True)
    verdict = _activate([entry], "tester here", extra={"description": "A tester."})[1]
    assert not verdict["fired"] and "scan depth 0" in verdict["reason"]
    # the keys are still tested against '': a blank key, or a regex matching nothing, fires
    assert _activate([_keyed(1, "  ", scan_depth=0)], "tester here")[1]["fired"]
    assert _activate([_keyed(1, "a*", scan_depth=0, key_extra={"regex": True, "flags": ""})], "x")[1]["fired"]


def test_a_recursion_step_is_one_block_its_entries_joined_by_a_newline() -> None:
    entries = [
        _keyed(1, "hello", "alpha"),
        _keyed(2, "there", "beta"),
        _keyed(3, "alpha\\nbeta|beta\\nalpha", key_extra={"regex": True, "flags": ""}),
    ]
    assert _activate(entries, "hello there")[3]["fired"]
