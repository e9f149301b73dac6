"""html-will-draw on markup as people paste it: cut-off sections, long <style> blocks, srcsets
broken over lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bunzai.render.will_draw import html_will_draw

_PIECES = ["<", ">", "/", "!", "[", "]", "-", '"', "=", "a", "style", "<![", "<![CDATA[", "if", "endif", "\n", " "]


def test_a_marked_section_with_no_keyword_is_read_as_a_comment_not_a_crash() -> None:
    report = html_will_draw('<div>hi</div><![ oops ]>\n<img src="https://example.com/a.png">')
    assert report["remote_references"] == [
        {"url": "https://example.com/a.png", "tag": "img", "attribute": "src", "line": 2}
    ]


def test_an_unknown_marked_section_keyword_is_read_as_a_comment() -> None:
    report = html_will_draw("<![foo[ x ]]><form></form>")
    assert [row["tag"] for row in report["stripped_tags"]] == ["form"]


def test_a_cut_off_marked_section_at_the_end_of_a_drawing_is_no_crash() -> None:
    assert html_will_draw("<b>hp 3</b><![\n<b>x</b>")["draws_as_written"] is True


@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_any_markup_gets_a_report(markup: str) -> None:
    assert set(html_will_draw(markup)) >= {"stripped_tags", "remote_references", "draws_as_written"}


def test_addresses_in_a_style_block_are_reported_on_their_own_lines() -> None:
    markup = '<style>\n.card { color: red; }\n\n.bg { background: url(https://example.com/bg.png); }\n@import "https://example.com/f.css";\n</style>'
    rows = [(row["url"], row["line"]) for row in html_will_draw(markup)["remote_references"]]
    assert rows == [("https://example.com/bg.png", 4), ("https://example.com/f.css", 5)]


def test_a_srcset_broken_over_lines_and_tabs_gives_bare_addresses() -> None:
    markup = '<img srcset="https://example.com/1.png\t1x,\n  https://example.com/2.png 2x">'
    assert [row["url"] for row in html_will_draw(markup)["remote_references"]] == [
        "https://example.com/1.png",
        "https://example.com/2.png",
    ]
