"""Capability drafts go through `bunzai apply`: stored equals proposed; stale drafts write nothing; the journey."""

from __future__ import annotations

import json

import pytest

from bunzai.model.key_order import recorded_in

from corpus_pieces import ELDORIA, SERAPHINA
from test_character_bundle import CASES as CHARACTER_CASES

LOREBOOK_CASES = [
    ("lorebook.settings.update", {"description": "The realm.", "settings": {"token_budget": 900}}),
    ("lorebook.entries.update", {"uid": 1, "set": {"content": "Wolves."}}),
    ("lorebook.entries.reorder", {"uid": 0, "to": 3}),
    ("lorebook.entries.enable", {"uids": [2], "enabled": False}),
    ("lorebook.entries.create", {"entries": [{"title": "river", "keys": ["river"], "content": "A river."}]}),
    ("lorebook.entries.duplicate", {"uid": 1}),
    ("lorebook.entries.remove", {"uids": [1]}),
]


def _import(bunzai, path) -> None:
    if not path.exists():
        pytest.skip(f"corpus file {path} is absent")
    drafts = bunzai("import", str(path))
    if drafts.code != 0:
        pytest.skip(f"{path.name} does not import yet: {drafts.stdout[:200]}")
    bunzai("apply", "--yes", input=drafts.stdout, check=True)


def _stored(bunzai, ref: str) -> dict:
    return bunzai("read", ref, check=True).json["piece"]


def test_every_draft_capability_applies_and_the_stored_piece_equals_the_proposed(bunzai) -> None:
    _import(bunzai, SERAPHINA)
    if not (bunzai.studio / "lorebook" / "eldoria.json").exists():  # the card's own book may already be eldoria
        _import(bunzai, ELDORIA)
    for cap_id, payload, *_ in CHARACTER_CASES:
        _applies(bunzai, cap_id, "character/seraphina", payload)
    for cap_id, payload in LOREBOOK_CASES:
        _applies(bunzai, cap_id, "lorebook/eldoria", payload)


def _applies(bunzai, cap_id: str, ref: str, payload: dict) -> None:
    draft = bunzai("cap", "run", cap_id, ref, "--input", json.dumps(payload), check=True)
    receipt = bunzai("apply", "--yes", input=draft.stdout, check=True).json
    assert receipt["status"] == "applied", (cap_id, receipt)
    assert _stored(bunzai, ref) == recorded_in(draft.json["proposed"]), cap_id  # plus its escrow's key order


def test_a_draft_made_stale_by_another_apply_writes_nothing(bunzai) -> None:
    bunzai(
        "apply",
        "--yes",
        input=bunzai("create", "character", "--input", '{"name": "Ada"}', "--id", "ada2").stdout,
        check=True,
    )
    first = bunzai(
        "cap", "run", "character.identity.update", "character/ada2", "--input", '{"nickname": "A"}', check=True
    )
    second = bunzai(
        "cap", "run", "character.identity.update", "character/ada2", "--input", '{"nickname": "B"}', check=True
    )
    bunzai("apply", "--yes", input=second.stdout, check=True)
    before = _stored(bunzai, "character/ada2")
    stale = bunzai("apply", "--yes", input=first.stdout)
    assert stale.code == 1 and stale.json["status"] == "stale" and stale.json["reason"] == "changed"
    assert _stored(bunzai, "character/ada2") == before and before["body"]["nickname"] == "B"
    composed = bunzai(
        "cap",
        "run",
        "character.greetings.update",
        "--draft",
        "-",
        "--input",
        '{"first_message": "Hi"}',
        input=first.stdout,
    )
    assert composed.code == 1 and composed.json["error"]["code"] == "stale"


