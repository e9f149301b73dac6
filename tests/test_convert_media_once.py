"""A crossing of a stored piece reads each of its media from the studio once (read whole and
checked against its hash), however often the writer asks: a Marinara character written anew
asks each sprite for its image's type, then for its bytes."""

from __future__ import annotations

from pathlib import Path

import bunzai.convert as convert
from bunzai.store.assets import put_asset
from bunzai.store.pieces import create_piece, read_stored
from bunzai.store.studio import init_studio
from bunzai.validate import validate_piece
from testkit import v2_card_png


def test_each_medium_is_read_once_per_crossing(tmp_path: Path, monkeypatch) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    faces = [put_asset(studio, v2_card_png(f"Face {n}", seed=n), "png", "image/png") for n in range(5)]
    assets = [{"role": "emotion", "name": f"face{n}", "ext": "png", "asset": ref} for n, ref in enumerate(faces)]
    create_piece(studio, {"kind": "character", "id": "mari", "name": "Mari", "body": {}, "assets": assets})
    piece = validate_piece(read_stored(studio, "character", "mari").data)
    asked: list[str] = []
    real = convert.read_asset

    def counted(studio, sha256, ext):
        asked.append(sha256)
        return real(studio, sha256, ext)

    monkeypatch.setattr(convert, "read_asset", counted)
    crossing = convert.convert_stored_piece(studio, piece, "marinara.character")
    assert sorted(asked) == sorted(ref["sha256"] for ref in faces)
    assert crossing.data.count(b"data:image/png;base64,") == 5
