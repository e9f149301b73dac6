"""Only regular files are read from named paths: a FIFO or a device is refused at once,
never read or waited on (issue 17)."""

from __future__ import annotations

import os
from pathlib import Path


def test_a_fifo_named_on_the_command_line_is_refused_not_waited_on(bunzai, tmp_path: Path) -> None:
    fifo = tmp_path / "card.png"
    os.mkfifo(fifo)
    done = bunzai("import", str(fifo))  # the fixture's 60 s timeout would fail a hang
    assert done.code == 1 and done.json["error"]["code"] == "invalid_input"
    assert "not a regular file" in done.json["error"]["message"]


def test_a_device_is_refused_before_any_byte_is_read(bunzai) -> None:
    done = bunzai("import", "/dev/zero")
    assert done.code == 1 and done.json["error"]["code"] == "invalid_input"
    done = bunzai("convert", "/dev/zero", "--to", "ccv3.json", "-o", "-")
    assert done.code == 1 and done.json["error"]["code"] == "invalid_input"


def test_a_fifo_inside_a_walked_folder_does_not_stop_the_walk(bunzai, tmp_path: Path) -> None:
    folder = tmp_path / "library"
    folder.mkdir()
    os.mkfifo(folder / "pipe.json")
    (folder / "note.txt").write_text("hello")
    done = bunzai("import", str(folder))
    assert done.code in (0, 1) and "pipe.json" in done.stdout + done.stderr


def test_a_socket_inside_a_walked_folder_is_passed_over_like_a_fifo(bunzai, tmp_path: Path) -> None:
    # A Unix socket cannot be opened (ENXIO): before, that was an error document and exit 1
    # for the whole import, where a FIFO beside it was passed over.
    import socket

    from testkit import v2_card_png

    folder = tmp_path / "library"
    folder.mkdir()
    (folder / "Ada.png").write_bytes(v2_card_png("Ada"))
    os.mkfifo(folder / "pipe.json")
    here = os.getcwd()
    os.chdir(folder)  # a socket's path is bound relative: AF_UNIX paths are short
    listener = socket.socket(socket.AF_UNIX)
    try:
        listener.bind("agent.sock")
    finally:
        os.chdir(here)
    try:
        done = bunzai("import", str(folder))
    finally:
        listener.close()
    assert done.code == 0, done.stdout + done.stderr
    assert [line["target"]["id"] for line in done.lines] == ["ada"]
    assert "bunzai: skipped 2 file(s) or folder(s): agent.sock, pipe.json" in done.stderr
    named = bunzai("import", str(folder / "agent.sock"))
    assert named.code == 1 and "not a regular file" in named.json["error"]["message"]
