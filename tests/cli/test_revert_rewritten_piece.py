"""`bunzai revert` of a session that restored a piece and then updated it: undoing the update
writes the restored revision back through apply, in apply's canonical bytes, so when the
restored file was not canonical (made by hand) the piece lands under another revision. The
restore is then undone from that revision (this run's own write), and a piece someone else
changed in between is still left alone."""

from __future__ import annotations

import json
import subprocess

from testkit import bunzai_executable


def run(bunzai, session: str, *args: str, input: str | None = None) -> dict:
    proc = subprocess.run(
        bunzai_executable() + list(args),
        input=input,
        capture_output=True,
        text=True,
        env=bunzai.env() | {"BUNZAI_SESSION": session},
        cwd=bunzai.cwd,
        start_new_session=True,
        timeout=60,
    )
    return {"code": proc.returncode, **json.loads(proc.stdout)}


def hand_made_piece_restored_then_updated(bunzai) -> tuple[str, str]:
    """ada made by hand (compact JSON: valid, not apply's bytes), buried by `other`, restored
    and updated by `me`; (the restored revision, the graveyard entry)."""
    (bunzai.studio / "character").mkdir(exist_ok=True)
    (bunzai.studio / "character" / "ada.json").write_text(
        json.dumps({"kind": "character", "id": "ada", "name": "Ada"}), encoding="utf-8"
    )
    buried = run(bunzai, "other", "bury", "character/ada")
    assert buried["status"] == "applied", buried
    restored = run(bunzai, "me", "graveyard", "restore", buried["entry"])
    assert restored["status"] == "applied" and restored["revision"] == buried["revision"], restored
    draft = subprocess.run(
        bunzai_executable() + ["cap", "run", "character.identity.update", "ada", "--input", '{"nickname": "A"}'],
        capture_output=True,
        text=True,
        env=bunzai.env(),
        check=True,
    ).stdout
    updated = run(bunzai, "me", "apply", "--yes", input=draft)
    assert updated["status"] == "applied", updated
    return restored["revision"], buried["entry"]


def test_a_restore_is_undone_after_the_update_that_followed_it(bunzai) -> None:
    restored_revision, _ = hand_made_piece_restored_then_updated(bunzai)
    undone = run(bunzai, "me", "revert", "--session", "me")
    rows = [(row["op"], row["status"]) for row in undone["changes"]]
    assert rows == [("update", "reverted"), ("restore", "reverted")], undone
    assert undone["code"] == 0
    put_back = undone["changes"][0]["receipt"]["revision"]
    assert put_back != restored_revision  # apply wrote the hand-made content in its own bytes
    assert undone["changes"][1]["receipt"]["revision"] == put_back  # so that is the revision buried
    assert not (bunzai.studio / "character" / "ada.json").exists()
    graves = run(bunzai, "me", "graveyard", "list")
    assert [row["revision"] for row in graves["items"] if row["id"] == "ada"] == [put_back]


def test_a_piece_changed_by_hand_after_the_session_is_still_left_alone(bunzai) -> None:
    hand_made_piece_restored_then_updated(bunzai)
    path = bunzai.studio / "character" / "ada.json"
    path.write_text(json.dumps({"kind": "character", "id": "ada", "name": "Ada, by hand"}), encoding="utf-8")
    undone = run(bunzai, "me", "revert", "--session", "me")
    assert [(row["op"], row["status"]) for row in undone["changes"]] == [
        ("update", "forbidden"),
        ("restore", "forbidden"),
    ]
    assert undone["code"] == 1 and undone.get("error") is None
    assert json.loads(path.read_text(encoding="utf-8"))["name"] == "Ada, by hand"
