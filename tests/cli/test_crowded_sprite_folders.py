"""A folder named like a sprite pack but too large for one piece: said by name, and the walk goes on.

Names alone cannot tell a sprite folder from a folder of cards where one card is called
joy.png, so such a folder is walked file by file (its cards still import) and the import
says why it was not read as one pack. In a SillyTavern user folder, where characters/<name>/
is the character's sprites, it is an error for that folder; the rest of the library imports.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from testkit import v2_card_png

from bunzai import files, limits
from bunzai.adapters import inspect
from bunzai.adapters.inspect import claim_folder
from bunzai.changes.imports import Skipped, drafts_from_path
from bunzai.errors import BunzaiError


def _sprite(seed: int) -> bytes:
    """A 1x1 PNG of its own colour, with no card in it."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixel = zlib.compress(b"\0" + bytes((seed % 256, 7, 7)))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixel) + chunk(b"IEND", b"")


def _crowded(folder: Path) -> int:
    """A sprite-named folder with one file more than a folder piece may hold."""
    folder.mkdir(parents=True)
    (folder / "joy.png").write_bytes(_sprite(0))
    for index in range(limits.FOLDER_PIECE_MAX_FILES):
        (folder / f"pose{index:04d}.png").write_bytes(_sprite(index))
    return limits.FOLDER_PIECE_MAX_FILES + 1


def test_a_crowded_sprite_folder_is_named_and_its_sibling_card_still_imports(bunzai, tmp_path):
    library = tmp_path / "library"
    count = _crowded(library / "Mira sprites")
    (library / "Mira.png").write_bytes(v2_card_png("Mira"))
    drafts = bunzai("import", str(library))
    assert drafts.code == 0, drafts.stderr
    assert [line["target"]["id"] for line in drafts.lines] == ["mira"]
    assert (
        f"bunzai: Mira sprites has the file names of a SillyTavern sprite folder but holds {count:,} files, "
        f"over the {limits.FOLDER_PIECE_MAX_FILES:,} a folder read as one piece may hold "
        "(see `bunzai docs read limits`); its files were read one by one, and none is a piece on its own"
    ) in drafts.stderr
    # The note is not a file passed over: the count is of the sprites, each skipped as a loose image.
    assert f"bunzai: skipped {count} file(s) or folder(s): joy.png, pose0000.png" in drafts.stderr


def test_in_a_user_folder_a_crowded_sprite_folder_is_an_error_and_the_card_imports(bunzai, tmp_path):
    root = tmp_path / "default-user"
    (root / "characters").mkdir(parents=True)
    (root / "worlds").mkdir()  # two shelves: a user folder
    (root / "characters" / "Mira.png").write_bytes(v2_card_png("Mira"))
    _crowded(root / "characters" / "Mira")
    drafts = bunzai("import", str(root))
    assert drafts.code == 1
    errors = [line["error"] for line in drafts.lines if "error" in line]
    assert [error["code"] for error in errors] == ["too_large"]
    assert "Mira has the file names of a SillyTavern sprite folder" in errors[0]["message"]
    assert [line["target"]["id"] for line in drafts.lines if "target" in line] == ["mira"]


def test_a_sprite_folder_over_the_byte_limit_does_not_stop_the_walk(tmp_path, monkeypatch):
    # Before, the read's too_large escaped claim_folder and ended the whole walk.
    monkeypatch.setattr(inspect, "FOLDER_PIECE_MAX_BYTES", 100)
    sprites = tmp_path / "library" / "sprites"
    sprites.mkdir(parents=True)
    for index, label in enumerate(("joy", "anger", "sadness")):
        (sprites / f"{label}.png").write_bytes(_sprite(index))
    size = sum(path.stat().st_size for path in sprites.iterdir())
    (tmp_path / "library" / "Mira.png").write_bytes(v2_card_png("Mira"))
    results = {path.name: result for path, result in drafts_from_path(tmp_path / "library")}
    assert isinstance(results["Mira.png"], list)
    assert isinstance(results["sprites"], Skipped) and results["sprites"].told
    assert f"holds {size:,} bytes, over the 100 a folder read as one piece may hold" in results["sprites"].reason
    assert {name for name, result in results.items() if isinstance(result, Skipped) and not result.told} == {
        "joy.png",
        "anger.png",
        "sadness.png",
    }


