"""`bunzai docs search` answers common questions with the page that answers them, near the top.

The index is built here from the checkout's pages (a catalog made fresh in memory), so the test
ranks the pages as they are, whatever the committed catalog holds. Each question lists the
chunks that answer it; one of them must be among the first three hits. A long section whose
heading names the subject (`## Exporting a library`) must not lose to short passages that
mention the words in passing (bm25: only the text is normalised by its length).
"""

from __future__ import annotations

import json

import pytest

from bunzai.docs import catalog as docs_catalog
from bunzai.docs import query
from bunzai.docs.pages import CHECKOUT_ROOT

QUESTIONS = {
    "export all characters": {
        "library#exporting-a-library",
        "commands/export#",
        "commands/export#into-a-platforms-folder-layout",
    },
    "convert a card to risu": {"commands/convert#"},
    "how do I undo an apply": {"commands/revert#"},
    "search the studio": {"commands/search#"},
    "import a sillytavern user folder": {"library#a-sillytavern-user-folder"},
    "restore a buried piece": {"commands/graveyard#"},
    "rename a character": {"capabilities#characteridentityupdate"},
    "lorebook probability": {
        "formats/sillytavern.world#",
        "formats/risu.lorebook#entries",
        "render-vs-engine#lorebooks",
        "capabilities#lorebookentriesupdate",
        "capabilities#lorebookentriescreate",
        "formats/marinara.lorebook#what-is-kept",
        "formats/marinara.lorebook#losses",
    },
}


@pytest.fixture(scope="module")
def docs() -> query.Docs:
    if not CHECKOUT_ROOT.is_dir():
        pytest.skip("no docs/ folder (an installed copy)")
    catalog = json.loads(docs_catalog.catalog_text(docs_catalog.build_catalog(CHECKOUT_ROOT)))
    return query.Docs(CHECKOUT_ROOT, {key: value for key, value in catalog.items() if key != "search"})


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_a_common_question_finds_its_answer_among_the_first_three_hits(docs, question) -> None:
    hits = query.search(question, limit=3, docs=docs)["items"]
    found = [f"{hit['page']}#{hit['section'] or ''}" for hit in hits]
    assert set(found) & QUESTIONS[question], found


def test_quantifiers_are_not_searched_for(docs) -> None:
    assert query.search("export all characters", docs=docs)["terms"] == ["export", "character"]
