"""The human stderr line of an error writes hidden characters (controls, bidi, invisible, lone
surrogates) as the `\\u` escapes the JSON document on stdout shows, and stays one line."""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.changes.hidden_chars import SUSPECT, ZWJ, joins_emoji
from bunzai.cli import output
from bunzai.errors import BunzaiError

HIDDEN = "\x00\x07\x1b\x7f\x85\x9b\u00ad\u061c\u200b\u200e\u202e\u2066\ufeff\U000e0041\ud800\udfff"


def raw_hidden(text: str) -> list[str]:
    return [m.group() for m in SUSPECT.finditer(text) if not (m.group() == ZWJ and joins_emoji(text, m.start()))]


def rendered(capsys, message: str, hint: str = "") -> tuple[str, str]:
    capsys.readouterr()
    output.render_error(BunzaiError("not_found", message, hint))
    captured = capsys.readouterr()
    return captured.out, captured.err


# No quote or backslash: JSON writes those escaped too, the human line need not. (Joined from a
# list: hypothesis's text() leaves lone surrogates out.)
texts = st.lists(
    st.one_of(st.characters(exclude_characters='"\\'), st.sampled_from(HIDDEN + ZWJ + "👨👩名\n\t")), max_size=24
).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(message=texts)
def test_the_line_shows_the_message_as_the_json_document_writes_it(capsys, message):
    out, err = rendered(capsys, message)
    assert err.endswith("\n") and err.count("\n") == 1  # one line
    assert raw_hidden(err) == []
    err.encode("utf-8")  # no lone surrogate left raw
    shown = re.search(r'"message":"(.*)","hint"', out, re.DOTALL).group(1)
    for short, long in (("\\b", "\\u0008"), ("\\f", "\\u000c"), ("\\r", "\\u000d")):  # JSON's short forms
        shown = shown.replace(short, long)
    assert err == f"bunzai: not_found: {shown}\n"
    if not re.search("[\ud800-\udbff][\udc00-\udfff]", message):  # (lone halves in a row print as two U+FFFD)
        assert json.loads(out)["error"]["message"] == message


def test_a_terminal_escape_in_a_message_and_hint_is_written_visibly(capsys):
    _, err = rendered(capsys, "no file at x\x1b[2J\u202eevil\U000e0041", "see \x9b31m")
    assert err == "bunzai: not_found: no file at x\\u001b[2J\\u202eevil\\udb40\\udc41 (see \\u009b31m)\n"


def test_a_joiner_inside_an_emoji_stays_and_plain_text_is_unchanged(capsys):
    _, err = rendered(capsys, "family 👨\u200d👩 名前 é", "hint")
    assert err == "bunzai: not_found: family 👨\u200d👩 名前 é (hint)\n"


def test_an_error_document_passed_on_is_shown_escaped_too(capsys):
    output.pass_error_on({"error": {"code": "stale\x1b", "message": "gone\x1b]0;title\x07"}})
    err = capsys.readouterr().err
    assert err == "bunzai: stale\\u001b: gone\\u001b]0;title\\u0007\n"


def test_end_to_end_a_path_holding_an_escape_is_not_written_raw(bunzai, tmp_path):
    done = bunzai("import", str(tmp_path / "card\x1b[31m\u202e.png"))
    assert done.code == 1 and done.json["error"]["code"] == "not_found"
    assert "\x1b" not in done.stderr and "\u202e" not in done.stderr
    assert "card\\u001b[31m\\u202e.png" in done.stderr


def test_end_to_end_a_skipped_file_name_is_not_written_raw(bunzai, tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "read\x1b[2Jme.txt").write_text("not a card")
    done = bunzai("import", str(folder))
    assert "\x1b" not in done.stderr and "read\\u001b[2Jme.txt" in done.stderr
