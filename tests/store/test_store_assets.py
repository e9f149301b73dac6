"""Assets: content-addressed, immutable, verified on write and on read."""

from __future__ import annotations

import hashlib

import pytest

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.store.assets import put_asset, read_asset
from bunzai.store.studio import Studio

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))


def test_put_stores_by_hash_and_returns_an_asset_ref(studio: Studio) -> None:
    ref = put_asset(studio, PNG, ".PNG", "image/png")
    sha = hashlib.sha256(PNG).hexdigest()
    assert ref == {"sha256": sha, "ext": "png", "mime": "image/png"}
    assert (studio.assets_dir / f"{sha}.png").read_bytes() == PNG
    assert read_asset(studio, sha, "png") == PNG


def test_storing_the_same_bytes_again_reuses_the_file(studio: Studio) -> None:
    first = put_asset(studio, PNG, "png")
    path = studio.asset_path(first["sha256"], "png")
    inode = path.stat().st_ino
    assert put_asset(studio, PNG, "png") == first
    assert path.stat().st_ino == inode
    assert [p.name for p in studio.assets_dir.iterdir()] == [path.name]


def test_a_damaged_asset_is_refused_on_read_and_repaired_by_put(studio: Studio) -> None:
    ref = put_asset(studio, PNG, "png")
    path = studio.asset_path(ref["sha256"], "png")
    path.write_bytes(b"garbage")
    with pytest.raises(BunzaiError) as caught:
        read_asset(studio, ref["sha256"], "png")
    assert caught.value.code == "corrupt_asset"
    put_asset(studio, PNG, "png")
    assert read_asset(studio, ref["sha256"], "png") == PNG


def test_assets_over_the_limit_are_refused(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "ASSET_MAX_BYTES", 100)
    with pytest.raises(BunzaiError) as caught:
        put_asset(studio, PNG, "png")
    assert caught.value.code == "too_large"
    assert list(studio.assets_dir.iterdir()) == []


def test_missing_assets_and_bad_names_are_refused(studio: Studio, refused) -> None:
    with pytest.raises(BunzaiError) as caught:
        read_asset(studio, "0" * 64, "png")
    assert caught.value.code == "not_found"
    for sha, ext in (("../" + "0" * 61, "png"), ("0" * 64, "p/ng"), ("0" * 64, ""), ("A" * 64, "png")):
        assert refused(lambda sha=sha, ext=ext: read_asset(studio, sha, ext)).code == "invalid_input"
    assert refused(lambda: put_asset(studio, PNG, "../png")).code == "invalid_input"
