"""A draft that adds a link to a piece the studio does not hold warns of it by name, with the
stored ids spelled alike, and still applies: the runner compares the proposed piece's links
with the piece it started from, so a link already there is not warned of again."""

from __future__ import annotations

import json
import tempfile

from hypothesis import given, settings, strategies as st

from bunzai.capabilities.discovery import all_capabilities
from bunzai.capabilities.studio_run import compose_on_studio, run_on_studio
from bunzai.changes.create import create_draft
from bunzai.store.pieces import create_piece, read_stored
from bunzai.store.studio import init_studio


def _cap(cap_id: str):
    return next(cap for cap in all_capabilities() if cap.id == cap_id)


def _studio(path, *, lorebooks=(), character_links=None):
    studio, _ = init_studio(path)
    for book in lorebooks:
        create_piece(studio, create_draft("lorebook", {"name": book, "id": book})["proposed"])
    body = {"first_message": "Hello."}
    if character_links is not None:
        body["links"] = {"lorebooks": list(character_links)}
    create_piece(studio, create_draft("character", {"name": "Ada", "id": "ada", **body})["proposed"])
    return studio


def _dangling(draft: dict) -> list[str]:
    return [w for w in draft["warnings"] if "which the studio does not hold" in w]


def test_a_missing_lorebook_is_warned_of_with_the_ids_spelled_alike(tmp_path) -> None:
    studio = _studio(tmp_path / "s", lorebooks=["eldoria"])
    draft = run_on_studio(studio, _cap("character.links.update"), "ada", {"lorebooks": {"add": ["eldoira", "eldoria"]}})
    assert draft["proposed"]["body"]["links"]["lorebooks"] == ["eldoira", "eldoria"]  # not a refusal
    (warning,) = _dangling(draft)
    assert "lorebook/eldoira" in warning and "did you mean lorebook/eldoria?" in warning
    assert draft["operations"][0]["warnings"] == draft["warnings"]


def test_a_missing_world_and_a_missing_pack_are_warned_of(tmp_path) -> None:
    studio = _studio(tmp_path / "s")
    world = run_on_studio(studio, _cap("character.links.update"), "ada", {"world": "atlantis"})
    assert [w.split(",")[0] for w in _dangling(world)] == ["the draft links lorebook/atlantis"]
    pack = run_on_studio(studio, _cap("character.media.update"), "ada", {"pack": "sprites"})
    (warning,) = _dangling(pack)
    assert "pack/sprites" in warning and "did you mean" not in warning  # no pack is spelled alike


def test_a_variant_override_link_is_warned_of(tmp_path) -> None:
    studio = _studio(tmp_path / "s")
    added = {"action": "add", "id": "winter", "overrides": {"links": {"regex": ["frost"]}}}
    made = run_on_studio(studio, _cap("character.variants.manage"), "ada", added)
    (warning,) = _dangling(made)
    assert "regex/frost" in warning
    edited = compose_on_studio(
        studio, _cap("character.links.update"), made, None, {"variant": "winter", "regex": {"add": ["thaw"]}}
    )
    assert [w.split(",")[0] for w in _dangling(edited)] == [
        "the draft links regex/frost",
        "the draft links regex/thaw",
    ]


def test_a_link_that_was_already_there_is_not_warned_of_again(tmp_path) -> None:
    studio = _studio(tmp_path / "s", character_links=["ghost"])
    draft = run_on_studio(studio, _cap("character.links.update"), "ada", {"regex": {"add": ["mist"]}})
    assert [w for w in _dangling(draft) if "ghost" in w] == []
    assert len(_dangling(draft)) == 1 and "regex/mist" in _dangling(draft)[0]


def test_a_composed_step_does_not_repeat_an_earlier_steps_warning(tmp_path) -> None:
    studio = _studio(tmp_path / "s")
    first = run_on_studio(studio, _cap("character.links.update"), "ada", {"lorebooks": {"add": ["ghost"]}})
    second = compose_on_studio(studio, _cap("character.media.update"), first, None, {"pack": "sprites"})
    dangling = _dangling(second)
    assert len(dangling) == 2 and "lorebook/ghost" in dangling[0] and "pack/sprites" in dangling[1]


