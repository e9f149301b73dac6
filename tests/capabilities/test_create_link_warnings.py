"""`bunzai create` in a studio warns of links to pieces the studio does not hold, as
`cap run studio.<kind>.create` does; with no studio chosen it drafts without looking.
One existence test (`is_stored`) serves this warning, duplicate's and the runner's."""

from __future__ import annotations

import json
import os

from hypothesis import given, settings, strategies as st

from bunzai.capabilities.creation import create_piece_draft
from bunzai.capabilities.studio_run import StudioLoader
from bunzai.changes.create import create_draft, duplicate_draft
from bunzai.store.pieces import create_piece, is_stored, read_stored
from bunzai.store.studio import init_studio

ADA = {"name": "Ada", "links": {"lorebooks": ["eldoira"]}}


def _dangling(draft: dict) -> list[str]:
    return [w for w in draft["warnings"] if "which the studio does not hold" in w]


def _apply(bunzai, kind: str, payload: dict) -> None:
    made = bunzai("create", kind, "--input", json.dumps(payload), check=True)
    bunzai("apply", "--yes", input=made.stdout, check=True)


def test_create_warns_of_a_misspelt_link_with_the_ids_spelled_alike(bunzai) -> None:
    _apply(bunzai, "lorebook", {"name": "Eldoria"})
    draft = bunzai("create", "character", "--input", json.dumps(ADA), check=True).json
    (warning,) = _dangling(draft)
    assert "lorebook/eldoira" in warning and "did you mean lorebook/eldoria?" in warning
    assert warning in draft["operations"][0]["warnings"]
    applied = bunzai("apply", "--yes", input=json.dumps(draft), check=True).json
    assert applied["status"] == "applied"  # a warning, not a refusal


def test_the_nested_body_form_warns_too(bunzai) -> None:
    nested = {"name": "Ada", "body": {"links": {"lorebooks": ["eldoira"]}}}
    draft = bunzai("create", "character", "--input", json.dumps(nested), check=True).json
    (warning,) = _dangling(draft)
    assert "lorebook/eldoira" in warning and draft["operations"][0]["warnings"] == [warning]


def test_create_says_nothing_of_a_link_the_studio_holds(bunzai) -> None:
    _apply(bunzai, "lorebook", {"name": "Eldoria"})
    linked = {"name": "Ada", "links": {"lorebooks": ["eldoria"]}}
    assert _dangling(bunzai("create", "character", "--input", json.dumps(linked), check=True).json) == []


def test_create_without_a_studio_drafts_without_the_warning(bare_bunzai) -> None:
    made = bare_bunzai("create", "character", "--input", json.dumps(ADA), check=True)
    assert made.json["proposed"]["body"]["links"]["lorebooks"] == ["eldoira"]
    assert _dangling(made.json) == []
    assert not (bare_bunzai.home / ".bunzai").exists()  # drafting creates no default studio


def test_a_studio_named_and_absent_is_refused(bare_bunzai) -> None:
    made = bare_bunzai("--studio", "nowhere", "create", "character", "--input", json.dumps(ADA))
    assert made.code == 1 and made.json["error"]["code"] == "studio_missing"


def test_is_stored_counts_only_regular_files(tmp_path) -> None:
    studio, _ = init_studio(tmp_path / "s")
    create_piece(studio, create_draft("lorebook", {"name": "Eldoria"})["proposed"])
    assert is_stored(studio, "lorebook", "eldoria")
    assert not is_stored(studio, "lorebook", "atlantis")
    os.symlink(studio.piece_file("lorebook", "eldoria"), studio.piece_file("lorebook", "alias"))
    assert not is_stored(studio, "lorebook", "alias")  # a linked file is no piece
    assert StudioLoader(studio).missing("lorebook", "alias") is not None


@settings(max_examples=25, deadline=None)
@given(stored=st.sets(st.sampled_from("abcd")), linked=st.lists(st.sampled_from("abcd"), unique=True))
def test_create_duplicate_and_the_loader_agree_on_what_is_missing(tmp_path_factory, stored, linked) -> None:
    studio, _ = init_studio(tmp_path_factory.mktemp("s") / "s")
    for letter in stored:
        create_piece(studio, create_draft("lorebook", {"name": f"Book {letter}"})["proposed"])
    ids = [f"book-{letter}" for letter in linked]
    expected = {f"book-{letter}" for letter in set(linked) - stored}
    draft = create_piece_draft("character", {"name": "Ada", "links": {"lorebooks": ids}}, studio=studio)
    assert {w.split("lorebook/")[1].split(",")[0] for w in _dangling(draft)} == expected
    assert {i for i in ids if not is_stored(studio, "lorebook", i)} == expected
    assert {i for i in ids if StudioLoader(studio).missing("lorebook", i) is not None} == expected
    create_piece(studio, draft["proposed"])
    copied = duplicate_draft(read_stored(studio, "character", "ada"), "ada-2", studio=studio)
    assert {w.split("lorebook/")[1].split(",")[0] for w in copied["warnings"]} == expected
    assert _dangling(create_piece_draft("character", {"name": "Ada", "links": {"lorebooks": ids}})) == []