def test_a_folder_of_cards_named_like_sprites_still_imports_its_cards(tmp_path, monkeypatch):
    # Over a folder piece's limit, a card called joy.png must not make the folder a refused pack.
    monkeypatch.setattr(inspect, "FOLDER_PIECE_MAX_BYTES", 100)
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "joy.png").write_bytes(v2_card_png("Joy"))
    (cards / "mira.png").write_bytes(v2_card_png("Mira", seed=3))
    notes: list[str] = []
    assert claim_folder(cards, notes) == (None, {}) and len(notes) == 1
    results = list(drafts_from_path(cards))
    assert {draft["target"]["id"] for _, result in results if isinstance(result, list) for draft in result} == {
        "joy",
        "mira",
    }
    assert not any(isinstance(result, Skipped) for _, result in results)  # cards imported: no note on the folder


def test_a_file_too_large_to_read_leaves_the_rest_of_its_folder_to_the_walk(tmp_path, monkeypatch):
    # A sprite folder whose one file is over the per-file limit cannot be read as one piece
    # (before, that error ended the whole walk); its other files are read one by one, the
    # large one is refused with its own error, and the folder beside it still imports.
    monkeypatch.setattr(files.read_file_bytes, "__defaults__", (1000,))
    sprites = tmp_path / "library" / "sprites"
    sprites.mkdir(parents=True)
    (sprites / "joy.png").write_bytes(_sprite(1))
    (sprites / "sadness.png").write_bytes(_sprite(2))
    (sprites / "anger.png").write_bytes(_sprite(3) + bytes(1500))
    (tmp_path / "library" / "Ada.png").write_bytes(v2_card_png("Ada", seed=5))
    results = {path.name: result for path, result in drafts_from_path(tmp_path / "library")}
    assert isinstance(results["Ada.png"], list)
    assert isinstance(results["anger.png"], BunzaiError) and results["anger.png"].code == "too_large"
    assert isinstance(results["joy.png"], Skipped) and isinstance(results["sadness.png"], Skipped)
    assert "sprites" not in results


def test_a_folder_its_names_claim_and_its_bytes_do_not_is_listed_once_and_read_once(tmp_path, monkeypatch):
    # Cards called joy.png and mira.png: the names look like sprites, so the folder is read
    # whole to sniff its bytes, which hold cards. Its walk then uses those bytes; before, it
    # listed the folder three times and read every file twice.
    from bunzai.changes import imports

    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "joy.png").write_bytes(v2_card_png("Joy"))
    (cards / "mira.png").write_bytes(v2_card_png("Mira", seed=3))
    reads: list[str] = []
    listings: list[str] = []
    real_read, real_list = files.read_file_bytes, files.list_folder

    def read(path, *args):
        reads.append(Path(path).name)
        return real_read(path, *args)

    def listing(folder, unreadable=None):
        listings.append(Path(folder).name)
        return real_list(folder, unreadable)

    for module in (inspect, imports):
        monkeypatch.setattr(module, "read_file_bytes", read)
        monkeypatch.setattr(module, "list_folder", listing)
    results = list(drafts_from_path(cards))
    assert sorted(draft["target"]["id"] for _, result in results for draft in result) == ["joy", "mira"]
    assert sorted(reads) == ["joy.png", "mira.png"] and listings == ["cards"]


def test_a_fifo_in_a_sprite_folder_is_not_counted_among_its_files(tmp_path, monkeypatch):
    # A FIFO is no part of a pack (the read takes regular files only), so it does not push a
    # folder with as many sprites as the limit over it.
    import os

    monkeypatch.setattr(inspect, "FOLDER_PIECE_MAX_FILES", 2)
    sprites = tmp_path / "sprites"
    sprites.mkdir()
    (sprites / "joy.png").write_bytes(_sprite(1))
    (sprites / "sadness.png").write_bytes(_sprite(2))
    os.mkfifo(sprites / "anger.png")
    notes: list[str] = []
    adapter, contents = claim_folder(sprites, notes)
    assert adapter is not None and adapter.format_id == "sillytavern.sprites.folder"
    assert sorted(contents) == ["joy.png", "sadness.png"] and notes == []
