"""`bunzai art` on a sprite pack shows the face SillyTavern shows first: the file named as the label."""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from pathlib import Path

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(13)


def valid_png(seed: int) -> bytes:
    """A 1x1 PNG whose pixel depends on `seed` (media added from a file is checked)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixel = zlib.compress(bytes((0, seed % 256, 0, 0)))
    return PNG[:8] + chunk(b"IHDR", header) + chunk(b"IDAT", pixel) + chunk(b"IEND", b"")


def _art_sha(bunzai, ref: str) -> str:
    done = bunzai("art", ref, "--out", "face.png", check=True).json
    (bunzai.home / "face.png").unlink()
    return done["sha256"]


def test_a_folder_with_several_neutral_sprites_shows_neutral_png(bunzai, tmp_path):
    # neutral-1.png sorts before neutral.png, so it is read first; SillyTavern still shows neutral.png first
    # (sprites of a label are sorted with the one named exactly as the label at the front).
    folder = tmp_path / "Ada"
    folder.mkdir()
    files = {"joy.png": PNG + b"joy", "neutral-1.png": PNG + b"second", "neutral.png": PNG + b"main"}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    bunzai("apply", "--yes", input=bunzai("import", str(folder), check=True).stdout, check=True)
    pack = bunzai("read", "pack/ada", check=True).json["piece"]["body"]
    assert [item["id"] for item in pack["items"]] == ["joy", "neutral-1", "neutral"]
    assert _art_sha(bunzai, "pack/ada") == hashlib.sha256(files["neutral.png"]).hexdigest()


def test_the_face_shown_is_the_one_an_export_names_as_the_label(bunzai, tmp_path):
    # A pack made in the studio: the item whose id is the face comes second, yet it is the face shown,
    # and the export gives it `neutral.png` so SillyTavern shows the same sprite first.
    images = {"first": valid_png(1), "main": valid_png(2)}
    for name, data in images.items():
        (bunzai.home / f"{name}.png").write_bytes(data)
    items = [
        {"id": "calm", "label": "neutral", "media": "@first.png", "mime": "image/png"},
        {"id": "neutral", "label": "neutral", "media": "@main.png", "mime": "image/png"},
    ]
    pack = {"name": "Nova", "items": items, "default_face": "neutral"}
    created = bunzai("create", "pack", "--input", json.dumps(pack), check=True)
    bunzai("apply", "--yes", input=created.stdout, check=True)
    main = hashlib.sha256(images["main"]).hexdigest()
    assert _art_sha(bunzai, "pack/nova") == main
    receipt = bunzai("export", "pack/nova", "--to", "sillytavern.sprites.folder", check=True).json
    written = Path(bunzai.studio) / receipt["path"]
    assert hashlib.sha256((written / "neutral.png").read_bytes()).hexdigest() == main
    assert (written / "neutral-1.png").read_bytes() == images["first"]
