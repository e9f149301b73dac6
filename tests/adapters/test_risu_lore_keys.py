"""RisuAI lore keys, read and written the way RisuAI's searchMatch matches them
(src/ts/process/lorebook.svelte.ts): plain keys split on `,` and trimmed; regex keys parsed
per key (the opening `/` kept, a key without flags skipped, the search ended at a key not
starting with `/`) and, because each parsed pattern is written over keys[0], tried past the
oldest scanned message only when laid out as bunzai writes them.

Where node is on PATH and BUNZAI_RISU_ROOT names a RisuAI checkout, RisuAI's own regex branch
is run on what bunzai writes and reads."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from cards_support import read
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from testkit import node_asker
from bunzai.adapters.risu.lore_entries import join_keys, key_strings, key_warnings, split_keys, write_regex
from bunzai.convert import convert_piece
from bunzai.model.lorebook import Lorebook


def regex(text: str, flags: str = "") -> dict:
    return {"text": text, "regex": True, "flags": flags}


def literal(text: str) -> dict:
    return {"text": text, "regex": False, "flags": ""}


def risu_export(*entries: dict) -> bytes:
    base = {"secondkey": "", "insertorder": 100, "comment": "", "content": "x", "mode": "normal"}
    base |= {"alwaysActive": False, "selective": False}
    return json.dumps({"type": "risu", "ver": 1, "data": [base | entry for entry in entries]}).encode()


def book(*keys) -> Lorebook:
    return Lorebook(id="b", name="b", body={"entries": [{"uid": 0, "keys": list(keys), "content": "x"}]})


# --- reading -------------------------------------------------------------------------------


def test_plain_keys_are_split_on_commas_and_trimmed_as_javascript_trims():
    assert key_strings(" Dragon ,, wyrm\u3000,\ufeff") == ["Dragon", "wyrm"]
    assert split_keys("a, b", False) == [literal("a"), literal("b")]


def test_a_hand_written_regex_key_reads_as_risuai_parses_it():
    # '/dragon/i': flags 'i', pattern '/dragon' (the first '/i' taken out): the opening / stays.
    # '/wolf/': no flags, skipped. '/item/i': the first '/i' is the opening one: pattern 'tem/i'.
    assert split_keys("/dragon/i, /wolf/, /item/i", True) == [regex("/dragon", "i"), regex("tem/i", "i")]


def test_the_regex_search_ends_at_a_key_not_starting_with_a_slash_or_with_refused_flags():
    assert split_keys("/a/i, dragon, /b/i", True) == [regex("/a", "i")]
    assert split_keys("/a/i, /b/q, /c/i", True) == [regex("/a", "i")]
    assert split_keys("/a/i, /b/ii, /c/i", True) == [regex("/a", "i")]


def test_a_reading_names_what_risuai_does_to_hand_written_regex_keys():
    [said] = key_warnings({"key": "/shadow/i, /wolf/", "useRegex": True, "comment": "Beasts"}, 2)
    assert said.startswith("lore entry 2 ('Beasts'): ")
    assert "never matches /wolf/" in said and "opening / of /shadow/i" in said and "oldest scanned message" in said
    assert key_warnings({"key": "/shadow/i", "useRegex": False}, 0) == []
    assert key_warnings({"key": join_keys([regex("shadow", "i")]), "useRegex": True}, 0) == []


# --- writing -------------------------------------------------------------------------------


def test_regex_keys_are_written_so_risuai_tries_each_on_every_message():
    written = join_keys([regex("dragon", "i"), regex("wyrm")])
    assert written == "/(?!)/, /(?!)|dragon/i, /(?!)|wyrm/d, /(?!)//d"
    assert split_keys(written, True) == [regex("dragon", "i"), regex("wyrm")]
    assert key_warnings({"key": written, "useRegex": True}, 0) == []


def test_a_slash_risuai_would_cut_as_flags_is_written_as_hex():
    assert write_regex("https?://x", "i") == "/(?!)|https?:\\/\\/x/i"
    assert write_regex("a/ib", "i") == "/(?!)|a\\x2fib/i"  # `\/ib/i`: RisuAI would cut the first `/i`
    assert split_keys(join_keys([regex("a/ib", "i")]), True) == [regex("a/ib", "i")]


def test_a_literal_comma_is_escaped_and_a_quantifier_s_cannot_be():
    assert write_regex("a,b[,]", "") == "/(?!)|a\\x2cb[\\x2c]/d"
    assert write_regex("a\\,b", "") == "/(?!)|a\\x2cb/d"
    assert split_keys(join_keys([regex("a,b[,]")]), True) == [regex("a,b[,]")]
    assert write_regex("a{1,2}", "i") is None
    assert write_regex("a\\{1,2}", "i") == "/(?!)|a\\{1\\x2c2}/i"  # an escaped brace: a literal comma
    assert write_regex("a", "uv") is None


def test_a_regex_key_risuai_cannot_hold_is_named_and_left_out():
    crossing = convert_piece(book(regex("a{1,2}", "i"), regex("b", "i")), "risu.lorebook", lambda ref: b"")
    entry = json.loads(crossing.data)["data"][0]
    assert entry["key"] == "/(?!)/, /(?!)|b/i, /(?!)//d" and entry["useRegex"] is True
    codes = [(loss.pointer, loss.code, loss.action) for loss in crossing.losses]
    assert ("/body/entries/0/keys", "risu.key.not_expressible", "dropped") in codes
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_literal_keys_beside_regex_ones_become_case_insensitive_regexes():
    crossing = convert_piece(book(literal("Mr. D"), regex("wyrm", "i")), "risu.lorebook", lambda ref: b"")
    entry = json.loads(crossing.data)["data"][0]
    assert entry["key"] == "/(?!)/, /(?!)|Mr\\. D/i, /(?!)|wyrm/i, /(?!)//d" and entry["useRegex"] is True
    assert [loss.code for loss in crossing.losses if "/keys" in loss.pointer] == ["risu.key.regex_mixed"]
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_a_sillytavern_regex_key_without_flags_crosses_to_risu_and_back_without_a_loss():
    world = {"entries": {"0": {"uid": 0, "key": ["/dragon/", "/a\\/ib/i"], "keysecondary": [], "content": "x"}}}
    _adapter, decoded, media = read(json.dumps(world).encode(), "W.json")
    crossing = convert_piece(decoded.pieces[0], "risu.lorebook", media)
    assert json.loads(crossing.data)["data"][0]["key"] == "/(?!)/, /(?!)|dragon/d, /(?!)|a\\x2fib/i, /(?!)//d"
    assert [loss.code for loss in crossing.losses if "/keys" in loss.pointer] == []
    _adapter, back, media = read(crossing.data, "W.json")
    again = convert_piece(back.pieces[0], "sillytavern.world", media)
    assert json.loads(again.data)["entries"]["0"]["key"] == ["/dragon/", "/a\\/ib/i"]


def test_hand_written_and_dead_regex_keys_keep_their_bytes_on_a_risu_round_trip():
    data = risu_export(
        {"key": "/dragon/i, /wolf/", "secondkey": "/x/", "useRegex": True},
        {"key": "dragon, /x/i", "useRegex": True},  # never matches: reads as no keys
        {"key": " a ,b,, ", "useRegex": False},
    )
    _adapter, decoded, media = read(data, "lore.json")
    entries = decoded.pieces[0].body.entries
    assert [key.text for key in entries[0].keys] == ["/dragon"] and entries[1].keys == []
    assert len(decoded.warnings) == 2
    crossing = convert_piece(decoded.pieces[0], "risu.lorebook", media)
    assert json.loads(crossing.data) == json.loads(data)


# --- properties ----------------------------------------------------------------------------


def _plain_escapes(text: str) -> bool:
    """No `\\/` or `\\,` (they read back as `/` and `,`, the same to JavaScript) and no lone `\\` at the end."""
    tokens = re.findall(r"\\[\s\S]|[\s\S]", text)
    return not any(token in ("\\/", "\\,", "\\") for token in tokens)


PATTERN = st.text("ab/,\\.?[]{}1i", max_size=8).filter(_plain_escapes)
FLAGS = st.sampled_from(["", "i", "gi", "s", "d", "im"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(PATTERN, FLAGS), min_size=1, max_size=4))
def test_what_is_written_reads_back_as_the_same_keys(pairs):
    keys = [regex(text, flags) for text, flags in pairs]
    kept = [key for key in keys if write_regex(key["text"], key["flags"]) is not None]
    written = join_keys(keys)
    assert key_warnings({"key": written, "useRegex": True}, 0) == []  # every key read, on every message
    # a key without flags is written with `d` (it changes nothing a test() sees) and reads back without;
    # a key whose one flag is `d` keeps it (its own layout)
    assert split_keys(written, True) == kept


# --- RisuAI's own searchMatch ----------------------------------------------------------------

# Runs the regex branch of searchMatch, cut from the checkout's lorebook.svelte.ts at run time,
# on JSON lines: {"risu": keyString, "messages": [...]} -> what RisuAI answers (with the
# caller's `.split(',')`), {"canonical": [[pattern, flags]...], "messages": [...]} -> whether a
# key matches a message (null when a pattern does not compile).
_HARNESS = r"""
const fs = require('fs'); const readline = require('readline');
const source = fs.readFileSync(process.argv[1], 'utf8');
const start = source.indexOf('if(arg.regex){');
let depth = 0, end = start;
for (let i = source.indexOf('{', start); i < source.length; i++) {
  if (source[i] === '{') depth++;
  if (source[i] === '}') { depth--; if (depth === 0) { end = i + 1; break; } }
}
const trim = source.match(/arg\.keys = arg\.keys\.map\(key => key\.trim\(\)\)\.filter\(key => key\.length > 0\)/)[0];
const search = new Function('arg', 'mList', 'matchLog', trim + '\n' + source.slice(start, end) + '\nreturn null');
const rl = readline.createInterface({input: process.stdin});
rl.on('line', (line) => {
  const ask = JSON.parse(line);
  const mList = ask.messages.map((data, i) => ({source: 'message ' + i, prompt: data, data}));
  let answer;
  if (ask.risu !== undefined) {
    answer = search({keys: ask.risu.split(','), regex: true}, mList, []);
  } else {
    try {
      const regexes = ask.canonical.map(([pattern, flags]) => new RegExp(pattern, flags));
      answer = regexes.some((r) => ask.messages.some((m) => new RegExp(r.source, r.flags).test(m)));
    } catch (error) { answer = null; }
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
});
"""


@pytest.fixture(scope="module")
def risuai():
    root = os.environ.get("BUNZAI_RISU_ROOT")
    if not root:
        pytest.skip("no RisuAI checkout configured for the tests (set BUNZAI_RISU_ROOT to one)")
    script = Path(root) / "src" / "ts" / "process" / "lorebook.svelte.ts"
    if not script.is_file():
        pytest.skip(f"{script} is missing: BUNZAI_RISU_ROOT is not a RisuAI checkout")
    if shutil.which("node") is None:
        pytest.skip("node is not installed: RisuAI's searchMatch runs in node")
    yield from node_asker(_HARNESS, script)


def test_risuai_s_own_searchmatch_behaves_as_the_reviewer_found(risuai):
    assert risuai({"risu": "/dragon/i", "messages": ["a dragon"]}) is False  # the opening / stays
    assert risuai({"risu": "/dragon/i", "messages": ["a /dragon"]}) is True
    assert risuai({"risu": "/(?!)|dragon/", "messages": ["a dragon"]}) is False  # no flags: skipped
    assert risuai({"risu": "/(?!)|dragon/i", "messages": ["old", "a dragon"]}) is False  # oldest message alone
    assert risuai({"risu": "/(?!)/, /(?!)|dragon/i, /(?!)//d", "messages": ["old", "a dragon"]}) is True
    assert risuai({"risu": " /(?!)/ ,  /(?!)|dragon/i ,/(?!)//d", "messages": ["a DRAGON"]}) is True  # trimmed


MESSAGE = st.text("ab/,.1i{} ", max_size=6)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(PATTERN, FLAGS), min_size=1, max_size=3), st.lists(MESSAGE, min_size=1, max_size=3))
def test_risuai_matches_what_bunzai_writes_as_the_canonical_keys_say(risuai, pairs, messages):
    keys = [regex(text, flags) for text, flags in pairs]
    kept = [[key["text"], key["flags"]] for key in keys if write_regex(key["text"], key["flags"]) is not None]
    expected = risuai({"canonical": kept, "messages": messages})
    if expected is None:
        return  # a pattern JavaScript refuses: no platform matches with it
    assert risuai({"risu": join_keys(keys), "messages": messages}) is expected


RISU_KEY = st.lists(
    st.one_of(
        st.tuples(st.text("ab/i\\", max_size=4), st.sampled_from(["", "i", "d", "gi", "q", "ii"])).map(
            "/{0[0]}/{0[1]}".format
        ),
        st.tuples(st.text("ab/i", max_size=3), st.sampled_from(["", "i", "d"])).map("/(?!)|{0[0]}/{0[1]}".format),
        st.sampled_from(["/(?!)/", "/(?!)//d", "a", " ", "/i/i", ""]),
    ),
    max_size=4,
).map(", ".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(RISU_KEY, st.lists(MESSAGE, min_size=1, max_size=3))
def test_bunzai_reads_a_risu_key_string_as_risuai_matches_it(risuai, raw, messages):
    warned = " ".join(key_warnings({"key": raw, "useRegex": True}, 0))
    if "oldest scanned message" in warned:
        messages = messages[:1]  # past the oldest message RisuAI reads mangled keys: the warning says so
    read_keys = [[key["text"], key["flags"]] for key in split_keys(raw, True)]
    expected = risuai({"canonical": read_keys, "messages": messages})
    if expected is None:
        return  # a pattern JavaScript refuses ends RisuAI's search, not the reading
    assert risuai({"risu": raw, "messages": messages}) is expected
