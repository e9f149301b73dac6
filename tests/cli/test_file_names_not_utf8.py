"""A file whose name is not UTF-8 (Linux allows any bytes; old archives unpack so) imports
like any other: its name's undecodable bytes become U+FFFD wherever the name is kept (a
world's name is its file name; every piece keeps its source), and the draft says so."""

from __future__ import annotations

import json
import os
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
