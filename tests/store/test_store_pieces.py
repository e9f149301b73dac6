"""Pieces: create-only, compare-and-swap update, delete, listing, references, and the
round trip of any JSON piece through the store."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.model import KIND_NAMES
from bunzai.model.ids import is_safe_id
from bunzai.store import pieces
from bunzai.store.canon import canonical_bytes, revision_of
from bunzai.store.changelog import read_changes
from bunzai.store.pieces import (
    create_piece,
    delete_piece,
    list_stored,
    read_stored,
    resolve_ref,
    try_read,
    update_piece,
)
from bunzai.store.studio import Studio, init_studio


def piece(piece_id: str = "ada", kind: str = "character", **fields: object) -> dict:
    return {"kind": kind, "id": piece_id, "name": piece_id.title(), **fields}


def test_create_writes_canonical_bytes_and_logs_the_change(studio: Studio) -> None:
    result = create_piece(studio, piece(body={"b": 1, "a": 2}))
    path = studio.root / "character" / "ada.json"
    assert result.path == path and result.seq == 1
    assert path.read_bytes() == canonical_bytes(piece(body={"b": 1, "a": 2}))
    assert result.revision == revision_of(path.read_bytes())
    [change] = read_changes(studio)
    assert (change["op"], change["kind"], change["id"], change["revision"]) == (
        "create",
        "character",
        "ada",
        result.revision,
    )


def test_create_on_an_occupied_id_leaves_the_existing_bytes_identical(studio: Studio, snapshot) -> None:
    create_piece(studio, piece())
    path = studio.piece_path("character", "ada")
    path.write_bytes(b'{"kind": "character", "id": "ada", "name": "hand edited"}')  # not canonical
    before = snapshot(studio.root)
    with pytest.raises(BunzaiError) as caught:
        create_piece(studio, piece(name="Other"))
    assert caught.value.code == "occupied"
    assert snapshot(studio.root) == before  # same bytes, no sibling id, no log record


def test_update_replaces_when_the_revision_matches(studio: Studio) -> None:
    create_piece(studio, piece())
    stored = read_stored(studio, "character", "ada")
    result = update_piece(studio, {**stored.data, "name": "Ada L."}, stored.revision)
    again = read_stored(studio, "character", "ada")
    assert again.data["name"] == "Ada L." and again.revision == result.revision
    assert [c["op"] for c in read_changes(studio)] == ["create", "update"]
    assert result.seq == 2


def test_update_is_stale_after_a_hand_edit_and_writes_nothing(studio: Studio, snapshot) -> None:
    create_piece(studio, piece())
    stored = read_stored(studio, "character", "ada")
    hand = stored.raw.replace(b'"Ada"', b'"Ada (by hand)"')
    stored.path.write_bytes(hand)
    before = snapshot(studio.root)
    with pytest.raises(BunzaiError) as caught:
        update_piece(studio, {**stored.data, "name": "Mine"}, stored.revision)
    assert caught.value.code == "stale"
    assert caught.value.details == {"current": revision_of(hand)}
    assert snapshot(studio.root) == before
    update_piece(studio, {**stored.data, "name": "Mine"}, revision_of(hand))


def test_update_of_a_missing_piece_is_stale_with_no_current_revision(studio: Studio, snapshot) -> None:
    before = snapshot(studio.root)
    with pytest.raises(BunzaiError) as caught:
        update_piece(studio, piece(), "0" * 64)
    assert caught.value.code == "stale" and caught.value.details == {"current": None}
    assert snapshot(studio.root) == before


def test_delete_checks_the_revision_and_removes_the_file(studio: Studio) -> None:
    created = create_piece(studio, piece())
    with pytest.raises(BunzaiError) as caught:
        delete_piece(studio, "character", "ada", "f" * 64)
    assert caught.value.code == "stale" and created.path.exists()
    result = delete_piece(studio, "character", "ada", created.revision)
    assert not created.path.exists() and result.revision == created.revision
    assert read_changes(studio)[-1]["op"] == "delete"
    for expected, code in ((created.revision, "stale"), (None, "not_found")):
        with pytest.raises(BunzaiError) as caught:
            delete_piece(studio, "character", "ada", expected)
        assert caught.value.code == code


def test_a_damaged_file_reads_as_invalid_piece_but_can_be_deleted(studio: Studio) -> None:
    path = studio.piece_path("character", "ada")
    path.write_bytes(b'{"kind": "character", "id": "ada", ')
    with pytest.raises(BunzaiError) as caught:
        read_stored(studio, "character", "ada")
    assert caught.value.code == "invalid_piece"
    path.write_bytes(b'{"kind": "character", "id": "bob"}')
    with pytest.raises(BunzaiError) as caught:
        read_stored(studio, "character", "ada")
    assert caught.value.code == "invalid_piece"
    delete_piece(studio, "character", "ada")
    assert try_read(studio, "character", "ada") is None


def test_read_of_a_missing_piece_is_not_found(studio: Studio) -> None:
    with pytest.raises(BunzaiError) as caught:
        read_stored(studio, "lorebook", "nope")
    assert caught.value.code == "not_found"


def test_failed_change_log_append_undoes_the_write(studio: Studio, snapshot, monkeypatch) -> None:
    create_piece(studio, piece())
    stored = read_stored(studio, "character", "ada")
    before = snapshot(studio.root)

    def broken(*args: object, **kwargs: object) -> int:
        raise BunzaiError("lock_timeout", "change log busy")

    monkeypatch.setattr(pieces, "append_change", broken)
    attempts = (
        lambda: create_piece(studio, piece("bob")),
        lambda: update_piece(studio, {**stored.data, "name": "X"}, stored.revision),
        lambda: delete_piece(studio, "character", "ada", stored.revision),
    )
    for attempt in attempts:
        with pytest.raises(BunzaiError):
            attempt()
        assert snapshot(studio.root) == before


def test_writes_refuse_documents_bunzai_could_not_read_back(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "WRAPPED_JSON_MAX_DEPTH", 5)
    with pytest.raises(BunzaiError) as caught:
        create_piece(studio, piece(body=[[[[[[1]]]]]]))
    assert caught.value.code == "too_deep"
    assert not studio.piece_path("character", "ada").exists()


def test_list_is_sorted_and_skips_temp_hidden_foreign_and_unsafe_files(studio: Studio) -> None:
    for kind, piece_id in (("persona", "zed"), ("character", "bob"), ("character", "ada")):
        create_piece(studio, piece(piece_id, kind))
    folder = studio.root / "character"
    for name in (".ada.json.0123abcd.tmp", ".hidden.json", "notes.txt", "Upper.json", "con.json", "x.json.bak"):
        (folder / name).write_bytes(b"{}")
    (folder / "sub.json").mkdir()
    assert list_stored(studio) == [("character", "ada"), ("character", "bob"), ("persona", "zed")]
    assert list_stored(studio, "persona") == [("persona", "zed")]


def test_list_is_bounded_by_the_walk_limit(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "WALK_MAX_ENTRIES", 2)
    for piece_id in ("a", "b", "c"):
        create_piece(studio, piece(piece_id))
    with pytest.raises(BunzaiError) as caught:
        list_stored(studio)
    assert caught.value.code == "too_large"


def test_resolve_ref_by_kind_and_id_or_unique_bare_id(studio: Studio) -> None:
    create_piece(studio, piece("ada"))
    create_piece(studio, piece("sera", "character"))
    create_piece(studio, piece("sera", "lorebook"))
    assert resolve_ref(studio, "ada") == ("character", "ada")
    assert resolve_ref(studio, "lorebook/sera") == ("lorebook", "sera")
    with pytest.raises(BunzaiError) as caught:
        resolve_ref(studio, "sera")
    assert caught.value.code == "ambiguous_ref"
    assert caught.value.details["matches"] == ["character/sera", "lorebook/sera"]
    assert "character/sera" in caught.value.message
    for missing in ("nobody", "persona/ada"):
        with pytest.raises(BunzaiError) as caught:
            resolve_ref(studio, missing)
        assert caught.value.code == "not_found"


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
json_pieces = st.builds(
    lambda kind, piece_id, extra: {**extra, "kind": kind, "id": piece_id},
    st.sampled_from(KIND_NAMES),
    st.from_regex(r"[a-z0-9][a-z0-9._-]{0,30}", fullmatch=True).filter(is_safe_id),
    st.dictionaries(st.text(max_size=8), json_values, max_size=5),
)


@settings(max_examples=60, deadline=None)
@given(json_pieces)
def test_any_json_piece_round_trips_through_create_and_read_byte_identically(data: dict) -> None:
    with tempfile.TemporaryDirectory() as folder:
        studio, _ = init_studio(Path(folder))
        result = create_piece(studio, data)
        stored = read_stored(studio, data["kind"], data["id"])
        assert stored.raw == canonical_bytes(data) == result.path.read_bytes()
        assert stored.data == data
        assert stored.revision == result.revision
        assert canonical_bytes(stored.data) == stored.raw
        assert list_stored(studio) == [(data["kind"], data["id"])]


def test_a_piece_file_that_is_a_symlink_is_refused(tmp_path):
    import os

    from bunzai.errors import BunzaiError
    from bunzai.store.pieces import read_stored
    from bunzai.store.studio import init_studio

    studio, _ = init_studio(tmp_path / "studio")
    outside = tmp_path / "outside.json"
    outside.write_text('{"kind": "character", "id": "ada", "name": "Ada"}')
    os.symlink(outside, studio.piece_path("character", "ada"))
    try:
        read_stored(studio, "character", "ada")
    except BunzaiError as error:
        assert error.code == "invalid_piece"
    else:
        raise AssertionError("a symlinked piece file was read")


def test_a_revision_is_the_same_sha256_whichever_module_hashes_it() -> None:
    import hashlib

    from bunzai.store import canon

    for raw in (b"", b"{}\n", bytes(range(256)) * 256, b"x" * (canon._SMALL_FILE + 1)):  # both sides of the cut
        assert canon.revision_of(raw) == hashlib.sha256(raw).hexdigest()
