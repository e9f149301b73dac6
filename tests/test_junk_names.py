"""An editor's leftovers are passed over by every walk, named with a dot or not: Emacs's backup
(`notes.txt~`) and auto-save (`#notes.txt#`) as its lock (`.#notes.txt`) and vim's swap file
(`.notes.txt.swp`) are, and so are the files Windows's Explorer leaves (`Thumbs.db`, `desktop.ini`).
A name that only holds a `~` or a `#` is someone's file."""

from __future__ import annotations

from bunzai.files import is_junk_file, list_folder, walk_files

# vim's swap file beside its file, and in a swap folder (`directory=~/.vim/swap//`), named by its path
LEFTOVERS = (
    "Seraphina.png~",
    "#Eldoria.json#",
    ".#Eldoria.json",
    ".Eldoria.json.swp",
    "%home%ana%Eldoria.json.swp",
    ".Eldoria.json~",
    "Thumbs.db",
    "desktop.ini",
    "Desktop.ini",
)
KEPT = (
    "#1 hero.png",
    "hero#.png",
    "notes~draft.txt",
    "~notes.txt",
    "#",
    "##",
    "Eldoria.json",
    ".hack.png",
    "Thumbs.db.json",
    "desktop.png",
)


def test_leftovers_with_and_without_a_dot_are_junk_and_the_rest_are_not() -> None:
    assert [name for name in LEFTOVERS if not is_junk_file(name)] == []
    assert [name for name in KEPT if is_junk_file(name)] == []


def test_walks_and_listings_pass_over_an_editors_leftovers(tmp_path) -> None:
    (tmp_path / "worlds").mkdir()
    for name in LEFTOVERS + KEPT:
        (tmp_path / "worlds" / name).write_text("{}")
    expected = sorted(KEPT)
    assert [path.name for path in walk_files(tmp_path, dot_files=True)] == expected
    assert [path.name for path in list_folder(tmp_path / "worlds")[0]] == expected
    assert [path.name for path in walk_files(tmp_path)] == [name for name in expected if not name.startswith(".")]
