"""A plain export is named by the piece's name, so formats that name a piece by its file
(SillyTavern worlds, nameless presets) lose nothing (no `*.name.file_stem`), renamed or not."""

from __future__ import annotations

import json
from pathlib import Path

WORLD = {"entries": {"0": {"uid": 0, "key": ["gate"], "content": "The old gate.", "comment": "Gate"}}}


def _import(bunzai, path: Path) -> str:
    drafts = bunzai("import", str(path), check=True).stdout
    receipt = json.loads(bunzai("apply", "--yes", input=drafts, check=True).stdout.splitlines()[0])
    return receipt["target"]["id"]


def test_a_world_exports_under_its_own_file_name_without_a_name_loss(bunzai, tmp_path):
    path = tmp_path / "Eldoria Old.json"
    path.write_text(json.dumps(WORLD), encoding="utf-8")
    piece_id = _import(bunzai, path)
    assert piece_id == "eldoria-old"
    preview = bunzai("transfer", piece_id, "--to", "sillytavern.world", check=True).json
    assert preview["file_name"] == "Eldoria Old.json" and preview["losses"] == []
    receipt = bunzai("export", piece_id, "--to", "sillytavern.world", check=True).json
    written = bunzai.studio / receipt["path"]
    assert written.name == "Eldoria Old.json"
    assert json.loads(written.read_text(encoding="utf-8"))["entries"]["0"]["content"] == "The old gate."
    again = bunzai("import", str(written), check=True).json  # it reads back under its old name
    assert again["proposed"]["name"] == "Eldoria Old"


def test_a_renamed_world_is_written_under_its_new_name():
    # SillyTavern names a world by its file: under the old file name the new name is lost.
    from bunzai.adapters.inspect import read_bytes
    from bunzai.convert import convert_piece

    _adapter, decoded = read_bytes(json.dumps(WORLD).encode(), "Eldoria.json", "sillytavern.world")
    piece = decoded.pieces[0]
    piece.original.source = "Eldoria.json"
    crossing = convert_piece(piece.model_copy(update={"name": "Eldoria Reborn"}), "sillytavern.world", None)
    assert (crossing.file_name, crossing.losses) == ("Eldoria Reborn.json", [])
    unchanged = convert_piece(piece, "sillytavern.world", None)
    assert (unchanged.file_name, unchanged.losses) == ("Eldoria.json", [])


def test_a_name_no_file_can_carry_names_the_file_written_in_its_loss():
    from bunzai.adapters.inspect import read_bytes
    from bunzai.convert import convert_piece

    _adapter, decoded = read_bytes(json.dumps(WORLD).encode(), "Eldoria.json", "sillytavern.world")
    crossing = convert_piece(
        decoded.pieces[0].model_copy(update={"name": "Eldoria: Reborn?"}), "sillytavern.world", None
    )
    assert crossing.file_name == "Eldoria Reborn.json"
    [loss] = crossing.losses
    assert loss.code == "world.name.file_stem"
    assert "Eldoria Reborn.json" in loss.why and "<id>" not in loss.why


def test_a_piece_made_in_the_studio_is_named_by_its_name(bunzai):
    draft = bunzai("create", "lorebook", "--input", '{"name": "Fresh Book"}', check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    preview = bunzai("transfer", "fresh-book", "--to", "sillytavern.world", check=True).json
    assert (preview["file_name"], preview["losses"]) == ("Fresh Book.json", [])
