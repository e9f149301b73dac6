"""`convert -o` onto a FIFO or a device (/dev/null) writes into it; --force used to rename a new
file over it, which as root turned /dev/null into a regular file for the whole machine."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from testkit import v2_card_png


@pytest.mark.parametrize("force", [["--force"], []])
def test_a_fifo_given_as_the_output_is_written_into_and_stays_a_fifo(bunzai, tmp_path, force) -> None:
    card = tmp_path / "Ada.png"
    card.write_bytes(v2_card_png("Ada", description="Ada keeps the lighthouse."))
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    done = bunzai("convert", str(card), "--to", "ccv2.json", "-o", str(fifo), *force)
    reader.join(timeout=30)
    assert done.code == 0, done.stdout
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert received and b'"Ada"' in received[0]


@pytest.mark.parametrize("force", [["--force"], []])
@pytest.mark.parametrize("parent", ["missing/deeper", "a-file.json"])
def test_an_output_in_no_folder_is_a_coded_refusal(bunzai, tmp_path, parent, force) -> None:
    work = tmp_path / "work"
    work.mkdir()
    card = work / "Ada.png"
    card.write_bytes(v2_card_png("Ada"))
    (work / "a-file.json").write_text("{}", encoding="utf-8")
    done = bunzai("convert", str(card), "--to", "ccv2.json", "-o", str(work / parent / "x.json"), *force)
    assert done.code == 1 and done.json["error"]["code"] == "not_found"
    assert "nothing was written" in done.json["error"]["message"] and done.json["error"]["hint"]
    assert sorted(p.name for p in work.iterdir()) == ["Ada.png", "a-file.json"]


def test_a_folder_output_stopped_halfway_leaves_no_folder(tmp_path, monkeypatch) -> None:
    import errno

    from bunzai.cli import crossing_cmd
    from bunzai.errors import BunzaiError
    from bunzai.store import atomic

    real, calls = atomic.write_new, []

    def full_disk_on_the_second(path, data, batch=None):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, data, batch)

    monkeypatch.setattr(atomic, "write_new", full_disk_on_the_second)
    with pytest.raises(BunzaiError) as refused:
        crossing_cmd._write_output_folder(tmp_path / "Spr", [("a.png", b"1"), ("b.png", b"2")], force=False)
    assert refused.value.code == "disk_full"
    assert list(tmp_path.iterdir()) == []  # no Spr, no partial folder: the retry is not refused as occupied
    crossing_cmd._write_output_folder(tmp_path / "Spr", [("a.png", b"1"), ("b.png", b"2")], force=False)
    assert sorted(p.name for p in (tmp_path / "Spr").iterdir()) == ["a.png", "b.png"]


def test_an_output_naming_a_folder_with_a_slash_is_refused(bunzai, tmp_path) -> None:
    card = tmp_path / "Ada.png"
    card.write_bytes(v2_card_png("Ada"))
    done = bunzai("convert", str(card), "--to", "ccv2.json", "-o", str(tmp_path / "out") + "/")
    assert done.code == 1 and done.json["error"]["code"] == "invalid_input"
    assert not (tmp_path / "out").exists()


def _refused_writes(monkeypatch, folder) -> None:
    """Every file or folder made in `folder` refused as a read-only folder refuses it."""
    import errno
    from pathlib import Path

    real_open, real_mkdir = os.open, Path.mkdir

    def refuse(path) -> None:
        if os.path.dirname(os.fspath(path)) == str(folder):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))

    def opening(path, *args, **kwargs):
        refuse(path)
        return real_open(path, *args, **kwargs)

    def making(self, *args, **kwargs):
        refuse(self)
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(os, "open", opening)
    monkeypatch.setattr(Path, "mkdir", making)


@pytest.mark.parametrize("force", [True, False])
def test_a_refused_write_names_out_not_the_hidden_file_beside_it(tmp_path, monkeypatch, force) -> None:
    from bunzai.cli import crossing_cmd
    from bunzai.errors import BunzaiError

    out = tmp_path / "out.json"
    _refused_writes(monkeypatch, tmp_path)
    with pytest.raises(BunzaiError) as refused:
        crossing_cmd._write_output(out, b"{}", force, str(out))
    assert refused.value.code == "permission_denied"
    assert refused.value.message == f"permission denied: {out}; nothing was half-written"


def test_a_refused_folder_write_names_out_not_the_hidden_folder_beside_it(tmp_path, monkeypatch) -> None:
    from bunzai.cli import crossing_cmd
    from bunzai.errors import BunzaiError

    _refused_writes(monkeypatch, tmp_path)
    with pytest.raises(BunzaiError) as refused:
        crossing_cmd._write_output_folder(tmp_path / "Spr", [("a.png", b"1")], force=False)
    assert refused.value.message == f"permission denied: {tmp_path / 'Spr'}; nothing was half-written"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder: chmod cannot refuse it")
def test_convert_into_a_read_only_folder_names_out(bunzai, tmp_path) -> None:
    card = tmp_path / "Ada.png"
    card.write_bytes(v2_card_png("Ada"))
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        done = bunzai("convert", str(card), "--to", "ccv2.json", "-o", str(locked / "out.json"))
    finally:
        locked.chmod(0o755)
    assert done.code == 1 and done.json["error"]["code"] == "permission_denied"
    assert str(locked / "out.json") in done.json["error"]["message"] and ".tmp" not in done.json["error"]["message"]


def test_a_folder_output_of_a_name_near_the_longest_is_written(tmp_path) -> None:
    # The hidden folder written first (`.<OUT>.<pid>.partial`) is longer than OUT: its copy of the
    # name is cut to fit, as a temp file's is, so an OUT the file system takes is written.
    from bunzai.cli import crossing_cmd
    from bunzai.limits import FILE_NAME_MAX_BYTES

    out = tmp_path / ("Seraphina " * 30)[: FILE_NAME_MAX_BYTES - 1].strip()
    crossing_cmd._write_output_folder(out, [("joy.png", b"1")], force=False)
    assert [p.name for p in out.iterdir()] == ["joy.png"] and list(tmp_path.iterdir()) == [out]
