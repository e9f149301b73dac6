"""`bunzai export --into DIR --layout ...` refuses a DIR that is the studio or inside it.

The layout's folders (`characters/`, `worlds/` ...) written among the studio's own would leave
the studio unclean (doctor reports `Graveyard/characters` as no kind folder) or put files under
`.bunzai/`; only apply and export write there. A folder of its own under the studio's Export/
is where exports go, so it is taken.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def files_of(root: Path) -> dict[str, bytes]:
    skip = (".bunzai/index", ".bunzai/locks")
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.relative_to(root).as_posix().startswith(skip)
    }


@pytest.fixture
def stocked(bunzai):
    made = bunzai("create", "character", "--input", '{"name": "Ada Lovelace"}', check=True).stdout
    bunzai("apply", "--yes", input=made, check=True)
    bunzai("bury", "character/ada-lovelace", check=True)
    made = bunzai("create", "character", "--input", '{"name": "Grace Hopper"}', check=True).stdout
    bunzai("apply", "--yes", input=made, check=True)
    return bunzai


@pytest.mark.parametrize("inside", ["", "Graveyard", "character", ".bunzai", "assets/new", "Export"])
@pytest.mark.parametrize("layout", ["sillytavern", "textgen"])
def test_a_folder_in_the_studio_is_refused_and_nothing_is_written(stocked, inside, layout):
    studio = stocked.studio
    before = files_of(studio)
    done = stocked("export", "--into", str(studio / inside) if inside else str(studio), "--layout", layout)
    assert done.code == 1
    error = done.json["error"]
    assert error["code"] == "invalid_input" and "studio" in error["message"] and error["hint"]
    assert files_of(studio) == before
    assert stocked("doctor").json["clean"] is True


def test_a_link_to_the_studio_is_the_studio(stocked, tmp_path):
    link = tmp_path / "elsewhere"
    os.symlink(stocked.studio / "Graveyard", link)
    done = stocked("export", "--into", str(link), "--layout", "sillytavern")
    assert done.code == 1 and done.json["error"]["code"] == "invalid_input"
    assert sorted(p.name for p in (stocked.studio / "Graveyard").iterdir()) == ["character"]


def test_a_folder_of_its_own_under_export_and_one_outside_are_written(stocked, tmp_path):
    for into in (stocked.studio / "Export" / "library", tmp_path / "ST"):
        done = stocked("export", "--into", str(into), "--layout", "sillytavern", check=True)
        assert done.json["counts"]["written"] == 1
        assert (into / "characters" / "Grace Hopper.png").is_file()
    assert stocked("doctor").json["clean"] is True


def test_one_export_is_not_written_into_another_s_folder_under_export(stocked):
    # a single-piece export's kit folder, and a folder inside an earlier --into folder, are another export's
    exports = stocked.studio / "Export"
    kit = Path(
        stocked.studio / stocked("export", "grace-hopper", "--to", "sillytavern.card.json", check=True).json["path"]
    )
    library = exports / "library"
    stocked("export", "--into", str(library), "--layout", "sillytavern", check=True)
    before = files_of(stocked.studio)
    for into in (kit.parent, kit.parent / "more", library / "characters", exports / "new" / "sub"):
        done = stocked("export", "--into", str(into), "--layout", "sillytavern")
        assert done.code == 1, into
        error = done.json["error"]
        assert error["code"] == "invalid_input" and error["message"].startswith(f"{into} is ") and error["hint"]
        assert f"a new folder directly under {exports}" in error["hint"]
    assert files_of(stocked.studio) == before
    done = stocked("export", "--into", str(library / "characters"), "--layout", "textgen")
    assert done.json["error"]["hint"].startswith(f"export into {library} itself")
    # a folder two down under Export/ whose parent no export made is only too deep, not inside another's
    done = stocked("export", "--into", str(exports / "new" / "sub"), "--layout", "sillytavern")
    assert done.json["error"]["message"].startswith(f"{exports / 'new' / 'sub'} is not directly under {exports}")
    assert done.json["error"]["hint"].startswith(f"export into {exports / 'new'}, ")
    again = stocked("export", "--into", str(library), "--layout", "sillytavern", check=True)  # its own folder, again
    assert again.json["counts"]["skipped_existing"] == 1 and files_of(stocked.studio) == before
    assert stocked("doctor").json["clean"] is True
