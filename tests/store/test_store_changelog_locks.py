"""The change log and per-path locks."""

from __future__ import annotations

import re

import pytest

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.store import changelog
from bunzai.store.changelog import append_change, read_changes
from bunzai.store.locks import lock_file_name, path_lock
from bunzai.store.pieces import create_piece, read_stored, update_piece
from bunzai.store.studio import Studio


def test_change_records_carry_seq_time_session_kind_id_revision_op(studio: Studio, monkeypatch) -> None:
    monkeypatch.setenv("BUNZAI_SESSION", "review-42")
    seq = append_change(studio, kind="character", id="ada", revision="r1", op="create")
    [record] = read_changes(studio)
    assert seq == 1
    assert set(record) == {"seq", "time", "session", "kind", "id", "revision", "op"}
    assert record["session"] == "review-42"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", record["time"])


def test_session_is_one_random_id_per_process_without_the_env(monkeypatch) -> None:
    monkeypatch.delenv("BUNZAI_SESSION", raising=False)
    assert changelog.current_session() == changelog.current_session() != ""


@pytest.mark.parametrize("label", ["claude code", "claude:main", "agent/1", "../x", "-x", "a" * 65, "é"])
def test_a_session_label_revert_could_not_take_is_refused_before_anything_is_written(
    studio: Studio, monkeypatch, snapshot, label: str
) -> None:
    from bunzai.changes.apply import apply_draft
    from bunzai.changes.create import create_draft
    from bunzai.changes.lifecycle import bury_ref, delete_ref

    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada", "body": {}})
    revision = read_stored(studio, "character", "ada").revision
    before = snapshot(studio.root)
    monkeypatch.setenv("BUNZAI_SESSION", label)
    writes = (
        lambda: apply_draft(studio, create_draft("character", {"name": "Bob"})),
        lambda: delete_ref(studio, "character/ada", None),
        lambda: bury_ref(studio, "character/ada", None),
        lambda: update_piece(studio, {"kind": "character", "id": "ada", "name": "A", "body": {}}, revision),
        lambda: append_change(studio, kind="character", id="ada", revision=None, op="create"),
    )
    for write in writes:
        with pytest.raises(BunzaiError) as refused:
            write()
        assert refused.value.code == "invalid_input" and "BUNZAI_SESSION=" in refused.value.message
        assert "letters, digits" in refused.value.hint
    assert snapshot(studio.root) == before


def test_a_session_id_is_one_rule_for_records_cursors_and_revert(monkeypatch) -> None:
    from bunzai.changes.watch import session_or_current

    monkeypatch.setenv("BUNZAI_SESSION", "claude-code.2_x")
    assert changelog.record_session() == session_or_current(None) == "claude-code.2_x"
    with changelog.annotated(session="other"):
        assert changelog.record_session() == "other"
    for bad in ("claude code", "x:y"):
        with pytest.raises(BunzaiError):
            session_or_current(bad)
        with pytest.raises(BunzaiError), changelog.annotated(session=bad):
            changelog.record_session()


def test_read_changes_since_returns_only_later_records(studio: Studio) -> None:
    for n in range(5):
        append_change(studio, kind="character", id=f"p{n}", revision=None, op="create")
    assert [r["seq"] for r in read_changes(studio, since=3)] == [4, 5]


def test_a_torn_last_line_is_skipped_and_seq_continues_on_a_fresh_line(studio: Studio) -> None:
    append_change(studio, kind="character", id="a", revision=None, op="create")
    with open(studio.changes_log, "ab") as handle:
        handle.write(b'{"seq": 2, "time": "20')  # a writer killed mid-line
    assert append_change(studio, kind="character", id="b", revision=None, op="create") == 2
    assert [r["id"] for r in read_changes(studio)] == ["a", "b"]


def test_seq_is_found_in_a_bounded_tail_of_a_long_log(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "CHANGELOG_TAIL_BYTES", 600)
    for n in range(30):
        assert append_change(studio, kind="character", id="a", revision=None, op="update") == n + 1


def test_lock_names_are_safe_file_names_and_distinct_per_key() -> None:
    names = {lock_file_name(key) for key in ("character/ada", "character_ada", "../../etc", "A/B", "a/b")}
    assert len(names) == 5
    assert all(re.fullmatch(r"[a-z0-9._-]+\.lock", name) and "/" not in name for name in names)


def test_a_held_lock_times_out_with_lock_timeout_and_the_write_does_nothing(
    studio: Studio, snapshot, monkeypatch
) -> None:
    monkeypatch.setattr(limits, "LOCK_TIMEOUT_SECONDS", 0.2)
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada"})
    stored = read_stored(studio, "character", "ada")
    before = snapshot(studio.root)
    with path_lock(studio, "character/ada"):
        with pytest.raises(BunzaiError) as caught:
            update_piece(studio, {**stored.data, "name": "X"}, stored.revision)
    assert caught.value.code == "lock_timeout"
    assert snapshot(studio.root) == before
    update_piece(studio, {**stored.data, "name": "X"}, stored.revision)  # released afterwards
