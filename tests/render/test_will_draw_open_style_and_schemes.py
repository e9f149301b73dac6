"""html-will-draw: a <style> left open to the end, and addresses a browser reads past their
tabs and line breaks."""

from __future__ import annotations

from bunzai.render.will_draw import html_will_draw


def test_an_unclosed_style_block_is_still_read_to_the_end() -> None:
    found = html_will_draw("<b>x</b>\n<style>\n.a { background: url(https://x.com/a.png) }\n")
    assert found["remote_references"] == [{"url": "https://x.com/a.png", "tag": "style", "attribute": "css", "line": 3}]
    assert found["draws_as_written"] is False


def test_a_script_address_split_by_a_tab_is_still_a_script_address() -> None:
    found = html_will_draw('<a href="java\tscript:go()">y</a><a href="&#10;javascript:go()">z</a>')
    assert [f["attribute"] for f in found["stripped_attributes"]] == ["href", "href"]


def test_a_remote_address_split_by_a_line_break_still_cannot_load() -> None:
    found = html_will_draw('<img src=" ht\ntps://x.com/p.png">')
    assert [f["attribute"] for f in found["remote_references"]] == ["src"]


def test_a_closed_style_block_is_read_once() -> None:
    found = html_will_draw("<style>.a { background: url(https://x.com/a.png) }</style><p>ok</p>")
    assert len(found["remote_references"]) == 1
