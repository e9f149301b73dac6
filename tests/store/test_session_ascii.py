"""A session id is ASCII: it names a cursor file, and a letter beyond ASCII has two spellings (NFC,
NFD) or a lookalike (Cyrillic a). The refusal and every docs page that states the rule say
"ASCII letters" (they used to say "letters", which promises `café`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bunzai.errors import BunzaiError
from bunzai.store import changelog

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("label", ["café", "cafe\u0301", "\u0430gent", "ｆｕｌｌ"])
def test_a_letter_beyond_ascii_is_refused_and_the_hint_says_ascii(label, monkeypatch) -> None:
    with pytest.raises(BunzaiError) as refused:
        changelog.check_session(label)
    assert refused.value.code == "invalid_input" and "ASCII letters" in refused.value.hint
    monkeypatch.setenv(changelog.ENV_SESSION, label)
    with pytest.raises(BunzaiError) as refused:
        changelog.current_session()
    assert "ASCII letters" in refused.value.hint


def test_every_page_stating_the_session_rule_says_ascii() -> None:
    stated = re.compile(r"session id (?:is|names a file)[^.]*?\bletters\b", re.DOTALL)
    pages = [p for p in DOCS.rglob("*.md") if stated.search(p.read_text(encoding="utf-8"))]
    assert len(pages) >= 4  # mcp, studio, commands/changes, commands/revert
    for page in pages:
        for found in stated.finditer(page.read_text(encoding="utf-8")):
            assert found[0].endswith("ASCII letters"), (page, found[0])
