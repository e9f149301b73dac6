"""persona.injection.update binds only a lorebook the studio holds: an unknown id is refused
with not_found and the ids spelled alike, as other capabilities that name stored pieces do."""

from __future__ import annotations

import json


def _create(bunzai, cap_id: str, payload: dict) -> None:
    draft = bunzai("cap", "run", cap_id, "--input", json.dumps(payload), check=True)
    assert bunzai("apply", "--yes", input=draft.stdout, check=True).json["status"] == "applied"


def _bind(bunzai, lorebook):
    return bunzai(
        "cap", "run", "persona.injection.update", "persona/mira", "--input", json.dumps({"lorebook": lorebook})
    )


def test_an_unknown_lorebook_is_refused_with_the_ids_spelled_alike(bunzai) -> None:
    _create(bunzai, "studio.persona.create", {"name": "Mira", "description": "I map coasts."})
    _create(bunzai, "studio.lorebook.create", {"name": "Eldoria"})
    refused = _bind(bunzai, "eldorai")
    assert refused.code == 1
    error = refused.json["error"]
    assert error["code"] == "not_found" and "eldorai" in error["message"]
    assert "lorebook/eldoria" in error["hint"]


def test_a_stored_lorebook_binds_by_its_id_and_null_unbinds(bunzai) -> None:
    _create(bunzai, "studio.persona.create", {"name": "Mira", "description": "I map coasts."})
    _create(bunzai, "studio.lorebook.create", {"name": "Eldoria"})
    for given in ("eldoria", "lorebook/eldoria"):
        draft = _bind(bunzai, given)
        assert draft.code == 0, draft.stdout
        assert draft.json["proposed"]["body"]["lorebook"] == "eldoria"
        assert "lorebook_piece" not in json.dumps(draft.json["operations"])
    assert bunzai("apply", "--yes", input=draft.stdout, check=True).json["status"] == "applied"
    unbound = _bind(bunzai, None)
    assert unbound.code == 0 and unbound.json["proposed"]["body"]["lorebook"] is None