def test_composed_drafts_keep_per_operation_warnings_and_diff_against_the_baseline(bunzai) -> None:
    bunzai(
        "apply",
        "--yes",
        input=bunzai("create", "character", "--input", '{"name": "Ada", "first_message": "Ada waves."}').stdout,
        check=True,
    )
    first = bunzai(
        "cap", "run", "character.identity.update", "character/ada", "--input", '{"name": "Countess"}', check=True
    )
    second = bunzai(
        "cap",
        "run",
        "character.greetings.update",
        "--draft",
        "-",
        "--input",
        '{"first_message": "{{char}} waves."}',
        input=first.stdout,
        check=True,
    ).json
    assert [op["op"] for op in second["operations"]] == ["character.identity.update", "character.greetings.update"]
    assert second["operations"][0]["warnings"] and second["baseline"] == first.json["baseline"]
    assert {c["path"] for c in second["changes"]} == {"/name", "/body/first_message"}
    rows = {c["path"]: (c["before"], c["after"]) for c in second["changes"]}
    assert rows == {"/name": ("Ada", "Countess"), "/body/first_message": ("Ada waves.", "{{char}} waves.")}
    assert bunzai("apply", "--yes", input=json.dumps(second), check=True).json["status"] == "applied"
    assert _stored(bunzai, "character/ada") == second["proposed"]


def test_a_draft_built_in_steps_names_only_the_changes_on_an_imported_book(bunzai) -> None:
    # the stored file records its escrow's key order and keeps its own key order; the rows
    # compare it as a one-step draft does: the description, and the two entries taken out
    _import(bunzai, ELDORIA)
    first = bunzai("cap", "run", "lorebook.settings.update", "lorebook/eldoria", "--input", '{"description": "x"}')
    second = bunzai(
        "cap",
        "run",
        "lorebook.entries.remove",
        "--draft",
        "-",
        "--input",
        '{"uids": [0, 2]}',
        input=first.stdout,
        check=True,
    ).json
    stored = _stored(bunzai, "lorebook/eldoria")
    assert [(c["op"], c["path"]) for c in second["changes"]] == [
        ("replace", "/body/description"),
        ("remove", "/body/entries/0"),
        ("remove", "/body/entries/2"),
    ]
    assert [c["before"] for c in second["changes"][1:]] == [stored["body"]["entries"][n] for n in (0, 2)]
    assert bunzai("apply", "--yes", input=json.dumps(second), check=True).json["status"] == "applied"


def test_a_draft_built_in_steps_has_the_impact_of_the_whole_draft(bunzai) -> None:
    # an entry edited (sticky: not every format carries it), then taken out: nothing is left
    # for any format to lose; a description set and set back is no change at all
    _import(bunzai, ELDORIA)

    def step(cap: str, payload: str, draft: str | None = None, ref: str | None = "lorebook/eldoria"):
        args = ["cap", "run", cap, *([ref] if draft is None else ["--draft", "-"]), "--input", payload]
        return bunzai(*args, input=draft, check=True)

    edited = step("lorebook.entries.update", '{"uid": 3, "set": {"sticky": 2}}')
    assert edited.json["impact"], "sticky is not carried by every lorebook format"
    removed = step("lorebook.entries.remove", '{"uids": [3]}', edited.stdout).json
    assert removed["impact"] == [] and [c["op"] for c in removed["changes"]] == ["remove"]
    assert removed["operations"][0]["impact"] == edited.json["impact"]  # each step keeps its own rows
    there = step("lorebook.settings.update", '{"description": "x"}')
    back = step("lorebook.settings.update", '{"description": ""}', there.stdout).json
    assert there.json["impact"] and back["changes"] == [] and back["impact"] == []


def test_saved_drafts_list_validate_and_discard(bunzai) -> None:
    bunzai("apply", "--yes", input=bunzai("create", "character", "--input", '{"name": "Ada"}').stdout, check=True)
    saved = bunzai(
        "cap",
        "run",
        "character.identity.update",
        "ada",
        "--input",
        '{"tagline": "t"}',
        "--save",
        "--name",
        "ada-tag",
        check=True,
    ).json
    assert saved["saved"]["name"] == "ada-tag"
    again = bunzai(
        "cap", "run", "character.identity.update", "ada", "--input", '{"tagline": "t"}', "--save", "--name", "ada-tag"
    )
    assert again.code == 1 and again.json["error"]["code"] == "occupied"
    rows = bunzai("draft", "list", check=True).json["items"]
    assert rows == [
        {
            "name": "ada-tag",
            "target": {"kind": "character", "id": "ada"},
            "mode": "update",
            "baseline": saved["baseline"],
            "operations": ["character.identity.update"],
            "stale": False,
            "reason": None,
            "valid": True,
        }
    ]
    assert bunzai("draft", "show", "ada-tag", check=True).json["review"]
    assert bunzai("draft", "validate", "ada-tag", check=True).json["would_apply"] is True
    bunzai(
        "apply",
        "--yes",
        input=bunzai("cap", "run", "character.identity.update", "ada", "--input", '{"nickname": "x"}').stdout,
        check=True,
    )
    assert bunzai("draft", "list", check=True).json["items"][0]["stale"] is True
    done = bunzai("draft", "discard", "ada-tag", check=True).json
    assert done["status"] == "discarded" and bunzai("draft", "list", check=True).json["items"] == []


