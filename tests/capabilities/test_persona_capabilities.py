"""Persona capabilities: identity text, structured profile, injection, presentation.

No persona is in the corpus: one is built here.
"""

from __future__ import annotations

import pytest

from bundle_support import edited, preview, refusal

SHA = "a" * 64


@pytest.fixture
def persona() -> dict:
    return {
        "kind": "persona",
        "id": "mira",
        "name": "Mira",
        "body": {"description": "I am Mira, a cartographer.", "profile": {"age": "34", "pronouns": "she/her"}},
    }


def _full(piece: dict) -> dict:
    from bunzai.model import dump_piece
    from bunzai.validate import validate_piece

    return dump_piece(validate_piece(piece))


def test_identity_update_renames_and_rewrites(persona) -> None:
    result = preview("persona.identity.update", persona, {"name": "Mira Vale", "brief": "A wandering mapmaker."})
    assert result.after == edited(
        _full(persona), lambda p: (p.update(name="Mira Vale"), p["body"].update(brief="A wandering mapmaker."))
    )
    assert result.changes == [
        {"op": "replace", "path": "/body/brief", "before": "", "after": "A wandering mapmaker."},
        {"op": "replace", "path": "/name", "before": "Mira", "after": "Mira Vale"},
    ]
    assert result.warnings == []


def test_identity_update_with_nothing_given_warns(persona) -> None:
    result = preview("persona.identity.update", persona, {})
    assert result.changes == [] and result.warnings == ["no identity field was given; nothing changes"]


def test_profile_update_sets_and_removes_labels(persona) -> None:
    result = preview("persona.profile.update", persona, {"labels": {"home": "Port Ash", "age": None}})
    assert result.after["body"]["profile"] == {"home": "Port Ash", "pronouns": "she/her"}
    assert result.changes == [
        {"op": "remove", "path": "/body/profile/age", "before": "34"},
        {"op": "add", "path": "/body/profile/home", "after": "Port Ash"},
    ]
    assert result.warnings == []


def test_profile_update_refuses_an_empty_label_and_warns_on_a_missing_one(persona) -> None:
    assert refusal("persona.profile.update", persona, {"labels": {" ": "x"}}).code == "invalid_input"
    result = preview("persona.profile.update", persona, {"labels": {"height": None}})
    assert result.changes == [] and result.warnings == ["profile label 'height' was not set; nothing to remove"]


def test_injection_update_moves_the_description_to_a_depth(persona) -> None:
    result = preview("persona.injection.update", persona, {"position": "at_depth", "depth": 1, "role": "user"})
    assert result.changes == [
        {"op": "replace", "path": "/body/depth", "before": 2, "after": 1},
        {"op": "replace", "path": "/body/position", "before": "in_prompt", "after": "at_depth"},
        {"op": "replace", "path": "/body/role", "before": "system", "after": "user"},
    ]
    assert result.warnings == []


def test_injection_update_warns_when_depth_does_not_apply(persona) -> None:
    result = preview("persona.injection.update", persona, {"depth": 6, "lorebook": "eldoria"})
    assert result.changes == [
        {"op": "replace", "path": "/body/depth", "before": 2, "after": 6},
        {"op": "replace", "path": "/body/lorebook", "before": None, "after": "eldoria"},
    ]
    assert result.warnings == ["depth and role only apply at position at_depth; the position is in_prompt"]


def test_presentation_update_sets_portrait_and_merges_palette(persona) -> None:
    start = edited(persona, lambda p: p["body"].update(presentation={"palette": {"name": "#111111", "box": "#222222"}}))
    result = preview(
        "persona.presentation.update",
        start,
        {
            "portrait": {"sha256": SHA, "ext": "png", "mime": "image/png"},
            "presentation": {"palette": {"box": None, "dialogue": "#eeeeee"}},
        },
    )
    assert result.after["body"]["presentation"]["palette"] == {"name": "#111111", "dialogue": "#eeeeee"}
    assert result.after["body"]["portrait"] == {"sha256": SHA, "ext": "png", "mime": "image/png"}
    assert {c["path"] for c in result.changes} == {
        "/body/portrait",
        "/body/presentation/palette/box",
        "/body/presentation/palette/dialogue",
    }
    assert result.warnings == []
