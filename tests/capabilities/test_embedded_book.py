"""Lorebook capabilities on a character's embedded book: character/ID#book and --embedded."""

from __future__ import annotations

import json

import pytest

from bunzai.capabilities.embedded import book_piece, split_book_ref, with_book
from bunzai.errors import BunzaiError

ENTRY = {"keys": ["eldoria"], "content": "A forest.", "title": "Eldoria"}


def applied(bunzai, draft) -> dict:
    done = bunzai("apply", "--yes", input=draft if isinstance(draft, str) else draft.stdout)
    assert done.code == 0, done.stdout
    return done.json


@pytest.fixture
def ada(bunzai):
    """A character with an embedded book of one entry (made through #book itself)."""
    applied(bunzai, bunzai("create", "character", "--input", '{"name": "Ada"}', check=True))
    made = bunzai(
        "cap",
        "run",
        "lorebook.entries.create",
        "character/ada#book",
        "--input",
        json.dumps({"entries": [ENTRY]}),
        check=True,
    ).json
    assert made["target"] == {"kind": "character", "id": "ada"} and made["mode"] == "update"
    assert made["operations"][0]["on"] == "/body/book"
    assert [change["path"] for change in made["changes"]] == ["/body/book"]
    applied(bunzai, json.dumps(made))
    return bunzai


def book_of(bunzai, ref: str = "character/ada") -> dict:
    return bunzai("read", ref, "--pointer", "/body/book", check=True).json["value"]


def test_an_entry_made_on_a_card_without_a_book_starts_its_book(ada):
    book = book_of(ada)
    assert [(entry["title"], entry["content"], entry["uid"]) for entry in book["entries"]] == [
        ("Eldoria", "A forest.", 0)
    ]


def test_an_entry_update_on_the_embedded_book_is_applied_to_the_character(ada):
    revision = ada("read", "character/ada", check=True).json["revision"]
    draft = ada(
        "cap",
        "run",
        "lorebook.entries.update",
        "character/ada#book",
        "--input",
        '{"uid": 0, "set": {"content": "An old forest."}}',
        check=True,
    ).json
    assert draft["baseline"] == revision
    assert draft["changes"] == [
        {"op": "replace", "path": "/body/book/entries/0/content", "before": "A forest.", "after": "An old forest."}
    ]
    receipt = applied(ada, json.dumps(draft))
    assert receipt["status"] == "applied" and receipt["target"] == {"kind": "character", "id": "ada"}
    assert book_of(ada)["entries"][0]["content"] == "An old forest."


def test_embedded_flag_and_book_ref_make_the_same_draft(ada):
    given = '{"uid": 0, "set": {"enabled": false}}'
    by_ref = ada("cap", "run", "lorebook.entries.update", "ada#book", "--input", given, check=True).json
    by_flag = ada("cap", "run", "lorebook.entries.update", "ada", "--embedded", "--input", given, check=True).json
    assert (
        by_ref["changes"]
        == by_flag["changes"]
        == [{"op": "replace", "path": "/body/book/entries/0/enabled", "before": True, "after": False}]
    )


def test_a_draft_on_the_book_is_stale_once_the_character_moves_on(ada):
    draft = ada(
        "cap",
        "run",
        "lorebook.entries.update",
        "character/ada#book",
        "--input",
        '{"uid": 0, "set": {"content": "Late."}}',
        check=True,
    ).stdout
    applied(
        ada,
        ada(
            "cap",
            "run",
            "character.identity.update",
            "character/ada",
            "--input",
            '{"nickname": "Countess"}',
            check=True,
        ),
    )
    late = ada("apply", "--yes", input=draft)
    assert late.json["status"] == "stale"
    assert book_of(ada)["entries"][0]["content"] == "A forest."


def test_impact_is_the_characters_crossing_through_the_card_formats(ada):
    # A literal key written like a regex is read back as a regex by every card platform.
    draft = ada(
        "cap",
        "run",
        "lorebook.entries.update",
        "character/ada#book",
        "--input",
        '{"uid": 0, "set": {"keys": ["/ada/i"]}}',
        check=True,
    ).json
    hit = {row["platform"] for row in draft["impact"] if row["pointer"].startswith("/body/book/entries/0/keys")}
    assert {"ccv2.json", "ccv3.json", "sillytavern.card.png", "charx"} <= hit
    plain = ada(
        "cap",
        "run",
        "lorebook.entries.update",
        "character/ada#book",
        "--input",
        '{"uid": 0, "set": {"content": "Plain."}}',
        check=True,
    ).json
    assert plain["impact"] == []