def test_create_keeps_working_with_or_without_a_creation_capability(bunzai) -> None:
    draft = bunzai(
        "create",
        "lorebook",
        "--input",
        '{"name": "Eldoria", "description": "A forest kingdom"}',
        "--id",
        "eldoria-book",
        check=True,
    ).json
    assert draft["mode"] == "create" and draft["target"] == {"kind": "lorebook", "id": "eldoria-book"}
    assert draft["proposed"]["body"]["description"] == "A forest kingdom"
    assert (
        bunzai("create", "character", "--input", '{"name": "Ada"}', "--id", "../escape").json["error"]["code"]
        == "invalid_id"
    )


def test_journey_import_rename_add_greeting_apply_export_png(bunzai, tmp_path) -> None:
    from bunzai.adapters.registry import all_adapters

    if "sillytavern.card.png" not in {a.format_id for a in all_adapters()}:
        pytest.skip("sillytavern.card.png is not registered yet")
    _import(bunzai, SERAPHINA)
    renamed = bunzai(
        "cap", "run", "character.identity.update", "character/seraphina", "--input", '{"name": "Sera"}', check=True
    )
    composed = bunzai(
        "cap",
        "run",
        "character.greetings.update",
        "--draft",
        "-",
        "--input",
        '{"alternate": {"add": ["*Sera hums by the fire.*"]}}',
        input=renamed.stdout,
        check=True,
    )
    assert bunzai("apply", "--yes", input=composed.stdout, check=True).json["status"] == "applied"
    receipt = bunzai("export", "seraphina", "--to", "sillytavern.card.png", check=True).json
    exported = (bunzai.studio / receipt["path"]).read_bytes()
    from bunzai.changes.imports import drafts_from_bytes

    back = next(
        d["proposed"] for d in drafts_from_bytes(exported, "seraphina.png") if d["target"]["kind"] == "character"
    )
    first = next(
        d["proposed"]
        for d in drafts_from_bytes(SERAPHINA.read_bytes(), SERAPHINA.name)
        if d["target"]["kind"] == "character"
    )
    assert back["name"] == "Sera"
    assert back["body"]["alternate_greetings"] == first["body"]["alternate_greetings"] + ["*Sera hums by the fire.*"]
    for field, value in first["body"].items():  # every other field the original had is carried
        if field not in ("alternate_greetings",):
            assert back["body"][field] == value, field
    original, again = first["original"]["document"], back["original"]["document"]
    assert _keys(original) <= _keys(again)


def _keys(doc, prefix="") -> set[str]:
    if isinstance(doc, dict):
        return {prefix + k for k in doc} | {key for k, v in doc.items() for key in _keys(v, f"{prefix}{k}/")}
    return set()


def test_apply_takes_the_name_of_a_saved_draft(bunzai) -> None:
    created = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True)
    bunzai("apply", "--yes", input=created.stdout, check=True)
    bunzai(
        "cap",
        "run",
        "character.identity.update",
        "character/ada",
        "--input",
        '{"nickname": "Countess"}',
        "--save",
        "--name",
        "rename-ada",
        check=True,
    )
    done = bunzai("apply", "rename-ada", "--yes", check=True).json
    assert done["status"] == "applied"
    assert bunzai("read", "character/ada", "--pointer", "/body/nickname", check=True).json["value"] == "Countess"
