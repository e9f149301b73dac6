"""Lorebook activation: keys, secondary logic, regex keys, case and whole words, scan depth,
recursion, constants, budget, seeded probability and inclusion groups, with reasons."""

from __future__ import annotations

from bunzai.render.lore import activate, estimate_tokens


def entry(uid, keys, content="text", **extra):
    return {"uid": uid, "keys": [k if isinstance(k, dict) else {"text": k} for k in keys], "content": content, **extra}


def book(*entries, **settings):
    return [{"id": "b", "body": {"settings": settings, "entries": list(entries)}}]


def chat(*texts):
    return [{"role": "user" if i % 2 else "assistant", "content": t} for i, t in enumerate(texts)]


def fired(result):
    return {e["uid"]: e["fired"] for e in result.entries}


def test_tokens_are_estimated_from_utf8_bytes_as_sillytavern_does() -> None:
    # guesstimate() in SillyTavern's tokenizers.js: Math.ceil(byteLength / 3.35) (bytes since 1.17)
    assert estimate_tokens("a" * 67) == 20
    assert estimate_tokens("森" * 67) == 60  # three UTF-8 bytes each
    assert estimate_tokens("—") == 1 and estimate_tokens("") == 0


def test_keys_case_and_whole_words() -> None:
    books = book(
        entry(1, ["Dragon"]),
        entry(2, ["cat"], match_whole_words=True),
        entry(3, ["Dragon"], case_sensitive=True),
        entry(4, ["wolf"]),
    )
    result = activate(books, chat("a dragon and a catalogue"))
    assert fired(result) == {1: True, 2: False, 3: False, 4: False}
    assert "key 'Dragon'" in next(e for e in result.entries if e["uid"] == 1)["why"]


def test_secondary_logic() -> None:
    text = chat("the king and the queen")
    cases = {
        "and_any": (["queen", "x"], True),
        "and_all": (["queen", "x"], False),
        "not_any": (["x", "y"], True),
        "not_all": (["queen", "king"], False),
    }
    for logic, (secondary, expected) in cases.items():
        books = book(entry(1, ["king"], secondary_keys=[{"text": s} for s in secondary], selective_logic=logic))
        assert fired(activate(books, text))[1] is expected, logic


def test_regex_keys_run_in_the_engine() -> None:
    books = book(
        entry(1, [{"text": "dra+gon", "regex": True, "flags": "i"}]), entry(2, [{"text": "^x", "regex": True}])
    )
    assert fired(activate(books, chat("DRAAAGON"))) == {1: True, 2: False}


def test_scan_depth_and_constant() -> None:
    books = book(entry(1, ["old"]), entry(2, ["new"]), entry(3, [], constant=True), scan_depth=1)
    assert fired(activate(books, chat("old words", "new words"))) == {1: False, 2: True, 3: True}


def test_recursion_unless_the_book_turns_it_off() -> None:
    # a new SillyTavern user's settings turn world_info_recursive on (default/content/settings.json)
    entries = (entry(1, ["start"], content="mentions the tower"), entry(2, ["tower"]))
    assert fired(activate(book(*entries, recursive_scanning=False), chat("start")))[2] is False
    on = activate(book(*entries), chat("start"))
    assert fired(on)[2] is True and "recursion step 1" in next(e for e in on.entries if e["uid"] == 2)["why"]


def test_budget_drops_what_does_not_fit() -> None:
    big = "x" * 335
    books = book(entry(1, ["a"], content=big, order=200), entry(2, ["a"], content=big, order=100), token_budget=150)
    result = activate(books, chat("a"))
    assert fired(result) == {1: True, 2: False}
    assert result.used == estimate_tokens(big) == 100
    assert "over the budget" in next(e for e in result.entries if e["uid"] == 2)["reason"]


def test_probability_is_seeded() -> None:
    books = book(*(entry(i, ["a"], probability=50) for i in range(40)))
    first = fired(activate(books, chat("a"), seed=1))
    assert first == fired(activate(books, chat("a"), seed=1))
    assert first != fired(activate(books, chat("a"), seed=2))
    assert 0 < sum(first.values()) < 40


def test_groups_keep_one_winner() -> None:
    books = book(
        entry(1, ["a"], group={"names": ["g"], "override": False, "weight": 100}),
        entry(2, ["a"], group={"names": ["g"], "override": True, "weight": 100}, order=5),
        entry(3, ["a"], group={"names": ["g"], "override": True, "weight": 100}, order=9),
    )
    result = activate(books, chat("a"))
    assert fired(result) == {1: False, 2: False, 3: True}
    assert "lost inclusion group 'g'" in next(e for e in result.entries if e["uid"] == 1)["reason"]


def test_disabled_and_delay_say_why() -> None:
    result = activate(book(entry(1, ["a"], enabled=False), entry(2, ["a"], delay=5)), chat("a"))
    reasons = {e["uid"]: e["reason"] for e in result.entries}
    assert reasons[1] == "disabled" and reasons[2].startswith("delay")
