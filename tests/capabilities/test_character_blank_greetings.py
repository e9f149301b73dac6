"""character.greetings.update writes no blank greeting: `set` and `replace` refuse one as `add` does
(a blank alternate greeting is a swipe that opens the chat with nothing)."""

from __future__ import annotations

import pytest

from corpus_pieces import run, seraphina
from bunzai.errors import BunzaiError


@pytest.mark.parametrize(
    "edit",
    [
        {"set": ["Hello.", "  "]},
        {"replace": [{"index": 0, "text": "\n\t"}]},
        {"add": [""]},
    ],
)
@pytest.mark.parametrize("field", ["alternate", "group_only"])
def test_a_blank_greeting_is_refused_with_the_verb_and_what_to_do(field, edit) -> None:
    piece = seraphina()
    piece["body"]["alternate_greetings"] = ["one"]
    piece["body"]["group_only_greetings"] = ["one"]
    with pytest.raises(BunzaiError) as caught:
        run("character.greetings.update", piece, {field: edit})
    verb = next(iter(edit))
    assert caught.value.code == "invalid_input"
    assert f"input field '{field}': a greeting to {verb} is empty" == caught.value.message
    assert "remove" in caught.value.hint


def test_a_set_of_real_greetings_still_replaces_the_list() -> None:
    draft = run("character.greetings.update", seraphina(), {"alternate": {"set": ["Hello.", "Hi."]}})
    assert draft["proposed"]["body"]["alternate_greetings"] == ["Hello.", "Hi."]
