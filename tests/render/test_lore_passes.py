"""The scan as SillyTavern's checkWorldInfo loop runs it (world-info.js): pass after pass, each one's
finds filtered by inclusion group, rolled for probability and taken into the budget before the
next pass scans with what it activated. So an entry that loses its roll or its group never feeds
recursion, an overflowing budget ends it, delay levels open one pass at a time (even with
recursion off), `max_recursion_steps` counts the first pass, and a key is matched against one
string (chat, sources, recursion buffer)."""

from __future__ import annotations

from bunzai.render.lore import activate


def _entry(uid: int, key: str, content: str = "x", **extra) -> dict:
    return {"uid": uid, "keys": [{"text": key}] if key else [], "content": content, **extra}


def _verdicts(*entries: dict, messages: tuple[str, ...] = ("start",), extra: dict | None = None, **settings) -> dict:
    books = [{"id": "b", "body": {"settings": settings, "entries": list(entries)}}]
    chat = [{"role": "user", "content": message} for message in messages]
    return {verdict["uid"]: verdict for verdict in activate(books, chat, extra_sources=extra or {}).entries}


def test_an_entry_that_fails_its_roll_does_not_feed_recursion() -> None:
    # probability 0 always fails (SillyTavern rolls Math.random() * 100 <= 0)
    verdicts = _verdicts(_entry(1, "start", "the tower", probability=0), _entry(2, "tower"), recursive_scanning=True)
    assert "failed its probability roll" in verdicts[1]["reason"]
    assert not verdicts[2]["fired"] and verdicts[2]["reason"] == "no key found in the scanned text"


def test_an_inclusion_group_loser_does_not_feed_recursion() -> None:
    verdicts = _verdicts(
        _entry(1, "start", "the tower", group={"names": ["g"]}, order=10),
        _entry(2, "start", "the gate", group={"names": ["g"], "override": True}, order=20),
        _entry(3, "tower"),
        recursive_scanning=True,
    )
    # it lost in the first pass, and again in the recursion pass (a loser is not out for good, but
    # its group has fired by then); its reason keeps the first draw
    assert verdicts[2]["fired"] and not verdicts[1]["fired"] and not verdicts[3]["fired"]
    assert verdicts[1]["reason"] == "lost inclusion group 'g' to uid 2 (prioritized, highest order)"


def test_a_group_an_earlier_pass_activated_keeps_its_later_members_out() -> None:
    verdicts = _verdicts(
        _entry(1, "start", "the tower", group={"names": ["g"]}),
        _entry(2, "tower", "more", group={"names": ["g"]}),
        recursive_scanning=True,
    )
    assert verdicts[1]["fired"] and not verdicts[2]["fired"]
    assert verdicts[2]["reason"] == "inclusion group 'g' already fired (uid 1)"


def test_an_overflowing_budget_ends_the_recursion() -> None:
    big = "the tower " + "word " * 200  # about 300 tokens
    verdicts = _verdicts(
        _entry(1, "start", big, order=200),
        _entry(2, "start", big, order=100),
        _entry(3, "tower"),
        recursive_scanning=True,
        token_budget=400,
    )
    assert verdicts[1]["fired"] and "over the budget" in verdicts[2]["reason"]
    assert not verdicts[3]["fired"]  # the budget overflowed in the first pass: no recursion pass


def test_delay_levels_open_one_pass_at_a_time_even_with_recursion_off() -> None:
    entries = (
        _entry(1, "start", delay_until_recursion=True),
        _entry(2, "start", delay_until_recursion=2),
        _entry(3, "start", delay_until_recursion=3),
    )
    # levels 1, 2, 3: SillyTavern takes the lowest at the start and the next each time a pass would
    # end the scan, so the second pass runs at level 2 (levels 1 and 2 fire), the third at level 3
    every = _verdicts(*entries, recursive_scanning=False)
    assert [every[uid]["fired"] for uid in (1, 2, 3)] == [True, True, True]
    assert "recursion step 1" in every[2]["why"] and "recursion step 2" in every[3]["why"]
    two = _verdicts(*entries, recursive_scanning=False, max_recursion_steps=2)
    assert [two[uid]["fired"] for uid in (1, 2, 3)] == [True, True, False]
    assert two[3]["reason"] == "waits for recursion"


