"""`bunzai doctor --repair` removes only the temp files bunzai names (`.<name>.<pid>-<random>.tmp`,
written by a process that is gone): a person's own dot-file ending in `.tmp` beside the studio's
folders is theirs, and stays."""

from __future__ import annotations

import os

import pytest

from bunzai.store.doctor import examine
from bunzai.store.studio import Studio


@pytest.mark.parametrize("name", [".notes.tmp", ".backup-2024.tmp", ".draft.old.tmp"])
def test_a_users_own_tmp_file_is_no_leftover(studio: Studio, name: str) -> None:
    own = studio.root / name
    own.write_text("my notes", encoding="utf-8")
    report = examine(studio, repair=True)
    assert report["clean"] and report["repaired"] == []
    assert own.read_text(encoding="utf-8") == "my notes"


def test_a_dead_writers_temp_file_beside_it_is_still_removed(studio: Studio) -> None:
    dead = os.fork()
    if dead == 0:
        os._exit(0)
    os.waitpid(dead, 0)
    own = studio.root / ".notes.tmp"
    own.write_text("my notes", encoding="utf-8")
    left = studio.root / f".bunzai.toml.{dead}-0123456789ab.tmp"
    left.write_bytes(b"x")
    report = examine(studio, repair=True)
    assert [entry["path"] for entry in report["repaired"]] == [str(left)]
    assert own.exists() and not left.exists()
