"""A lorebook key of only whitespace. SillyTavern's scan (world-info.js) skips a key only when it
is "" (`substituted && buffer.matchKeys(...)`); a blank one is trimmed to "" and then matched:
`haystack.includes("")` holds for every text, and with whole words the regex
`(?:^|\\W)()(?:$|\\W)` holds after the \\x01 that begins SillyTavern's scan buffer.
So the entry fires, and `preset-verify` says why."""

from __future__ import annotations

import json
from pathlib import Path

from bunzai.render.lore import activate
from testkit import corpus_path


def _book(*entries: dict) -> list[dict]:
    return [{"id": "b", "body": {"settings": {}, "entries": list(entries)}}]


def _entry(uid: int, keys: list[str], **extra) -> dict:
    return {"uid": uid, "keys": [{"text": key} for key in keys], "content": "text", **extra}


def _fired(books: list[dict], *messages: str) -> dict:
    chat = [{"role": "user", "content": message} for message in messages]
    return {verdict["uid"]: verdict["fired"] for verdict in activate(books, chat).entries}


def test_a_blank_key_fires_on_any_message_and_an_empty_one_never() -> None:
    books = _book(_entry(1, ["   "]), _entry(2, [""]), _entry(3, ["\t \u3000"]))
    assert _fired(books, "hello there") == {1: True, 2: False, 3: True}


def test_with_whole_words_a_blank_key_fires_too() -> None:
    # the scan buffer begins with SillyTavern's MATCHER, \x01, a \W before every text
    books = _book(_entry(1, ["  "], match_whole_words=True))
    assert _fired(books, "hello") == {1: True}
    assert _fired(books, "hello there?") == {1: True}


def test_a_blank_secondary_key_always_matches() -> None:
    books = _book(
        _entry(1, ["king"], secondary_keys=[{"text": " "}], selective_logic="and_any"),
        _entry(2, ["king"], secondary_keys=[{"text": " "}], selective_logic="not_any"),
    )
    assert _fired(books, "the king sleeps") == {1: True, 2: False}


def test_a_regex_key_of_one_space_is_a_pattern_not_a_blank_key() -> None:
    # SillyTavern's "/ /" key: a regex that finds a space
    books = _book(_entry(1, []) | {"keys": [{"text": " ", "regex": True, "flags": ""}]})
    assert _fired(books, "one two") == {1: True}
    assert _fired(books, "one") == {1: False}


def _import(bunzai, path: Path) -> None:
    drafts = bunzai("import", str(path), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=True)


def test_preset_verify_warns_about_a_blank_key_and_not_that_the_entry_never_fires(bunzai, tmp_path: Path) -> None:
    _import(bunzai, corpus_path("sillytavern", "presets", "openai", "Default.json"))
    entries = [
        {"keys": ["  "], "content": "Always.", "enabled": True, "insertion_order": 100, "id": 0},
        {"keys": ["gate"], "secondary_keys": [" "], "selective": True, "content": "Gate.", "id": 1},
        {"keys": [""], "content": "Never.", "enabled": True, "insertion_order": 100, "id": 2},
    ]
    data = {"name": "Ivo", "description": "A guard.", "first_mes": "Halt.", "character_book": {"entries": entries}}
    card = tmp_path / "ivo.json"
    card.write_text(json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}), encoding="utf-8")
    _import(bunzai, card)
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "Who goes there"}]), encoding="utf-8")
    doc = bunzai("render", "default", "-c", "ivo", "--chat", str(chat), check=True).json
    assert [e["fired"] for e in doc["lore"]["entries"]] == [True, False, False]
    findings = bunzai("preset-verify", "default", "-c", "ivo", "--chat", str(chat)).json["findings"]
    kinds = sorted((finding["kind"], finding["pointer"]) for finding in findings)
    assert kinds == [
        ("lore_blank_key", "/body/entries/0/keys/0"),
        ("lore_blank_key", "/body/entries/1/secondary_keys/0"),
        ("lore_never_activates", "/body/entries/2"),
    ]


def test_preset_verify_reads_decorators_as_the_scan_does(bunzai, tmp_path: Path) -> None:
    # an @@activate entry fires without keys; a @@dont_activate one is kept out on purpose
    _import(bunzai, corpus_path("sillytavern", "presets", "openai", "Default.json"))
    entries = [
        {"keys": [], "content": "@@activate\nAlways.", "enabled": True, "insertion_order": 100, "id": 0},
        {"keys": [], "content": "@@dont_activate\nNever.", "enabled": True, "insertion_order": 100, "id": 1},
        {"keys": [], "content": "No key.", "enabled": True, "insertion_order": 100, "id": 2},
        # both: the scan tests @@activate first, so it fires, and its probability 0 is still said
        {
            "keys": [],
            "content": "@@dont_activate\n@@activate\nBoth.",
            "extensions": {"probability": 0, "useProbability": True},
            "id": 3,
        },
    ]
    data = {"name": "Ivo", "description": "A guard.", "first_mes": "Halt.", "character_book": {"entries": entries}}
    card = tmp_path / "ivo.json"
    card.write_text(json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}), encoding="utf-8")
    _import(bunzai, card)
    doc = bunzai("render", "default", "-c", "ivo", check=True).json
    assert [e["fired"] for e in doc["lore"]["entries"]][:3] == [True, False, False]
    findings = bunzai("preset-verify", "default", "-c", "ivo").json["findings"]
    assert [(f["kind"], f["pointer"]) for f in findings if f["kind"].startswith("lore_")] == [
        ("lore_never_activates", "/body/entries/2"),
        ("lore_never_activates", "/body/entries/3/probability"),
    ]
