"""A file whose name is not UTF-8 (Linux allows any bytes; old archives unpack so) imports
like any other: its name's undecodable bytes become U+FFFD wherever the name is kept (a
world's name is its file name, a sprite's label its file's; every piece keeps its source),
the draft says so, and the file is still read by its own name."""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bunzai.files import text_name
from testkit import v2_card_png

WORLD = {
    "entries": {
        "0": {
            "uid": 0,
            "key": ["harbour"],
            "keysecondary": [],
            "comment": "The harbour",
            "content": "Boats come in at dawn.",
            "constant": False,
            "selective": True,
            "order": 100,
            "position": 0,
            "disable": False,
        }
    }
}


@given(st.binary(min_size=1, max_size=40).filter(lambda raw: b"/" not in raw and b"\0" not in raw))
def test_a_file_name_as_text_is_its_bytes_read_as_utf8_with_replacement(raw: bytes) -> None:
    name = os.fsdecode(raw)  # what os.listdir and Path give for these bytes
    text = text_name(name)
    assert text == raw.decode("utf-8", "replace")
    text.encode("utf-8")  # storable
    if text == name:
        assert raw.decode("utf-8", "strict") == name


def test_a_name_python_did_not_take_from_a_file_system_is_mended_too() -> None:
    assert text_name("half \ud83d an emoji") == "half \ufffd an emoji"
    assert text_name("Éloïse.png") == "Éloïse.png"


def _in(folder: Path, raw_name: bytes) -> Path:
    """`folder`/`raw_name`, a name that is not UTF-8 (as os.listdir would give it back)."""
    folder.mkdir(parents=True, exist_ok=True)
    return Path(os.fsdecode(bytes(folder) + b"/" + raw_name))


def test_a_folder_of_such_files_imports_and_applies_whole(bunzai, tmp_path: Path) -> None:
    _in(tmp_path / "library", b"Mir\xe9.png").write_bytes(v2_card_png("Mira"))
    _in(tmp_path / "library", b"Eld\xf6ria.json").write_text(json.dumps(WORLD), encoding="utf-8")
    drafts = bunzai("import", str(tmp_path / "library"))
    assert drafts.code == 0, drafts.stderr
    lines = [json.loads(line) for line in drafts.stdout.splitlines()]
    warnings = [w for draft in lines for op in draft["operations"] for w in op["warnings"]]
    assert sum("not UTF-8" in w for w in warnings) == 2
    applied = bunzai("apply", "--yes", input=drafts.stdout)
    receipts = [json.loads(line) for line in applied.stdout.splitlines()]
    assert [r["status"] for r in receipts] == ["applied", "applied"], applied.stdout
    world = next(r["target"] for r in receipts if r["target"]["kind"] == "lorebook")
    read = bunzai("read", f"lorebook/{world['id']}").json["piece"]
    assert read["name"] == "Eld\ufffdria"
    assert read["original"]["source"] == "Eld\ufffdria.json"
    card = bunzai("read", "character/mira", "--pointer", "/original/source")
    assert card.json["value"] == "Mir\ufffd.png"


def test_a_user_folders_sources_are_mended_the_same_way(bunzai, tmp_path: Path) -> None:
    root = tmp_path / "default-user"
    _in(root / "worlds", b"Eld\xf6ria.json").write_text(json.dumps(WORLD), encoding="utf-8")
    _in(root / "characters", b"Mira.png").write_bytes(v2_card_png("Mira"))
    drafts = bunzai("import", str(root))
    assert drafts.code == 0, drafts.stderr
    applied = bunzai("apply", "--yes", input=drafts.stdout)
    receipts = [json.loads(line) for line in applied.stdout.splitlines()]
    assert receipts and all(r["status"] == "applied" for r in receipts), applied.stdout
    sources = {
        bunzai("read", f"{r['target']['kind']}/{r['target']['id']}", "--pointer", "/original/source").json["value"]
        for r in receipts
    }
    assert "worlds/Eld\ufffdria.json" in sources and "characters/Mira.png" in sources


def _sprite(seed: int) -> bytes:
    """A 1x1 PNG of its own colour, with no card in it."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixel = zlib.compress(b"\0" + bytes((seed, 255 - seed, 7)))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixel) + chunk(b"IEND", b"")


def test_a_sprite_folder_with_such_a_file_imports_and_reads_the_file_by_its_own_name(bunzai, tmp_path) -> None:
    folder = tmp_path / "Mira"
    _in(folder, b"joy.png").write_bytes(_sprite(1))
    _in(folder, b"f\xe9lin.png").write_bytes(_sprite(2))
    drafts = bunzai("import", str(folder))
    assert drafts.code == 0, drafts.stdout + drafts.stderr
    assert any("not UTF-8" in w for w in json.loads(drafts.stdout)["operations"][0]["warnings"])
    applied = bunzai("apply", "--yes", input=drafts.stdout)
    assert json.loads(applied.stdout)["status"] == "applied", applied.stdout
    items = bunzai("read", "pack/mira", "--pointer", "/body/items").json["value"]
    label = {item["label"]: item["asset"]["sha256"] for item in items}
    assert set(label) == {"f\ufffdlin", "joy"}
    stored = bunzai.studio / "assets" / (label["f\ufffdlin"] + ".png")
    assert stored.read_bytes() == _sprite(2)


def test_two_names_that_differ_only_in_such_bytes_are_refused(bunzai, tmp_path) -> None:
    folder = tmp_path / "Mira"
    _in(folder, b"joy.png").write_bytes(_sprite(3))
    _in(folder, b"f\xe9lin.png").write_bytes(_sprite(1))
    _in(folder, b"f\xe8lin.png").write_bytes(_sprite(2))
    done = bunzai("import", str(folder))
    assert done.code == 1 and done.json["error"]["code"] == "invalid_input", done.stdout
    assert "not UTF-8" in done.json["error"]["message"]
