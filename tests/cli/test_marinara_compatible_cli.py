"""Marinara Engine files a user brings from its other export buttons: a "Compatible JSON" persona
imports and exports as a native Marinara persona (the profile: test_marinara_profile_cli.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adapters"))
from marinara_support import persona_export  # noqa: E402


def test_a_compatible_persona_imports_and_exports_as_a_native_one(bunzai, tmp_path):
    row = {key: value for key, value in json.loads(persona_export())["data"].items() if key != "metadata"}
    mark = {"marinara": {"exportedAt": "2026-05-06T10:00:00.000Z", "source": "Marinara Engine compatibility export"}}
    path = tmp_path / "Luca.json"
    path.write_text(json.dumps(row | {"extensions": mark}, indent=2), encoding="utf-8")
    drafts = bunzai("import", str(path), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    receipt = bunzai("export", "persona/luca", "--to", "marinara.persona", check=True).json
    written = json.loads((bunzai.studio / receipt["path"]).read_bytes())
    assert receipt["losses"] == [] and written["type"] == "marinara_persona" and written["data"] == row
