"""A SillyTavern export of two pieces that want one file: different pieces get SillyTavern's
own next name (`Alice1.png`), a piece imported twice (the same bytes) is written once."""

from __future__ import annotations

import json


def _create(bunzai, kind: str, piece_id: str, body: dict) -> None:
    draft = bunzai("create", kind, "--id", piece_id, "--input", json.dumps(body), check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)


def test_two_cards_of_one_name_are_both_exported_as_sillytavern_names_them(bunzai, tmp_path):
    _create(bunzai, "character", "alice", {"name": "Alice", "description": "The first."})
    _create(bunzai, "character", "alice-2", {"name": "Alice", "description": "The second."})
    _create(bunzai, "character", "alice-3", {"name": "Alice", "description": "The first."})  # alice's twin
    _create(bunzai, "character", "alice-4", {"name": "Alice", "description": "The second."})  # alice-2's
    out = tmp_path / "ST"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True).json
    written = {entry["ref"]: (entry["path"], entry.get("renamed_from")) for entry in report["written"]}
    assert written == {
        "character/alice": ("characters/Alice.png", None),
        "character/alice-2": ("characters/Alice1.png", "characters/Alice.png"),
    }
    assert report["skipped_existing"] == [
        {"ref": "character/alice-3", "path": "characters/Alice.png"},
        {"ref": "character/alice-4", "path": "characters/Alice1.png"},  # the file it is the same as
    ]
    assert sorted(path.name for path in (out / "characters").iterdir()) == ["Alice.png", "Alice1.png"]
    descriptions = set()
    for path in (out / "characters").iterdir():
        read = bunzai("convert", str(path), "--to", "ccv3.json", "-o", "-", check=True).stdout
        descriptions.add(json.loads(read)["data"]["description"])
    assert descriptions == {"The first.", "The second."}
    again = bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True).json
    assert again["counts"] == {"written": 0, "skipped_existing": 4, "not_written": 0}


def test_a_world_named_like_another_keeps_its_own_file_and_reports_the_name_it_lost(bunzai, tmp_path):
    entry = {"uid": 0, "keys": [{"text": "glade"}], "content": "A glade."}
    _create(bunzai, "lorebook", "eldoria", {"name": "Eldoria", "entries": [entry]})
    _create(bunzai, "lorebook", "eldoria-2", {"name": "Eldoria", "entries": [{**entry, "content": "Another."}]})
    report = bunzai("export", "--into", str(tmp_path / "ST"), "--layout", "sillytavern", check=True).json
    second = next(entry for entry in report["written"] if entry["ref"] == "lorebook/eldoria-2")
    assert second["path"] == "worlds/Eldoria1.json" and second["renamed_from"] == "worlds/Eldoria.json"
    assert report["counts"]["written"] == 2
    # SillyTavern names a world by its file: Eldoria1 there, and the report says so.
    assert [loss["code"] for loss in second["losses"]] == ["world.name.file_stem"]
    first = next(entry for entry in report["written"] if entry["ref"] == "lorebook/eldoria")
    assert "world.name.file_stem" not in [loss["code"] for loss in first["losses"]]


def test_a_world_imported_under_a_taken_file_name_reports_the_name_it_is_written_under(bunzai, tmp_path):
    """Both worlds came from an `Eldoria.json`: the crossing names each after that file, but the
    second is written as Eldoria1.json, so it carries the name's loss all the same."""
    for folder, content in (("one", "A glade."), ("two", "Another.")):
        (tmp_path / folder).mkdir()
        world = {"entries": {"0": {"uid": 0, "key": ["glade"], "content": content}}}
        (tmp_path / folder / "Eldoria.json").write_text(json.dumps(world), encoding="utf-8")
        drafts = bunzai("import", "--on-conflict", "suffix", str(tmp_path / folder / "Eldoria.json"), check=True)
        bunzai("apply", "--yes", input=drafts.stdout, check=True)
    report = bunzai("export", "--into", str(tmp_path / "ST"), "--layout", "sillytavern", check=True).json
    by_ref = {entry["ref"]: entry for entry in report["written"]}
    first, second = by_ref["lorebook/eldoria"], by_ref["lorebook/eldoria-2"]
    assert (first["path"], first["losses"]) == ("worlds/Eldoria.json", [])
    assert second["path"] == "worlds/Eldoria1.json" and second["renamed_from"] == "worlds/Eldoria.json"
    assert [(loss["code"], loss["pointer"]) for loss in second["losses"]] == [("world.name.file_stem", "/name")]


def test_a_renamed_world_named_as_its_id_reports_the_name_it_is_written_under(bunzai, tmp_path):
    entry = {"uid": 0, "keys": [{"text": "glade"}], "content": "A glade."}
    _create(bunzai, "lorebook", "zed", {"name": "eldoria", "entries": [entry]})
    _create(bunzai, "lorebook", "eldoria", {"name": "eldoria", "entries": [{**entry, "content": "Another."}]})
    out = str(tmp_path / "ST")
    report = bunzai("export", "--into", out, "--layout", "sillytavern", "lorebook/zed", "lorebook/eldoria").json
    second = next(entry for entry in report["written"] if entry["ref"] == "lorebook/eldoria")
    assert second["path"] == "worlds/eldoria1.json"
    assert [loss["code"] for loss in second["losses"]] == ["world.name.file_stem"]
