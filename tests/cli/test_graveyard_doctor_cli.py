"""Through the installed command: `graveyard list` answers the same rows with its revision cache
in place, and `doctor` reports a renamed graveyard entry and repairs an export's leftover temp."""

from __future__ import annotations

import hashlib
import json
import os


def bury(bunzai, name: str) -> str:
    draft = bunzai("create", "character", "--input", json.dumps({"name": name}), check=True)
    piece_id = bunzai("apply", "--yes", input=draft.stdout, check=True).json["target"]["id"]
    return bunzai("bury", piece_id, check=True).json["entry"]


def test_graveyard_list_rows_are_the_files_revisions_listing_after_listing(bunzai):
    entries = [bury(bunzai, name) for name in ("Ada", "Bob")]
    first = bunzai("graveyard", "list", check=True).json
    assert [row["entry"] for row in first["items"]] == entries[::-1]
    for row in first["items"]:
        kind, rest = row["entry"].split("/")
        raw = (bunzai.studio / "Graveyard" / kind / f"{rest}.json").read_bytes()
        assert row["revision"] == hashlib.sha256(raw).hexdigest()
        assert set(row) == {"entry", "kind", "id", "buried_at", "revision"}
    assert bunzai("graveyard", "list", check=True).json == first


def test_doctor_reports_a_renamed_entry_and_repairs_an_exports_temp(bunzai):
    entry = bury(bunzai, "Ada")
    kind, rest = entry.split("/")
    grave = bunzai.studio / "Graveyard" / kind / f"{rest}.json"
    grave.rename(grave.with_name(grave.name.replace("ada@", "eve@")))
    dead = os.fork()
    if dead == 0:
        os._exit(0)
    os.waitpid(dead, 0)
    kit = bunzai.studio / "Export" / "20261130T051500123456Z Kit ada"
    kit.mkdir(parents=True)
    temp = kit / f".ada.json.{dead}-0123456789ab.tmp"
    temp.write_bytes(b"{")
    done = bunzai("doctor", "--repair")
    assert done.code == 1
    assert [row["check"] for row in done.json["problems"]] == ["graveyard"]
    assert done.json["problems"][0]["code"] == "invalid_piece"
    assert done.json["repaired"] == [{"check": "temp_file", "path": str(temp), "action": "removed"}]
    assert not temp.exists() and grave.with_name(grave.name.replace("ada@", "eve@")).exists()
