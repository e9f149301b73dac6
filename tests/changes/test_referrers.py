"""delete and bury name the pieces still linking to what they removed; duplicate warns of a dangling link."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from bunzai import limits
from bunzai.changes import lifecycle
from bunzai.changes.apply import apply_draft
from bunzai.changes.create import create_draft, duplicate_draft
from bunzai.changes.lifecycle import bury_ref, delete_ref, referrers
from bunzai.changes.revert import studio_revert
from bunzai.model import KIND_NAMES
from bunzai.query import index
from bunzai.query.index import list_pieces
from bunzai.store.canon import canonical_bytes
from bunzai.store.changelog import annotated
from bunzai.store.pieces import read_stored
from bunzai.store.studio import Studio, init_studio


@pytest.fixture(params=["files", "index"])
def studio(tmp_path: Path, request) -> Studio:
    """A studio whose referrers are read from the files, or (where an index is kept) from the index."""
    made, _ = init_studio(tmp_path / "studio")
    if request.param == "index":
        list_pieces(made, KIND_NAMES)  # a reader builds the index; delete and bury then read it
    return made


def make(studio: Studio, kind: str, payload: dict) -> str:
    done = apply_draft(studio, create_draft(kind, payload))
    assert done["status"] == "applied", done
    return done["target"]["id"]


def test_delete_names_every_piece_that_still_links_the_lorebook(studio: Studio) -> None:
    make(studio, "lorebook", {"name": "Eldoria"})
    make(studio, "lorebook", {"name": "Eldoria 2"})  # its id holds the other's: not a link to it
    make(studio, "character", {"name": "Zed", "links": {"lorebooks": ["eldoria-2", "eldoria"]}})
    make(studio, "character", {"name": "Amy", "links": {"lorebooks": ["eldoria"]}})
    make(studio, "character", {"name": "Bob", "links": {"lorebooks": ["eldoria-2"]}, "description": '"eldoria"'})
    make(
        studio,
        "character",
        {"name": "Vee", "variants": [{"id": "w", "overrides": {"links": {"lorebooks": ["eldoria"]}}}]},
    )
    make(studio, "persona", {"name": "Me", "lorebook": "eldoria"})
    done = delete_ref(studio, "lorebook/eldoria", None)
    assert done["status"] == "applied" and done["references_checked"] is True
    expected = [
        {"kind": "character", "id": "amy"},
        {"kind": "character", "id": "vee"},
        {"kind": "character", "id": "zed"},
        {"kind": "persona", "id": "me"},
    ]
    assert done["referrers"] == expected and done["referrers_count"] == 4
    assert done["note"] == (
        "4 pieces still point at this lorebook: character/amy, character/vee, character/zed, persona/me"
    )


def test_bury_names_the_pieces_linking_a_quickreply_set_or_a_pack(studio: Studio) -> None:
    make(studio, "quickreply", {"name": "Moves"})
    make(studio, "pack", {"name": "Faces"})
    make(studio, "character", {"name": "Ada", "links": {"quickreplies": ["moves"]}, "media": {"pack": "faces"}})
    for ref in ("quickreply/moves", "pack/faces"):
        done = bury_ref(studio, ref, None)
        assert done["status"] == "applied"
        assert done["referrers"] == [{"kind": "character", "id": "ada"}], ref
        assert done["note"] == f"1 piece still points at this {ref.split('/')[0]}: character/ada"


def test_a_persona_delete_says_nothing_of_references(studio: Studio) -> None:
    # no piece names a persona: there is nothing to look for
    make(studio, "persona", {"name": "Ada"})
    done = delete_ref(studio, "persona/ada", None)
    assert done["status"] == "applied"
    assert not {"references_checked", "referrers", "note"} & set(done)


def test_past_the_limit_the_first_are_named_and_all_are_counted(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "REFERRERS_MAX", 3)
    make(studio, "regex", {"name": "Tidy"})
    for n in range(5):
        make(studio, "character", {"name": f"C {n}", "links": {"regex": ["tidy"]}})
    done = delete_ref(studio, "regex/tidy", None)
    assert done["referrers"] == [{"kind": "character", "id": f"c-{n}"} for n in range(3)]
    assert done["referrers_count"] == 5
    assert done["note"].endswith("character/c-0, character/c-1, character/c-2 and 2 more")


def test_a_link_spelled_with_escapes_by_hand_is_found(studio: Studio) -> None:
    make(studio, "lorebook", {"name": "Eldoria"})
    make(studio, "character", {"name": "Ada"})
    path = studio.root / "character" / "ada.json"
    text = path.read_text("utf-8")
    data = json.loads(text)
    data["body"]["links"]["lorebooks"] = ["eldoria"]
    # a hand edit that escapes a letter: the bytes never hold "eldoria" as written
    path.write_text(json.dumps(data).replace('"eldoria"', '"\\u0065ldoria"'), encoding="utf-8")
    assert b'"eldoria"' not in path.read_bytes()
    done = delete_ref(studio, "lorebook/eldoria", None)
    assert done["referrers"] == [{"kind": "character", "id": "ada"}]


def test_a_piece_that_cannot_be_read_is_named_as_not_checked(studio: Studio) -> None:
    make(studio, "lorebook", {"name": "Eldoria"})
    (studio.root / "character" / "broken.json").write_text(
        '{"kind": "character", "id": "broken", "body": {"links": {"lorebooks": ["eldoria"]', encoding="utf-8"
    )
    done = delete_ref(studio, "lorebook/eldoria", None)
    assert done["status"] == "applied"
    assert done["references_checked"] is False and done["referrers"] == []
    assert done["note"] == "1 piece that could not be read may point at it: character/broken"


def test_revert_buries_without_reading_the_linking_pieces(studio: Studio, monkeypatch) -> None:
    with annotated(session="agent"):
        make(studio, "lorebook", {"name": "Eldoria"})

    def refused(*args):
        raise AssertionError("a revert read the linking pieces for a burial")

    monkeypatch.setattr(lifecycle, "referrers", refused)
    doc = studio_revert(studio, "agent")
    assert doc["reverted"] == 1
    row = doc["changes"][0]
    assert row["receipt"]["references_checked"] is False


_IDS = st.sampled_from(["eld", "eldoria", "eldoria-2", "e", "oria", "x.y"])


@settings(max_examples=40)
@given(
    cards=st.lists(
        st.tuples(st.lists(_IDS, max_size=3), st.lists(_IDS, max_size=2), st.one_of(st.none(), _IDS)), max_size=6
    ),
    target=_IDS,
    indexed=st.booleans(),
)
def test_the_referrers_are_exactly_the_pieces_whose_links_name_it(cards, target, indexed) -> None:
    with tempfile.TemporaryDirectory() as folder:
        studio, _ = init_studio(Path(folder) / "studio")
        if indexed:
            list_pieces(studio, KIND_NAMES)  # built empty: the pieces below reach it as hand edits
        expected = []
        for n, (books, variant_books, persona_book) in enumerate(cards):
            body = {
                "links": {"lorebooks": books},
                "variants": [{"id": "v", "overrides": {"links": {"lorebooks": variant_books}}}],
            }
            doc = {"kind": "character", "id": f"c{n}", "name": "C", "body": body}
            (studio.root / "character" / f"c{n}.json").write_bytes(canonical_bytes(doc))
            if target in books + variant_books:
                expected.append({"kind": "character", "id": f"c{n}"})
            persona = {"kind": "persona", "id": f"p{n}", "name": "P", "body": {"lorebook": persona_book}}
            (studio.root / "persona" / f"p{n}.json").write_bytes(canonical_bytes(persona))
        expected += [{"kind": "persona", "id": f"p{n}"} for n, card in enumerate(cards) if card[2] == target]
        found, unread = referrers(studio, "lorebook", target)
        assert unread == []
        assert found == sorted(expected, key=lambda ref: (ref["kind"], ref["id"]))


# --- duplicate -------------------------------------------------------------------------------


def test_duplicate_keeps_a_dangling_link_and_warns_of_it(studio: Studio) -> None:
    make(studio, "lorebook", {"name": "Here"})
    make(studio, "lorebook", {"name": "Buried"})
    make(
        studio,
        "character",
        {"name": "Ada", "links": {"lorebooks": ["here", "buried", "gone"]}, "media": {"pack": "faces"}},
    )
    entry = bury_ref(studio, "lorebook/buried", None)["entry"]
    draft = duplicate_draft(read_stored(studio, "character", "ada"), "ada-2", studio=studio)
    assert draft["proposed"]["body"]["links"]["lorebooks"] == ["here", "buried", "gone"]
    assert draft["proposed"]["body"]["media"]["pack"] == "faces"
    warnings = draft["warnings"]
    assert len(warnings) == 3 and not any("lorebook/here" in w for w in warnings)
    assert warnings[0].startswith("the copy links lorebook/buried, which the studio does not hold")
    assert f"it is in the graveyard as {entry}" in warnings[0]
    assert warnings[1].startswith("the copy links lorebook/gone, ") and "graveyard" not in warnings[1]
    assert warnings[2].startswith("the copy links pack/faces, ")
    assert apply_draft(studio, draft)["status"] == "applied"


def test_duplicate_of_a_piece_whose_links_all_resolve_has_no_warning(studio: Studio) -> None:
    make(studio, "lorebook", {"name": "Here"})
    make(
        studio,
        "character",
        {
            "name": "Ada",
            "links": {"lorebooks": ["here"]},
            "variants": [{"id": "w", "overrides": {"links": {"lorebooks": ["here"]}}}],
        },
    )
    draft = duplicate_draft(read_stored(studio, "character", "ada"), "ada-2", studio=studio)
    assert draft["warnings"] == []


def test_duplicate_warns_of_a_variant_link_once(studio: Studio) -> None:
    overrides = {"links": {"lorebooks": ["gone"]}}
    make(
        studio,
        "character",
        {"name": "Ada", "links": {"lorebooks": ["gone"]}, "variants": [{"id": "w", "overrides": overrides}]},
    )
    draft = duplicate_draft(read_stored(studio, "character", "ada"), "ada-2", studio=studio)
    assert len(draft["warnings"]) == 1 and "lorebook/gone" in draft["warnings"][0]


def test_cli_duplicate_and_delete_say_so(bunzai) -> None:
    for kind, payload in (
        ("lorebook", '{"name": "Eldoria"}'),
        ("character", '{"name": "Ada", "links": {"lorebooks": ["eldoria"]}}'),
    ):
        bunzai("apply", "--yes", input=bunzai("create", kind, "--input", payload, check=True).stdout, check=True)
    done = bunzai("delete", "lorebook/eldoria", "--yes", check=True).json
    assert done["referrers"] == [{"kind": "character", "id": "ada"}] and done["referrers_count"] == 1
    draft = bunzai("duplicate", "ada", "ada-2", check=True).json
    assert draft["proposed"]["body"]["links"]["lorebooks"] == ["eldoria"]
    assert [w for w in draft["warnings"] if "lorebook/eldoria" in w]


def test_a_promptbook_phase_naming_the_piece_is_a_referrer(studio: Studio) -> None:
    # a phase runs a preset with cards in play and uses regex sets of the studio, by id
    make(studio, "regex", {"name": "Tidy"})
    make(studio, "preset", {"name": "House"})
    make(studio, "character", {"name": "Ada"})
    phase = {"id": "reply", "stage": "reply", "preset": "house", "cards": ["ada"], "uses": {"regex": ["tidy"]}}
    make(studio, "promptbook", {"name": "Turn", "phases": [phase]})
    make(studio, "promptbook", {"name": "Other", "description": '"tidy" "house" "ada"'})
    for ref in ("regex/tidy", "preset/house", "character/ada"):
        done = delete_ref(studio, ref, None)
        assert done["referrers"] == [{"kind": "promptbook", "id": "turn"}], ref
        assert done["references_checked"] is True


def test_a_folder_that_cannot_be_read_leaves_the_delete_standing_unchecked(studio: Studio, monkeypatch) -> None:
    # the delete has landed when referrers are looked for: an unreadable folder must not turn
    # its receipt into an internal error
    make(studio, "lorebook", {"name": "Eldoria"})

    def refuse(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(lifecycle, "list_stored", refuse)
    monkeypatch.setattr(index, "_scan", refuse)
    done = delete_ref(studio, "lorebook/eldoria", None)
    assert done["status"] == "applied" and done["references_checked"] is False
    assert "not checked" in done["note"]
    assert not studio.piece_path("lorebook", "eldoria").exists()


# --- the index or the files ------------------------------------------------------------------


def test_a_damaged_piece_that_cannot_name_the_id_is_not_counted_unread(studio: Studio) -> None:
    make(studio, "lorebook", {"name": "Eldoria"})
    (studio.root / "character" / "broken.json").write_text('{"kind": "character", "id": "broken", ', encoding="utf-8")
    done = delete_ref(studio, "lorebook/eldoria", None)
    assert done["references_checked"] is True and "note" not in done


def test_where_an_index_is_kept_the_referrers_are_read_from_it(tmp_path: Path, monkeypatch) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    make(studio, "lorebook", {"name": "Eldoria"})
    make(studio, "character", {"name": "Ada", "links": {"lorebooks": ["eldoria"]}})
    list_pieces(studio, KIND_NAMES)

    def refused(*args):
        raise AssertionError("the linking pieces were read one by one where the index knows them")

    monkeypatch.setattr(lifecycle, "_file_referrers", refused)
    make(studio, "persona", {"name": "Me", "lorebook": "eldoria"})  # written after the index was built
    done = delete_ref(studio, "lorebook/eldoria", None)
    assert done["referrers"] == [{"kind": "character", "id": "ada"}, {"kind": "persona", "id": "me"}]


def test_without_a_kept_index_a_delete_reads_the_files_and_builds_none(studio: Studio, monkeypatch) -> None:
    path = studio.root / ".bunzai" / index.INDEX_NAME
    path.unlink(missing_ok=True)
    make(studio, "lorebook", {"name": "Eldoria"})
    make(studio, "character", {"name": "Ada", "links": {"lorebooks": ["eldoria"]}})
    done = delete_ref(studio, "lorebook/eldoria", None)
    assert done["referrers"] == [{"kind": "character", "id": "ada"}]
    assert not path.exists()  # one question does not pay for building the studio's index


def test_an_index_that_fails_leaves_the_answer_to_the_files(studio: Studio, monkeypatch) -> None:
    make(studio, "lorebook", {"name": "Eldoria"})
    make(studio, "character", {"name": "Ada", "links": {"lorebooks": ["eldoria"]}})

    def locked(*args):
        raise index.sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(index, "linking_pieces", locked)
    done = delete_ref(studio, "lorebook/eldoria", None)
    assert done["referrers"] == [{"kind": "character", "id": "ada"}] and done["references_checked"] is True


def test_a_piece_too_large_to_read_is_named_as_not_checked(studio: Studio, monkeypatch) -> None:
    make(studio, "lorebook", {"name": "Eldoria"})
    make(studio, "character", {"name": "Ada", "links": {"lorebooks": ["eldoria"]}})
    (studio.root / "character" / "huge.json").write_text(
        json.dumps({"kind": "character", "id": "huge", "name": "H", "body": {"description": "x" * 4000}}), "utf-8"
    )
    monkeypatch.setattr(limits, "JSON_MAX_BYTES", 2000)  # huge cannot be read, by the index nor by the file pass
    done = delete_ref(studio, "lorebook/eldoria", None)
    assert done["referrers"] == [{"kind": "character", "id": "ada"}] and done["references_checked"] is False
    assert done["note"].endswith("1 piece that could not be read may point at it: character/huge")
