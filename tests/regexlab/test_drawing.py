"""regex-from-drawing and html-will-draw."""

from __future__ import annotations

import pytest

from bunzai.errors import BunzaiError
from bunzai.regexlab.drawing import flatten, regex_from_drawing
from bunzai.render.will_draw import html_will_draw

CARD = """<div class="status">
  <b>{{slot::name}}</b>
  <span>HP {{hp}} / price $5 and $1 and $&</span>
</div>"""
PATTERN = r"/\[status:(\w+)=(\d+)\]/g"


def test_a_slot_past_the_capture_count_is_refused_naming_it() -> None:
    with pytest.raises(BunzaiError) as caught:
        regex_from_drawing(CARD, PATTERN, {"name": 1, "hp": 3})
    assert caught.value.code == "invalid_input" and "'hp'" in caught.value.message and "3" in caught.value.message


def test_a_sample_the_pattern_does_not_match_is_a_failure() -> None:
    with pytest.raises(BunzaiError) as caught:
        regex_from_drawing(CARD, PATTERN, {"name": 1, "hp": 2}, sample="no status here")
    assert caught.value.code == "regex_no_match"


def test_literal_dollars_survive_the_replacement_run_in_the_engine() -> None:
    made = regex_from_drawing(CARD, PATTERN, {"name": 1, "hp": 2}, sample="Hi [status:Ann=12] ok")
    assert made["sample"]["result"] == (
        'Hi <div class="status"><b>Ann</b><span>HP 12 / price $5 and $1 and $&</span></div> ok'
    )
    rule = made["rules"][0]
    assert rule["replacement"].count("$$") == 3 and "\n" not in rule["replacement"]
    assert (rule["pattern"], rule["flags"]) == (r"\[status:(\w+)=(\d+)\]", "g")


def test_slots_become_two_digit_references_so_markup_digits_cannot_extend_them() -> None:
    made = regex_from_drawing("<i>{{n}}0px</i>", r"/(\d)/g", {"n": 1}, sample="5")
    assert made["rules"][0]["replacement"] == "<i>$010px</i>" and made["sample"]["result"] == "<i>50px</i>"


def test_on_sillytavern_a_slot_before_a_digit_is_closed_with_noop() -> None:
    """SillyTavern reads every digit after `$`: `$20px` would be group 20, which is empty."""
    made = regex_from_drawing("<i>{{w}}0px {{w}}</i>", r"/(\d)/g", {"w": 1}, platform="sillytavern", sample="5")
    assert made["rules"][0]["replacement"] == "<i>$1{{noop}}0px $1</i>"
    assert made["sample"]["result"] == "<i>50px 5</i>" and made["warnings"] == []


def test_on_sillytavern_slot_zero_before_a_digit_is_closed_too() -> None:
    """SillyTavern turns {{match}} into $0 first: {{match}}5 would be group 5."""
    made = regex_from_drawing("<i>{{all}}5px</i>", r"/\d/g", {"all": 0}, platform="sillytavern", sample="x7y")
    assert (
        made["rules"][0]["replacement"] == "<i>{{match}}{{noop}}5px</i>" and made["sample"]["result"] == "x<i>75px</i>y"
    )


def test_on_risuai_a_drawing_ending_in_a_tag_gets_the_no_end_nl_token() -> None:
    made = regex_from_drawing("<b>{{v}}</b>", r"(\d)", {"v": 1}, platform="risuai", sample="7")
    assert made["rules"][0]["extensions"] == {"risuai": {"flag_tokens": ["no_end_nl"]}}
    assert made["sample"]["result"] == "<b>7</b>"  # no line break added after the drawing


def test_on_risuai_a_literal_dollar_n_survives_risus_line_break_step() -> None:
    made = regex_from_drawing("<i>$name {{v}}</i>", r"(\d)", {"v": 1}, platform="risuai", sample="a7")
    assert made["sample"]["result"] == "a<i>$name 7</i>"


def test_slot_zero_is_the_whole_match() -> None:
    assert regex_from_drawing("<b>{{all}}</b>", "/x+/g", {"all": 0}, sample="axxb")["sample"]["result"] == "a<b>xx</b>b"


def test_a_slot_missing_from_the_markup_is_refused() -> None:
    with pytest.raises(BunzaiError) as caught:
        regex_from_drawing(CARD, PATTERN, {"nmae": 1})
    assert "'nmae'" in caught.value.message


def test_on_sillytavern_dollars_are_kept_and_a_risky_one_is_named() -> None:
    made = regex_from_drawing("<b>{{v}}</b> $5", r"/(\d+)/g", {"v": 1}, platform="sillytavern", sample="7")
    assert made["sample"]["result"] == "<b>7</b> " and made["warnings"]  # ST reads $5 as a (missing) group


def test_flatten_joins_lines_between_tags_and_inside_text() -> None:
    assert flatten("<p>\n  one\n  two\n</p>\n<p>x</p>") == "<p> one two </p><p>x</p>"


def test_html_will_draw_names_a_form_an_external_image_and_an_onclick() -> None:
    report = html_will_draw(
        '<form action="/x"><input name="q"></form>\n'
        '<img src="https://example.com/cat.png">\n<button onclick="go()">Go</button>'
    )
    assert {t["tag"] for t in report["stripped_tags"]} >= {"form", "input", "button"}
    assert [r["url"] for r in report["remote_references"]] == ["https://example.com/cat.png"]
    assert [(h["handler"], h["tag"], h["line"]) for h in report["inline_handlers"]] == [("onclick", "button", 3)]
    assert report["draws_as_written"] is False and "not a safety check" in report["note"]


def test_html_will_draw_finds_remote_css_and_srcset_but_not_local_or_data_addresses() -> None:
    report = html_will_draw(
        '<div style="background:url(//cdn.test/a.png)"><img src="data:image/png;base64,AA" '
        'srcset="a.png 1x, https://x.test/b.png 2x"><img src="local.png"></div>'
        "<style>@import 'https://f.test/s.css';</style>"
    )
    assert [r["url"] for r in report["remote_references"]] == [
        "//cdn.test/a.png",
        "https://x.test/b.png",
        "https://f.test/s.css",
    ]


def test_plain_markup_draws_as_written() -> None:
    assert html_will_draw('<div class="a"><b>hi</b><img src="me.png"></div>')["draws_as_written"] is True
