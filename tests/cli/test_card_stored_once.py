"""A card PNG is stored once: its portrait as a file, the original (escrowed for a lossless write
back) as a splice of it, and the card written back is the same file, byte for byte."""

from __future__ import annotations

import base64
import json
import random
import struct
import zlib
from pathlib import Path

from testkit import corpus_path, v2_card_png

from bunzai import limits
from bunzai.adapters.common.png import PNG_SIGNATURE, text_chunk


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def big_card(name: str, side: int = 64) -> bytes:
    """A V2 card whose `chara` chunk comes before a noisy side x side image (as some editors
    write it): the portrait is the file without the middle of it."""
    noise = random.Random(side)
    rows = b"".join(b"\0" + bytes(noise.randrange(256) for _ in range(side * 3)) for _ in range(side))
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": name, "description": "big"}}
    text = base64.b64encode(json.dumps(card).encode("utf-8"))
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
        + text_chunk("chara", text)
        + _chunk(b"IDAT", zlib.compress(rows))
        + _chunk(b"IEND", b"")
    )


def _stored(bunzai) -> dict[str, int]:
    return {path.name: path.stat().st_size for path in (bunzai.studio / "assets").iterdir()}


def _exported(bunzai, ref: str) -> bytes:
    done = bunzai("export", ref, "--to", "sillytavern.card.png", check=True).lines[-1]
    return (bunzai.studio / done["path"]).read_bytes()


def test_a_card_with_a_big_portrait_is_stored_once_and_written_back_as_it_was(bunzai) -> None:
    card = bunzai.home / "nova.png"
    card.write_bytes(big_card("Nova"))
    bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
    portrait = bunzai("read", "nova", check=True).json["piece"]["body"]["portrait"]
    stored = _stored(bunzai)
    spliced = [name for name in stored if name.endswith(".png.splice")]
    assert sorted(stored) == sorted([f"{portrait['sha256']}.png", *spliced]) and len(spliced) == 1
    assert stored[f"{portrait['sha256']}.png"] >= limits.ASSET_SPLICE_MIN_BYTES
    assert sum(stored.values()) < card.stat().st_size + 300  # once, and a short header
    assert _exported(bunzai, "nova") == card.read_bytes()
    assert bunzai("doctor", check=True).json["clean"]


def test_a_card_with_a_small_portrait_keeps_both_files_plain(bunzai) -> None:
    card = bunzai.home / "ada.png"
    card.write_bytes(v2_card_png("Ada"))
    bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
    stored = _stored(bunzai)
    assert len(stored) == 2 and all(name.endswith(".png") for name in stored)
    assert _exported(bunzai, "ada") == card.read_bytes()


def test_seraphina_takes_her_file_size_on_disk_not_twice_it(bunzai) -> None:
    card = corpus_path("sillytavern", "characters", "default_Seraphina.png")
    bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
    assert sum(_stored(bunzai).values()) < card.stat().st_size * 1.01
    assert _exported(bunzai, "seraphina") == Path(card).read_bytes()
    assert bunzai("doctor", check=True).json["clean"]
