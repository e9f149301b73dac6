"""A revert whose write the disk does not confirm durable says so, as `apply` does: the row is
`reverted` (the piece is back, under its name) and its receipt says `durable: false` with a
warning; the CLI exits 1 and counts them on stderr, and the MCP tool refuses with the warning's
code. Faults are injected: the window's last syncfs fails with EIO, as a failing disk raises it."""

from __future__ import annotations

import json

import pytest

from bunzai.changes.apply import apply_draft
from bunzai.changes.create import create_draft
from bunzai.changes.draft import new_draft
from bunzai.changes.revert import revert_refusal, studio_revert, unconfirmed
from bunzai.cli.entry import run
from bunzai.errors import BunzaiError
from bunzai.store import batch
from bunzai.store.changelog import annotated
from bunzai.store.pieces import read_stored
from bunzai.store.studio import init_studio
from testkit import fail_syncfs

needs_syncfs = pytest.mark.skipif(batch._SYNCFS is None, reason="no syncfs here: a window fsyncs its folders")


def _renamed_by_agent(tmp_path):
    """A studio where session `agent` renamed Ada to Ade (the change a revert undoes)."""
    studio, _ = init_studio(tmp_path / "studio")
    apply_draft(studio, create_draft("character", {"name": "Ada"}))
    stored = read_stored(studio, "character", "ada")
    proposed = {**stored.data, "name": "Ade"}
    draft = new_draft(mode="update", proposed=proposed, baseline=stored.revision, before=stored.data, operations=[])
    with annotated(session="agent"):
        assert apply_draft(studio, draft)["status"] == "applied"
    return studio


def _fail_last_sync(monkeypatch) -> None:
    """Every window's second syncfs (its last: the pieces are under their names) fails with EIO."""
    fail_syncfs(monkeypatch, lambda n: n % 2 == 0)


@needs_syncfs
def test_a_revert_the_disk_did_not_confirm_is_refused_with_the_warning(tmp_path, monkeypatch) -> None:
    studio = _renamed_by_agent(tmp_path)
    _fail_last_sync(monkeypatch)
    report = studio_revert(studio, "agent")
    monkeypatch.undo()
    [row] = report["changes"]
    assert row["status"] == "reverted" and report["reverted"] == 1 and report["failed"] == 0
    assert row["receipt"]["durable"] is False and row["receipt"]["warning"]["code"] == "io_error"
    assert read_stored(studio, "character", "ada").data["name"] == "Ada"  # the undo is written, under its name
    assert unconfirmed(report) == [row]
    refused = revert_refusal(report)
    assert isinstance(refused, BunzaiError) and refused.code == "io_error"
    assert refused.message.startswith("revert undid 1 change(s) of session 'agent', but the disk did not confirm 1")
    assert refused.details["report"] is report


@needs_syncfs
def test_the_cli_exits_1_and_counts_them_on_stderr(tmp_path, monkeypatch, capsys) -> None:
    studio = _renamed_by_agent(tmp_path)
    _fail_last_sync(monkeypatch)
    code = run(["--studio", str(studio.root), "revert", "--session", "agent"])
    monkeypatch.undo()
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert code == 1
    assert [row["status"] for row in report["changes"]] == ["reverted"]
    assert "1 change(s) reverted but not confirmed durable" in captured.err


def test_a_revert_the_disk_confirmed_is_no_refusal(tmp_path) -> None:
    studio = _renamed_by_agent(tmp_path)
    report = studio_revert(studio, "agent")
    assert report["reverted"] == 1 and unconfirmed(report) == [] and revert_refusal(report) is None
    assert run(["--studio", str(studio.root), "revert", "--session", "agent"]) == 0  # nothing left: exits 0
