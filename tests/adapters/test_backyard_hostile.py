"""Hostile BYAF archives give unsafe_archive through `bunzai import` and change nothing in the studio."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

MANIFEST = json.dumps(
    {
        "schemaVersion": 1,
        "createdAt": "2025-01-01T00:00:00.000Z",
        "characters": ["characters/a/character.json"],
        "scenarios": ["scenarios/s.json"],
    }
).encode()


def snapshot(studio: Path) -> list:
    return sorted(
        (p.relative_to(studio).as_posix(), p.read_bytes() if p.is_file() else b"")
        for p in studio.rglob("*")
        if ".bunzai/locks" not in p.as_posix()
    )


def byaf_with(extra: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", MANIFEST)
        for name, data in extra:
            with pytest.warns(UserWarning) if name == "manifest.json" else _nothing():
                archive.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


HOSTILE = {
    "dotdot": [("../escape.json", b"{}")],
    "absolute": [("/etc/passwd", b"x")],
    "duplicate": [("manifest.json", MANIFEST)],
    "bomb": [("characters/a/images/bomb.png", b"\x00" * (300 * 1024 * 1024))],
    "50mb-entry": [("characters/a/images/big.png", bytes(range(256)) * (50 * 1024 * 4))],
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_byaf_is_refused_and_writes_nothing(bunzai, tmp_path, case):
    path = tmp_path / f"{case}.byaf"
    path.write_bytes(byaf_with(HOSTILE[case]))
    before = snapshot(bunzai.studio)
    done = bunzai("import", str(path))
    assert done.code == 1, done.stdout
    assert done.json["error"]["code"] == "unsafe_archive", done.stdout
    assert "Traceback" not in done.stderr
    assert snapshot(bunzai.studio) == before
