"""Regex keys holding `/`: the canonical text is the pattern as JavaScript reads it (`a/b`), every
writer of the `/pattern/flags` form escapes its inner slashes (`/a\\/b/i`), every reader unescapes
them, so a key crosses between SillyTavern worlds, card books and RisuAI lore without a loss."""

from __future__ import annotations

import json

import pytest
from cards_support import read
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bunzai.adapters.common.card_book import escape_slashes, read_key, unescape_slashes, write_key
from bunzai.adapters.common.js_regex import compiles
from bunzai.adapters.risu.lore_entries import join_keys, split_keys
from bunzai.adapters.sillytavern.world_keys import decode_key, encode_key
from bunzai.convert import convert_piece
from bunzai.model.lorebook import Lorebook

URL = {"text": "https?://example\\.com", "regex": True, "flags": "i"}
URL_WRITTEN = "/https?:\\/\\/example\\.com/i"


def url_book() -> Lorebook:
    return Lorebook(id="links", name="links", body={"entries": [{"uid": 0, "keys": [URL], "content": "A link."}]})


def _canonical(text: str) -> bool:
    """A pattern as JavaScript reads it: no `\\/` (read as `/`), no lone backslash at the end."""
    trailing = len(text) - len(text.rstrip("\\"))
    return bool(text) and unescape_slashes(text) == text and trailing % 2 == 0


PATTERNS = st.text("ab/\\.?[]", min_size=1, max_size=8).filter(_canonical)


@settings(max_examples=300, deadline=None)
@given(PATTERNS, st.sampled_from(["", "i", "gi", "s"]))
def test_every_writer_of_the_slash_form_reads_back_the_same_pattern(text, flags):
    assume(compiles(text, flags) is not False)  # SillyTavern and RisuAI read a pattern JavaScript rejects apart
    key = {"text": text, "regex": True, "flags": flags}
    assert decode_key(encode_key(key)) == key  # SillyTavern world
    assert read_key(write_key(key)) == key  # card books, lorebook_v3
    assert split_keys(join_keys([key]), True) == [key]  # RisuAI lore


@pytest.mark.parametrize(
    ("native", "text"),
    [
        ("/a\\/b/i", "a/b"),
        ("/https?:\\/\\/x\\.com/i", "https?://x\\.com"),
        ("/[\\/]+/", "[/]+"),
        ("/a\\\\\\/b/", "a\\\\/b"),  # an escaped backslash, then an escaped slash
        ("/a\\\\.b/", "a\\\\.b"),  # other escapes are kept
    ],
)
def test_readers_agree_on_the_pattern_javascript_reads(native, text):
    assert decode_key(native)["text"] == text
    assert read_key(native)["text"] == text
    # RisuAI keeps the opening `/` in the pattern (and skips a key without flags): see test_risu_lore_keys
    assert split_keys(native, True) in ([], [{"text": "/" + text, "regex": True, "flags": native.rsplit("/", 1)[1]}])


def test_escape_slashes_escapes_bare_slashes_only():
    assert escape_slashes("https?://x") == "https?:\\/\\/x"
    assert escape_slashes("a\\/b") == "a\\/b"  # already escaped
    assert escape_slashes("a\\\\/b") == "a\\\\\\/b"  # a backslash escaped, the slash bare
    assert escape_slashes("plain") == "plain"


@pytest.mark.parametrize("target", ["sillytavern.world", "lorebook_v3.json", "ccv3.json"])
def test_a_regex_key_with_slashes_crosses_without_a_loss(target):
    from bunzai.model.character import Character

    piece = url_book()
    if target == "ccv3.json":
        book = {"name": "links", "entries": piece.body.model_dump(mode="json")["entries"]}
        piece = Character(id="c", name="c", body={"book": book})
    crossing = convert_piece(piece, target, lambda ref: b"")
    document = json.loads(crossing.data)
    if target == "sillytavern.world":
        written = document["entries"]["0"]["key"]
    else:
        data = document["data"]
        written = (data["character_book"] if target == "ccv3.json" else data)["entries"][0]["keys"]
    assert written == [URL_WRITTEN]
    assert [loss.code for loss in crossing.losses if "/keys" in loss.pointer] == []


def test_a_card_book_key_with_escaped_slashes_reads_as_the_pattern():
    card = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {
            "name": "C",
            "character_book": {"name": "B", "entries": [{"keys": [URL_WRITTEN], "content": "x", "use_regex": True}]},
        },
    }
    _adapter, decoded, _media = read(json.dumps(card).encode(), "c.json")
    book = decoded.pieces[1]
    assert book.body.entries[0].keys[0].model_dump() == URL


def test_a_risu_regex_key_keeps_its_bytes_and_crosses_to_sillytavern_escaped():
    key = "/(?!)/, /(?!)|a\\/b/i, /(?!)|c\\/d/d, /(?!)//d"  # as bunzai writes them: see test_risu_lore_keys
    entry = {"key": key, "secondkey": "", "insertorder": 1, "comment": "", "content": "x"}
    entry |= {"mode": "normal", "alwaysActive": False, "selective": False, "useRegex": True}
    data = json.dumps({"type": "risu", "ver": 1, "data": [entry]}).encode()
    _adapter, decoded, media = read(data, "lore.json")
    piece = decoded.pieces[0]
    assert [key.text for key in piece.body.entries[0].keys] == ["a/b", "c/d"]
    assert json.loads(convert_piece(piece, "risu.lorebook", media).data) == json.loads(data)
    crossing = convert_piece(piece, "sillytavern.world", media)
    assert json.loads(crossing.data)["entries"]["0"]["key"] == ["/a\\/b/i", "/c\\/d/"]
    assert [loss.code for loss in crossing.losses if "/keys" in loss.pointer] == []
