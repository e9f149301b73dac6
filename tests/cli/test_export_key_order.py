"""A file goes back out in the order it came in: the studio sorts a piece file's keys, and
records the escrow's own key order beside it (bunzai.model.key_order).

A SillyTavern world keeps its entries' keys in the order SillyTavern made them, not sorted;
exported from the studio, an unedited world is the file it was, and a one-field edit is a
one-line diff."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

# As SillyTavern writes a world: JSON.stringify(world, null, 4), keys in the order its
# entry template has them, entries keyed by uid in number order ("10" after "9").
ENTRY = {
    "uid": 0,
    "key": ["gate"],
    "keysecondary": [],
    "comment": "Gate",
    "content": "The old gate.",
    "constant": False,
    "vectorized": False,
    "selective": True,
    "selectiveLogic": 0,
    "addMemo": True,
    "order": 100,
    "position": 0,
    "disable": False,
    "excludeRecursion": False,
    "probability": 100,
    "useProbability": True,
    "depth": 4,
    "group": "",
    "displayIndex": 0,
    "characterFilter": {"isExclude": False, "names": [], "tags": []},
}
WORLD = {
    "entries": {str(uid): {**ENTRY, "uid": uid, "displayIndex": uid, "content": f"Gate {uid}."} for uid in range(12)},
    "name": "Old Gates",
}
ST_TEXT = json.dumps(WORLD, indent=4, ensure_ascii=False)


def _apply(bunzai, drafts: str) -> dict:
    return json.loads(bunzai("apply", "--yes", input=drafts, check=True).stdout.splitlines()[0])


def _export(bunzai, piece_id: str) -> str:
    receipt = bunzai("export", piece_id, "--to", "sillytavern.world", check=True).json
    return (bunzai.studio / receipt["path"]).read_text(encoding="utf-8")


def test_an_unedited_world_exports_as_the_file_it_was(bunzai, tmp_path: Path) -> None:
    path = tmp_path / "Old Gates.json"
    path.write_text(ST_TEXT, encoding="utf-8")
    piece_id = _apply(bunzai, bunzai("import", str(path), check=True).stdout)["target"]["id"]
    stored = (bunzai.studio / "lorebook" / f"{piece_id}.json").read_text(encoding="utf-8")
    assert '"key_order"' in stored  # the piece file itself is sorted
    assert _export(bunzai, piece_id) == ST_TEXT


def test_an_edit_is_one_line_of_the_export_and_a_revert_gives_the_file_back(bunzai, tmp_path: Path) -> None:
    path = tmp_path / "Old Gates.json"
    path.write_text(ST_TEXT, encoding="utf-8")
    piece_id = _apply(bunzai, bunzai("import", str(path), check=True).stdout)["target"]["id"]
    piece_file = bunzai.studio / "lorebook" / f"{piece_id}.json"
    imported = piece_file.read_bytes()
    edit = {"uid": 10, "set": {"content": "A new gate."}}
    draft = bunzai("cap", "run", "lorebook.entries.update", piece_id, "--input", json.dumps(edit), check=True)
    receipt = _apply(bunzai, draft.stdout)
    assert receipt["status"] == "applied"
    changed = [
        line
        for line in difflib.unified_diff(ST_TEXT.splitlines(), _export(bunzai, piece_id).splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    assert changed == ['-            "content": "Gate 10.",', '+            "content": "A new gate.",']
    # The revert stores the revision the edit replaced, from the store's own (sorted) copy.
    log = (bunzai.studio / ".bunzai" / "changes.jsonl").read_text(encoding="utf-8").splitlines()
    session = json.loads(log[-1])["session"]
    rows = bunzai("revert", "--session", session, check=True).json
    assert [row["status"] for row in rows["changes"]] == ["reverted"], rows
    assert piece_file.read_bytes() == imported
    assert _export(bunzai, piece_id) == ST_TEXT


def test_a_native_export_keeps_the_order_too(bunzai, tmp_path: Path) -> None:
    path = tmp_path / "Old Gates.json"
    path.write_text(ST_TEXT, encoding="utf-8")
    piece_id = _apply(bunzai, bunzai("import", str(path), check=True).stdout)["target"]["id"]
    receipt = bunzai("export", piece_id, "--to", "bunzai.native", check=True).json
    native = bunzai.studio / receipt["path"]
    out = tmp_path / "again.json"
    bunzai("convert", str(native), "--to", "sillytavern.world", "-o", str(out), check=True)
    assert out.read_text(encoding="utf-8") == ST_TEXT


def test_a_saved_draft_keeps_the_order(bunzai, tmp_path: Path) -> None:
    path = tmp_path / "Old Gates.json"
    path.write_text(ST_TEXT, encoding="utf-8")
    piece_id = _apply(bunzai, bunzai("import", str(path), check=True).stdout)["target"]["id"]
    edit = {"uid": 3, "set": {"content": "A saved gate."}}
    saved = bunzai("cap", "run", "lorebook.entries.update", piece_id, "--input", json.dumps(edit), "--save", check=True)
    name = saved.json["saved"]["name"]
    draft_file = bunzai.studio / ".bunzai" / "drafts" / f"{name}.json"
    assert '"key_order"' in draft_file.read_text(encoding="utf-8")  # sorted, as a piece file
    assert bunzai("apply", name, "--yes", check=True).json["status"] == "applied"
    assert _export(bunzai, piece_id) == ST_TEXT.replace('"Gate 3."', '"A saved gate."')
