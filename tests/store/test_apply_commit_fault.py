"""A disk that fails one of apply's group-commit syncs ends the writing, never the receipts: each
draft says whether it landed. Failing the last sync (the pieces already under their names, with
their change records), an applied receipt says `durable: false` with a warning; failing the first,
or any draft after the fault, a receipt says `failed` and nothing of it is written. Exit 1 either
way, and the change log names exactly the pieces written. A change-log append the disk fails says
truly what it left. Faults are injected (OSError EIO, as syncfs, fsync and write raise it)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from bunzai import limits
from bunzai.changes.apply import apply_batch
from bunzai.changes.create import create_draft
from bunzai.changes.receipts import exit_code, refusal
from bunzai.cli.entry import run
from bunzai.store import batch, changelog
from bunzai.store.changelog import read_changes
from bunzai.store.pieces import create_piece, try_read
from bunzai.store.studio import init_studio
from testkit import fail_syncfs

EIO = "the disk failed reading or writing (an I/O error)"
needs_syncfs = pytest.mark.skipif(batch._SYNCFS is None, reason="no syncfs here: a window fsyncs its folders")


def _eio(*args, **kwargs):
    raise OSError(errno.EIO, os.strerror(errno.EIO))


def _fail_sync(monkeypatch, failing: int) -> None:
    """The `failing`-th syncfs of the run (1, 2 ...) fails with EIO; the others sync."""
    fail_syncfs(monkeypatch, lambda n: n == failing)


def _drafts(tmp_path: Path, *names: str) -> Path:
    path = tmp_path / "drafts.jsonl"
    path.write_text("".join(json.dumps(create_draft("character", {"name": name})) + "\n" for name in names))
    return path


def _apply(studio, source: Path, capsys) -> tuple[int, list[dict], str]:
    code = run(["--studio", str(studio.root), "apply", "--yes", str(source)])
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


@needs_syncfs
def test_the_last_sync_failing_gives_each_written_draft_its_receipt_not_confirmed_durable(
    tmp_path, monkeypatch, capsys
) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "character", "id": "bea", "name": "Bea"})
    source = _drafts(tmp_path, "Ada", "Bea", "Cy")  # Bea's id is taken: stale, nothing written
    _fail_sync(monkeypatch, 2)
    code, receipts, err = _apply(studio, source, capsys)
    monkeypatch.undo()
    assert code == 1
    assert [(r["target"]["id"], r["status"], r.get("durable")) for r in receipts] == [
        ("ada", "applied", False),
        ("bea", "stale", None),
        ("cy", "applied", False),
    ]
    ada = receipts[0]
    assert ada["reason"] is None and ada["warning"]["code"] == "io_error" and ada["warning"]["hint"]
    assert "run the command again" not in ada["warning"]["hint"]  # it landed: again finds it done
    assert ada["warning"]["message"] == (
        f"{EIO}: {studio.piece_file('character', 'ada')}; character/ada was written whole under its name, with "
        f"its change record (seq {ada['seq']}), but the disk failed the sync that makes them durable: a power cut "
        "may still undo it"
    )
    assert "nothing was half-written" not in ada["warning"]["message"]
    assert "2 draft(s) written whole but not confirmed durable" in err
    # what the receipts say is what the files and the log hold
    for done in receipts[0], receipts[2]:
        assert try_read(studio, "character", done["target"]["id"]).revision == done["revision"]
    log = [(r["seq"], r["id"], r["revision"]) for r in read_changes(studio) if r["id"] != "bea"]
    assert log == [(r["seq"], r["target"]["id"], r["revision"]) for r in (receipts[0], receipts[2])]
    assert exit_code(receipts) == 1


@needs_syncfs
def test_one_draft_whose_last_sync_fails_is_one_receipt(tmp_path, monkeypatch, capsys) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    source = tmp_path / "ada.json"
    source.write_text(json.dumps(create_draft("character", {"name": "Ada"})))
    _fail_sync(monkeypatch, 2)
    assert run(["--studio", str(studio.root), "apply", "--yes", str(source)]) == 1
    done = json.loads(capsys.readouterr().out)  # one document, as for any single draft
    assert (done["status"], done["durable"], done["path"]) == ("applied", False, "character/ada.json")


@needs_syncfs
def test_the_first_sync_failing_mid_stream_fails_its_window_and_every_draft_after(
    tmp_path, monkeypatch, capsys
) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    source = _drafts(tmp_path, "Ada", "Bea", "Cy")
    monkeypatch.setattr(limits, "APPLY_WINDOW_WRITES", 1)  # a window per draft
    _fail_sync(monkeypatch, 3)  # Ada's window syncs twice; Bea's first sync fails
    code, receipts, _ = _apply(studio, source, capsys)
    monkeypatch.undo()
    assert code == 1
    assert [(r["target"]["id"], r["status"], r["reason"]) for r in receipts] == [
        ("ada", "applied", None),
        ("bea", "failed", "io_error"),
        ("cy", "failed", "io_error"),
    ]
    assert "durable" not in receipts[0]
    assert receipts[1]["message"] == (
        f"{EIO}: {studio.piece_file('character', 'bea')}; nothing was written: the disk failed the sync of its "
        "bytes, before any piece of its batch window took its name"
    )
    assert receipts[2]["message"].endswith(
        "nothing was written: the disk failed a sync earlier in this apply, which then wrote nothing more"
    )
    assert receipts[1]["hint"]
    assert sorted(os.listdir(studio.root / "character")) == ["ada.json"]  # no piece, no temp file of the others
    assert [r["id"] for r in read_changes(studio)] == ["ada"]


@needs_syncfs
def test_a_group_waiting_for_its_drafts_when_the_disk_fails_is_failed_whole(tmp_path, monkeypatch, capsys) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    monkeypatch.setattr(limits, "APPLY_WINDOW_WRITES", 1)
    drafts = [create_draft("character", {"name": name}) for name in ("Ada", "Bea", "Cy")]
    for index, draft in enumerate(drafts[1:]):
        draft["group"] = {"id": "pair", "index": index, "size": 2}
    drafts = [drafts[0], drafts[1], create_draft("character", {"name": "Dee"}), drafts[2]]
    source = tmp_path / "drafts.jsonl"
    source.write_text("".join(json.dumps(draft) + "\n" for draft in drafts))
    _fail_sync(monkeypatch, 1)  # Ada's window
    code, receipts, _ = _apply(studio, source, capsys)
    monkeypatch.undo()
    assert code == 1
    assert sorted((r["target"]["id"], r["status"], r["reason"]) for r in receipts) == [
        ("ada", "failed", "io_error"),
        ("bea", "failed", "io_error"),  # not `group_incomplete`: the rest of its group came, after the fault
        ("cy", "failed", "io_error"),
        ("dee", "failed", "io_error"),
    ]
    assert not (studio.root / "character").exists() or os.listdir(studio.root / "character") == []
    assert read_changes(studio) == []


def test_without_syncfs_a_failed_folder_sync_at_commit_is_said_the_same(tmp_path, monkeypatch) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    monkeypatch.setattr(batch, "_SYNCFS", None)  # each file fsynced as written, each folder at commit
    monkeypatch.setattr(batch, "fsync_dir", _eio)
    [done] = apply_batch(studio, [create_draft("character", {"name": "Ada"})])
    monkeypatch.undo()
    assert (done["status"], done["durable"], done["warning"]["code"]) == ("applied", False, "io_error")
    assert try_read(studio, "character", "ada").revision == done["revision"]
    refused = refusal([done], "draft ada", "")  # an MCP client is told too (isError), with the receipt
    assert refused is not None and refused.code == "io_error" and refused.details["receipts"] == [done]


def _log_fd(fd: int) -> bool:
    try:
        return os.readlink(f"/proc/self/fd/{fd}").endswith("changes.jsonl")
    except OSError:
        return False


def _cut_log_write(monkeypatch) -> None:
    """The change log's append writes 10 bytes of its record, then the disk fails."""
    real = os.write

    def write(fd, data):
        if not _log_fd(fd):
            return real(fd, data)
        if not getattr(write, "cut", False):
            write.cut = True
            return real(fd, bytes(data[:10]))
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(changelog.os, "write", write)