@settings(max_examples=30, deadline=None)
@given(
    stored=st.sets(st.sampled_from("abcdef")),
    before=st.sets(st.sampled_from("abcdef")),
    added=st.lists(st.sampled_from("abcdef"), unique=True),
)
def test_exactly_the_new_links_to_absent_pieces_are_warned_of(stored, before, added) -> None:
    with tempfile.TemporaryDirectory() as folder:
        ids = {letter: f"book-{letter}" for letter in "abcdef"}
        studio = _studio(
            f"{folder}/s", lorebooks=[ids[x] for x in stored], character_links=[ids[x] for x in sorted(before)]
        )
        draft = run_on_studio(
            studio, _cap("character.links.update"), "ada", {"lorebooks": {"add": [ids[x] for x in added]}}
        )
    warned = {w.split("lorebook/")[1].split(",")[0] for w in _dangling(draft)}
    assert warned == {ids[x] for x in set(added) - before - stored}


def test_the_draft_applies_and_the_cli_prints_the_warning(bunzai) -> None:
    made = bunzai("create", "lorebook", "--input", json.dumps({"name": "Eldoria"}), check=True)
    bunzai("apply", "--yes", input=made.stdout, check=True)
    made = bunzai("create", "character", "--input", json.dumps({"name": "Ada"}), check=True)
    bunzai("apply", "--yes", input=made.stdout, check=True)
    draft = bunzai(
        "cap", "run", "character.links.update", "ada", "--input", json.dumps({"world": "eldoira"}), check=True
    )
    (warning,) = _dangling(draft.json)
    assert "lorebook/eldoira" in warning and "lorebook/eldoria" in warning
    assert bunzai("apply", "--yes", input=draft.stdout, check=True).json["status"] == "applied"
    stored = bunzai("read", "character/ada", "--pointer", "/body/links/lorebooks", check=True).json
    assert stored["value"] == ["eldoira"]


def test_an_agents_draft_carries_the_same_warning(bunzai) -> None:
    from bunzai.mcp.dispatch import Dispatcher
    from bunzai.mcp.handles import Handles
    from bunzai.store.studio import Studio
    from bunzai.tools.contract import Context

    studio = _studio(bunzai.studio, lorebooks=["eldoria"])
    dispatcher = Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))
    [name] = dispatcher.reveal([_cap("character.links.update")])  # as capability_find does
    result = dispatcher.call(name, {"ref": "ada", "input": {"world": "eldoira"}}, "2025-06-18")
    assert not result["isError"], result
    text = json.dumps(result["structuredContent"]["warnings"])
    assert "lorebook/eldoira" in text and "did you mean lorebook/eldoria?" in text
    assert read_stored(studio, "character", "ada").data["body"]["links"]["lorebooks"] == []


def test_a_buried_piece_is_named_by_its_graveyard_entry(bunzai) -> None:
    made = bunzai("create", "character", "--input", json.dumps({"name": "Ada"}), check=True)
    bunzai("apply", "--yes", input=made.stdout, check=True)
    made = bunzai("create", "lorebook", "--input", json.dumps({"name": "Eldoria"}), check=True)
    bunzai("apply", "--yes", input=made.stdout, check=True)
    bunzai("bury", "lorebook/eldoria", check=True)
    draft = bunzai("cap", "run", "character.links.update", "ada", "--input", json.dumps({"world": "eldoria"}))
    (warning,) = _dangling(draft.json)
    assert "it is in the graveyard as lorebook/eldoria@" in warning


def test_a_promptbook_phases_missing_preset_and_card_are_warned_of(tmp_path) -> None:
    studio = _studio(tmp_path / "s")
    made = run_on_studio(studio, _cap("studio.promptbook.create"), None, {"name": "Duet"}, piece_id="duet")
    phase = {"id": "open", "preset": "chat-preset", "cards": ["ada", "bo"]}
    draft = compose_on_studio(studio, _cap("promptbook.phases.add"), made, None, {"phases": [phase]})
    assert [w.split(",")[0] for w in _dangling(draft)] == [
        "the draft links preset/chat-preset",
        "the draft links character/bo",
    ]
