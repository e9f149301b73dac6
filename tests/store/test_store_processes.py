"""Real processes against one studio: no lost update under compare-and-swap, a strictly
increasing change-log seq, and no partial file ever visible after SIGKILL."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from bunzai.store.changelog import read_changes
from bunzai.store.pieces import create_piece, list_stored, read_stored
from bunzai.store.studio import Studio

WAIT_FOR_GO = """
import os, sys, time
while not os.path.exists(sys.argv[2]):
    time.sleep(0.001)
"""

CAS_WORKER = (
    WAIT_FOR_GO
    + """
import json
from bunzai.errors import BunzaiError
from bunzai.store.pieces import read_stored, update_piece
from bunzai.store.studio import Studio
studio, rounds = Studio(sys.argv[1]), int(sys.argv[3])
applied = stale = 0
while applied < rounds:
    stored = read_stored(studio, "character", "counter")
    data = dict(stored.data, body={"count": stored.data["body"]["count"] + 1})
    try:
        update_piece(studio, data, stored.revision)
        applied += 1
    except BunzaiError as error:
        if error.code != "stale":
            raise
        stale += 1
print(json.dumps({"applied": applied, "stale": stale}))
"""
)

APPEND_WORKER = (
    WAIT_FOR_GO
    + """
from bunzai.store.changelog import append_change
from bunzai.store.studio import Studio
studio = Studio(sys.argv[1])
for n in range(int(sys.argv[3])):
    append_change(studio, kind="persona", id="p", revision=None, op="update")
"""
)

KILL_VICTIM = """
import sys
from bunzai.store.pieces import read_stored, update_piece
from bunzai.store.studio import Studio
sys.path.insert(0, sys.argv[2])
from test_store_processes import victim_version
studio = Studio(sys.argv[1])
while True:
    stored = read_stored(studio, "character", "victim")
    update_piece(studio, victim_version(stored.data["body"]["n"] + 1), stored.revision)
"""


def start(script: str, *args: object) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", script, *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    return out


def test_concurrent_compare_and_swap_increments_never_lose_an_update(studio: Studio, tmp_path: Path) -> None:
    workers, rounds = 6, 15
    create_piece(studio, {"kind": "character", "id": "counter", "name": "Counter", "body": {"count": 0}})
    go = tmp_path / "go"
    processes = [start(CAS_WORKER, studio.root, go, rounds) for _ in range(workers)]
    go.touch()
    seen = [0]
    while any(p.poll() is None for p in processes):
        count = read_stored(studio, "character", "counter").data["body"]["count"]  # always parses
        assert count >= seen[-1]
        seen.append(count)
    reports = [json.loads(finish(p)) for p in processes]
    applied = sum(r["applied"] for r in reports)
    assert applied == workers * rounds
    assert read_stored(studio, "character", "counter").data["body"]["count"] == applied
    updates = [c for c in read_changes(studio) if c["op"] == "update"]
    assert len(updates) == applied
    assert [c["seq"] for c in read_changes(studio)] == list(range(1, applied + 2))


def test_change_log_seq_is_strictly_increasing_across_processes(studio: Studio, tmp_path: Path) -> None:
    workers, appends = 4, 40
    go = tmp_path / "go"
    processes = [start(APPEND_WORKER, studio.root, go, appends) for _ in range(workers)]
    go.touch()
    for process in processes:
        finish(process)
    records = read_changes(studio)
    assert [r["seq"] for r in records] == list(range(1, workers * appends + 1))
    sessions = {r["session"] for r in records}
    assert len(sessions) == workers
    assert all(sum(r["session"] == s for r in records) == appends for s in sessions)


def victim_version(n: int) -> dict:
    """Version n of the piece the killed writer writes: large enough that a kill often
    lands mid-write, and recognisable from `n` alone."""
    return {
        "kind": "character",
        "id": "victim",
        "name": "Victim",
        "body": {"n": n, "pad": "x" * (20_000 + (n * 7919) % 300_000)},
    }


def test_sigkill_mid_write_never_leaves_a_partial_piece(studio: Studio) -> None:
    create_piece(studio, victim_version(0))
    rng = random.Random(1234)
    last = 0
    for _ in range(6):
        process = start(KILL_VICTIM, studio.root, Path(__file__).parent)
        deadline = time.monotonic() + 20
        while read_stored(studio, "character", "victim").data["body"]["n"] == last:
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.002)
        time.sleep(rng.uniform(0, 0.08))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        process.stdout.close()
        process.stderr.close()
        stored = read_stored(studio, "character", "victim")  # parses: never partial
        assert stored.data == victim_version(stored.data["body"]["n"])
        assert stored.data["body"]["n"] > last
        last = stored.data["body"]["n"]
        assert list_stored(studio) == [("character", "victim")]
    # a temp file left by a kill (planted too, so the case is always covered) is ignored
    leftover = studio.root / "character" / ".victim.json.00c0ffee00c0ffee.tmp"
    leftover.write_bytes(b'{"kind": "character", "id": "vic')
    assert list_stored(studio) == [("character", "victim")]
    assert read_stored(studio, "character", "victim").data == victim_version(last)
    seqs = [r["seq"] for r in read_changes(studio)]
    assert seqs == sorted(set(seqs))
