"""No write leaves the studio: a folder of the studio replaced by a symlink is refused (issue 17)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bunzai.errors import BunzaiError
from bunzai.store.assets import put_asset
from bunzai.store.exports import write_export, write_export_folder
from bunzai.store.graveyard import bury_piece
from bunzai.store.pieces import create_piece, delete_piece
from bunzai.store.studio import Studio


def piece(piece_id: str = "ada") -> dict:
    return {"kind": "character", "id": piece_id, "name": "Ada"}


def link_out(studio: Studio, folder: Path, outside: Path) -> None:
    """Replace `folder` of the studio by a symlink to an empty folder outside it."""
    outside.mkdir()
    if folder.exists():
        shutil.rmtree(folder)
    os.symlink(outside, folder)


WRITES = {
    "Export": lambda s: write_export(s, "ada", "ada.json", b"{}"),
    "Export (folder)": lambda s: write_export_folder(s, "ada", "Ada", [("joy.png", b"x")]),
    "character": lambda s: create_piece(s, piece("bob")),
    "assets": lambda s: put_asset(s, b"image", "png"),
    "Graveyard": lambda s: bury_piece(s, "character", "ada"),
    ".bunzai": lambda s: create_piece(s, piece("bob")),
}


@pytest.mark.parametrize("folder", sorted(WRITES))
def test_a_symlinked_studio_folder_is_refused_and_nothing_lands_outside(
    studio: Studio, tmp_path: Path, folder: str
) -> None:
    create_piece(studio, piece())
    outside = tmp_path / "outside"
    link_out(studio, studio.root / folder.split(" ")[0], outside)
    with pytest.raises(BunzaiError) as caught:
        WRITES[folder](studio)
    assert caught.value.code == "unsafe_path"
    assert list(outside.iterdir()) == []


def test_a_delete_through_a_symlinked_kind_folder_is_refused(studio: Studio, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "ada.json").write_text('{"kind": "character", "id": "ada", "name": "Ada"}')
    shutil.rmtree(studio.root / "character")
    os.symlink(outside, studio.root / "character")
    with pytest.raises(BunzaiError) as caught:
        delete_piece(studio, "character", "ada")
    assert caught.value.code == "unsafe_path"
    assert (outside / "ada.json").exists()


@pytest.mark.parametrize(
    ("folder_name", "files"),
    [
        ("../Ada", [("joy.png", b"x")]),
        ("Ada", [("../joy.png", b"x")]),
        ("Ada", [("sub/joy.png", b"x")]),
        ("Ada", [(".hidden", b"x")]),
        ("Ada", [("joy.png", b"x"), ("JOY.png", b"y")]),  # one file on a case-insensitive disk
    ],
)
def test_a_folder_export_refuses_names_that_are_not_plain_and_writes_nothing(
    studio: Studio, folder_name, files
) -> None:
    with pytest.raises(BunzaiError) as caught:
        write_export_folder(studio, "ada", folder_name, files)
    assert caught.value.code == "invalid_input"
    assert not studio.export_dir.exists() or list(studio.export_dir.iterdir()) == []


def test_a_folder_export_that_fails_midway_leaves_no_kit_folder(studio: Studio, monkeypatch) -> None:
    import bunzai.store.exports as exports

    calls = []

    def failing(path, data):
        calls.append(path.name)
        if len(calls) == 2:
            raise OSError("disk full")
        return real(path, data)

    real = exports.write_new
    monkeypatch.setattr(exports, "write_new", failing)
    with pytest.raises(OSError):
        write_export_folder(studio, "ada", "Ada", [("joy.png", b"x"), ("neutral.png", b"y")])
    assert list(studio.export_dir.iterdir()) == []


def test_each_call_looks_at_the_folders_again(studio: Studio, tmp_path: Path) -> None:
    # Where a folder sits below the root is worked out once; whether its parts are plain
    # folders is asked of the disk on every call.
    assets = studio.root / "assets"
    assert studio.writable_dir(assets) == assets
    link_out(studio, assets, tmp_path / "outside")
    with pytest.raises(BunzaiError) as caught:
        studio.writable_dir(assets)
    assert caught.value.code == "unsafe_path"
    assert "assets in the studio is a symbolic link" in caught.value.message


def test_a_folder_outside_the_studio_is_refused_by_its_name(studio: Studio, tmp_path: Path) -> None:
    studio.writable_dir(str(studio.root / "character"))  # a string is taken too
    with pytest.raises(BunzaiError) as caught:
        studio.writable_dir(tmp_path / "elsewhere")
    assert caught.value.code == "unsafe_path"
    assert not (tmp_path / "elsewhere").exists()
