"""Agnai's memory search (common/memory.ts) looks only at an entry's `keywords`, never at its
`secondaryKeys`, and removes `\\^$+.()|[]{}_` from a keyword before it builds `\\b(keyword)\\b`.
A crossing into Agnai reports an entry whose secondary condition is lost, and a keyword whose
stripped form no longer finds its own text; a book read from Agnai reports neither."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings, strategies as st

from bunzai.adapters.agnai.memory_entries import (
    fires_between_words,
    fires_everywhere,
    never_matches,
    stripped_misses,
    wildcard_misses,
)
from bunzai.regexlab import engine

_UNSEARCHED = "agnai.entry.secondary_keys_unsearched"
_STRIPPED = "agnai.entry.key_stripped"
_NEVER = "agnai.entry.key_never_matches"
_EVERYWHERE = "agnai.entry.key_fires_everywhere"


def _coded(losses: list[dict], code: str) -> list[str]:
    return [loss["pointer"] for loss in losses if loss["code"] == code]


def _world(tmp_path, entries: list[dict]):
    path = tmp_path / "world.json"
    native = {str(uid): dict(entry, uid=uid) for uid, entry in enumerate(entries)}
    path.write_text(json.dumps({"entries": native}, ensure_ascii=False), "utf-8")
    return path


def _card(tmp_path, entries: list[dict]):
    path = tmp_path / "card.json"
    book = {"name": "Lore", "entries": [dict(entry, id=uid) for uid, entry in enumerate(entries)]}
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Ann", "character_book": book}}
    path.write_text(json.dumps(card, ensure_ascii=False), "utf-8")
    return path


def test_a_selective_entry_into_an_agnai_memory_book_loses_its_secondary_condition(bunzai, tmp_path) -> None:
    world = _world(
        tmp_path,
        [
            {"key": ["sword"], "keysecondary": ["fire"], "selective": True, "content": "A burning sword."},
            {"key": ["sword"], "keysecondary": ["ice"], "selective": False, "content": "Not selective."},
            {"key": ["shield"], "keysecondary": [], "selective": True, "content": "No secondary keys."},
        ],
    )
    out = tmp_path / "book.agnai.json"
    report = bunzai("convert", str(world), "--to", "agnai.memory.json", "-o", str(out), check=True).json
    assert _coded(report["losses"], _UNSEARCHED) == ["/body/entries/0/secondary_keys"]
    written = json.loads(out.read_text("utf-8"))
    assert written["entries"][0]["secondaryKeys"] == ["fire"]  # kept, as Agnai keeps the field
    again = bunzai("convert", str(out), "--to", "agnai.memory.json", "-o", str(tmp_path / "again"), check=True)
    assert _coded(again.json["losses"], _UNSEARCHED) == []


def test_a_selective_card_book_entry_into_agnai_characters_loses_its_secondary_condition(bunzai, tmp_path) -> None:
    entry = {"keys": ["sword"], "secondary_keys": ["fire"], "selective": True, "content": "Hot.", "enabled": True}
    card = _card(tmp_path, [entry, dict(entry, selective=False)])
    for target in ("agnai.character.json", "agnai.tavern.json"):
        out = tmp_path / f"{target}.out"
        report = bunzai("convert", str(card), "--to", target, "-o", str(out), check=True).json
        assert _coded(report["losses"], _UNSEARCHED) == ["/body/book/entries/0/secondary_keys"], target
        again = bunzai("convert", str(out), "--to", target, "-o", str(tmp_path / f"{target}.again"), check=True)
        assert _coded(again.json["losses"], _UNSEARCHED) == [], target


def test_a_keyword_agnai_strips_out_of_reach_is_reported_once(bunzai, tmp_path) -> None:
    keys = ["Mr. Smith", "Dr.", "東京", "snake_case", "C++", "(cat)", "...", "^_^"]
    world = _world(tmp_path, [{"key": keys, "content": "Someone."}])
    out = tmp_path / "book.agnai.json"
    report = bunzai("convert", str(world), "--to", "agnai.memory.json", "-o", str(out), check=True).json
    stripped = _coded(report["losses"], _STRIPPED)
    assert stripped == ["/body/entries/0/keys/0", "/body/entries/0/keys/3"]
    # searched as \b()\b: ^_^ was not reported at all (its _ finds itself), ... was called stripped
    assert _coded(report["losses"], _EVERYWHERE) == ["/body/entries/0/keys/6", "/body/entries/0/keys/7"]
    assert _coded(report["losses"], _NEVER) == ["/body/entries/0/keys/2"]
    assert json.loads(out.read_text("utf-8"))["entries"][0]["keywords"] == keys  # written as they are
    again = bunzai("convert", str(out), "--to", "agnai.memory.json", "-o", str(tmp_path / "again"), check=True)
    assert _coded(again.json["losses"], _STRIPPED) == []


def _agnai_finds(keyword: str, line: str) -> bool:
    # createRegexForKeyword, run in the embedded JavaScript engine
    pattern = re.sub(r"[\\^$+.()|[\]{}_]", "", keyword.strip()).replace("*", "\\w*").replace("?", "\\w")
    answer = engine.call({"op": "test", "pattern": f"\\b({pattern})\\b", "flags": "iu", "texts": [line]})
    return bool(answer["results"][0])


@settings(max_examples=150, deadline=None)
@given(keyword=st.text(alphabet="aZ1 ._+(|*?", min_size=1, max_size=7))
def test_a_stripped_keyword_is_reported_exactly_when_agnai_misses_its_own_text(keyword: str) -> None:
    if not re.search(r"[\\^$+.()|[\]{}_]", keyword.strip()):
        assert not stripped_misses(keyword)  # nothing removed: no loss of this kind
        return
    if never_matches(keyword):
        return  # the edges already say it; the same key is not reported twice
    if fires_everywhere(keyword):
        return  # reported as firing everywhere, whatever else is true of it
    # the keyword's text as written, quoted alone, so that nothing but that text can hold a match
    assert stripped_misses(keyword) == (not _agnai_finds(keyword, f"« {keyword.strip()} »"))


@settings(max_examples=150, deadline=None)
@given(keyword=st.text(alphabet="aZ1 ._+(|*?^", max_size=6))
def test_a_keyword_said_to_fire_everywhere_does_fire_on_a_plain_message(keyword: str) -> None:
    if fires_everywhere(keyword):
        assert _agnai_finds(keyword, "The gate opens.") and _agnai_finds(keyword, "ok")


@settings(max_examples=150, deadline=None)
@given(keyword=st.text(alphabet="aZ1 ._+(|*?^", max_size=6))
def test_a_keyword_said_to_fire_between_words_finds_any_two(keyword: str) -> None:
    if fires_between_words(keyword):
        assert _agnai_finds(keyword, "The gate opens.") and not _agnai_finds(keyword, "ok")


def test_a_keyword_left_as_one_space_is_reported_as_firing_everywhere(bunzai, tmp_path) -> None:
    # ^ ^ is searched as \b( )\b: the space between any two words; it was reported as stripped only
    world = _world(tmp_path, [{"key": ["^ ^", ". .", "^  ^"], "content": "Between."}])
    report = bunzai("convert", str(world), "--to", "agnai.memory.json", "-o", str(tmp_path / "b.json"), check=True)
    everywhere = [loss for loss in report.json["losses"] if loss["code"] == _EVERYWHERE]
    assert [loss["pointer"] for loss in everywhere] == ["/body/entries/0/keys/0", "/body/entries/0/keys/1"]
    assert all("\\b( )\\b" in loss["why"] for loss in everywhere)
    assert _coded(report.json["losses"], _STRIPPED) == ["/body/entries/0/keys/2"]


@settings(max_examples=150, deadline=None)
@given(keyword=st.text(alphabet="aZ1 *?", min_size=1, max_size=7))
def test_a_wildcard_keyword_is_said_to_miss_exactly_when_agnai_misses_its_own_text(keyword: str) -> None:
    # * and ? are literal in SillyTavern and RisuAI keys, wildcards in Agnai's search
    if "*" in keyword or "?" in keyword:
        assert wildcard_misses(keyword) == (not _agnai_finds(keyword, f"« {keyword.strip()} »"))
    else:
        assert not wildcard_misses(keyword)


def test_a_keyword_meant_literally_that_agnai_reads_as_a_wildcard_is_reported(bunzai, tmp_path) -> None:
    world = _world(tmp_path, [{"key": ["what?", "drag*", "5*3", "(what?)", "[5*3]"], "content": "Asked."}])
    out = tmp_path / "b.json"
    report = bunzai("convert", str(world), "--to", "agnai.memory.json", "-o", str(out), check=True).json
    assert _coded(report["losses"], "agnai.entry.key_wildcard") == ["/body/entries/0/keys/0", "/body/entries/0/keys/2"]
    # with brackets Agnai removes too, they are stripped keys (what is left searched with its wildcards)
    assert _coded(report["losses"], _STRIPPED) == ["/body/entries/0/keys/3", "/body/entries/0/keys/4"]
    again = bunzai("convert", str(out), "--to", "agnai.memory.json", "-o", str(tmp_path / "again"), check=True)
    assert _coded(again.json["losses"], "agnai.entry.key_wildcard") == []  # Agnai's own file: wildcards meant


def test_a_blank_or_star_keyword_is_reported_as_firing_everywhere(bunzai, tmp_path) -> None:
    world = _world(tmp_path, [{"key": ["*", "**", "gate"], "content": "Always."}])
    report = bunzai("convert", str(world), "--to", "agnai.memory.json", "-o", str(tmp_path / "b.json"), check=True)
    assert _coded(report.json["losses"], _EVERYWHERE) == ["/body/entries/0/keys/0", "/body/entries/0/keys/1"]


def test_a_book_read_from_agnai_crosses_to_its_tavern_card_without_the_search_losses_it_had(bunzai, tmp_path) -> None:
    # Agnai's own character file, its book's keywords as Agnai's search reads them: converting it to the
    # tavern card Agnai exports loses nothing its search did not already do in Agnai.
    entry = {"keys": ["*", "東京", "Mr. Smith"], "secondary_keys": ["x"], "selective": True, "content": "Lore."}
    card = _card(tmp_path, [dict(entry, enabled=True)])
    native = tmp_path / "ann.agnai.json"
    bunzai("convert", str(card), "--to", "agnai.character.json", "-o", str(native), check=True)
    report = bunzai("convert", str(native), "--to", "agnai.tavern.json", "-o", str(tmp_path / "t.json"), check=True)
    codes = {loss["code"] for loss in report.json["losses"]}
    assert not codes & {_EVERYWHERE, _NEVER, _STRIPPED, _UNSEARCHED}, codes


def test_an_entry_edited_or_added_since_the_agnai_file_keeps_its_search_losses(bunzai, tmp_path) -> None:
    # What Agnai's search already did not do is left out only for the entries as the Agnai file held
    # them: an entry added in the studio, or a book linked in from elsewhere, is reported as any other.
    from cards_support import read

    from bunzai.convert import convert_piece

    entry = {"keys": ["東京", "Mr. Smith"], "content": "Lore.", "enabled": True}
    card = _card(tmp_path, [entry])
    native = tmp_path / "ann.agnai.json"
    bunzai("convert", str(card), "--to", "agnai.character.json", "-o", str(native), check=True)
    _adapter, decoded, media = read(native.read_bytes(), native.name)
    piece = decoded.pieces[0]
    first = piece.body.book.entries[0]
    added = type(first).model_validate(first.model_dump(mode="json") | {"uid": 7, "keys": ["^_^", "Кот"]})
    book = piece.body.book.model_copy(update={"entries": [*piece.body.book.entries, added]})
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"book": book})})
    for target in ("agnai.character.json", "agnai.tavern.json"):
        losses = convert_piece(piece, target, media).losses
        searched = [(loss.code, loss.pointer) for loss in losses if loss.code in (_EVERYWHERE, _NEVER, _STRIPPED)]
        assert searched == [
            (_EVERYWHERE, "/body/book/entries/1/keys/0"),
            (_NEVER, "/body/book/entries/1/keys/1"),
        ], target


def test_entries_are_matched_by_uid_and_agnais_tavern_export_counts_as_an_agnai_file(bunzai, tmp_path) -> None:
    from cards_support import read

    from bunzai.convert import convert_piece

    entries = [
        {"keys": ["東京"], "content": "One.", "enabled": True},
        {"keys": ["Mr. Smith"], "content": "Two.", "enabled": True, "constant": True},
        {"keys": ["^_^"], "content": "Three.", "enabled": True},
    ]
    card = _card(tmp_path, entries)
    for source in ("agnai.character.json", "agnai.tavern.json"):  # Agnai imports both files' books
        native = tmp_path / f"ann.{source}"
        bunzai("convert", str(card), "--to", source, "-o", str(native), check=True)
        _adapter, decoded, media = read(native.read_bytes(), native.name)
        piece = decoded.pieces[0]
        searched = (_EVERYWHERE, _NEVER, _STRIPPED, "agnai.entry.constant_unused")
        for target in ("agnai.character.json", "agnai.tavern.json"):
            unchanged = convert_piece(piece, target, media).losses
            assert [loss.code for loss in unchanged if loss.code in searched] == [], (source, target)
        # the first entry removed: the others are the file's own entries still, found by uid
        book = piece.body.book.model_copy(update={"entries": piece.body.book.entries[1:]})
        removed = piece.model_copy(update={"body": piece.body.model_copy(update={"book": book})})
        for target in ("agnai.character.json", "agnai.tavern.json"):
            losses = convert_piece(removed, target, media).losses
            assert [loss.code for loss in losses if loss.code in searched] == [], (source, target)