def test_max_recursion_steps_counts_the_first_pass() -> None:
    entries = (_entry(1, "start", "the tower"), _entry(2, "tower", "the gate"), _entry(3, "gate"))
    one = _verdicts(*entries, recursive_scanning=True, max_recursion_steps=1)
    two = _verdicts(*entries, recursive_scanning=True, max_recursion_steps=2)
    assert [one[uid]["fired"] for uid in (1, 2, 3)] == [True, False, False]
    assert [two[uid]["fired"] for uid in (1, 2, 3)] == [True, True, False]


def test_a_regex_key_runs_from_the_chat_into_a_source_as_one_string() -> None:
    key = {"text": "hello[\\s\\S]*tester", "regex": True, "flags": "i"}
    entry = {"uid": 1, "keys": [key], "content": "x", "match_character_description": True}
    verdicts = _verdicts(entry, messages=("hello",), extra={"description": "a tester"})
    assert verdicts[1]["fired"] and "in the scan text" in verdicts[1]["why"]


def test_the_characters_own_lore_takes_the_budget_before_the_other_books() -> None:
    # getSortedEntries with the default strategy, character_first: the character's lore sorted by
    # order, then the global lore, whatever the orders across them
    big = "word " * 200
    books = [
        {"id": "world", "body": {"settings": {"token_budget": 400}, "entries": [_entry(1, "start", big, order=100)]}},
        {"id": "own", "scope": "character", "body": {"settings": {}, "entries": [_entry(2, "start", big, order=10)]}},
    ]
    verdicts = {v["uid"]: v for v in activate(books, [{"role": "user", "content": "start"}]).entries}
    assert verdicts[2]["fired"] and "over the budget" in verdicts[1]["reason"]


def test_the_persona_s_lore_takes_the_budget_before_the_character_s() -> None:
    # getSortedEntries puts persona lore before the character's and the global lore
    big = "word " * 200
    books = [
        {
            "id": "own",
            "scope": "character",
            "body": {"settings": {"token_budget": 400}, "entries": [_entry(1, "start", big, order=900)]},
        },
        {"id": "mine", "scope": "persona", "body": {"settings": {}, "entries": [_entry(2, "start", big, order=1)]}},
    ]
    verdicts = {v["uid"]: v for v in activate(books, [{"role": "user", "content": "start"}]).entries}
    assert verdicts[2]["fired"] and "over the budget" in verdicts[1]["reason"]


def test_a_room_of_zero_or_less_leaves_only_ignore_budget_entries() -> None:
    # checkWorldInfo: Math.round(25 * maxContext / 100) || 1; a response length at or over the
    # context size leaves a room of zero or less, and every entry's tokens reach that budget
    books = [
        {"id": "b", "body": {"settings": {}, "entries": [_entry(1, "start"), _entry(2, "start", ignore_budget=True)]}}
    ]
    chat = [{"role": "user", "content": "start"}]
    for room, budget in ((0, 1), (-100, -25), (-2, 1)):  # Math.round(-0.5) is -0, and -0 || 1 is 1
        result = activate(books, chat, max_context=room)
        verdicts = {verdict["uid"]: verdict for verdict in result.entries}
        assert result.budget == budget
        assert not verdicts[1]["fired"] and verdicts[1]["reason"] == f"over the budget of {budget} tokens"
        assert verdicts[2]["fired"]


def test_decorator_lines_are_read_as_sillytavern_s_parse_decorators_reads_them() -> None:
    from bunzai.render.lore import parse_decorators

    assert parse_decorators("@@activate\nThe gate.") == (["@@activate"], "The gate.")
    # every leading @@ line goes, known or not; an unknown one lets a @@@ line stand for @@
    assert parse_decorators("@@depth 0\n@@dont_activate\nHi") == (["@@dont_activate"], "Hi")
    assert parse_decorators("@@@activate\nHi") == ([], "Hi")
    assert parse_decorators("@@scan_depth 3\n@@@activate\nHi") == (["@@activate"], "Hi")
    # known by its start: RisuAI's @@activate_only_after is kept as a decorator (and does nothing)
    assert parse_decorators("@@activate_only_after 2\nHi") == (["@@activate_only_after 2"], "Hi")
    assert parse_decorators("@@activate") == (["@@activate"], "@@activate")  # no text line: left whole
    assert parse_decorators("Hi\n@@activate") == ([], "Hi\n@@activate")


