"""Marinara Engine exports through the commands: import, apply, export back JSON-equal."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adapters"))
from marinara_support import chat_preset_export, lorebook_export, persona_export  # noqa: E402


def _import(bunzai, tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    drafts = bunzai("import", str(path), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)


def test_a_persona_and_a_lorebook_import_and_export_back_json_equal(bunzai, tmp_path):
    _import(bunzai, tmp_path, "Luca.marinara.json", persona_export())
    _import(bunzai, tmp_path, "Italy.marinara.json", lorebook_export())
    for ref, fmt, original in (
        ("persona/luca", "marinara.persona", persona_export()),
        ("lorebook/italy", "marinara.lorebook", lorebook_export()),
    ):
        receipt = bunzai("export", ref, "--to", fmt, check=True).json
        assert receipt["losses"] == []
        assert json.loads((bunzai.studio / receipt["path"]).read_bytes()) == json.loads(original)


def test_a_chat_preset_is_refused_and_nothing_is_drafted(bunzai, tmp_path):
    path = tmp_path / "slow.marinara-chat-preset.json"
    path.write_bytes(chat_preset_export())
    result = bunzai("import", str(path))
    assert result.code == 1 and "chat preset" in result.stdout
