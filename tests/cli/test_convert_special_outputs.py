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
