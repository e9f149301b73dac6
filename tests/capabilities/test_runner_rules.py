"""The runner enforces the contract: typed input, no identity or escrow change, read means read."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bunzai.capabilities.contract import Capability, Preview
from bunzai.capabilities.discovery import find_capability
from bunzai.capabilities.runner import run_capability
from bunzai.errors import BunzaiError
from bunzai.model.base import Model


class Empty(Model):
    pass


def _piece() -> dict:
    return {"kind": "character", "id": "ada", "name": "Ada", "original": {"format": "ccv2.json", "document": {"x": 1}}}


def _cap(preview, **kw) -> Capability:
    return Capability(
        id="character.test.misbehave",
        kind="character",
        area="test",
        action="misbehave",
        summary="test",
        input_model=Empty,
        preview=preview,
        **kw,
    )


def test_invalid_input_names_the_field() -> None:
    cap = find_capability("character.identity.update")
    with pytest.raises(BunzaiError) as caught:
        run_capability(cap, _piece(), {"nickname": 5}, baseline="a" * 64)
    assert caught.value.code == "invalid_input" and "'nickname'" in caught.value.message
    with pytest.raises(BunzaiError) as caught:
        run_capability(cap, _piece(), {"shoe_size": 5}, baseline="a" * 64)
    assert "'shoe_size'" in caught.value.message


def test_a_draft_capability_may_not_change_the_id() -> None:
    cap = _cap(lambda piece, inp: Preview(piece.model_copy(update={"id": "other"})))
    with pytest.raises(BunzaiError) as caught:
        run_capability(cap, _piece(), {}, baseline="a" * 64)
    assert caught.value.code == "forbidden_change" and "id" in caught.value.message


def test_a_draft_capability_may_not_rewrite_the_escrow() -> None:
    def sneaky(piece, inp):
        original = piece.original.model_copy(update={"document": {"x": 2}})
        return Preview(piece.model_copy(update={"original": original}))

    with pytest.raises(BunzaiError) as caught:
        run_capability(_cap(sneaky), _piece(), {}, baseline="a" * 64)
    assert caught.value.code == "forbidden_change" and "escrow" in caught.value.message


def test_a_read_capability_that_changes_the_piece_is_rejected() -> None:
    cap = _cap(lambda piece, inp: Preview(piece.model_copy(update={"name": "Changed"})), effect="read")
    with pytest.raises(BunzaiError) as caught:
        run_capability(cap, _piece(), {}, baseline="a" * 64)
    assert caught.value.code == "forbidden_change" and "read capability" in caught.value.message


def test_a_read_capability_returns_its_result_and_no_draft() -> None:
    cap = _cap(lambda piece, inp: Preview(piece, result={"name": piece.name}), effect="read")
    doc = run_capability(cap, _piece(), {}, baseline="a" * 64)
    assert doc["type"] == "bunzai.result" and doc["result"] == {"name": "Ada"}


def test_a_proposed_piece_the_model_refuses_is_refused() -> None:
    cap = find_capability("character.variants.manage")
    piece = dict(_piece(), body={"variants": [{"id": "winter"}]})
    with pytest.raises(BunzaiError) as caught:
        run_capability(cap, piece, {"action": "inherit", "id": "winter", "inherit": ["tags"]}, baseline="a" * 64)
    assert caught.value.code == "invalid_input"


def test_a_capability_runs_only_on_its_kind() -> None:
    cap = find_capability("lorebook.entries.remove")
    with pytest.raises(BunzaiError) as caught:
        run_capability(cap, _piece(), {"uids": [1]}, baseline="a" * 64)
    assert caught.value.code == "invalid_input" and "lorebook" in caught.value.message


def test_update_drafts_carry_the_baseline_and_exact_changes() -> None:
    cap = find_capability("character.identity.update")
    draft = run_capability(cap, _piece(), {"nickname": "Countess"}, baseline="b" * 64)
    assert draft["mode"] == "update" and draft["baseline"] == "b" * 64
    assert draft["changes"] == [{"op": "replace", "path": "/body/nickname", "before": "", "after": "Countess"}]
    operation = draft["operations"][0]
    assert {k: operation[k] for k in ("op", "input", "warnings")} == {
        "op": "character.identity.update",
        "input": {"nickname": "Countess"},
        "warnings": [],
    }
    assert operation["impact"] == draft["impact"]


def test_impact_is_computed_by_crossing_the_proposed_piece() -> None:
    from bunzai.convert import impact_formats

    nickname = run_capability(
        find_capability("character.identity.update"), _piece(), {"nickname": "Countess"}, baseline="b" * 64
    )
    lost = {row["platform"] for row in nickname["impact"] if row["pointer"] == "/body/nickname"}
    assert lost == {"ccv2.json", "sillytavern.card.json", "agnai.tavern.json", "marinara.character"}  # V2; V3 keeps it
    variant = run_capability(
        find_capability("character.variants.manage"),
        _piece(),
        {"action": "add", "id": "winter", "name": "Winter"},
        baseline="b" * 64,
    )
    assert {row["platform"] for row in variant["impact"]} == set(impact_formats("character"))
    same = run_capability(find_capability("character.identity.update"), _piece(), {"nickname": ""}, baseline="b" * 64)
    assert same["impact"] == []


def test_create_capabilities_make_create_drafts() -> None:
    def make(entity, inp):
        from bunzai.model.character import Character

        return Preview(Character(id="new-one", name="New"))

    cap = replace(_cap(make), mode="create", domain="studio")
    draft = run_capability(cap, None, {}, piece_id="chosen")
    assert draft["mode"] == "create" and draft["baseline"] is None and draft["target"]["id"] == "chosen"
