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


def test_personas_from_two_files_of_one_name_are_written_as_two_backups(bunzai, tmp_path):
    # Both files are personas.json and both key a persona by user.png: one backup holding
    # both would keep only the last (SillyTavern keys personas by their avatar file).
    for folder, (first, second, default) in {"a": ("Ada", "Xa", "user.png"), "b": ("Bea", "Yb", "y.png")}.items():
        (tmp_path / folder).mkdir()
        other = "x.png" if folder == "a" else "y.png"
        backup = {
            "personas": {"user.png": first, other: second},
            "persona_descriptions": {
                "user.png": {"description": f"{first} speaks.", "position": 0},
                other: {"description": f"{second} waits.", "position": 0},
            },
            "default_persona": default,
        }
        (tmp_path / folder / "personas.json").write_text(json.dumps(backup), encoding="utf-8")
    drafts = bunzai("import", str(tmp_path / "a"), str(tmp_path / "b"), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    out = tmp_path / "ST"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True).json
    assert report["counts"]["written"] == 4
    folder = out / "Import in SillyTavern/personas"
    written = {path.name: json.loads(path.read_text(encoding="utf-8")) for path in folder.iterdir()}
    assert sorted(written) == ["personas-2.json", "personas.json"]
    names = sorted(sorted(backup["personas"].values()) for backup in written.values())
    assert names == [["Ada", "Xa"], ["Bea", "Yb"]]
    assert {backup["default_persona"] for backup in written.values()} == {"user.png", "y.png"}
    by_ref = {entry["ref"]: entry["path"].rpartition("/")[2] for entry in report["written"]}
    assert by_ref["persona/ada"] != by_ref["persona/bea"]
    assert any("personas-2.json" in note for note in report["notes"])


def test_personas_of_two_same_named_files_split_alike_whatever_order_they_are_named_in(bunzai, tmp_path):
    for folder, name, other in (("a", "Ada", "Xa"), ("b", "Bea", "Yb")):
        (tmp_path / folder).mkdir()
        avatars = {"user.png": name, f"{other}.png": other}
        backup = {"personas": avatars, "persona_descriptions": {key: {"description": n} for key, n in avatars.items()}}
        (tmp_path / folder / "personas.json").write_text(json.dumps(backup), encoding="utf-8")
    drafts = bunzai("import", str(tmp_path / "a"), str(tmp_path / "b"), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    for order, refs in enumerate((["persona/bea", "persona/ada"], ["bea", "persona/ada", "persona/bea"])):
        out = tmp_path / f"ST{order}"
        report = bunzai("export", "--into", str(out), "--layout", "sillytavern", *refs, check=True).json
        paths = {entry["ref"]: entry["path"].rpartition("/")[2] for entry in report["written"]}
        assert paths == {"persona/ada": "personas.json", "persona/bea": "personas-2.json"}  # by place, then id
        assert report["counts"]["written"] == 2  # bea named twice is written once
