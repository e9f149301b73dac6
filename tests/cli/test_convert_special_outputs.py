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
