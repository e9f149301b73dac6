"""The new writers through the real command: .risum/.risup refused without the configured table (naming
the setting), a legacy Backyard PNG written from a SillyTavern card and read back."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from testkit import corpus_path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adapters"))
from risu_support import fake_checkout  # noqa: E402

LORE = {
    "type": "risu",
    "ver": 1,
    "data": [
        {
            "key": "rain",
            "secondkey": "",
            "insertorder": 100,
            "comment": "Rain",
            "content": "Wet.",
            "mode": "normal",
            "alwaysActive": False,
            "selective": False,
        }
    ],
}


def test_writing_a_module_without_a_table_is_refused_naming_the_setting(bunzai, tmp_path):
    source = tmp_path / "weather.json"
    source.write_text(json.dumps(LORE))
    refused = bunzai("convert", str(source), "--to", "risu.module", "-o", str(tmp_path / "weather.risum"))
    assert refused.code == 1 and refused.json["error"]["code"] == "unsupported"
    assert "[engines] risu" in refused.json["error"]["hint"]
    assert not (tmp_path / "weather.risum").exists()


def test_a_configured_checkout_whose_table_is_not_risuais_is_refused(bunzai, tmp_path):
    fake_checkout(tmp_path / "RisuAI")
    settings = bunzai.studio / "bunzai.toml"
    settings.write_text(settings.read_text() + f'\n[engines]\nrisu = "{tmp_path / "RisuAI"}"\n')
    source = tmp_path / "weather.json"
    source.write_text(json.dumps(LORE))
    refused = bunzai("convert", str(source), "--to", "risu.module", "-o", str(tmp_path / "weather.risum"))
    assert refused.code == 1 and "SHA-256" in refused.json["error"]["message"]


def test_a_sillytavern_card_converts_to_a_legacy_backyard_png_and_back(bunzai, tmp_path):
    card = corpus_path("sillytavern", "characters", "default_Seraphina.png")
    out = tmp_path / "seraphina.png"
    report = bunzai("convert", str(card), "--to", "backyard.png", "-o", str(out), check=True).json
    assert report["format"] == "backyard.png"
    assert "crossing.not_carried" not in {loss["code"] for loss in report["losses"]}
    back = bunzai("convert", str(out), "--to", "ccv3.json", "-o", str(tmp_path / "back.json"), check=True).json
    assert back["source_format"] == "backyard.png"
    assert json.loads((tmp_path / "back.json").read_text())["data"]["name"] == "Seraphina"


def test_transfer_and_export_read_the_studios_risu_setting(bunzai, tmp_path):
    source = tmp_path / "weather.json"
    source.write_text(json.dumps(LORE))
    bunzai("apply", "--yes", input=bunzai("import", str(source), check=True).stdout, check=True)
    before = bunzai("transfer", "lorebook/weather", "--to", "risu.module")
    assert before.code == 1 and "no RisuAI checkout is configured" in before.json["error"]["message"]
    fake_checkout(tmp_path / "RisuAI")
    settings = bunzai.studio / "bunzai.toml"
    settings.write_text(settings.read_text() + f'\n[engines]\nrisu = "{tmp_path / "RisuAI"}"\n')
    for command in ("transfer", "export"):
        refused = bunzai(command, "lorebook/weather", "--to", "risu.module")
        assert refused.code == 1 and "SHA-256" in refused.json["error"]["message"], command