def _studio_whose_log_the_disk_cuts(tmp_path, monkeypatch):
    """(a studio holding Bea, its change log's bytes), the next change record cut short by the disk."""
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "character", "id": "bea", "name": "Bea"})
    log = studio.changes_log.read_bytes()
    _cut_log_write(monkeypatch)
    return studio, log


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="the log's fd is found through /proc")
def test_a_change_record_cut_short_by_the_disk_is_taken_back(tmp_path, monkeypatch) -> None:
    studio, log = _studio_whose_log_the_disk_cuts(tmp_path, monkeypatch)
    [done] = apply_batch(studio, [create_draft("character", {"name": "Ada"})])
    monkeypatch.undo()
    assert (done["status"], done["reason"]) == ("failed", "io_error")
    assert done["message"].endswith(f"{studio.piece_file('character', 'ada')}; nothing was half-written")
    assert studio.changes_log.read_bytes() == log  # true: not even the log keeps a piece of the record
    assert try_read(studio, "character", "ada") is None


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="the log's fd is found through /proc")
def test_a_change_record_the_disk_leaves_cut_short_is_said(tmp_path, monkeypatch) -> None:
    studio, log = _studio_whose_log_the_disk_cuts(tmp_path, monkeypatch)
    monkeypatch.setattr(changelog.os, "ftruncate", _eio)
    [done] = apply_batch(studio, [create_draft("character", {"name": "Ada"})])
    monkeypatch.undo()
    assert (done["status"], done["reason"]) == ("failed", "io_error")
    assert "half-written" not in done["message"]
    assert done["message"] == (
        f"{EIO}: {studio.root}; the write was not done, but its change record was cut short: the change log ends "
        "with a cut-short line, which readers skip and `bunzai doctor` notes as torn"
    )
    tail = studio.changes_log.read_bytes()[len(log) :]
    assert len(tail) == 10 and changelog.is_torn(tail)
    assert try_read(studio, "character", "ada") is None
    create_piece(studio, {"kind": "character", "id": "cy", "name": "Cy"})  # the next record starts a fresh line
    assert [r["id"] for r in read_changes(studio)] == ["bea", "cy"]


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="the log's fd is found through /proc")
def test_a_change_record_whose_length_the_disk_will_not_tell_is_said_maybe_cut(tmp_path, monkeypatch) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    create_piece(studio, {"kind": "character", "id": "bea", "name": "Bea"})
    _cut_log_write(monkeypatch)
    real_fstat, write = os.fstat, changelog.os.write

    def fstat(fd):  # once the record is cut, the log's length cannot be read either
        return _eio() if getattr(write, "cut", False) and _log_fd(fd) else real_fstat(fd)

    monkeypatch.setattr(changelog.os, "fstat", fstat)
    [done] = apply_batch(studio, [create_draft("character", {"name": "Ada"})])
    monkeypatch.undo()
    assert (done["status"], done["reason"]) == ("failed", "io_error")
    assert done["message"].endswith(
        "the write was not done, but its change record may have been cut short: the change log may end with a "
        "cut-short line, which readers skip and `bunzai doctor` notes as torn"
    )
    assert try_read(studio, "character", "ada") is None


