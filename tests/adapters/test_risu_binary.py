"""RisuAI .risum modules and .risup presets: not_decoded without a checkout, decoded with a fixture table."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from risu_support import fake_checkout, module_bytes, risup_bytes, risupreset_bytes

from bunzai.adapters import registry
from bunzai.adapters.common import png
from bunzai.adapters.contract import EngineSettings
from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.risu import rpack
from bunzai.errors import BunzaiError

MODULE = {
    "name": "Weather",
    "description": "rain and sun",
    "id": "m-1",
    "lorebook": [
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
    "regex": [{"comment": "caps", "in": "rain", "out": "RAIN", "type": "editdisplay"}],
    "trigger": [{"comment": "start", "type": "start", "conditions": [], "effect": []}],
    "assets": [["sky", "", "png"]],
}
PRESET = {
    "name": "Warm",
    "mainPrompt": "Be {{char}}.",
    "jailbreak": "Stay in role.",
    "globalNote": "Note.",
    "temperature": 80,
    "frequencyPenalty": 30,
    "PresensePenalty": 20,
    "maxContext": 8000,
    "maxResponse": 300,
    "top_p": 0.9,
    "aiModel": "gpt",
    "promptTemplate": [
        {"type": "plain", "type2": "main", "text": "Main text", "role": "system"},
        {"type": "chat", "rangeStart": 0, "rangeEnd": "end"},
    ],
    "someOther": {"kept": True},
}


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    monkeypatch.delenv(rpack.ENV_ROOT, raising=False)
    table = fake_checkout(tmp_path)
    registry.configure(EngineSettings(risu=tmp_path, risu_verify_hash=False))
    yield table
    rpack.configure_risu_root(None)


def test_a_module_without_a_checkout_is_escrowed_and_not_decoded(no_table):
    data = module_bytes(MODULE, rpack.Table(bytes(range(256)), bytes(range(256))))
    adapter, decoded = read_bytes(data, "weather.risum")
    assert adapter.format_id == "risu.module"
    piece = decoded.pieces[0]
    assert piece.kind == "lorebook" and piece.body.entries == []
    assert {blob.sha256 for blob in decoded.blobs} == {piece.original.files["module.risum"].sha256}
    assert decoded.blobs[0].data == data
    assert decoded.warnings[0].startswith("not_decoded:") and "[engines] risu" in decoded.warnings[0]


def test_a_preset_without_a_checkout_is_escrowed_and_not_decoded(no_table):
    data = b"\x9a\x02" + bytes(40)  # RPack'd bytes cannot be read without the table
    adapter, decoded = read_bytes(data, "warm.risup")
    assert adapter.format_id == "risu.preset"
    assert decoded.pieces[0].kind == "preset" and decoded.pieces[0].original.document is None
    assert decoded.warnings[0].startswith("not_decoded:")


def test_a_module_decodes_to_a_lorebook_and_a_regex_set_with_the_fixture_table(checkout):
    data = module_bytes(MODULE, checkout, [b"\x89PNG sky"])
    _adapter, decoded = read_bytes(data, "weather.risum")
    book, rules = decoded.pieces
    assert (book.kind, book.name, book.body.description) == ("lorebook", "Weather", "rain and sun")
    assert [key.text for key in book.body.entries[0].keys] == ["rain"]
    assert rules.kind == "regex" and rules.body.rules[0].placements == ["display"]
    assert rules.original.format == "risu.regex"
    assert book.original.document["module"]["trigger"] == MODULE["trigger"]  # sealed in the escrow
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    assert blobs[book.original.files["assets/0.png"].sha256] == b"\x89PNG sky"
    assert any("trigger" in warning for warning in decoded.warnings)


def test_a_risup_decodes_to_a_preset_with_the_fixture_table(checkout):
    _adapter, decoded = read_bytes(risup_bytes(PRESET, checkout), "warm.risup")
    preset = decoded.pieces[0]
    assert preset.name == "Warm"
    assert [block.identifier for block in preset.body.prompts] == [
        "main",
        "jailbreak",
        "globalNote",
        "template-0",
        "chatHistory",  # the whole chat: SillyTavern's marker, as RisuAI's SillyTavern import maps it
    ]
    # RisuAI sends mainPrompt, jailbreak and globalNote only without a prompt template
    assert [block.enabled for block in preset.body.prompts] == [False, False, False, True, True]
    assert [item.identifier for item in preset.body.orders[0].items] == ["template-0", "chatHistory"]
    assert preset.body.prompts[0].content == "Be {{char}}."
    assert preset.body.samplers.temperature == 0.8 and preset.body.samplers.max_context == 8000
    assert preset.original.document["preset"]["someOther"] == {"kept": True}


def test_a_risupreset_needs_no_table(no_table):
    _adapter, decoded = read_bytes(risupreset_bytes(PRESET), "warm.risupreset")
    assert decoded.pieces[0].body.samplers.presence_penalty == 0.2


def test_a_wrong_table_gives_a_coded_error_not_a_crash(checkout, tmp_path):
    other = fake_checkout(tmp_path / "other", seed=99)
    with pytest.raises(BunzaiError) as raised:
        read_bytes(module_bytes(MODULE, other), "weather.risum")
    assert raised.value.code == "corrupt_file"


@pytest.mark.parametrize("data", [b"\x6f\x00\xff\xff\xff\x7f", b"\x6f\x01\x01\x00\x00\x00a\x00", b"\x6f\x00"])
def test_damaged_modules_give_coded_errors(checkout, data):
    with pytest.raises(BunzaiError) as raised:
        read_bytes(data, "bad.risum", "risu.module")
    assert raised.value.code in ("corrupt_file", "invalid_json")


def test_a_tampered_preset_does_not_authenticate(checkout):
    import gzip

    raw = bytearray(gzip.decompress(risupreset_bytes(PRESET)))
    raw[-3] ^= 1
    with pytest.raises(BunzaiError) as raised:
        read_bytes(checkout.encode(gzip.compress(bytes(raw))), "warm.risup")
    assert raised.value.code == "corrupt_file"


def test_the_table_hash_is_checked_unless_a_test_says_otherwise(tmp_path):
    fake_checkout(tmp_path)
    with pytest.raises(BunzaiError) as raised:
        rpack.load_table(tmp_path)
    assert "SHA-256" in raised.value.message
    assert rpack.load_table(tmp_path, verify_hash=False).decode(b"") == b""
    assert hashlib.sha256(b"").hexdigest() != rpack.TABLE_SHA256


def test_the_environment_names_a_checkout(tmp_path, monkeypatch):
    rpack.configure_risu_root(None)
    fake_checkout(tmp_path)
    monkeypatch.setenv(rpack.ENV_ROOT, str(tmp_path))
    table, why = rpack.current_table()
    assert table is None and "SHA-256" in why  # the environment never skips the hash check


def test_the_engine_settings_reach_the_risu_adapters_through_the_registry(no_table, tmp_path):
    writers = [registry.get_adapter("risu.module"), registry.get_adapter("risu.preset")]
    assert all("no RisuAI checkout" in adapter.why_unavailable() for adapter in writers)
    assert registry.get_adapter("risu.charx").why_unavailable() == ""  # writes without the table, declaring a loss
    fake_checkout(tmp_path)
    registry.configure(EngineSettings(risu=tmp_path))
    assert all("SHA-256" in adapter.why_unavailable() for adapter in writers)  # the hash is checked by default
    registry.configure(EngineSettings(risu=tmp_path, risu_verify_hash=False))
    assert [adapter.why_unavailable() for adapter in writers] == ["", ""]
    registry.configure(EngineSettings())  # a setting left None changes nothing
    assert rpack.risu_root() == tmp_path and [adapter.why_unavailable() for adapter in writers] == ["", ""]


def test_engine_settings_from_a_studio_engines_table(tmp_path):
    assert EngineSettings.from_engines({"risu": "RisuAI"}, tmp_path).risu == tmp_path / "RisuAI"
    assert EngineSettings.from_engines({"risu": "/opt/RisuAI"}, tmp_path).risu == Path("/opt/RisuAI")
    assert EngineSettings.from_engines({"risu": "~/RisuAI"}, tmp_path).risu == Path.home() / "RisuAI"
    for engines in (None, {}, {"risu": ""}, {"risu": 3}, ["risu"]):
        assert EngineSettings.from_engines(engines, tmp_path) == EngineSettings()


def test_an_encrypted_card_is_refused_with_a_clear_error():
    base = png.read_png(png.default_portrait())
    data = png.replace_text(base, {"ccv3"}, [("ccv3", b"rcc||rccv1||AAAA||hash||e30=")])
    with pytest.raises(BunzaiError) as raised:
        read_bytes(data, "sealed.png")
    assert raised.value.code == "unsupported" and "does not decrypt" in raised.value.message
