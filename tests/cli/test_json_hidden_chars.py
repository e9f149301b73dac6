"""The JSON bunzai prints never carries a character that drives a terminal or hides text raw:
C0 and C1 controls, DEL, bidi overrides and isolates, invisible format characters and lone
surrogates are written as `\\u` escapes, so the printed JSON parses to the very same value.
Ordinary text (CJK, emoji, a zero-width joiner inside an emoji) stays as it is."""

from __future__ import annotations

import io
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.changes.hidden_chars import SUSPECT, ZWJ, joins_emoji, json_escaped
from bunzai.cli import output
from bunzai.mcp.protocol import Wire

HIDDEN = "\x00\x07\x1b\x7f\x85\x9b\u00ad\u061c\u200b\u200e\u200f\u202a\u202e\u2066\u2069\ufeff\U000e0041\ud800\udfff"
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def raw_hidden(text: str) -> list[str]:
    """The hidden characters `text` holds raw (a joiner inside an emoji is part of the emoji)."""
    return [m.group() for m in SUSPECT.finditer(text) if not (m.group() == ZWJ and joins_emoji(text, m.start()))]


# Any text, hidden characters and lone surrogates included; a high surrogate followed by a low one
# is left out: no JSON writes those two apart, so they print as two U+FFFD
# (tests/changes/test_json_lone_surrogates.py).
texts = st.text(st.one_of(st.characters(), st.sampled_from(HIDDEN + ZWJ + '👨👩🙂名é\n\t\\"')), max_size=40).filter(
    lambda text: _PAIR.search(text) is None
)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)


@pytest.fixture
def utf8_stdout(monkeypatch):
    monkeypatch.setattr("sys.stdout", io.StringIO())  # (no encoding: counts as UTF-8; the same for every example)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=values, pretty=st.booleans())
def test_printed_json_parses_back_and_holds_no_hidden_character_raw(utf8_stdout, value, pretty):
    text = output.to_text(value, pretty=pretty)
    assert json.loads(text) == value
    assert raw_hidden(text) == []
    text.encode("utf-8")  # a lone surrogate is escaped, so the text always has UTF-8


@settings(max_examples=200, deadline=None)
@given(value=values)
def test_mcp_frames_parse_back_and_hold_no_hidden_character_raw(value):
    out = io.BytesIO()
    Wire(out).send({"jsonrpc": "2.0", "id": 1, "result": {"value": value}})
    frame = out.getvalue().decode("utf-8")
    assert frame.endswith("\n") and frame.count("\n") == 1
    assert json.loads(frame)["result"]["value"] == value
    assert raw_hidden(frame) == []


def test_ordinary_text_stays_readable(utf8_stdout):
    family = "👨\u200d👩\u200d👧"
    text = output.to_text({"name": f"名前 é {family}", "bidi": "a\u202eb", "esc": "\x1b[2J\x9b"}, pretty=False)
    assert f"名前 é {family}" in text
    assert '"a\\u202eb"' in text and '"\\u001b[2J\\u009b"' in text


def test_text_past_the_basic_plane_is_written_as_a_surrogate_pair():
    assert json_escaped(json.dumps("\U000e0041", ensure_ascii=False)) == '"\\udb40\\udc41"'


def test_text_without_hidden_characters_is_returned_unchanged():
    text = json.dumps({"a": "名前 🙂\u00a0x", "b": [1, 2]}, ensure_ascii=False, indent=2)
    assert json_escaped(text) is text


HOSTILE_NAME = "Ada\x1b]0;pwned\x07 \u202eevil\u0085 \u2066x\u2069\u200f 名前 🙂"


def test_every_command_prints_a_hostile_name_escaped(bunzai):
    """A name that would retitle the terminal and reverse text, through create, draft show,
    apply, read, list (the index's own fast path), list --nl and search."""
    draft = bunzai("create", "character", "--input", json.dumps({"name": HOSTILE_NAME}), check=True)
    shown = bunzai("draft", "show", input=draft.stdout, check=True)
    applied = bunzai("apply", "--yes", input=draft.stdout, check=True)
    ref = f"character/{applied.json['target']['id']}"
    printed = [draft, shown, applied]
    for args in (("read", ref), ("list",), ("list", "--nl"), ("search", "pwned")):
        printed.append(bunzai(*args, check=True))
    for result in printed:
        assert raw_hidden(result.stdout) == [], result.stdout
    assert draft.lines[0]["operations"][0]["input"]["name"] == HOSTILE_NAME
    assert printed[3].json["piece"]["name"] == HOSTILE_NAME
    assert printed[4].json["items"][0]["name"] == HOSTILE_NAME
    assert printed[5].lines[0]["name"] == HOSTILE_NAME
    assert "名前 🙂" in printed[4].stdout


def test_convert_to_stdout_reports_on_stderr_escaped(bunzai, tmp_path):
    """`convert -o -` writes its JSON report on stderr: escaped the same way (the source's name)."""
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Zed", "first_mes": "hi"}}
    source = tmp_path / "zed\x1b[2J\u202egnp.json"
    source.write_text(json.dumps(card), encoding="utf-8")
    done = bunzai("convert", str(source), "--to", "ccv3.json", "-o", "-", check=True)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["source"] == str(source)
    assert raw_hidden(done.stderr) == []
