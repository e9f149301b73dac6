"""Lore keys as SillyTavern and RisuAI read them, and decorators SillyTavern reads otherwise.

- js_regex: the adapters' conservative JavaScript regex syntax check, held to QuickJS (every True
  and False it gives must be QuickJS's answer).
- SillyTavern world keys: `/y/gg` and `/(bad/i` are plain text (parseRegexFromString returns null
  when `new RegExp` throws); regex keys that compile round-trip.
- RisuAI lore keys: a key whose one flag is `d` reads back with it; a regex key JavaScript rejects
  is left out with `risu.key.pattern_rejected` (RisuAI would end the entry's search there).
- Decorators crossing to SillyTavern: content made only of `@@` lines (inserted as text) and a
  forced activation the two apps read apart are named.

Where node is on PATH and BUNZAI_ST_ROOT names a SillyTavern checkout, SillyTavern's own
parseRegexFromString and parseDecorators (world-info.js) are run against bunzai's reading.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from testkit import node_asker
from bunzai.adapters.common.decorators import only_decorators, risu_force, st_reading
from bunzai.adapters.common.js_regex import compiles
from bunzai.adapters.registry import get_adapter
from bunzai.adapters.risu.lore_entries import join_keys, split_keys, write_regex
from bunzai.adapters.sillytavern.world_keys import decode_key, encode_key, st_regex
from bunzai.convert import convert_piece
from bunzai.model.character import Character
from bunzai.model.lorebook import Lorebook
from bunzai.regexlab.engine import call


def regex(text: str, flags: str = "") -> dict:
    return {"text": text, "regex": True, "flags": flags}


def quickjs_compiles(pattern: str, flags: str) -> bool:
    return "error" not in call({"op": "compile", "pattern": pattern, "flags": flags})


# --- the syntax check ------------------------------------------------------------------------

PIECES = list("ab()[]{}|*+?^$.\\-,0123456789<>=!:kcudxpPbBwWsS/_") + [
    "(?<",
    "(?:",
    "(?=",
    "(?<=",
    "(?<n>",
    "\\k<n>",
    "{2}",
    "{1,3}",
    "{3,1}",
    "\\u{41}",
    "\\uD83D\\uDE00",
    "😀",
    "\\x41",
    "é",
]
JS_PATTERN = st.lists(st.sampled_from(PIECES), max_size=10).map("".join)
JS_FLAGS = st.sampled_from(["", "i", "u", "gi", "iu", "gg", "d", "v", "uv", "dgimsuy"])


@settings(max_examples=1500, deadline=None)
@given(JS_PATTERN, JS_FLAGS)
def test_the_syntax_check_agrees_with_javascript_wherever_it_answers(pattern, flags):
    verdict = compiles(pattern, flags)
    if verdict is not None:
        assert verdict is quickjs_compiles(pattern, flags)


@pytest.mark.parametrize(
    ("pattern", "flags", "verdict"),
    [
        ("(bad", "i", False),
        ("y", "gg", False),
        ("a)", "", False),
        ("[a", "", False),
        ("*a", "", False),
        ("a{2,1}", "", False),
        ("\\", "", False),
        ("[😀-😂]", "", False),  # UTF-16 units without u
        ("[😀-😂]", "u", True),
        ("a{,5}", "", True),  # Annex B: a literal brace
        ("\\-", "u", False),
        ("(?<a>x)\\k<b>", "", False),
        ("\\k<b>", "", True),  # no named groups: a plain k
        ("(?<ab>x)\\k<a\\u0062>", "", None),  # V8 compiles: the escaped name may be the group's
        ("(?<a\\u0062>x)\\k<ab>", "u", None),
        ("(?<\\u{61}>x)\\k<a>", "", None),
        ("(?<a>x)\\k<a b>", "", False),
        ("\\k<(>", "", False),  # no named groups: a plain k, then an unclosed group
        ("\\k<[>(?<a>]", "", True),  # the (?<a> is inside a class: no named group, a plain k
        ("\\k<x{2,1}>", "i", False),
        ("https?://x\\.com", "i", True),
        ("\\p{L}", "u", None),  # property names need Unicode's tables
        ("(?i:a)", "", None),  # regexp modifiers: newer engines only
        ("[a]", "v", None),
    ],
)
def test_the_syntax_check_on_known_patterns(pattern, flags, verdict):
    assert compiles(pattern, flags) is verdict


# --- SillyTavern world keys ------------------------------------------------------------------


@pytest.mark.parametrize("native", ["/y/gg", "/(bad/i", "/*/", "/a/d", "/a/ig i", "/a/b/", "//"])
def test_keys_sillytavern_does_not_compile_read_as_plain_text(native):
    assert decode_key(native) == {"text": native, "regex": False, "flags": ""}


@pytest.mark.parametrize(
    ("native", "key"),
    [
        ("/dragon/i", regex("dragon", "i")),
        (" /dragon/i ", regex("dragon", "i")),  # the scan trims a key first
        ("/a\\\\/b/", regex("a/b")),  # only the first `\/` is unescaped: here the one after `\`
        ("/{{char}}(/i", regex("{{char}}(", "i")),  # a macro expands first: not judged
    ],
)
def test_keys_sillytavern_compiles_read_as_regexes(native, key):
    assert decode_key(native) == key


# No `{{`: SillyTavern expands macros in a key before reading it, and bunzai does not judge those.
ST_PATTERN = st.text("ab/\\.?*()[]{}|^$1,", min_size=1, max_size=10).filter(lambda text: "{{" not in text)
ST_FLAGS = st.lists(st.sampled_from("gimsuy"), unique=True, max_size=3).map("".join)


@settings(max_examples=500, deadline=None)
@given(ST_PATTERN, ST_FLAGS)
def test_a_compiling_regex_key_round_trips_through_a_world_key(text, flags):
    key = regex(text, flags)
    native = encode_key(key)
    read = decode_key(native)
    assume(st_regex(native) is not None or compiles(text, flags) is False)
    if compiles(text, flags) is False:
        assert read == {"text": native, "regex": False, "flags": ""}  # SillyTavern's reading: plain text
    elif read["regex"]:
        assert decode_key(encode_key(read)) == read


def test_a_world_s_broken_regex_key_crosses_to_risuai_as_the_plain_key_it_is():
    document = {"entries": {"0": {"uid": 0, "key": ["/(bad/i", "/dragon/i"], "content": "x"}}}
    raw = json.dumps(document).encode()
    piece = get_adapter("sillytavern.world").read(raw, "W.json", json.loads(raw)).pieces[0]
    assert [key.model_dump() for key in piece.body.entries[0].keys] == [
        {"text": "/(bad/i", "regex": False, "flags": ""},
        regex("dragon", "i"),
    ]
    crossing = convert_piece(piece, "risu.lorebook", lambda ref: b"")
    written = json.loads(crossing.data)["data"][0]["key"]
    assert split_keys(written, True)[0]["text"] == "/\\(bad/i"  # the literal key, as a regex matching it
    assert "risu.key.pattern_rejected" not in [loss.code for loss in crossing.losses]


def test_a_regex_key_javascript_rejects_reads_back_as_text_in_a_world():
    book = Lorebook(id="b", name="b", body={"entries": [{"uid": 0, "keys": [regex("(bad", "i")], "content": "x"}]})
    crossing = convert_piece(book, "sillytavern.world", lambda ref: b"")
    assert json.loads(crossing.data)["entries"]["0"]["key"] == ["/(bad/i"]
    assert [loss.code for loss in crossing.losses if "/keys" in loss.pointer] == ["world.key.reads_differently"]


# --- RisuAI lore keys ------------------------------------------------------------------------


def test_a_key_whose_one_flag_is_d_reads_back_with_it():
    keys = [regex("wyrm", "d"), regex("wolf"), regex("drake", "di")]
    written = join_keys(keys)
    assert "/(?!)/|wyrm/d" in written and "/(?!)|wolf/d" in written
    assert split_keys(written, True) == keys


def test_a_d_flag_crosses_risuai_and_back_without_a_loss():
    book = Lorebook(id="b", name="b", body={"entries": [{"uid": 0, "keys": [regex("wyrm", "d")], "content": "x"}]})
    crossing = convert_piece(book, "risu.lorebook", lambda ref: b"")
    assert [loss.code for loss in crossing.losses if "/keys" in loss.pointer] == []
    back = get_adapter("risu.lorebook").read(crossing.data, "b.json", json.loads(crossing.data)).pieces[0]
    assert back.body.entries[0].keys[0].model_dump() == regex("wyrm", "d")


def test_a_regex_key_javascript_rejects_is_left_out_of_a_risu_entry_and_named():
    keys = [regex("(bad", "i"), regex("dragon", "i")]
    book = Lorebook(id="b", name="b", body={"entries": [{"uid": 0, "keys": keys, "content": "x"}]})
    crossing = convert_piece(book, "risu.lorebook", lambda ref: b"")
    entry = json.loads(crossing.data)["data"][0]
    assert split_keys(entry["key"], True) == [regex("dragon", "i")]  # the other key keeps working
    [loss] = [loss for loss in crossing.losses if "/keys" in loss.pointer]
    assert (loss.code, loss.pointer, loss.action) == ("risu.key.pattern_rejected", "/body/entries/0/keys", "dropped")
    assert "(bad" in loss.why
    assert write_regex("(bad", "i") is None


def test_a_risu_key_javascript_rejects_ends_the_reading_as_it_ends_risuai_s_search():
    assert split_keys("/(?!)/, /(?!)|dragon/i, /(?!)|(bad/i, /(?!)|wolf/i, /(?!)//d", True) == [regex("dragon", "i")]


# --- decorators crossing to SillyTavern ---------------------------------------------------------


def risu_book(*contents: str) -> bytes:
    entry = {"key": "wolf", "secondkey": "", "insertorder": 100, "comment": "", "mode": "normal"}
    entry |= {"alwaysActive": False, "selective": False, "useRegex": False}
    return json.dumps({"type": "risu", "ver": 1, "data": [entry | {"content": text} for text in contents]}).encode()


def decorator_losses(*contents: str, target: str = "sillytavern.world") -> list[tuple[str, str]]:
    data = risu_book(*contents)
    piece = get_adapter("risu.lorebook").read(data, "lore.json", json.loads(data)).pieces[0]
    if target != "sillytavern.world":
        book = {"name": "b", "entries": piece.body.model_dump(mode="json")["entries"]}
        piece = Character(id="c", name="c", body={"book": book})
    crossing = convert_piece(piece, target, lambda ref: b"")
    return [(loss.pointer.rsplit("/", 2)[-2], loss.code) for loss in crossing.losses if "decorator" in loss.code]


def test_content_made_only_of_decorators_is_named_as_kept():
    assert decorator_losses("@@depth 0\n@@role assistant", "@@depth 0\nText.") == [
        ("0", "world.entry.decorators_kept"),
        ("1", "world.entry.decorators_ignored"),
    ]


@pytest.mark.parametrize(
    ("content", "codes"),
    [
        # @@depth is RisuAI's, not SillyTavern's: only SillyTavern falls back to @@@activate
        ("@@depth 0\n@@@activate\nText.", ["world.entry.decorators_ignored", "world.entry.decorator_activation"]),
        ("@@unknown\n@@@activate\nText.", ["world.entry.decorators_ignored"]),  # both fall back
        ("@@activate\nText.", []),
        ("@@dont_activate\n@@activate\nText.", []),  # both activate
        ("@@activate\n@@dont_activate\nText.", ["world.entry.decorator_activation"]),  # RisuAI: the last wins
        ("@@activate_only_after 3\nText.", ["world.entry.decorators_ignored"]),
        ("@@@activate\nText.", ["world.entry.decorators_ignored"]),  # no decorator to fall back from
    ],
)
def test_an_activation_the_two_apps_read_apart_is_named(content, codes):
    assert [code for _at, code in decorator_losses(content)] == codes


def test_a_sillytavern_card_book_names_them_the_same_way():
    losses = decorator_losses("@@depth 0\n@@@activate\nText.", "@@role user", target="sillytavern.card.json")
    assert losses == [
        ("0", "world.entry.decorators_ignored"),
        ("0", "world.entry.decorator_activation"),
        ("1", "world.entry.decorators_kept"),
    ]


# --- SillyTavern's own code ----------------------------------------------------------------------

_HARNESS = r"""
const fs = require('fs'); const readline = require('readline');
const source = fs.readFileSync(process.argv[1], 'utf8');
function cut(head) {
  const start = source.indexOf(head);
  let depth = 0;
  for (let i = source.indexOf('{', start); i < source.length; i++) {
    if (source[i] === '{') depth++;
    if (source[i] === '}') { depth--; if (depth === 0) return source.slice(start, i + 1).replace(/^export /, ''); }
  }
}
const KNOWN_DECORATORS = ['@@activate', '@@dont_activate'];
eval(cut('export function parseRegexFromString(') + '\n' + cut('function parseDecorators('));
globalThis.run = (ask) => {
  if (ask.key !== undefined) {
    const found = parseRegexFromString(ask.key.trim());
    return found && [found.source, found.flags, ask.canonical && new RegExp(...ask.canonical).source];
  }
  return parseDecorators(ask.content);
};
readline.createInterface({input: process.stdin}).on('line', (line) => {
  process.stdout.write(JSON.stringify(globalThis.run(JSON.parse(line))) + '\n');
});
"""


@pytest.fixture(scope="module")
def sillytavern():
    root = os.environ.get("BUNZAI_ST_ROOT")
    if not root:
        pytest.skip("no SillyTavern checkout configured for the tests (set BUNZAI_ST_ROOT to one)")
    script = Path(root) / "public" / "scripts" / "world-info.js"
    if not script.is_file():
        pytest.skip(f"{script} is missing: BUNZAI_ST_ROOT is not a SillyTavern checkout")
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    yield from node_asker(_HARNESS, script)


ST_KEY = st.tuples(st.sampled_from(["", " "]), ST_PATTERN, st.text("gimsuyd", max_size=3)).map(
    lambda parts: f"{parts[0]}/{parts[1]}/{parts[2]}"
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ST_KEY)
def test_sillytavern_reads_a_key_as_bunzai_does(sillytavern, native):
    found = st_regex(native)
    text = native.strip()[1:].rsplit("/", 1)[0]
    assume(found is not None or compiles(text.replace("\\/", "/"), "") is not None)  # judged keys
    answer = sillytavern({"key": native, "canonical": found})
    if found is None:
        assert answer is None
    else:  # the same pattern (as JavaScript writes its source) and flags
        assert answer is not None and answer[0] == answer[2] and answer[1] == "".join(sorted(found[1]))


DECORATED = st.lists(
    st.sampled_from(
        ["@@activate", "@@dont_activate", "@@@activate", "@@@dont_activate", "@@depth 0", "@@foo", "@@activate x", "t"]
    ),
    max_size=5,
).map("\n".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(DECORATED)
def test_sillytavern_parses_decorators_as_bunzai_reads_them(sillytavern, content):
    decorators, inserted = sillytavern({"content": content})
    _ignored, force = st_reading(content)
    expected = "activate" if "@@activate" in decorators else "deactivate" if "@@dont_activate" in decorators else None
    assert force == expected
    assert (inserted == content and content.startswith("@@")) is only_decorators(content)


def test_risuai_s_reading_of_fallbacks():
    assert risu_force("@@depth 0\n@@@activate\nx") is None  # @@depth taken: no fallback
    assert risu_force("@@depth x\n@@@activate\nx") == "activate"  # parseInt fails: the fallback is read
    assert risu_force("@@is_user_icon a\n@@@dont_activate\nx") == "deactivate"
    assert risu_force("  @@activate  \nx") == "activate"  # RisuAI trims
