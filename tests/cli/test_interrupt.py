"""Ctrl-C (SIGINT) in a command: the `interrupted` error document (exit 2), as for any failure,
and every write that landed has its receipt. Typer used to turn it into a bare exit 130 with
nothing said, an apply's receipts of a window it had just written lost."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time

from testkit import bunzai_executable

from bunzai.errors import Interrupted
from bunzai.changes.interrupts import on_sigint, shielded


def _apply(bunzai) -> subprocess.Popen:
    proc = subprocess.Popen(
        [*bunzai_executable(), "apply", "--yes"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=bunzai.env(),
        cwd=bunzai.cwd,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a test runner may ignore it
    )
    timer = threading.Timer(120, proc.kill)  # a bound on a hang, not a timed assertion
    timer.daemon = True
    timer.start()
    return proc


def _drafts(bunzai, count: int) -> bytes:
    inputs = "\n".join(json.dumps({"name": f"Pat {n}"}) for n in range(count))
    return b"".join(
        bunzai("create", "character", "--input", line, check=True).stdout.encode() for line in inputs.split("\n")
    )


def _line(proc: subprocess.Popen) -> dict:
    line = proc.stdout.readline()  # the process is killed if it hangs (_apply's timer): EOF, then
    assert line, "no receipt came"
    return json.loads(line)


def test_apply_interrupted_while_waiting_for_input_says_so_with_every_receipt(bunzai) -> None:
    proc = _apply(bunzai)
    proc.stdin.write(_drafts(bunzai, 3))
    proc.stdin.flush()
    receipts = [_line(proc) for _ in range(3)]  # the window is committed once the input pauses
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    assert [r["status"] for r in receipts] == ["applied"] * 3
    assert json.loads(out)["error"]["message"] == "interrupted"
    assert bunzai("list", check=True).json["count"] == 3
    assert bunzai("doctor", check=True).json["clean"]


def test_a_receipt_held_back_is_printed_when_interrupted(bunzai) -> None:
    """apply holds its first output (one draft is printed as a document, many as lines): a
    draft written before Ctrl-C still gets its receipt."""
    proc = _apply(bunzai)
    proc.stdin.write(_drafts(bunzai, 1))
    proc.stdin.flush()
    piece = bunzai.studio / "character" / "pat-0.json"
    for _ in range(1200):  # written once the input pauses (a bound on a hang, not a timed assertion)
        if piece.exists():
            break
        time.sleep(0.1)
    assert piece.exists()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    lines = [json.loads(line) for line in out.decode().splitlines()]
    assert proc.returncode == 2, err
    assert lines[0]["status"] == "applied" and lines[0]["target"]["id"] == "pat-0"
    assert lines[1]["error"]["message"] == "interrupted"


def test_an_interruption_inside_a_shielded_section_is_raised_as_it_ends() -> None:
    reached = []
    try:
        with shielded():
            on_sigint(signal.SIGINT, None)  # as the handler is called mid-section
            reached.append("the rest of the section")
    except Interrupted:
        reached.append("raised after")
    assert reached == ["the rest of the section", "raised after"]
    try:
        on_sigint(signal.SIGINT, None)
    except Interrupted:
        reached.append("raised at once outside")
    assert reached[-1] == "raised at once outside"
    with shielded():  # nothing pending is left behind
        pass
