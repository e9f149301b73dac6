"""Lorebook keys in scripts other than English, matched as SillyTavern's world-info.js does.

matchKeys() builds `(?:^|\\W)(key)(?:$|\\W)` for a one-word key under "match whole words";
without the u flag JavaScript's \\W is every character but [A-Za-z0-9_], so a Chinese key in
Chinese text (no spaces between words) is a whole word. The oracle below is that very regex run
in the embedded ECMAScript engine.
"""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from bunzai.regexlab import engine
from bunzai.render.lore import _Matcher, activate


def _book(*entries):
    return [{"id": "b", "body": {"settings": {}, "entries": list(entries)}}]


def _entry(uid, key, **extra):
    return {"uid": uid, "keys": [{"text": key}], "content": f"lore {uid}", **extra}


def _fired(result):
    return {e["uid"]: e["fired"] for e in result.entries}


def test_whole_word_keys_in_chinese_japanese_and_thai_text_fire() -> None:
    books = _book(
        _entry(1, "雪乃", match_whole_words=True),
        _entry(2, "東京", match_whole_words=True),
        _entry(3, "แมว", match_whole_words=True),
        _entry(4, "caf", match_whole_words=True),
        _entry(5, "cat", match_whole_words=True),
    )
    chat = [{"role": "user", "content": "我喜欢雪乃的猫。明日は東京へ行く。ฉันรักแมวมาก café catalogue"}]
    assert _fired(activate(books, chat)) == {1: True, 2: True, 3: True, 4: True, 5: False}


def test_a_key_with_an_ideographic_space_is_a_phrase() -> None:
    # 'a　b'.split(/\s+/) has two parts: SillyTavern looks for the phrase anywhere.
    books = _book(_entry(1, "雪乃\u3000様", match_whole_words=True), _entry(2, "\ufeffdragon", match_whole_words=True))
    chat = [{"role": "user", "content": "x雪乃\u3000様x and a dragon"}]
    assert _fired(activate(books, chat)) == {1: True, 2: True}


def _sillytavern_whole_word(haystack: str, needle: str) -> bool:
    pattern = "(?:^|\\W)(" + re.sub(r"[.*+?^${}()|[\]\\]", r"\\\g<0>", needle) + ")(?:$|\\W)"
    return bool(engine.call({"op": "test", "pattern": pattern, "flags": "", "texts": [haystack]})["results"][0])


_TEXT = st.text(alphabet="ab_1 -。、雪乃猫éàงก😀\u200d\u05d0", min_size=0, max_size=12)


@settings(max_examples=150, deadline=None)
@given(haystack=_TEXT, needle=_TEXT.filter(lambda s: s.strip() and " " not in s.strip()))
def test_whole_word_matching_agrees_with_javascripts_regex(haystack: str, needle: str) -> None:
    matcher = _Matcher(case_sensitive=True, whole_words=True)
    assert matcher.matches({"text": needle}, haystack) == _sillytavern_whole_word(haystack, needle.strip())
