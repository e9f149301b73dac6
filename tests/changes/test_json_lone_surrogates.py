"""Lone surrogates in the JSON bunzai prints (CLI output, both encodings; MCP frames): each
prints as its own character. A lone surrogate reads back as itself; a lone high surrogate
followed by a lone low one, which no JSON can write apart (every reader joins the two escapes
into one character), prints as two U+FFFD. So bunzai's own reader, which mends every lone
surrogate to U+FFFD, reads the printed JSON as it would have read the value itself."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.changes.hidden_chars import json_escaped
from bunzai.cli import output
from bunzai.jsondoc.reading import load_json_bytes, mend_lone_surrogates
from bunzai.mcp.protocol import Wire

HIGH, LOW = (
    st.characters(min_codepoint=0xD800, max_codepoint=0xDBFF),
    st.characters(min_codepoint=0xDC00, max_codepoint=0xDFFF),
)
# Text rich in lone surrogates, in every order (high-high, low-high, high-low ...), among other text
# (joined from a list: hypothesis's text() leaves surrogates out).
texts = st.lists(
    st.one_of(HIGH, LOW, st.sampled_from('\ud800\udc00\udbff\udfffa😀\u202e\x1b"\\'), st.characters()), max_size=24
).map("".join)


def paired(text: str, index: int) -> bool:
    """Whether text[index] is a lone high surrogate just before a lone low one, or that low one."""
    high = lambda i: 0 <= i < len(text) and 0xD800 <= ord(text[i]) <= 0xDBFF  # noqa: E731
    low = lambda i: 0 <= i < len(text) and 0xDC00 <= ord(text[i]) <= 0xDFFF  # noqa: E731
    return (high(index) and low(index + 1)) or (low(index) and high(index - 1))


def check_read_back(text: str, printed: str, pick=lambda doc: doc["v"]) -> None:
    back = pick(json.loads(printed))
    assert len(back) == len(text)  # no two characters printed as one
    for index, (was, now) in enumerate(zip(text, back, strict=True)):
        assert now == ("\ufffd" if paired(text, index) else was), (index, was, now)
    # bunzai's reader makes of the printed JSON what it makes of the value itself
    assert pick(load_json_bytes(printed.encode("utf-8"), what="printed")) == mend_lone_surrogates(text)


@pytest.mark.parametrize("text", ["\ud800\ud800", "\udc00\ud800", "\ud800\udc00", "\ud800\ud800\udc00", "\udbff\udfff"])
def test_the_reported_strings_read_back(text):
    check_read_back(text, json_escaped(json.dumps({"v": text}, ensure_ascii=False)))


def test_a_lone_pair_prints_as_two_replacement_characters_and_an_emoji_as_itself():
    assert json.loads(json_escaped(json.dumps("a\ud83d\ude00b", ensure_ascii=False))) == "a\ufffd\ufffdb"
    assert json.loads(json_escaped(json.dumps("a\U0001f600b", ensure_ascii=False))) == "a\U0001f600b"
    assert json.loads(json_escaped(json.dumps("\U000e0041\udc00", ensure_ascii=False))) == "\U000e0041\udc00"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts, pretty=st.booleans(), encoding=st.sampled_from([None, "ascii", "latin-1"]))
def test_the_cli_output_reads_back_character_for_character(monkeypatch, text, pretty, encoding):
    stream = io.StringIO() if encoding is None else io.TextIOWrapper(io.BytesIO(), encoding=encoding)
    monkeypatch.setattr("sys.stdout", stream)
    printed = output.to_text({"v": text}, pretty=pretty)
    if encoding is not None:
        printed.encode("ascii")  # a stdout that is not UTF-8 gets ASCII
    check_read_back(text, printed)


@settings(max_examples=200, deadline=None)
@given(text=texts)
def test_mcp_frames_read_back_character_for_character(text):
    out = io.BytesIO()
    Wire(out).send({"jsonrpc": "2.0", "id": 1, "result": {"v": text}})
    check_read_back(text, out.getvalue().decode("utf-8"), pick=lambda frame: frame["result"]["v"])