def test_activate_and_dont_activate_decorators_decide_before_keys_and_constant() -> None:
    verdicts = _verdicts(
        _entry(1, "nowhere", "@@activate\nThe gate."),
        _entry(2, "start", "@@dont_activate\nNever.", constant=True),
        _entry(3, "start", "@@depth 0\nKept text."),
    )
    assert verdicts[1]["fired"] and verdicts[1]["why"] == "@@activate decorator"
    assert not verdicts[2]["fired"] and verdicts[2]["reason"] == "@@dont_activate decorator"
    books = [{"id": "b", "body": {"settings": {}, "entries": [_entry(3, "start", "@@depth 0\nKept text.")]}}]
    (fired,) = activate(books, [{"role": "user", "content": "start"}]).fired
    assert fired["content"] == "Kept text."  # the decorator line is not sent


def test_a_vectorized_entry_is_matched_on_its_keys() -> None:
    # checkWorldInfo does not skip vectorized entries; only the vector search itself is not run here
    verdicts = _verdicts(_entry(1, "start", vectorized=True), _entry(2, "elsewhere", vectorized=True))
    assert verdicts[1]["fired"] and verdicts[1]["why"] == "key 'start' in chat"
    assert verdicts[2]["reason"] == "no key found in the scanned text (its vector activation is not simulated)"


def test_each_message_is_trimmed_in_the_scan_text() -> None:
    # WorldInfoBuffer trims each message: a regex key anchored at a message's end finds it
    key = {"text": "gate$", "regex": True, "flags": "m"}
    entry = {"uid": 1, "keys": [key], "content": "x"}
    assert _verdicts(entry, messages=("open the gate  \n ",))[1]["fired"]


def test_a_scored_inclusion_group_keeps_the_best_key_match_score() -> None:
    # filterGroupsByScoring: a scored member below the group's best score (getScore: the keys its
    # scan text holds) loses before the draw; an entry not scored stays in the draw
    def member(uid: int, keys: list[str], **group) -> dict:
        return {
            "uid": uid,
            "keys": [{"text": k} for k in keys],
            "content": f"c{uid}",
            "group": {"names": ["g"], **group},
        }

    verdicts = _verdicts(
        member(1, ["gate"], use_group_scoring=True),
        member(2, ["gate", "moat", "tower"], use_group_scoring=True),  # 2: its moat is not there
        member(3, ["tower", "moat"], use_group_scoring=True),
        messages=("the gate by the tower",),
    )
    assert verdicts[2]["fired"] and not verdicts[1]["fired"] and not verdicts[3]["fired"]
    assert verdicts[3]["reason"] == "lost inclusion group 'g' on key-match score (1 < 2)"
    # scoring off for the entry (its own false over the book's true): it stays in the draw
    unscored = _verdicts(
        member(1, ["gate", "tower"]),
        member(3, ["gate"], use_group_scoring=False, override=True),
        messages=("the gate by the tower",),
        use_group_scoring=True,
    )
    assert unscored[3]["fired"] and not unscored[1]["fired"]


def test_min_activations_scans_deeper_until_enough_entries_fire() -> None:
    # checkWorldInfo: a scan that would end below min activations advances its depth by one message
    # and scans again (without the recursion buffer) while the depth is within the chat
    messages = ("the gate", "hello", "hello again", "and again")  # oldest first: 'gate' is 4 deep
    assert not _verdicts(_entry(1, "gate"), messages=messages)[1]["fired"]
    verdicts = _verdicts(_entry(1, "gate"), _entry(2, "nowhere"), messages=messages, min_activations=1)
    assert verdicts[1]["fired"] and verdicts[1]["why"] == "min activations, scan depth 4: key 'gate' in chat"
    # more than the book can give: it stops once the depth passes the chat's length
    assert _verdicts(_entry(1, "gate"), messages=messages, min_activations=5)[1]["fired"]
    # an entry's own scan depth is not widened
    assert not _verdicts(_entry(1, "gate", scan_depth=2), messages=messages, min_activations=1)[1]["fired"]


def _grouped(uid: int, order: int, *names: str, override: bool = False) -> dict:
    return _entry(uid, "start", f"c{uid}", order=order, group={"names": list(names), "override": override})


