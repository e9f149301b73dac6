"""A SillyTavern user folder holding only `characters/`: a copy of a user folder's cards, or a library
export of cards whose books stay inside them made before bunzai wrote `worlds/` beside them. SillyTavern
asks nothing more of a user folder (src/users.js ensurePublicDirectoriesExist makes every other folder
of USER_DIRECTORY_TEMPLATE empty), so it is read as one: each card records its file (`characters/Bob.png`)
and is shown the sprites of `characters/<its name>/` (`media.pack`). A folder whose `characters/` holds
no card (pictures, sprites alone), or that holds other things beside it, is walked as any folder."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from testkit import v2_card_png

from bunzai.adapters.common import png
from bunzai.adapters.sillytavern.user_folder import is_user_folder

BOOK = {
    "name": "Lore",
    "extensions": {},
    "entries": [{"keys": ["tides"], "content": "Bob knows the tides.", "id": 0, "enabled": True, "extensions": {}}],
}


def cards_alone(root: Path, beside: dict[str, str] | None = None) -> Path:
    """`root/characters/` with Bob's card (his own book inside, bound to no world) and his sprites,
    and the text files `beside` names (relative path -> text) beside them."""
    (root / "characters" / "Bob").mkdir(parents=True)
    (root / "characters" / "Bob.png").write_bytes(v2_card_png("Bob", more={"character_book": BOOK}))
    (root / "characters" / "Bob" / "joy.png").write_bytes(png.default_portrait())
    for relative, text in (beside or {}).items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    return root


def drafts(bunzai, folder: Path) -> dict[str, dict]:
    done = bunzai("import", str(folder))
    assert done.code == 0, done.stdout + done.stderr
    return {f"{line['target']['kind']}/{line['target']['id']}": line["proposed"] for line in done.lines}


def test_a_folder_of_characters_alone_is_read_as_a_user_folder(bunzai, tmp_path):
    # it was walked as any folder: the card recorded `Bob.png`, and was not shown its sprites
    root = cards_alone(tmp_path / "ST")
    assert is_user_folder(root)
    read = drafts(bunzai, root)
    assert sorted(read) == ["character/bob", "lorebook/lore", "pack/bob"]
    assert read["character/bob"]["original"]["source"] == "characters/Bob.png"
    assert read["character/bob"]["body"]["media"]["pack"] == "bob"
    assert read["pack/bob"]["original"]["source"] == "characters/Bob"


def test_an_export_of_cards_alone_without_worlds_comes_back_whole(bunzai, tmp_path):
    # an export made before worlds/ was written beside characters/ holds characters/ alone: the card
    # came back without its sprites (`media.pack`)
    (cards_alone(tmp_path / "ST") / "worlds").mkdir()
    receipts = bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "ST"), check=True).stdout).lines
    assert {receipt["status"] for receipt in receipts} == {"applied"}
    assert bunzai("read", "character/bob", "--pointer", "/body/media/pack", check=True).json["value"] == "bob"
    out = tmp_path / "out"
    bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True)
    (out / "worlds").rmdir()
    assert sorted(path.name for path in out.iterdir()) == ["characters"]
    again = type(bunzai)(bunzai.home, tmp_path / "again")
    again("init", str(again.studio), check=True)
    receipts = again("apply", "--yes", input=again("import", str(out), check=True).stdout).lines
    assert {receipt["status"] for receipt in receipts} == {"applied"}
    for ref in ("character/bob", "lorebook/lore", "pack/bob"):
        body = bunzai("read", ref, check=True).json["piece"]["body"]
        assert again("read", ref, check=True).json["piece"]["body"] == body, ref


@pytest.mark.parametrize(
    "beside",
    [
        pytest.param({"chats/Bob/Bob - 2024.jsonl": "{}"}, id="chats"),
        pytest.param({"User Avatars/me.png": "x"}, id="avatars"),
        pytest.param({"Import in SillyTavern/regex/Trim.json": "[]"}, id="an export's import folder"),
        pytest.param({".DS_Store": "x"}, id="junk"),
    ],
)
def test_what_a_user_folder_holds_may_sit_beside_the_cards(tmp_path, beside):
    root = cards_alone(tmp_path / "ST", beside)
    assert is_user_folder(root)


@pytest.mark.parametrize(
    "beside",
    [
        pytest.param({"notes.txt": "mine"}, id="a file"),
        pytest.param({"drafts/Ann.png": "x"}, id="a folder no user folder has"),
    ],
)
def test_a_folder_holding_more_than_a_user_folder_is_not_one(tmp_path, beside):
    root = cards_alone(tmp_path / "ST", beside)
    assert not is_user_folder(root)


def test_a_characters_folder_without_a_card_is_no_user_folder(bunzai, tmp_path):
    # pictures, a sprite folder, a card SillyTavern does not list (.PNG), a FIFO named .png: no card
    root = tmp_path / "art"
    (root / "characters" / "Bob").mkdir(parents=True)
    (root / "characters" / "Ann.png").write_bytes(png.default_portrait())
    (root / "characters" / "Bob" / "joy.png").write_bytes(png.default_portrait())
    (root / "characters" / "Cid.PNG").write_bytes(v2_card_png("Cid"))
    (root / "characters" / "empty.png").write_bytes(b"")
    os.mkfifo(root / "characters" / "pipe.png")
    assert not is_user_folder(root)
    (root / "characters" / "pipe.png").unlink()
    read = drafts(bunzai, root)  # walked as any folder: the pictures passed over, not errors of a shelf of cards
    assert sorted(read) == ["character/cid", "pack/bob"]
    assert read["character/cid"]["original"]["source"] == "Cid.PNG"


def test_stream_keywords_reads_the_headers_of_a_card_past_its_image():
    card = v2_card_png("Bob")
    big = card[:33] + _chunk(b"IDAT", b"\0" * 200_000) + card[33:]  # the card's text after a large image
    assert png.stream_keywords(io.BytesIO(big)) == frozenset({"chara"})
    assert png.stream_keywords(io.BytesIO(png.default_portrait())) == frozenset()
    assert png.stream_keywords(io.BytesIO(big[:50])) == frozenset()  # cut inside the image: no text reached
    assert png.stream_keywords(io.BytesIO(json.dumps({"name": "Bob"}).encode())) == frozenset()


def _chunk(kind: bytes, body: bytes) -> bytes:
    import struct
    import zlib

    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
