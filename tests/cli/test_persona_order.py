"""Personas read from one SillyTavern backup (or settings.json) keep their order: a library
export writes them back as one backup, in the order of the file they came from."""

from __future__ import annotations

import json

BACKUP = {
    "personas": {"zed.png": "Zed", "1712345678901-Ada.png": "Ada", "mia.png": "Mia"},
    "persona_descriptions": {
        "zed.png": {"description": "Zed walks.", "position": 0, "depth": 2, "role": 0},
        "1712345678901-Ada.png": {
            "description": "Ada counts.",
            "position": 4,
            "depth": 3,
            "role": 1,
            "connections": [{"type": "character", "id": "x.png"}],
        },
        "mia.png": {"description": "Mia sings.", "position": 2, "depth": 2, "role": 0, "title": "singer"},
    },
    "default_persona": "mia.png",
}


def test_a_backup_of_several_personas_exports_back_in_its_order(bunzai, tmp_path):
    path = tmp_path / "personas_20260101.json"
    path.write_text(json.dumps(BACKUP, indent=2), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(path), check=True).stdout, check=True)
    out = tmp_path / "ST"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True).json
    paths = {entry["path"] for entry in report["written"]}
    assert paths == {"Import in SillyTavern/personas/personas_20260101.json"}
    written = json.loads((out / "Import in SillyTavern/personas/personas_20260101.json").read_text(encoding="utf-8"))
    assert list(written["personas"]) == list(BACKUP["personas"])  # Zed, Ada, Mia: not by id or name
    assert list(written["persona_descriptions"]) == list(BACKUP["persona_descriptions"])
    assert written == BACKUP


def test_each_persona_of_a_backup_records_its_place():
    from bunzai.changes.imports import drafts_from_bytes
    from pathlib import Path

    drafts = drafts_from_bytes(json.dumps(BACKUP).encode(), "personas.json", source=Path("/x/personas.json"))
    sources = [draft["proposed"]["original"]["source"] for draft in drafts]
    assert sources == ["personas.json#0", "personas.json#1", "personas.json#2"]