def test_operations_compose_on_the_embedded_book(ada):
    first = ada(
        "cap",
        "run",
        "lorebook.entries.update",
        "character/ada#book",
        "--input",
        '{"uid": 0, "set": {"content": "One."}}',
        check=True,
    )
    second = ada(
        "cap",
        "run",
        "lorebook.settings.update",
        "character/ada#book",
        "--draft",
        "-",
        "--input",
        '{"name": "Ada\'s World", "description": "Her lands."}',
        input=first.stdout,
        check=True,
    ).json
    assert [op["op"] for op in second["operations"]] == ["lorebook.entries.update", "lorebook.settings.update"]
    applied(ada, json.dumps(second))
    book = book_of(ada)
    assert (book["name"], book["description"], book["entries"][0]["content"]) == ("Ada's World", "Her lands.", "One.")


def test_a_linked_book_on_the_shelf_is_named_in_a_warning(ada):
    applied(ada, ada("create", "lorebook", "--input", '{"name": "Realm"}', check=True))
    applied(
        ada, ada("cap", "run", "character.links.update", "character/ada", "--input", '{"world": "realm"}', check=True)
    )
    draft = ada(
        "cap",
        "run",
        "lorebook.entries.update",
        "character/ada#book",
        "--input",
        '{"uid": 0, "set": {"content": "Two."}}',
        check=True,
    ).json
    assert any("lorebook/realm" in warning for warning in draft["warnings"])


@pytest.mark.parametrize(
    ("cap", "ref", "given"),
    [
        ("character.identity.update", "character/ada#book", '{"nickname": "A"}'),  # not a lorebook capability
        ("lorebook.entries.update", "lorebook/ada#book", '{"uid": 0, "set": {"content": "x"}}'),  # not a character
        ("lorebook.entries.update", "character/ada#book", '{"uid": 9, "set": {"content": "x"}}'),  # no such entry
        ("lorebook.entries.create", "character/ada#book", '{"entries": [{"uid": 0, "content": "twin"}]}'),  # taken uid
    ],
)
def test_refusals_leave_the_character_as_it_was(ada, cap, ref, given):
    before = ada("read", "character/ada", check=True).json["revision"]
    refused = ada("cap", "run", cap, ref, "--input", given)
    assert refused.code == 1 and refused.json["error"]["code"] in ("invalid_input", "invalid_piece")
    assert ada("read", "character/ada", check=True).json["revision"] == before


def test_ref_forms():
    assert split_book_ref("character/ada#book", False) == ("character/ada", True)
    assert split_book_ref("ada#book", False) == ("character/ada", True)
    assert split_book_ref("ada", True) == ("character/ada", True)
    assert split_book_ref("lorebook/ada", False) == ("lorebook/ada", False)
    assert split_book_ref(None, False) == (None, False)
    with pytest.raises(BunzaiError):
        split_book_ref("preset/x", True)


def test_the_book_lent_to_a_capability_goes_back_whole():
    character = {
        "kind": "character",
        "id": "ada",
        "name": "Ada",
        "body": {"book": {"name": "World", "description": "d", "entries": [], "extensions": {"k": 1}}},
    }
    lent = book_piece(character)
    assert lent == {
        "kind": "lorebook",
        "id": "ada",
        "name": "World",
        "body": {"description": "d", "entries": [], "extensions": {"k": 1}},
    }
    assert with_book(character, lent) == character


def _book_cap(preview, **kw):
    from bunzai.capabilities.contract import Capability
    from bunzai.model.base import Model

    class Empty(Model):
        pass

    return Capability(
        id="lorebook.test.probe",
        kind="lorebook",
        area="test",
        action="probe",
        summary="test",
        input_model=Empty,
        preview=preview,
        **kw,
    )


CARD = {
    "kind": "character",
    "id": "ada",
    "name": "Ada",
    "body": {"book": {"name": "World", "entries": [{"uid": 0, "content": "A forest."}]}},
}


def test_a_read_capability_reads_the_embedded_book_and_names_it_in_the_target():
    from bunzai.capabilities.contract import Preview
    from bunzai.capabilities.embedded import run_embedded

    cap = _book_cap(lambda piece, inp: Preview(piece, result=[e.content for e in piece.body.entries]), effect="read")
    found = run_embedded(cap, CARD, {}, baseline="a" * 64)
    assert found["result"] == ["A forest."]
    assert found["target"] == {"kind": "character", "id": "ada", "on": "/body/book"}


def test_the_runner_rules_hold_on_the_lent_book():
    from bunzai.capabilities.contract import Preview
    from bunzai.capabilities.embedded import run_embedded

    moved = _book_cap(lambda piece, inp: Preview(piece.model_copy(update={"id": "elsewhere"})))
    with pytest.raises(BunzaiError) as caught:
        run_embedded(moved, CARD, {}, baseline="a" * 64)
    assert caught.value.code == "forbidden_change"
    reader = _book_cap(lambda piece, inp: Preview(piece, result=None), effect="read")
    with pytest.raises(BunzaiError) as caught:
        run_embedded(reader, dict(CARD, body={}), {}, baseline="a" * 64)
    assert caught.value.code == "invalid_input" and "no embedded book" in caught.value.message
