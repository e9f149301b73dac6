"""A temp file's writer is told by the pid in its name; a live process that started after the
file was last written cannot have written it (its pid was reused), so the file is stale:
`atomic.writer_gone`, as `sweep_stale_temps` and `bunzai doctor` judge temp files."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from bunzai.store.atomic import process_started_at, sweep_stale_temps, writer_gone

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="process start times come from /proc")


@pytest.fixture
def sleeper():
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        yield process.pid
    finally:
        process.kill()
        process.wait()


def test_a_process_start_time_is_read_from_proc(sleeper):
    started = process_started_at(sleeper)
    assert started is not None and abs(started - time.time()) < 60
    assert process_started_at(os.getpid()) <= started


def test_a_live_pid_started_after_the_last_write_is_not_the_writer(sleeper):
    an_hour_ago = time.time() - 3600
    assert writer_gone(sleeper, an_hour_ago)
    assert not writer_gone(sleeper, time.time())  # written since it started: it may be the writer
    assert not writer_gone(sleeper)  # no time given: a live pid is the writer, as before


def test_the_sweep_removes_a_file_named_after_a_reused_pid_and_keeps_a_live_writers(tmp_path, sleeper):
    reused = tmp_path / f".a.json.{sleeper}-0123456789ab.tmp"
    live = tmp_path / f".b.json.{sleeper}-abcdef012345.tmp"
    for path in (reused, live):
        path.write_text("{}", encoding="utf-8")
    an_hour_ago = time.time() - 3600
    os.utime(reused, (an_hour_ago, an_hour_ago))
    assert sweep_stale_temps(tmp_path) == 1
    assert not reused.exists() and live.exists()
