"""Hostile files give a coded error through `bunzai import` and change nothing in the studio."""

from __future__ import annotations

import base64
import io
import json
import struct
import zipfile
import zlib
from pathlib import Path

import pytest

CARD = {
    "spec": "chara_card_v2",
    "spec_version": "2.0",
    "data": {
        "name": "Tess",
        "description": "",
        "personality": "",
        "scenario": "",
        "first_mes": "Hi.",
        "mes_example": "",
        "creator_notes": "",
        "system_prompt": "",
        "post_history_instructions": "",
        "alternate_greetings": [],
        "tags": [],
        "creator": "",
        "character_version": "",
        "extensions": {},
    },
}


def chunk(kind: bytes, data: bytes, crc: int | None = None) -> bytes:
    crc = zlib.crc32(kind + data) if crc is None else crc
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png(*extra: bytes) -> bytes:
    header = chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
    pixels = chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00"))
    return b"\x89PNG\r\n\x1a\n" + header + b"".join(extra) + pixels + chunk(b"IEND", b"")


def chara(payload: bytes) -> bytes:
    return chunk(b"tEXt", b"chara\x00" + payload)


GOOD = png(chara(base64.b64encode(json.dumps(CARD).encode())))


def hostile_files() -> dict[str, bytes]:
    text = b"chara\x00" + base64.b64encode(json.dumps(CARD).encode())
    deep = ("[" * 10_000 + "]" * 10_000).encode()
    return {
        "truncated.png": GOOD[: len(GOOD) // 2],
        "bad-crc.png": png(chunk(b"tEXt", text, crc=0xDEADBEEF)),
        "invalid-base64.png": png(chara(b"!!!not base64!!!")),
        "invalid-utf8.png": png(chara(base64.b64encode(b"\xff\xfe\xfd{"))),
        "deep.png": png(chara(base64.b64encode(deep))),
        "deep.json": deep,
        "invalid-utf8.json": b'{"name": "\xff"}',
    }


def snapshot(studio: Path) -> list:
    return sorted(
        (p.relative_to(studio).as_posix(), p.read_bytes() if p.is_file() else b"")
        for p in studio.rglob("*")
        if ".bunzai/locks" not in p.as_posix()
    )


def needs_card_format():
    from bunzai.adapters.registry import all_adapters

    if "sillytavern.card.png" not in {a.format_id for a in all_adapters()}:
        pytest.skip("the sillytavern.card.png format is not registered")


def test_the_well_formed_card_imports(bunzai, tmp_path):
    needs_card_format()
    path = tmp_path / "good.png"
    path.write_bytes(GOOD)
    drafts = bunzai("import", str(path), check=True).lines
    assert drafts[0]["proposed"]["name"] == "Tess"


@pytest.mark.parametrize("name", sorted(hostile_files()))
def test_a_hostile_file_gives_a_coded_error_and_writes_nothing(bunzai, tmp_path, name):
    needs_card_format()
    path = tmp_path / name
    path.write_bytes(hostile_files()[name])
    before = snapshot(bunzai.studio)
    done = bunzai("import", str(path))
    assert done.code == 1, done.stdout
    assert done.json["error"]["code"] in ("corrupt_file", "too_deep", "invalid_json"), done.stdout
    assert "Traceback" not in done.stderr
    assert snapshot(bunzai.studio) == before


def test_a_huge_text_chunk_is_refused(bunzai, tmp_path):
    needs_card_format()
    path = tmp_path / "huge.png"
    with path.open("wb") as handle:  # 100 MB of text chunk, written without holding it twice
        handle.write(png(chunk(b"tEXt", b"chara\x00" + b"A" * (100 * 1024 * 1024))))
    done = bunzai("import", str(path))
    assert done.code == 1
    assert done.json["error"]["code"] in ("too_large", "corrupt_file")


def zip_with(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


@pytest.mark.parametrize(
    "members",
    [
        [("card.json", json.dumps(CARD).encode()), ("../escape.txt", b"x")],
        [("card.json", json.dumps(CARD).encode()), ("/etc/passwd", b"x")],
        [("card.json", json.dumps(CARD).encode()), ("assets/bomb.bin", b"\x00" * (300 * 1024 * 1024))],
    ],
    ids=["dotdot", "absolute", "bomb"],
)
def test_a_hostile_charx_is_refused(bunzai, tmp_path, members):
    from bunzai.adapters.registry import all_adapters

    if not any(a.container == "archive" and "character" in a.kinds for a in all_adapters()):
        pytest.skip("no CHARX format is registered")
    path = tmp_path / "hostile.charx"
    path.write_bytes(zip_with(members))
    before = snapshot(bunzai.studio)
    done = bunzai("import", str(path))
    assert done.code == 1
    assert done.json["error"]["code"] == "unsafe_archive"
    assert snapshot(bunzai.studio) == before
