"""A draft's impact crosses only the entries its change touches (changes/entry_slice.py): the
rows must be the ones crossing the whole piece gives, for any book and any change."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bunzai import limits
from bunzai.adapters.common.png import default_portrait
from bunzai.adapters.registry import get_adapter
from bunzai.changes import entry_slice as slicing
from bunzai.changes.entry_slice import entry_slice
from bunzai import convert as convert_module
from bunzai.convert import convert_piece, impact_formats, platform_impact
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import parsed_depth
from bunzai.model import dump_piece
from bunzai.model.character import CharacterBook
from bunzai.model.lorebook import LoreEntry
from bunzai.validate import validate_piece
from tests.capabilities.corpus_pieces import eldoria, seraphina
from tests.model.model_strategies import documents, model_documents

ENTRY_FIELDS = sorted(LoreEntry.model_fields)


def _valid(document: dict) -> dict | None:
    try:
        return dump_piece(validate_piece(document))
    except (BunzaiError, ValueError):
        return None


def _entries_of(document: dict) -> list:
    body = document["body"]
    return body["book"]["entries"] if document["kind"] == "character" else body["entries"]


@st.composite
def _changed(draw, before: dict) -> dict:
    """`before` after one to three edits: entries edited, added (at the end or between),
    removed (from anywhere), the book or piece renamed."""
    after = copy.deepcopy(before)
    for _ in range(draw(st.integers(1, 3))):
        entries = _entries_of(after)
        other = draw(model_documents(LoreEntry) | _plain_entries())
        edit = draw(
            st.sampled_from(
                [
                    "fields",
                    "fields",
                    "append",
                    "append",
                    "insert",
                    "pop",
                    "pop_first",
                    "pop_at",
                    "name",
                    "settings",
                    "uid",
                ]
            )
        )
        if draw(st.booleans()):  # a uid that is its entry's place, as RisuAI reads uids back
            other["uid"] = len(entries)
        if edit == "fields" and entries:
            index = draw(st.integers(0, len(entries) - 1))
            fields = draw(st.lists(st.sampled_from(ENTRY_FIELDS), min_size=1, max_size=4, unique=True))
            entries[index] = {**entries[index], **{field: other[field] for field in fields}}
        elif edit == "append":
            entries.append(other)
        elif edit == "uid" and entries:
            index = draw(st.integers(0, len(entries) - 1))
            entries[index]["uid"] = draw(st.sampled_from([index, len(entries), str(index), "named"]))
        elif edit == "insert":
            entries.insert(draw(st.integers(0, len(entries))), other)
        elif edit in ("pop", "pop_first") and entries:
            entries.pop(-1 if edit == "pop" else 0)
        elif edit == "pop_at" and entries:
            entries.pop(draw(st.integers(0, len(entries) - 1)))
        elif edit == "name":
            after["name"] = draw(st.text(max_size=8))
        else:
            book = after["body"]["book"] if after["kind"] == "character" else after["body"]
            book["settings"] = draw(model_documents(CharacterBook))["settings"]
    return after


def _plain_entries() -> st.SearchStrategy[dict]:
    """Entries of the fields every format carries, the rest left at their defaults: a random
    entry is lossy enough everywhere that a verdict found for the wrong reason goes unseen."""
    words = st.text("abc ", min_size=1, max_size=6).filter(lambda word: word.strip() == word)
    return st.fixed_dictionaries(
        {
            "uid": st.integers(0, 8),
            "content": words,
            "keys": st.lists(words.map(lambda word: {"text": word}), max_size=2),
        },
        optional={
            "enabled": st.booleans(),
            "order": st.integers(0, 200),
            "constant": st.booleans(),
            "display_index": st.none() | st.integers(0, 8),
        },
    ).map(lambda entry: LoreEntry.model_validate(entry).model_dump(mode="json"))


def _numbered(entries: list[dict]) -> list[dict]:
    """Entries whose uids are their places (as SillyTavern and RisuAI number a new book)."""
    return [{**entry, "uid": index} for index, entry in enumerate(entries)]


def _books() -> st.SearchStrategy[dict]:
    books = documents("lorebook").filter(lambda doc: len(doc["body"]["entries"]) >= 2)
    plain = st.lists(_plain_entries(), min_size=2, max_size=5, unique_by=lambda entry: entry["uid"])
    books |= st.builds(lambda doc, entries: {**doc, "body": {**doc["body"], "entries": entries}}, books, plain)
    numbered = books.map(lambda doc: {**doc, "body": {**doc["body"], "entries": _numbered(doc["body"]["entries"])}})
    return books | numbered


@st.composite
def _cards(draw) -> dict:
    card = draw(documents("character"))
    book = draw(model_documents(CharacterBook).filter(lambda book: len(book["entries"]) >= 2))
    if draw(st.booleans()):
        book["entries"] = draw(st.lists(_plain_entries(), min_size=2, max_size=5, unique_by=lambda e: e["uid"]))
    card["body"]["book"] = {**book, "entries": _numbered(book["entries"])} if draw(st.booleans()) else book
    return card


def _same_rows(before: dict, after: dict) -> None:
    before, proposed = _valid(before), _valid(after)
    assume(before is not None and proposed is not None)
    assert platform_impact(before, proposed) == platform_impact(before, proposed, whole=True)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.data())
def test_a_lorebook_change_crossed_in_a_slice_names_what_the_whole_book_names(data) -> None:
    before = data.draw(_books())
    _same_rows(before, data.draw(_changed(before)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.data())
def test_a_card_book_change_crossed_in_a_slice_names_what_the_whole_card_names(data) -> None:
    before = data.draw(_cards())
    _same_rows(before, data.draw(_changed(before)))


@st.composite
def _repeating(draw) -> list[dict]:
    """Six to thirty entries of a few shapes, each its own text and uid (as a real book
    repeats a few kinds of entry), sometimes with odd ones among them: so that entries of one
    shape stand in for one another in a slice (entry_slice._stand_ins)."""
    templates = draw(st.lists(_plain_entries() | model_documents(LoreEntry), min_size=1, max_size=3))
    count = draw(st.integers(6, 30))
    picks = draw(st.lists(st.integers(0, len(templates) - 1), min_size=count, max_size=count))
    texts = draw(st.lists(st.text("ab @{}", min_size=1, max_size=5), min_size=count, max_size=count))
    uids = draw(st.sampled_from(["place", "shuffled", "named"]))
    order = draw(st.permutations(range(count)))
    entries = []
    for place, (pick, text) in enumerate(zip(picks, texts)):
        uid = {"place": place, "shuffled": order[place], "named": f"e{place}"}[uids]
        entries.append({**templates[pick], "uid": uid, "content": text, "title": text[:2]})
    for _ in range(draw(st.integers(0, 1))):  # an odd entry, anywhere
        odd = {**draw(model_documents(LoreEntry) | _plain_entries()), "uid": f"odd{len(entries)}"}
        entries.insert(draw(st.integers(0, len(entries))), odd)
    return entries


@st.composite
def _moved(draw, before: dict) -> dict:
    """`before` after lorebook.entries.reorder: one entry moved, or the whole order given, and
    every entry given its place as its display_index (as SillyTavern's editor numbers them),
    sometimes with an entry edited as well."""
    after = copy.deepcopy(before)
    entries = _entries_of(after)
    if draw(st.booleans()):
        entry = entries.pop(draw(st.integers(0, len(entries) - 1)))
        entries.insert(draw(st.integers(0, len(entries))), entry)
    else:
        entries[:] = draw(st.permutations(entries))
    for place, entry in enumerate(entries):
        entry["display_index"] = place
    if draw(st.booleans()):
        index = draw(st.integers(0, len(entries) - 1))
        field = draw(st.sampled_from(ENTRY_FIELDS))
        entries[index][field] = draw(model_documents(LoreEntry))[field]
    return after


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.data())
def test_a_lorebook_reorder_crossed_in_a_slice_names_what_the_whole_book_names(data) -> None:
    before = data.draw(_books())
    if data.draw(st.integers(0, 3)):  # mostly a book whose entries stand in for one another
        before = {**before, "body": {**before["body"], "entries": data.draw(_repeating())}}
    _same_rows(before, data.draw(_moved(before)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.data())
def test_a_card_book_reorder_crossed_in_a_slice_names_what_the_whole_card_names(data) -> None:
    before = data.draw(_cards())
    before["body"]["book"]["entries"] = data.draw(_repeating())
    _same_rows(before, data.draw(_moved(before)))


def _big_book(count: int) -> dict:
    """A book of `count` entries of two shapes, uids their places, each its own text."""
    entries = [
        {"uid": n, "keys": [{"text": f"k{n}"}], "content": f"c{n}", "constant": n % 2 == 0, "display_index": n}
        for n in range(count)
    ]
    return _valid({"kind": "lorebook", "id": "b", "name": "B", "body": {"entries": entries}})


def _moved_last_to_top(before: dict) -> dict:
    after = copy.deepcopy(before)
    entries = _entries_of(after)
    entries.insert(0, entries.pop())
    for place, entry in enumerate(entries):
        entry["display_index"] = place
    return _valid(after)


def test_a_move_in_a_big_book_crosses_a_few_entries(monkeypatch) -> None:
    """lorebook.entries.reorder on a book of 300 renumbers every display_index: every format
    crosses the first few entries, which stand in for the rest, and names what the whole book
    names (every entry's display_index, where a format has none)."""
    before = _big_book(300)
    after = _moved_last_to_top(before)
    crossed = []
    real = convert_module._format_impact

    def spy(piece, target, fmt, *args):
        crossed.append(len(piece.body.entries))
        return real(piece, target, fmt, *args)

    monkeypatch.setattr(convert_module, "_format_impact", spy)
    rows = platform_impact(before, after)
    assert crossed and max(crossed) <= 4
    monkeypatch.setattr(convert_module, "_format_impact", real)
    assert rows == platform_impact(before, after, whole=True)
    risu = [row for row in rows if row["platform"] == "risu.lorebook"]
    assert risu[-1]["more"] == 300 - limits.IMPACT_POINTERS_SHOWN


def test_entries_that_stand_in_for_others_but_name_different_rows_cross_the_whole_book(monkeypatch) -> None:
    """Where the kept entries of one shape do not show the same row, the rest are not taken
    to show theirs: that format crosses the whole book."""
    before = _big_book(40)
    after = _moved_last_to_top(before)
    sliced = entry_slice(after, [f"/body/entries/{n}/display_index" for n in range(40)])
    assert sliced is not None and sliced.agree
    odd = sliced.agree[0][-1]  # in the slice, and the same entry in the whole book
    real = convert_module.lost_along
    monkeypatch.setattr(
        convert_module,
        "lost_along",
        lambda a, b, pointer, *same: pointer if pointer == odd else real(a, b, pointer, *same),
    )
    crossed = []
    real_impact = convert_module._format_impact

    def spy(piece, target, fmt, *args):
        crossed.append((fmt, len(piece.body.entries)))
        return real_impact(piece, target, fmt, *args)

    monkeypatch.setattr(convert_module, "_format_impact", spy)
    rows = platform_impact(before, after)
    assert ("sillytavern.world", 40) in crossed
    assert rows == platform_impact(before, after, whole=True)
    assert [row["pointer"] for row in rows if row["platform"] == "sillytavern.world"] == [odd]


@pytest.mark.parametrize("field", sorted(slicing._RENUMBERED))
def test_a_renumbered_field_is_kept_or_lost_whatever_its_number(field) -> None:
    """Why an entry may stand in for one of its shape further on, whose number is larger: each
    format keeps the field, or names the same loss, for any number."""
    entries = [{"uid": n, "content": f"c{n}", "keys": [{"text": "k"}]} for n in range(3)]
    before = _valid({"kind": "lorebook", "id": "b", "name": "B", "body": {"entries": entries}})
    rows = {}
    for number in (0, 1, 7, 255, 256, 4000, 65536, 2**31, 2**53 - 1):
        after = copy.deepcopy(before)
        after["body"]["entries"][1][field] = number
        rows[number] = platform_impact(before, _valid(after), whole=True)
    assert rows[0] and all(found == rows[0] for found in rows.values())


def test_a_slice_keeps_the_first_entries_of_each_shape_at_their_places() -> None:
    entries = [{"uid": n, "content": f"c{n}", "enabled": n in (1, 4, 5, 6), "display_index": n} for n in range(12)]
    book = {"kind": "lorebook", "name": "b", "body": {"entries": entries}}
    sliced = entry_slice(book, [f"/body/entries/{n}/display_index" for n in range(12)])
    assert [entry["uid"] for entry in sliced.piece["body"]["entries"]] == [0, 1, 2, 3, 4]  # two of each shape
    assert sliced.pointers == [f"/body/entries/{n}/display_index" for n in (0, 1, 2, 3, 4, 1, 1, 0, 0, 0, 0, 0)]
    assert sorted(sliced.agree) == [
        tuple(f"/body/entries/{n}/display_index" for n in kept) for kept in ((0, 2, 3), (1, 4))
    ]
    # a value that is not the entry's place, or an entry changed twice, stands for itself
    sliced = entry_slice(book, ["/body/entries/9/enabled", *(f"/body/entries/{n}/display_index" for n in range(12))])
    assert [entry["content"] for entry in sliced.piece["body"]["entries"]] == ["c0", "c1", "c2", "c3", "c4", "c9"]
    assert sliced.pointers[0] == "/body/entries/5/enabled" and sliced.pointers[-3] == "/body/entries/5/display_index"


@pytest.mark.parametrize("which", ["world", "card"])
def test_real_books_name_the_same_rows_sliced_and_whole(which) -> None:
    """Eldoria's entries and Seraphina's book, each entry's fields changed as a person would."""
    before = eldoria() if which == "world" else seraphina()
    before = _valid(before)
    edits = [
        {"enabled": False},
        {"content": "{{char}} walks the glade. <START>", "vectorized": True},
        {"keys": [{"text": "/glade|grove/i", "regex": True, "flags": "i"}], "position": "at_depth", "depth": 2},
        {"sticky": 3, "cooldown": 2, "delay": 1, "character_filter": {"exclude": True, "names": ["Ada"]}},
        {"uid": "entry-by-name", "title": "Renamed"},
    ]
    for index in range(len(_entries_of(before))):
        after = copy.deepcopy(before)
        entry = _entries_of(after)[index]
        entry.update(edits[index % len(edits)])
        proposed = _valid(after)
        assert proposed is not None
        sliced = platform_impact(before, proposed)
        assert sliced == platform_impact(before, proposed, whole=True), index


def test_a_slice_keeps_the_touched_entries_and_the_first_and_renumbers_the_pointers() -> None:
    book = {"kind": "lorebook", "name": "b", "body": {"entries": [{"uid": n} for n in range(10)]}}
    sliced, pointers, *_ = entry_slice(book, ["/body/entries/7/content", "/name", "/body/entries/3/keys/0/text"])
    assert [entry["uid"] for entry in sliced["body"]["entries"]] == [0, 1, 2]  # each uid was its place
    assert [entry["uid"] for entry in entry_slice(_named(book), ["/body/entries/7/content"])[0]["body"]["entries"]] == [
        "e0",
        "e7",
    ]
    assert pointers == ["/body/entries/2/content", "/name", "/body/entries/1/keys/0/text"]
    assert book["body"]["entries"][9] == {"uid": 9}, "the proposed piece is not changed"


def test_a_card_slices_its_books_entries() -> None:
    card = {
        "kind": "character",
        "name": "c",
        "body": {"book": {"name": "b", "entries": [{"uid": n} for n in range(4)]}},
    }
    sliced, pointers, *_ = entry_slice(card, ["/body/book/entries/2/enabled", "/body/book/name"])
    assert [entry["uid"] for entry in sliced["body"]["book"]["entries"]] == [0, 1]  # 2 was its place
    assert sliced["body"]["book"]["entries"][1] is not card["body"]["book"]["entries"][2]
    assert card["body"]["book"]["entries"][2] == {"uid": 2}, "the proposed piece is not changed"
    assert sliced["body"]["book"]["name"] == "b"
    assert pointers == ["/body/book/entries/1/enabled", "/body/book/name"]


@pytest.mark.parametrize(
    "pointers",
    [
        ["/body/entries"],  # the list replaced
        ["/body"],
        [""],
        ["/body/entries/01/content"],  # not an index all_changes writes
        ["/body/entries/2/content", "/body/entries/4"],  # past the end: an entry removed from it
        [f"/body/entries/{n}/content" for n in range(1, 4)],  # every entry touched: nothing to leave out
    ],
)
def test_a_change_not_under_single_entries_is_crossed_whole(pointers) -> None:
    book = {"kind": "lorebook", "name": "b", "body": {"entries": [{"uid": n} for n in range(4)]}}
    assert entry_slice(book, pointers) is None


def _named(book: dict) -> dict:
    """`book` with uids that are not places: e0, e1 ..."""
    entries = [{**entry, "uid": f"e{n}"} for n, entry in enumerate(book["body"]["entries"])]
    return {**book, "body": {**book["body"], "entries": entries}}


@pytest.mark.parametrize("pointer", ["/body/entries/3", "/body/entries/2/uid"])
def test_an_entry_replaced_whole_or_given_a_uid_is_sliced_with_its_uid_placed(pointer) -> None:
    book = {"kind": "lorebook", "name": "b", "body": {"entries": [{"uid": n} for n in range(6)]}}
    sliced = entry_slice(book, [pointer])
    assert sliced is not None and sliced.pointers == [pointer.replace(pointer.split("/")[3], "1", 1)]
    assert [entry["uid"] for entry in sliced.piece["body"]["entries"]] == [0, 1]


def test_a_uid_that_would_be_its_place_only_in_the_slice_crosses_whole() -> None:
    """Entry 4's uid is 1: lost by RisuAI at place 4, it would be kept at place 1 of a slice."""
    book = {"kind": "lorebook", "name": "b", "body": {"entries": [{"uid": n} for n in (9, 5, 6, 7, 1)]}}
    assert entry_slice(book, ["/body/entries/4/content"]) is None
    book["body"]["entries"][4]["uid"] = 2  # neither its place in the book nor in the slice
    assert [entry["uid"] for entry in entry_slice(book, ["/body/entries/4/content"]).piece["body"]["entries"]] == [9, 2]
    # and where renumbering would make two uids one: entry 0's uid 1, entry 3 at place 1 of the slice
    book = {"kind": "lorebook", "name": "b", "body": {"entries": [{"uid": 1}, {"uid": 7}, {"uid": 8}, {"uid": 3}]}}
    assert entry_slice(book, ["/body/entries/3/content"]) is None
    book["body"]["entries"][0]["uid"] = "1"  # 1 and "1" are one uid
    assert entry_slice(book, ["/body/entries/3/content"]) is None


def test_an_empty_uid_away_from_its_place_crosses_whole() -> None:
    """An empty uid is read back as the entry's place: at place 1 of a slice it would take the uid 1
    of a later entry there, which the whole book (where it is read as 3) never does (hypothesis found
    this one: the slice named a loss at entry 4 that the whole book did not)."""
    uids = [0, 417, "text", "", 1]
    book = {"kind": "lorebook", "name": "b", "body": {"entries": [{"uid": uid} for uid in uids]}}
    assert entry_slice(book, ["/body/entries/3", "/body/entries/4"]) is None
    entries = [{"uid": uid, "content": "a"} for uid in uids]
    before = _valid({"kind": "lorebook", "id": "b", "name": "b", "body": {"entries": entries[:3]}})
    proposed = _valid({"kind": "lorebook", "id": "b", "name": "b", "body": {"entries": entries}})  # two added
    assert platform_impact(before, proposed) == platform_impact(before, proposed, whole=True)
    # at its own place it is read back as it is in the book: the slice stands
    book["body"]["entries"] = [{"uid": uid} for uid in (0, "", 7, 8)]
    assert entry_slice(book, ["/body/entries/1/content"]) is not None


@pytest.mark.parametrize("uid", ["place", "other"])
def test_an_entry_added_to_a_big_book_is_crossed_in_a_slice(uid, monkeypatch) -> None:
    """lorebook.entries.create on a book of 300: every format crosses two entries, and names
    what the whole book names (RisuAI keeps a uid that is the entry's place, loses another)."""
    before = _valid(
        {
            "kind": "lorebook",
            "id": "b",
            "name": "B",
            "body": {"entries": [{"uid": n, "keys": [{"text": f"k{n}"}], "content": f"c{n}"} for n in range(300)]},
        }
    )
    after = copy.deepcopy(before)
    after["body"]["entries"].append({"uid": 300 if uid == "place" else 777, "content": "new", "keys": [{"text": "n"}]})
    crossed = []
    real = convert_module._format_impact

    def spy(piece, target, fmt, *args):
        crossed.append(len(piece.body.entries))
        return real(piece, target, fmt, *args)

    monkeypatch.setattr(convert_module, "_format_impact", spy)
    rows = platform_impact(before, _valid(after))
    assert crossed and set(crossed) == {2}
    monkeypatch.setattr(convert_module, "_format_impact", real)
    assert rows == platform_impact(before, _valid(after), whole=True)
    risu = [row["pointer"] for row in rows if row["platform"] == "risu.lorebook"]
    assert risu == ([] if uid == "place" else ["/body/entries/300"])


def test_an_entry_added_whose_uid_is_its_place_is_carried_by_risuai() -> None:
    """RisuAI reads a uid back from the entry's place: the new entry's place in a slice would
    not be its place in the book (a slice made it lost where the whole book carries it)."""
    before = _valid(
        {
            "kind": "lorebook",
            "id": "b",
            "name": "B",
            "body": {"entries": [{"uid": n, "content": f"c{n}"} for n in range(5)]},
        }
    )
    after = copy.deepcopy(before)
    after["body"]["entries"].append({**after["body"]["entries"][0], "uid": 5, "content": "new"})
    rows = platform_impact(before, _valid(after))
    assert rows == platform_impact(before, _valid(after), whole=True)
    assert [row["pointer"] for row in rows if row["platform"] == "risu.lorebook"] == []


def test_a_piece_without_entries_to_leave_out_is_crossed_whole() -> None:
    assert entry_slice({"kind": "preset", "body": {"prompts": [{}, {}]}}, ["/body/prompts/1"]) is None
    assert entry_slice({"kind": "lorebook", "body": {"entries": [{"uid": 0}]}}, ["/body/entries/0"]) is None


def _shapes() -> dict[str, list[dict]]:
    """Entries of the shapes that weigh most or least per byte once a writer indents them."""
    deep: dict = {}
    for _ in range(170):  # near IMPACT_SLICE_MAX_DEPTH, where indentation weighs most
        deep = {"n": deep, "z": [0, 0]}
    return {
        "one word": [{"uid": n, "keys": [{"text": "k"}], "content": "c"} for n in range(200)],
        "cjk": [{"uid": n, "keys": [{"text": "森"}], "content": "森の奥" * 50} for n in range(200)],
        "long": [{"uid": n, "keys": [{"text": "k"}], "content": "x" * 3000} for n in range(200)],
        "very long": [{"uid": n, "keys": [{"text": "k"}], "content": "x" * 400_000} for n in range(4)],
        "zeros": [{"uid": n, "content": "c", "extensions": {"x": [0] * 500}} for n in range(100)],
        "tokens": [{"uid": n, "content": "c", "extensions": {"x": list(range(10_000, 10_500))}} for n in range(100)],
        "deep": [{"uid": n, "content": "c", "extensions": {"x": deep, "risuai": {"x": deep}}} for n in range(20)],
    }


@pytest.mark.parametrize("kind", ["lorebook", "character"])
@pytest.mark.parametrize("shape", sorted(_shapes()))
def test_the_entries_a_slice_leaves_out_weigh_no_more_than_fits_allows(kind, shape, risu_table) -> None:
    """Why `entry_slice.fits` may judge the whole piece's file from the slice's: in every text
    format the left-out entries add less than its factor times their `measure` to the file,
    in the PNG card (two base64 copies of the compact card) less than its own, and in an
    archive less than the text factor to any one member and twice it to all of them (a RisuAI
    CHARX with scripts writes the book twice: card.json and module.risum)."""
    entries = _shapes()[shape]
    card = {"description": "A long description. " * 5000, "first_message": "Hello. " * 5000}
    script = {"format": "risu.customscript", "name": "caps", "payload": {"in": "a", "out": "A", "type": "editoutput"}}
    body = {"entries": entries} if kind == "lorebook" else {**card, "book": {"entries": entries}}
    if kind == "character":
        body["behavior_scripts"] = [script]
    proposed = dump_piece(validate_piece({"kind": kind, "id": "x", "name": "X", "body": body}))
    pointer = "/body/entries/1/enabled" if kind == "lorebook" else "/body/book/entries/1/enabled"
    sliced = entry_slice(proposed, [pointer])
    whole, part = validate_piece(dict(proposed, original=None)), validate_piece(sliced.piece)
    for fmt in impact_formats(kind):
        if get_adapter(fmt).container == "archive":
            big, small = _members(_file(whole, fmt)), _members(_file(part, fmt))
            assert set(big) == set(small), fmt
            if fmt == "risu.charx":
                assert "module.risum" in big  # the book written twice
            grown = {name: big[name][0] - small[name][0] for name in big}
            assert max(grown.values()) <= slicing._TEXT_GROWTH * sliced.omitted, (fmt, grown)
            assert 0 <= sum(grown.values()) <= slicing._ARCHIVE_GROWTH * sliced.omitted, (fmt, grown)
            continue
        grown = len(_file(whole, fmt)) - len(_file(part, fmt))
        growth = slicing._PNG_GROWTH if fmt == "sillytavern.card.png" else slicing._TEXT_GROWTH
        assert 0 <= grown <= growth * sliced.omitted, (fmt, grown / sliced.omitted)


@pytest.fixture
def risu_table(tmp_path, monkeypatch):
    """A RisuAI table of the tests' own, so that a RisuAI CHARX writes its module."""
    from bunzai.adapters.risu import rpack
    from tests.adapters.risu_support import fake_checkout

    monkeypatch.delenv(rpack.ENV_ROOT, raising=False)
    fake_checkout(tmp_path)
    rpack.configure_risu_root(tmp_path, verify_hash=False)
    yield
    rpack.configure_risu_root(None)


def _members(data: bytes) -> dict[str, tuple[int, int]]:
    """Each member's (uncompressed, compressed) size."""
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: (info.file_size, info.compress_size) for info in archive.infolist()}


def _file(piece, fmt: str) -> bytes:
    return convert_piece(piece, fmt, lambda ref: default_portrait(), check=False).data


def test_a_format_whose_whole_file_may_pass_its_limit_is_crossed_whole(monkeypatch) -> None:
    """The slice's file judged too close to the reader's limit: that format crosses the whole
    piece, and names what the whole piece's crossing names."""
    before = _valid({"kind": "lorebook", "id": "b", "name": "B", "body": {"entries": [{"uid": n} for n in range(6)]}})
    after = copy.deepcopy(before)
    after["body"]["entries"][2]["enabled"] = False
    crossed = []
    real = convert_module._format_impact

    def spy(piece, target, fmt, *args):
        crossed.append((fmt, len(piece.body.entries)))
        return real(piece, target, fmt, *args)

    monkeypatch.setattr(convert_module, "_format_impact", spy)
    monkeypatch.setattr(
        convert_module, "fits", lambda data, omitted, archive=False: not data.startswith(b'{\n    "entries"')
    )
    rows = platform_impact(before, _valid(after))
    assert ("sillytavern.world", 6) in crossed and ("sillytavern.world", 2) in crossed
    assert ("lorebook_v3.json", 6) not in crossed
    assert rows == platform_impact(before, _valid(after), whole=True)


def test_a_card_whose_book_deflates_past_the_bomb_ratio_crosses_its_archives_sliced(monkeypatch) -> None:
    """A card of long repeated entries: its card.json deflates past limits.ARCHIVE_MAX_RATIO
    (a zip bomb's mark), so the archive writer stores it and the reader takes it back; the
    archives are crossed with the slice like every other format, and name what the whole
    card names: nothing."""
    text = "x" * 20_000
    entries = [{"uid": n, "keys": [{"text": "k"}], "content": text} for n in range(80)]
    before = _valid({"kind": "character", "id": "padded", "name": "Padded", "body": {"book": {"entries": entries}}})
    after = copy.deepcopy(before)
    after["body"]["book"]["entries"][5]["enabled"] = False
    assert entry_slice(after, ["/body/book/entries/5/enabled"]) is not None
    crossed = []
    real = convert_module._format_impact

    def spy(piece, target, fmt, *args):
        crossed.append((fmt, len(piece.body.book.entries)))
        return real(piece, target, fmt, *args)

    monkeypatch.setattr(convert_module, "_format_impact", spy)
    rows = platform_impact(before, _valid(after))
    assert ("charx", 2) in crossed and ("risu.charx", 2) in crossed
    assert not [fmt for fmt, count in crossed if count == 80]
    assert rows == platform_impact(before, _valid(after), whole=True)
    assert not [row for row in rows if row["note"].endswith("cannot write this piece")]


@pytest.mark.parametrize("fmt", ["charx", "risu.charx"])
def test_an_archive_whose_whole_file_may_pass_a_member_limit_is_crossed_whole(fmt, monkeypatch) -> None:
    """The slice's card.json judged too close to the member limit: that archive crosses the
    whole card."""
    monkeypatch.setattr(slicing, "ARCHIVE_MEMBER_MAX_BYTES", 40_000)
    entries = [{"uid": n, "keys": [{"text": "k"}], "content": f"entry {n} " * 300} for n in range(40)]
    before = _valid({"kind": "character", "id": "c", "name": "C", "body": {"book": {"entries": entries}}})
    after = copy.deepcopy(before)
    after["body"]["book"]["entries"][3]["enabled"] = False
    sliced = entry_slice(after, ["/body/book/entries/3/enabled"])
    part = _file(validate_piece(sliced.piece), fmt)
    assert max(size for size, _ in _members(part).values()) < 40_000  # the slice alone would fit
    assert not slicing.fits(part, sliced.omitted, archive=True)
    assert slicing.fits(part, 0, archive=True)


def _nested(levels: int) -> dict:
    value: dict = {}
    for _ in range(levels - 1):
        value = {"n": value}
    return value


def _deep_piece(kind: str, depth: int) -> dict:
    """A piece of five plain entries, the last one's extensions (kept by RisuAI under its own
    key, by others as they are) nested so that the piece is `depth` levels deep."""
    entries = [{"uid": n, "keys": [{"text": f"k{n}"}], "content": f"c{n}"} for n in range(5)]
    body = {"entries": entries} if kind == "lorebook" else {"book": {"entries": entries}}
    piece = {"kind": kind, "id": "deep", "name": "Deep", "body": body}
    levels = depth - (4 if kind == "lorebook" else 5) - 2  # below the entry, its extensions and "risuai"
    entries[-1]["extensions"] = {"risuai": {"n": _nested(levels)}, "n": _nested(levels + 1)}
    assert parsed_depth(piece) == depth
    return _valid(piece)


@pytest.mark.parametrize("kind", ["lorebook", "character"])
def test_a_piece_nested_as_deep_as_the_slice_limit_crosses_every_format_whole(kind) -> None:
    """Why a piece up to IMPACT_SLICE_MAX_DEPTH may be sliced: its deepest entry crosses to
    every format within the readers' depth limit, so leaving it out changes no row."""
    before = _deep_piece(kind, limits.IMPACT_SLICE_MAX_DEPTH)
    after = copy.deepcopy(before)
    _entries_of(after)[1]["enabled"] = False
    whole = platform_impact(before, after, whole=True)
    assert not [row for row in whole if row["note"].endswith("cannot write this piece")]
    assert platform_impact(before, after) == whole


@pytest.mark.parametrize("kind", ["lorebook", "character"])
def test_a_piece_nested_past_the_slice_limit_is_crossed_whole(kind) -> None:
    """Deeper, a format's file of the whole piece may pass the readers' depth limit where a
    slice without the deepest entry would not (and the store keeps pieces a few levels
    deeper than the readers read)."""
    before = _deep_piece(kind, limits.WRAPPED_JSON_MAX_DEPTH)
    after = copy.deepcopy(before)
    _entries_of(after)[1]["enabled"] = False
    assert (
        entry_slice(after, ["/body/entries/1/enabled", "/body/book/entries/1/enabled"][kind == "character" :]) is None
    )
    whole = platform_impact(before, after, whole=True)
    assert [row for row in whole if row["note"].endswith("cannot write this piece")]
    assert platform_impact(before, after) == whole


def test_a_book_whose_uids_repeat_is_crossed_whole():
    # entry 2's empty uid reads back as its place, 2, which entry 3 gives too: a card book or a
    # V3 lorebook renumbers the repeat (the next free integer, card_book.uids_of), which a slice
    # without entry 2 would not show
    entries = [{"uid": uid, "keys": [{"text": "k"}], "content": f"c{n}"} for n, uid in enumerate(["a", 5, "", 2])]
    before = dump_piece(validate_piece({"kind": "lorebook", "id": "b", "name": "B", "body": {"entries": entries[:3]}}))
    after = dump_piece(validate_piece({"kind": "lorebook", "id": "b", "name": "B", "body": {"entries": entries}}))
    assert entry_slice(after, ["/body/entries/3"]) is None
    rows = platform_impact(before, after)
    assert rows == platform_impact(before, after, whole=True)
    assert "lorebook_v3.json" in {row["platform"] for row in rows}
