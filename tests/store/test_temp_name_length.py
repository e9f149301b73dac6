"""A file whose name the file system takes (up to 255 bytes) can be written, though its temp file
(`.<name>.<pid>-<random>.tmp`, 26 bytes longer) would pass that limit: the temp file's copy of the
name is cut to fit. It was refused as "File name too long", naming a name the system takes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bunzai.files import is_exact_temp_name
from bunzai.limits import FILE_NAME_MAX_BYTES
from bunzai.store import atomic
from bunzai.store.exports import write_export_folder
from bunzai.store.faults import meant_path
from bunzai.store.studio import init_studio


def long_name(stem: str, suffix: str, size: int = FILE_NAME_MAX_BYTES) -> str:
    """`stem` repeated to a name of at most `size` UTF-8 bytes ending in `suffix`."""
    name = ""
    while len((name + stem + suffix).encode("utf-8")) <= size:
        name += stem
    return name + suffix


@pytest.mark.parametrize("stem", ["a", "é", "雪", "🐉"])
@pytest.mark.parametrize("write", [atomic.write_new, atomic.replace_file])
def test_a_name_the_file_system_takes_is_written(tmp_path: Path, stem: str, write) -> None:
    name = long_name(stem, ".json")
    (tmp_path / "probe").write_bytes(b"")
    os.rename(tmp_path / "probe", tmp_path / name)  # the file system takes the name itself
    os.unlink(tmp_path / name)
    write(tmp_path / name, b"{}")
    assert (tmp_path / name).read_bytes() == b"{}" and os.listdir(tmp_path) == [name]


@pytest.mark.parametrize("stem", ["a", "é", "雪", "🐉", "b🐉"])
def test_a_cut_temp_name_is_still_a_temp_name_and_fits(tmp_path: Path, monkeypatch, stem: str) -> None:
    made = []
    real_open = os.open

    def open_(path, flags, *args, **kwargs):
        made.append(os.path.basename(os.fspath(path)))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(atomic.os, "open", open_)
    name = long_name(stem, ".png")
    temp = atomic.write_temp(tmp_path / name, b"x")
    assert temp.name == made[0] and len(temp.name.encode("utf-8")) <= FILE_NAME_MAX_BYTES
    assert is_exact_temp_name(temp.name) and atomic.temp_writer(temp.name) == os.getpid()
    assert temp.name.startswith("." + name[:10])
    assert meant_path(str(temp)) == str(tmp_path)  # the name it was cut from is not known: its folder
    short = atomic.write_temp(tmp_path / "Ada.png", b"x")
    assert meant_path(str(short)) == str(tmp_path / "Ada.png")


def test_a_sprite_of_a_long_name_is_exported(tmp_path: Path) -> None:
    studio, _ = init_studio(tmp_path / "studio")
    name = long_name("joy", ".png")
    folder = write_export_folder(studio, "pack", "Ada", [(name, b"png")])
    assert (folder / name).read_bytes() == b"png"
