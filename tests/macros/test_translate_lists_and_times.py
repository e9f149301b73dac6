"""List macros, UTC time and `reverse` between SillyTavern and RisuAI, as each engine reads them.

SillyTavern (macros/definitions/core-macros.js, readSingleArgsRandomList) splits a single
argument of `random`/`pick` on commas, trims the items and keeps `\\,` as a comma; RisuAI
(cbs.ts, the `random` and `pick` callbacks) splits it on commas and colons alike, untrimmed,
with the same escape. RisuAI's `isotime` is the time of day in UTC (SillyTavern's is local),
and its `reverse` reverses the whole token text, its own name included.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai.macros.translate import translate_text


def _one(text: str, source: str, target: str) -> tuple[str, str, str]:
    result = translate_text(text, source, target)
    (verdict,) = result.verdicts
    return result.text, verdict["verdict"], verdict.get("note") or ""


# --- how each engine reads a `random` token's items (written from the platforms' sources) -----


def _st_items(token: str) -> list[str]:
    args = token[len("{{random::") : -2].split("::")
    if len(args) > 1:
        return [a.strip() for a in args]
    return [item.strip().replace("\0", ",") for item in args[0].replace("\\,", "\0").split(",")]


def _risu_items(token: str) -> list[str]:
    inner = token[2:-2]
    colon = inner.find(":")
    args = (inner.split("::") if colon != -1 and inner[colon + 1 : colon + 2] == ":" else inner.split(":"))[1:]
    if len(args) > 1:
        return args
    return [item.replace("\0", ",") for item in re.split("[:,]", args[0].replace("\\,", "\0"))]


@pytest.mark.parametrize(
    ("source", "target", "text", "written"),
    [
        # an escaped comma stays inside its item on both sides
        ("sillytavern", "risuai", "{{random::x\\,y,z}}", "{{random::x,y::z}}"),
        ("sillytavern", "risuai", "{{random::x\\,y}}", "{{random::x\\,y}}"),
        ("risuai", "sillytavern", "{{random::x\\,y:z}}", "{{random::x,y::z}}"),
        # RisuAI's colons split items SillyTavern would keep whole
        ("risuai", "sillytavern", "{{random::a,b:c}}", "{{random::a::b::c}}"),
        ("risuai", "sillytavern", "{{pick::a:b}}", "{{pick::a::b}}"),
        # two items, each written as its own argument, which RisuAI does not split again
        ("sillytavern", "risuai", "{{pick::12:30,13:00}}", "{{pick::12:30::13:00}}"),
        # SillyTavern splits a single argument on `::` first (readSingleArgsRandomList)
        ("sillytavern", "risuai", "{{random:a::b::c}}", "{{random::a::b::c}}"),
    ],
)
def test_list_items_cross_as_the_engines_split_them(source: str, target: str, text: str, written: str) -> None:
    out, verdict, _ = _one(text, source, target)
    assert (out, verdict) == (written, "portable")


@pytest.mark.parametrize("text", ["{{random:1:10}}", "{{random::1:10}}", "{{pick::12:30}}"])
def test_an_item_holding_a_colon_is_a_collision_in_risuai(text: str) -> None:
    # SillyTavern picks "1:10" whole; RisuAI would pick "1" or "10", and has no way to write a colon in an item.
    out, verdict, note = _one(text, "sillytavern", "risuai")
    assert (out, verdict) == (text, "collision")
    assert "risuai splits its list into" in note


_ITEM = st.text(alphabet="ab ,:\\", min_size=1, max_size=5).filter(
    lambda s: s.strip() and "::" not in s and not s.startswith(":") and not s.endswith((":", "\\")) and "\\\\" not in s
)


@given(st.lists(_ITEM, min_size=1, max_size=3))
def test_a_portable_list_picks_from_the_same_items(items: list[str]) -> None:
    token = "{{random::" + "::".join(items) + "}}"
    result = translate_text(token, "sillytavern", "risuai")
    (verdict,) = result.verdicts
    if verdict["verdict"] == "portable":
        assert _risu_items(result.text) == _st_items(token)
        back = translate_text(result.text, "risuai", "sillytavern")
        assert _st_items(back.text) == _st_items(token)
    else:
        assert verdict["verdict"] == "collision" and result.text == token
        assert any(":" in item for item in _st_items(token))


def test_risuai_isotime_is_sillytavern_time_at_utc() -> None:
    assert _one("{{isotime}}", "risuai", "sillytavern")[:2] == ("{{time::UTC+0}}", "portable")
    assert _one("{{time::UTC+0}}", "sillytavern", "risuai")[:2] == ("{{isotime}}", "portable")


def test_sillytavern_isotime_is_local_time_in_risuai() -> None:
    out, verdict, note = _one("{{isotime}}", "sillytavern", "risuai")
    assert (out, verdict) == ("{{time}}", "portable")
    assert "UTC+0" in note


@pytest.mark.parametrize(("source", "target"), [("sillytavern", "risuai"), ("risuai", "sillytavern")])
def test_reverse_is_a_collision_both_ways(source: str, target: str) -> None:
    # RisuAI: {{reverse::abc}} gives "cba::esrever"; SillyTavern gives "cba".
    assert _one("{{reverse::abc}}", source, target)[:2] == ("{{reverse::abc}}", "collision")


def test_risuai_isodate_is_a_collision_where_the_target_reads_isodate_as_local_date():
    # SillyTavern reads {{isodate}} as the local date and has no date in UTC (RisuAI's {{isotime}}
    # is its {{time_UTC+0}}: test_translate_time_offsets_and_pipes.py)
    out, verdict, note = _one("{{isodate}}", "risuai", "sillytavern-legacy")
    assert (out, verdict) == ("{{isodate}}", "collision")
    assert '["UTC+0"]' in note


def test_an_op_the_target_has_only_with_other_arguments_is_said_so():
    out, verdict, note = _one("{{isotime}}", "risuai", "rolecall")
    assert (out, verdict) == ("", "absent")
    assert note == 'rolecall has time.now, but no form of it with ["UTC+0"]: removed'
