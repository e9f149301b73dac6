"""A burial or a restore is a move in two steps: the new file takes its name, then the old one is
removed, each with its own folder sync. A disk that fails the first sync gets the new file taken
back (a piece never leaves the shelf while its copy is not confirmed durable): the write is refused
and nothing has moved. A disk that fails the second sync leaves the move whole: the receipt says
applied with `durable: false` and a warning, as `apply`'s do, and a revert counts it reverted.
Faults are injected: fsync of one folder raises OSError EIO, as a failing disk does."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from bunzai.changes.apply import apply_draft
from bunzai.changes.create import create_draft
from bunzai.changes.lifecycle import bury_ref, lifecycle_refusal, restore_entry
from bunzai.changes.revert import revert_refusal, studio_revert, unconfirmed
from bunzai.cli.entry import run
from bunzai.errors import BunzaiError
from bunzai.store import atomic
from bunzai.store.changelog import annotated, read_changes
from bunzai.store.graveyard import list_graveyard
from bunzai.store.pieces import try_read
from bunzai.store.studio import Studio, init_studio

EIO = "the disk failed reading or writing (an I/O error)"


def _fail_folder(monkeypatch, failing: Path, times: int | None = None) -> None:
    """fsync of the folder `failing` raises EIO (its first `times` calls; every one when None)."""
    real, calls = atomic.fsync_dir, []

    def fsync_dir(folder):
        if Path(folder) == failing:
            calls.append(folder)
            if times is None or len(calls) <= times:
                raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(folder)

    monkeypatch.setattr(atomic, "fsync_dir", fsync_dir)


@pytest.fixture
def studio(tmp_path: Path) -> Studio:
    studio, _ = init_studio(tmp_path / "studio")
    with annotated(session="agent"):
        assert apply_draft(studio, create_draft("character", {"name": "Ada"}))["status"] == "applied"
    return studio


def _graves(studio: Studio) -> Path:
    return studio.graveyard_dir / "character"


def _shelf(studio: Studio) -> Path:
    return studio.piece_path("character", "ada").parent


def _ops(studio: Studio) -> list[str]:
    return [record["op"] for record in read_changes(studio)]


def test_a_burial_whose_entry_is_not_confirmed_is_taken_back(studio: Studio, monkeypatch, capsys) -> None:
    _graves(studio).mkdir(parents=True)
    _fail_folder(monkeypatch, _graves(studio))
    assert run(["--studio", str(studio.root), "bury", "character/ada"]) == 1
    monkeypatch.undo()
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "io_error"
    grave = error["message"][len(EIO) + 2 : error["message"].index("; ")]
    assert Path(grave).parent == _graves(studio) and Path(grave).name.startswith("ada@")
    assert error["message"].endswith(
        f"; the disk failed the sync that makes {Path(grave).name} durable, so it was removed again: "
        "character/ada was not buried"
    )
    assert try_read(studio, "character", "ada") is not None  # still on the shelf
    assert list_graveyard(studio) == [] and os.listdir(_graves(studio)) == []  # no stray copy
    assert _ops(studio) == ["create"]


def test_a_burial_whose_removal_is_not_confirmed_is_applied_not_durable(studio: Studio, monkeypatch, capsys) -> None:
    _fail_folder(monkeypatch, _shelf(studio))
    assert run(["--studio", str(studio.root), "bury", "character/ada"]) == 1
    monkeypatch.undo()
    done = json.loads(capsys.readouterr().out)
    assert done["status"] == "applied" and done["durable"] is False
    [buried] = list_graveyard(studio)
    assert done["entry"] == buried["entry"] and done["seq"] == read_changes(studio)[-1]["seq"]
    warning = done["warning"]
    assert warning["code"] == "io_error"
    assert warning["message"] == (
        f"{EIO}: {studio.piece_path('character', 'ada')}; character/ada was buried as {buried['entry']}, with its "
        f"change record (seq {done['seq']}), but the disk failed the sync that makes its file's removal durable: "
        "a power cut may bring the file back beside its graveyard entry"
    )
    assert warning["hint"].endswith("; `bunzai read character/ada` shows whether it is back")
    assert "run the command again" not in warning["hint"]
    assert try_read(studio, "character", "ada") is None and _ops(studio) == ["create", "bury"]
    refused = lifecycle_refusal(done, "bury")  # the MCP tool's answer
    assert isinstance(refused, BunzaiError) and refused.code == "io_error"


def test_a_restore_whose_piece_is_not_confirmed_is_taken_back(studio: Studio, monkeypatch) -> None:
    entry = bury_ref(studio, "character/ada", None)["entry"]
    _fail_folder(monkeypatch, _shelf(studio))
    with pytest.raises(BunzaiError) as caught:
        restore_entry(studio, entry)
    monkeypatch.undo()
    assert caught.value.code == "io_error"
    assert caught.value.message == (
        f"{EIO}: {studio.piece_path('character', 'ada')}; the disk failed the sync that makes ada.json durable, "
        f"so it was removed again: character/ada was not restored ({entry} stays in the graveyard)"
    )
    assert try_read(studio, "character", "ada") is None
    assert [row["entry"] for row in list_graveyard(studio)] == [entry]
    assert restore_entry(studio, entry)["status"] == "applied"  # the entry is whole: restored once the disk syncs
    assert list_graveyard(studio) == []


def test_a_restore_whose_entry_removal_is_not_confirmed_is_applied_not_durable(studio: Studio, monkeypatch) -> None:
    entry = bury_ref(studio, "character/ada", None)["entry"]
    _fail_folder(monkeypatch, _graves(studio))
    done = restore_entry(studio, entry)
    monkeypatch.undo()
    assert done["status"] == "applied" and done["durable"] is False and done["warning"]["code"] == "io_error"
    assert done["warning"]["message"].endswith(
        f"; character/ada was put back under its name, with its change record (seq {done['seq']}), but the disk "
        f"failed the sync that makes the removal of its graveyard entry durable: a power cut may bring {entry} "
        "back to the graveyard"
    )
    assert try_read(studio, "character", "ada") is not None and list_graveyard(studio) == []


def test_a_restore_not_confirmed_whose_medium_is_gone_says_both(tmp_path: Path, monkeypatch) -> None:
    """The disk's warning keeps its code (the command exits 1); the missing medium's words and
    remedy are added to it, not lost under it."""
    from bunzai.store.assets import put_asset
    from bunzai.store.pieces import create_piece

    studio, _ = init_studio(tmp_path / "studio")
    face = put_asset(studio, b"a face", "png", "image/png")
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada", "body": {"portrait": face}})
    entry = bury_ref(studio, "character/ada", None)["entry"]
    studio.asset_path(face["sha256"], "png").unlink()
    _fail_folder(monkeypatch, _graves(studio))
    done = restore_entry(studio, entry)
    monkeypatch.undo()
    assert done["durable"] is False and done["warning"]["code"] == "io_error"
    assert [gone["asset"] for gone in done["missing_media"]] == [f"{face['sha256']}.png"]
    message, hint = done["warning"]["message"], done["warning"]["hint"]
    assert "back to the graveyard; and character/ada is back, but 1 of the media it names cannot be read" in message
    assert "`bunzai graveyard list` shows whether it is there; store them again" in hint


def test_reverting_a_create_whose_burial_is_not_confirmed_is_reverted_not_durable(studio: Studio, monkeypatch) -> None:
    _fail_folder(monkeypatch, _shelf(studio))
    report = studio_revert(studio, "agent")
    monkeypatch.undo()
    [row] = report["changes"]
    assert row["status"] == "reverted" and row["receipt"]["durable"] is False
    assert unconfirmed(report) == [row] and revert_refusal(report).code == "io_error"
    assert try_read(studio, "character", "ada") is None and len(list_graveyard(studio)) == 1
    assert studio_revert(studio, "agent")["changes"] == []  # undone: a later run has nothing to do


def test_reverting_a_create_whose_graveyard_copy_fails_buries_it_once_later(studio: Studio, monkeypatch) -> None:
    _graves(studio).mkdir(parents=True)
    _fail_folder(monkeypatch, _graves(studio))
    report = studio_revert(studio, "agent")
    monkeypatch.undo()
    [row] = report["changes"]
    assert row["status"] == "failed" and row["receipt"]["reason"] == "io_error"
    assert row["message"].endswith("so it was removed again: character/ada was not buried")
    assert try_read(studio, "character", "ada") is not None and list_graveyard(studio) == []
    again = studio_revert(studio, "agent")
    assert [row["status"] for row in again["changes"]] == ["reverted"]
    assert try_read(studio, "character", "ada") is None and len(list_graveyard(studio)) == 1  # one entry, not two


def test_a_restore_not_confirmed_lets_the_same_run_undo_an_older_change(studio: Studio, monkeypatch) -> None:
    with annotated(session="agent"):
        bury_ref(studio, "character/ada", None)
    _fail_folder(monkeypatch, _graves(studio), times=1)  # the restore's removal of the entry; the burial syncs
    report = studio_revert(studio, "agent")
    monkeypatch.undo()
    assert [(row["op"], row["status"]) for row in report["changes"]] == [("bury", "reverted"), ("create", "reverted")]
    assert report["changes"][0]["receipt"]["durable"] is False and "durable" not in report["changes"][1]["receipt"]
    assert try_read(studio, "character", "ada") is None and len(list_graveyard(studio)) == 1


def _fail_unlink(monkeypatch, *failing: Path) -> None:
    """Unlinking the files `failing` (a folder: each file in it but the hidden temp files a write
    makes) raises EIO, as a failing disk does; other files unlink."""
    real = os.unlink

    def unlink(path, *args, **kwargs):
        path = Path(path)
        if path in failing or path.parent in failing and not path.name.startswith("."):
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)


def test_a_burial_whose_piece_cannot_be_removed_takes_its_copy_back(studio: Studio, monkeypatch) -> None:
    _fail_unlink(monkeypatch, studio.piece_path("character", "ada"))
    with pytest.raises(OSError):
        bury_ref(studio, "character/ada", None)
    monkeypatch.undo()
    assert try_read(studio, "character", "ada") is not None
    assert list_graveyard(studio) == [] and os.listdir(_graves(studio)) == []  # no stray copy
    assert studio_revert(studio, "agent")["reverted"] == 1  # the record did not land: the create is undone once
    assert len(list_graveyard(studio)) == 1


def test_a_restore_whose_entry_cannot_be_removed_takes_the_piece_back(studio: Studio, monkeypatch) -> None:
    entry = bury_ref(studio, "character/ada", None)["entry"]
    [grave] = os.listdir(_graves(studio))
    _fail_unlink(monkeypatch, _graves(studio) / grave)
    with pytest.raises(OSError):
        restore_entry(studio, entry)
    monkeypatch.undo()
    assert try_read(studio, "character", "ada") is None
    assert [row["entry"] for row in list_graveyard(studio)] == [entry]
    assert restore_entry(studio, entry)["status"] == "applied" and list_graveyard(studio) == []


def test_a_copy_is_never_taken_back_when_it_is_the_only_one_left(studio: Studio, monkeypatch) -> None:
    """A file removed by hand between the copy and the removal (the unlink finds nothing): the
    copy is then the piece's only bytes, and stays."""
    path = studio.piece_path("character", "ada")
    real = os.unlink

    def unlink(target, *args, **kwargs):
        if Path(target) == path:
            real(target)  # gone by hand, just before bunzai's own unlink
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(target))
        return real(target, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    with pytest.raises(OSError):
        bury_ref(studio, "character/ada", None)
    monkeypatch.undo()
    assert try_read(studio, "character", "ada") is None and len(list_graveyard(studio)) == 1


def test_a_revert_goes_on_past_a_burial_the_disk_refused(studio: Studio, monkeypatch) -> None:
    with annotated(session="agent"):
        assert apply_draft(studio, create_draft("character", {"name": "Bob"}))["status"] == "applied"
    _fail_unlink(monkeypatch, studio.piece_path("character", "bob"))  # the newest change's undo: its burial
    report = studio_revert(studio, "agent")
    monkeypatch.undo()
    assert [(row["ref"], row["status"]) for row in report["changes"]] == [
        ("character/bob", "failed"),
        ("character/ada", "reverted"),
    ]
    failed = report["changes"][0]
    assert failed["receipt"]["reason"] == "io_error"
    assert failed["message"] == f"{EIO}: {studio.piece_path('character', 'bob')}"
    assert try_read(studio, "character", "bob") is not None and try_read(studio, "character", "ada") is None
    assert [row["id"] for row in list_graveyard(studio)] == ["ada"]


def test_a_copy_that_cannot_be_removed_again_is_named(studio: Studio, monkeypatch) -> None:
    _fail_unlink(monkeypatch, studio.piece_path("character", "ada"), _graves(studio))  # and the copy's removal
    with pytest.raises(BunzaiError) as caught:
        bury_ref(studio, "character/ada", None)
    monkeypatch.undo()
    [grave] = os.listdir(_graves(studio))
    assert caught.value.code == "io_error"
    assert caught.value.message == (
        f"{EIO}: {studio.piece_path('character', 'ada')}; {grave}, the copy of character/ada made on the way, "
        "could not be removed again: it stays beside ada.json"
    )
    assert try_read(studio, "character", "ada") is not None


def test_a_restored_piece_is_never_taken_back_when_its_entry_is_gone(studio: Studio, monkeypatch) -> None:
    """The entry removed by hand between the restore's write and its own removal: the restored piece
    is then the only copy, and stays."""
    entry = bury_ref(studio, "character/ada", None)["entry"]
    [grave] = os.listdir(_graves(studio))
    real = os.unlink

    def unlink(target, *args, **kwargs):
        if Path(target) == _graves(studio) / grave:
            real(target)  # gone by hand, just before bunzai's own unlink
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(target))
        return real(target, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    with pytest.raises(OSError):
        restore_entry(studio, entry)
    monkeypatch.undo()
    assert try_read(studio, "character", "ada") is not None and list_graveyard(studio) == []
