"""Every capability that renames a piece (or a preset group) refuses a blank name the same way:
invalid_input naming the field, with a hint. A preset block's name stays free to be blank
(SillyTavern saves a new prompt named "", RisuAI prompt items need no name)."""

from __future__ import annotations

import pytest

from bunzai.capabilities.discovery import find_capability
from bunzai.capabilities.runner import run_capability
from bunzai.changes.create import create_draft
from bunzai.errors import BunzaiError

# capability id -> (kind, extra create fields, input besides the name, where the new name lands)
CASES = {
    "character.identity.update": ("character", {}, {}, ("name",)),
    "pack.settings.update": ("pack", {}, {}, ("name",)),
    "persona.identity.update": ("persona", {}, {}, ("name",)),
    "promptbook.settings.update": ("promptbook", {}, {}, ("name",)),
    "quickreply.settings.update": ("quickreply", {}, {}, ("name",)),
    "regex.settings.update": ("regex", {}, {}, ("name",)),
    "htmldoc.document.update": ("htmldoc", {}, {}, ("name",)),
    "preset.groups.update": (
        "preset",
        {"groups": [{"id": "g", "name": "Group"}]},
        {"id": "g"},
        ("body", "groups", 0, "name"),
    ),
}


def _run(cap_id: str, name: str) -> dict:
    kind, extra, given, _ = CASES[cap_id]
    piece = create_draft(kind, {"name": "Original", **extra})["proposed"]
    return run_capability(find_capability(cap_id), piece, {**given, "name": name}, baseline="r0")


@pytest.mark.parametrize("blank", ["", "  "])
@pytest.mark.parametrize("cap_id", sorted(CASES))
def test_a_blank_name_is_refused_naming_the_field(cap_id: str, blank: str) -> None:
    with pytest.raises(BunzaiError) as caught:
        _run(cap_id, blank)
    error = caught.value
    assert error.code == "invalid_input" and "'name'" in error.message and error.hint


@pytest.mark.parametrize("cap_id", sorted(CASES))
def test_a_real_name_is_taken(cap_id: str) -> None:
    landed = _run(cap_id, "Renamed Thing")["proposed"]
    for step in CASES[cap_id][3]:
        landed = landed[step]
    assert landed == "Renamed Thing"


@pytest.mark.parametrize("group", [{"name": ""}, {"name": "  "}, {"id": "nameless"}])
def test_a_new_preset_group_needs_a_name(group: dict) -> None:
    # Marinara refuses a nameless prompt group; a missing name would be stored as ""
    piece = create_draft("preset", {"name": "Story"})["proposed"]
    with pytest.raises(BunzaiError) as caught:
        run_capability(find_capability("preset.groups.add"), piece, {"groups": [group]}, baseline="r0")
    error = caught.value
    assert error.code == "invalid_input" and "'groups.0.name'" in error.message and error.hint


def test_a_stored_group_with_a_blank_name_still_reads_and_another_can_be_added() -> None:
    piece = create_draft("preset", {"name": "Story", "groups": [{"id": "old", "name": ""}]})["proposed"]
    draft = run_capability(find_capability("preset.groups.add"), piece, {"groups": [{"name": "Core"}]}, baseline="r0")
    assert [(g["id"], g["name"]) for g in draft["proposed"]["body"]["groups"]] == [("old", ""), ("core", "Core")]


def test_a_preset_block_may_still_be_named_blank() -> None:
    piece = create_draft("preset", {"name": "Story", "prompts": [{"identifier": "main", "name": "Main"}]})["proposed"]
    draft = run_capability(
        find_capability("preset.blocks.update"), piece, {"identifier": "main", "name": ""}, baseline="r0"
    )
    assert draft["proposed"]["body"]["prompts"][0]["name"] == ""
