"""Agnai finds a memory keyword with `\\b(keyword)\\b` (flags giu, common/memory.ts): JavaScript's
word characters are ASCII, so a keyword in Chinese, Japanese, Korean or Cyrillic never fires.
A crossing into Agnai says so, once per such primary keyword; a book read from Agnai does not."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings, strategies as st

from bunzai.adapters.agnai.memory_entries import never_matches
from bunzai.regexlab import engine


def _card(keys: list[str]) -> dict:
    entry = {"keys": keys, "secondary_keys": ["秘密"], "content": "東京是首都。", "enabled": True, "insertion_order": 1}
    book = {"name": "世界", "entries": [dict(entry, id=0)]}
    return {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "雪乃", "character_book": book}}


def _never(losses: list[dict]) -> list[str]:
    return [loss["pointer"] for loss in losses if loss["code"] == "agnai.entry.key_never_matches"]


def test_crossing_into_agnai_names_each_keyword_agnai_cannot_find(bunzai, tmp_path) -> None:
    card = tmp_path / "card.json"
    card.write_text(json.dumps(_card(["東京", "Tokyo", "Москва", "*cat*", "café"]), ensure_ascii=False), "utf-8")
    for target in ("agnai.character.json", "agnai.tavern.json"):
        out = tmp_path / f"{target}.out"
        report = bunzai("convert", str(card), "--to", target, "-o", str(out), check=True).json
        pointers = ["/body/book/entries/0/keys/0", "/body/book/entries/0/keys/2", "/body/book/entries/0/keys/4"]
        assert _never(report["losses"]) == pointers, target
    # written back to Agnai, a book read from Agnai loses nothing: its keywords never fired there
    agnai = tmp_path / "agnai.character.json.out"
    again = bunzai("convert", str(agnai), "--to", "agnai.character.json", "-o", str(tmp_path / "again"), check=True)
    assert _never(again.json["losses"]) == []


def _agnai_finds(keyword: str, line: str) -> bool:
    # createRegexForKeyword, run in the embedded JavaScript engine
    pattern = re.sub(r"[\\^$+.()|[\]{}_]", "", keyword.strip()).replace("*", "\\w*").replace("?", "\\w")
    answer = engine.call({"op": "test", "pattern": f"\\b({pattern})\\b", "flags": "iu", "texts": [line]})
    return bool(answer["results"][0])


@settings(max_examples=150, deadline=None)
@given(keyword=st.text(alphabet="ab東京é? .*", min_size=1, max_size=6))
def test_a_keyword_reported_as_never_matching_is_not_found_in_plain_prose(keyword: str) -> None:
    # Prose where each word stands between spaces and punctuation, as people write it.
    prose = f"今天，{keyword.strip()}。 And then {keyword.strip()}!"
    if never_matches(keyword):
        assert not _agnai_finds(keyword, prose)