def test_a_group_piece_the_disk_will_not_take_back_keeps_its_receipt(tmp_path, monkeypatch) -> None:
    from bunzai.changes import apply
    from bunzai.changes.receipts import receipt
    from bunzai.store import history

    studio, _ = init_studio(tmp_path / "studio")
    drafts = [create_draft("character", {"name": name}) for name in ("Ada", "Bea")]
    for index, draft in enumerate(drafts):
        draft["group"] = {"id": "pair", "index": index, "size": 2}
    land = apply._land_piece

    def land_piece(studio, item, batch):  # Bea's id is taken under its lock, after Ada landed
        target = item.draft["target"]
        if target["id"] == "bea":
            return receipt("stale", op="create", target=target, reason="occupied", message="taken")
        return land(studio, item, batch)

    monkeypatch.setattr(apply, "_land_piece", land_piece)
    monkeypatch.setattr(history, "write_temp", _eio)  # taking Ada back keeps her revision first: the disk fails
    ada, bea = apply_batch(studio, drafts)
    monkeypatch.undo()
    assert (bea["status"], bea["reason"]) == ("stale", "occupied")
    assert ada["status"] == "applied" and ada["warning"]["code"] == "io_error"
    assert ada["warning"]["message"] == (
        f"another draft of its group was refused, and character/ada could not be taken back ({EIO}: "
        f"{studio.piece_file('character', 'ada')}; nothing was half-written): it stays written"
    )
    assert try_read(studio, "character", "ada").revision == ada["revision"]  # what the receipt says
    assert [(r["id"], r["op"]) for r in read_changes(studio)] == [("ada", "create")]
