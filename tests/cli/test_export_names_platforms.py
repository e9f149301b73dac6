"""Export names and targets: a renamed piece is written under its new name, `--to` takes a
platform's name where it picks one format, and files whose names start with a dot are read
as SillyTavern reads them (`characters/.hack.png`) and exported under a name that is no
hidden file."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bunzai.files import is_exact_temp_name, is_junk_file, list_folder

CHAT_PRESET = {
    "temperature": 0.9,
    "openai_max_context": 4096,
    "prompts": [{"identifier": "main", "name": "Main Prompt", "role": "system", "content": "Be brief."}],
    "prompt_order": [],
}
WORLD = {"entries": {"0": {"uid": 0, "key": ["gate"], "content": "The old gate.", "comment": "Gate"}}}


def _import(bunzai, path: Path) -> list[dict]:
    drafts = bunzai("import", str(path), check=True).stdout
    return [json.loads(line) for line in bunzai("apply", "--yes", input=drafts, check=True).stdout.splitlines()]


def _rename_preset(bunzai, piece_id: str, name: str) -> None:
    draft = bunzai("cap", "run", "preset.settings.update", piece_id, "--input", json.dumps({"name": name}), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)


def test_a_renamed_preset_exports_under_its_new_name_and_reads_back_so(bunzai, tmp_path):
    path = tmp_path / "My Chat.json"
    path.write_text(json.dumps(CHAT_PRESET), encoding="utf-8")
    [receipt] = _import(bunzai, path)
    piece_id = receipt["target"]["id"]
    _rename_preset(bunzai, piece_id, "Renamed Chat")
    preview = bunzai("transfer", piece_id, "--to", "sillytavern.preset.chat", check=True).json
    assert (preview["file_name"], preview["losses"]) == ("Renamed Chat.json", [])
    written = bunzai.studio / bunzai("export", piece_id, "--to", "sillytavern.preset.chat", check=True).json["path"]
    assert written.name == "Renamed Chat.json"
    again = bunzai("import", str(written), check=True).json  # SillyTavern names it by the file
    assert again["proposed"]["name"] == "Renamed Chat"


def test_a_preset_name_no_file_name_can_hold_is_cleaned_and_its_loss_names_the_file(bunzai, tmp_path):
    path = tmp_path / "My Chat.json"
    path.write_text(json.dumps(CHAT_PRESET), encoding="utf-8")
    piece_id = _import(bunzai, path)[0]["target"]["id"]
    _rename_preset(bunzai, piece_id, "A/B: test?")
    preview = bunzai("transfer", piece_id, "--to", "sillytavern.preset.chat", check=True).json
    assert preview["file_name"] == "AB test.json"
    [loss] = [loss for loss in preview["losses"] if loss["pointer"] == "/name"]
    assert loss["code"] == "preset.name.file_stem"
    assert "AB test.json" in loss["why"] and "<id>" not in loss["why"]


def test_a_platform_name_picks_its_one_format_for_the_kind(bunzai, tmp_path):
    path = tmp_path / "My Chat.json"
    path.write_text(json.dumps(CHAT_PRESET), encoding="utf-8")
    piece_id = _import(bunzai, path)[0]["target"]["id"]
    receipt = bunzai("export", piece_id, "--to", "sillytavern", check=True).json  # the format it came from
    assert receipt["format"] == "sillytavern.preset.chat"
    draft = bunzai("create", "lorebook", "--input", '{"name": "Lore"}', check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    assert bunzai("transfer", "lore", "--to", "sillytavern", check=True).json["format"] == "sillytavern.world"
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    assert bunzai("transfer", "ada", "--to", "risuai", check=True).json["format"] == "risu.charx"


def test_a_studio_preset_goes_to_the_format_of_its_family(bunzai):
    draft = bunzai("create", "preset", "--input", '{"name": "Fresh", "family": "instruct"}', check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    preview = bunzai("transfer", "fresh", "--to", "sillytavern", check=True).json
    assert preview["format"] == "sillytavern.instruct"


def test_a_platform_with_several_formats_for_the_kind_lists_them(bunzai):
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    result = bunzai("export", "ada", "--to", "sillytavern")
    assert result.code == 1
    error = result.json["error"]
    assert error["code"] == "unknown_format"
    assert error["details"]["choices"] == ["sillytavern.card.json", "sillytavern.card.png"]
    assert "sillytavern.card.png" in error["message"]
    assert not (bunzai.studio / "Export").exists() or not any((bunzai.studio / "Export").iterdir())


def test_a_dot_file_is_imported_and_junk_and_dot_folders_are_not(bunzai, tmp_path):
    folder = tmp_path / "worlds"
    folder.mkdir()
    (folder / ".hack.json").write_text(json.dumps(WORLD), encoding="utf-8")
    (folder / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    (folder / "._Eldoria.json").write_bytes(b"\0\5\26\7")  # macOS's AppleDouble twin
    (folder / ".Eldoria.json.4242-0123456789ab.tmp").write_text(json.dumps(WORLD), encoding="utf-8")
    (folder / ".git").mkdir()
    (folder / ".git" / "Tracked.json").write_text(json.dumps(WORLD), encoding="utf-8")
    lines = bunzai("import", str(folder), check=True).lines
    sources = [line["proposed"]["original"]["source"] for line in lines if "proposed" in line]
    assert [line["proposed"]["name"] for line in lines if "proposed" in line] == [".hack"]
    assert sources == [".hack.json"]
    assert all("DS_Store" not in json.dumps(line) and "Tracked" not in json.dumps(line) for line in lines)


def test_a_piece_from_a_dot_file_exports_under_a_name_that_is_not_hidden(bunzai, tmp_path):
    path = tmp_path / ".hack.json"
    path.write_text(json.dumps(WORLD), encoding="utf-8")
    [receipt] = _import(bunzai, path)
    piece_id = receipt["target"]["id"]
    exported = bunzai("export", piece_id, "--to", "sillytavern.world")
    assert exported.code == 0, exported.stdout
    written = bunzai.studio / exported.json["path"]
    assert written.name == "hack.json" and written.is_file()
    [loss] = exported.json["losses"]  # SillyTavern will call it "hack": said, and the file named
    assert loss["code"] == "world.name.file_stem" and "hack.json" in loss["why"]


def test_list_folder_lists_dot_files_but_not_junk_links_or_dot_folders(tmp_path):
    for name in (
        ".hack.png",
        "card.png",
        ".DS_Store",
        ".~lock.notes.odt#",
        ".card.json.swp",
        ".x.json.1-abcdef012345.tmp",
    ):
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / ".bunzai").mkdir()
    (tmp_path / "sprites").mkdir()
    os.symlink(tmp_path / "card.png", tmp_path / ".link.png")
    files, folders = list_folder(tmp_path)
    assert [path.name for path in files] == [".hack.png", "card.png"]
    assert [path.name for path in folders] == ["sprites"]


_NAMES = st.text(st.characters(blacklist_characters="/\0", blacklist_categories=("Cs",)), min_size=1, max_size=40)


@given(name=_NAMES, pid=st.integers(min_value=1, max_value=2**22), token=st.binary(min_size=6, max_size=6))
def test_every_temp_name_bunzai_writes_is_junk_to_a_walk(name, pid, token):
    temp = f".{name}.{pid}-{token.hex()}.tmp"  # store.atomic.write_temp's pattern
    assert is_exact_temp_name(temp) and is_junk_file(temp)


def test_a_user_file_ending_in_tmp_is_no_temp_name():
    for name in (
        ".notes.tmp",
        ".x.png.12-zz.tmp",
        ".x.png.12-0123456789AB.tmp",
        ".x.png.-0123456789ab.tmp",
        "x.1-0123456789ab.tmp",
    ):
        assert not is_exact_temp_name(name), name


def test_a_platform_whose_one_writer_is_unavailable_says_why(bunzai, monkeypatch):
    # RisuAI's preset writer needs a RisuAI checkout's RPack table: its own refusal says so,
    # not "no risuai format writes a preset"
    monkeypatch.delenv("BUNZAI_RISU_ROOT", raising=False)
    draft = bunzai("create", "preset", "--input", '{"name": "Fresh", "family": "chat_completion"}', check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    error = bunzai("export", "fresh", "--to", "risuai").json["error"]
    assert error["code"] == "unsupported" and "RisuAI checkout" in error["message"]