def test_an_entry_in_two_groups_stays_in_each_draw_and_a_second_drop_takes_the_last_find() -> None:
    # filterByInclusionGroups: A loses g1 to B; in g2 it loses again to C, and splice(indexOf(A)) with
    # an index of -1 drops the pass's last find, D, which is in no group
    verdicts = _verdicts(
        _grouped(1, 30, "g1", "g2"),
        _grouped(2, 20, "g1", override=True),
        _grouped(3, 10, "g2", override=True),
        _entry(4, "start", "c4", order=5),
    )
    assert [uid for uid, v in verdicts.items() if v["fired"]] == [2, 3]
    assert verdicts[1]["reason"] == "lost inclusion group 'g1' to uid 2 (prioritized, highest order)"
    assert verdicts[4]["reason"].startswith("left out by SillyTavern's inclusion-group bookkeeping: uid 1")
    # A loses g1 but wins g2: it stays out, and C still loses to it
    won = _verdicts(
        _grouped(1, 15, "g1", "g2", override=True),
        _grouped(2, 20, "g1", override=True),
        _grouped(3, 10, "g2"),
    )
    assert won[1]["fired"] is False and won[2]["fired"] and not won[3]["fired"]
    assert won[3]["reason"] == "lost inclusion group 'g2' to uid 1 (prioritized, highest order)"


def test_groups_are_drawn_in_the_order_a_javascript_object_lists_them() -> None:
    # array-index names first, ascending: group '2' is drawn before 'b' though 'b' came first
    verdicts = _verdicts(
        _grouped(1, 30, "b", "2"),
        _grouped(2, 20, "b", override=True),
        _grouped(3, 10, "2", override=True),
        _entry(4, "start", "c4", order=5),
    )
    # '2' first: uid 1 loses to uid 3; then 'b': uid 1 again, so the last find (uid 4) goes
    assert verdicts[1]["reason"] == "lost inclusion group '2' to uid 3 (prioritized, highest order)"
    assert not verdicts[4]["fired"]


def test_a_character_filter_keeps_an_entry_to_or_away_from_the_character() -> None:
    # checkWorldInfo compares the filter's names with getCharaFilename(): the avatar file's stem
    def filtered(uid: int, names: list[str], exclude: bool = False) -> dict:
        return _entry(uid, "start", character_filter={"names": names, "exclude": exclude, "tags": []})

    books = [
        {
            "id": "b",
            "body": {
                "settings": {},
                "entries": [
                    filtered(1, ["default_Seraphina"]),
                    filtered(2, ["Ivo"]),
                    filtered(3, ["default_Seraphina"], exclude=True),
                    filtered(4, ["Ivo"], exclude=True),
                    _entry(5, "start", character_filter={"names": [], "tags": ["7"], "exclude": False}),
                ],
            },
        }
    ]
    chat = [{"role": "user", "content": "start"}]
    result = activate(books, chat, character_key="default_Seraphina")
    verdicts = {v["uid"]: v for v in result.entries}
    assert [uid for uid, v in verdicts.items() if v["fired"]] == [1, 4, 5]  # a tag filter is not tested
    assert verdicts[2]["reason"] == "character filter: only for Ivo, not 'default_Seraphina'"
    assert verdicts[3]["reason"] == "character filter: excludes 'default_Seraphina'"


def test_the_character_is_known_by_the_file_it_was_imported_from() -> None:
    from bunzai.render.render import avatar_key

    assert avatar_key({"name": "Seraphina", "original": {"source": "characters/default_Seraphina.png"}}) == (
        "default_Seraphina"
    )
    assert avatar_key({"name": "Ann", "original": {"source": "ann.v2.png"}}) == "ann.v2"
    assert avatar_key({"name": "Seraphina", "id": "seraphina"}) == "Seraphina"  # made in the studio


def test_entries_of_one_order_are_placed_as_sillytavern_unshifts_them() -> None:
    # checkWorldInfo sorts the activated entries higher order first and unshifts each into its
    # position's list: lower order first, and of one order the later activated first
    books = [
        {"id": "own", "scope": "character", "body": {"settings": {}, "entries": [_entry(1, "start", "A")]}},
        {
            "id": "world",
            "body": {"settings": {}, "entries": [_entry(2, "start", "B"), _entry(3, "start", "C", order=50)]},
        },
    ]
    fired = activate(books, [{"role": "user", "content": "start"}]).fired
    assert [entry["uid"] for entry in fired] == [3, 2, 1]
