"""SillyTavern sprite folders written back: folder -> studio -> folder, and into a user folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from testkit import corpus_path

from bunzai.adapters.common.zipsafe import write_archive

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(13)


def folder_files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def test_a_sprite_folder_comes_back_as_the_same_files_under_the_same_names(bunzai, tmp_path):
    source = tmp_path / "Seraphina"
    shutil.copytree(corpus_path("sillytavern", "characters", "sprites", "Seraphina"), source)
    (source / "joy-1.png").write_bytes(PNG + b"second joy")  # SillyTavern's second sprite of a label
    (source / "_emotions.json").write_bytes(b'{"joy": "smile"}')
    bunzai("apply", "--yes", input=bunzai("import", str(source), check=True).stdout, check=True)
    receipt = bunzai("export", "pack/seraphina", "--to", "sillytavern.sprites.folder", check=True).json
    assert receipt["status"] == "applied" and receipt["losses"] == []
    written = Path(bunzai.studio) / receipt["path"]
    assert written.name == "Seraphina" and written.parent.name.endswith(" Kit seraphina")
    assert folder_files(written) == folder_files(source)
    assert {entry["name"] for entry in receipt["files"]} == set(folder_files(source))
    preview = bunzai("transfer", "pack/seraphina", "--to", "sillytavern.sprites.folder", check=True).json
    assert preview["files"] == receipt["files"] and preview["file_name"] == "Seraphina"


def test_a_sprite_zip_converts_to_a_new_folder_and_never_into_an_existing_one(bunzai, tmp_path):
    zipped = tmp_path / "Ada.zip"
    zipped.write_bytes(write_archive([("joy.png", PNG + b"a"), ("neutral.png", PNG + b"b")]))
    out = tmp_path / "Ada"
    report = bunzai("convert", str(zipped), "--to", "sillytavern.sprites.folder", "-o", str(out), check=True).json
    assert report["output"] == str(out)
    assert folder_files(out) == {"joy.png": PNG + b"a", "neutral.png": PNG + b"b"}
    again = bunzai("convert", str(zipped), "--to", "sillytavern.sprites.folder", "-o", str(out))
    assert again.code == 1 and again.json["error"]["code"] == "occupied"
    assert bunzai("convert", str(zipped), "--to", "sillytavern.sprites.folder", "-o", "-").code == 2


def test_a_library_export_puts_sprites_in_the_folder_of_the_card_showing_them(bunzai, tmp_path):
    zipped = tmp_path / "sera_sprites.zip"
    zipped.write_bytes(write_archive([("joy.png", PNG + b"a"), ("joy-1.png", PNG + b"c"), ("neutral.png", PNG + b"b")]))
    bunzai("apply", "--yes", input=bunzai("import", str(zipped), check=True).stdout, check=True)
    card = bunzai("create", "character", "--input", '{"name": "Sera Phina"}', check=True)
    bunzai("apply", "--yes", input=card.stdout, check=True)
    bound = bunzai(
        "cap",
        "run",
        "character.media.update",
        "character/sera-phina",
        "--input",
        '{"pack": "sera_sprites", "visual": "sprites"}',
        check=True,
    )
    bunzai("apply", "--yes", input=bound.stdout, check=True)
    out = tmp_path / "ST"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True).json
    paths = sorted(entry["path"] for entry in report["written"])
    assert paths == [
        "characters/Sera Phina.png",
        "characters/Sera Phina/joy-1.png",
        "characters/Sera Phina/joy.png",
        "characters/Sera Phina/neutral.png",
    ]
    assert folder_files(out / "characters" / "Sera Phina") == {
        "joy.png": PNG + b"a",
        "joy-1.png": PNG + b"c",
        "neutral.png": PNG + b"b",
    }
    again = bunzai("export", "--into", str(out), "--layout", "sillytavern", "pack/sera_sprites", check=True).json
    assert again["counts"] == {"written": 0, "skipped_existing": 3, "not_written": 0}


def test_an_unbound_pack_goes_to_the_folder_named_after_it(bunzai, tmp_path):
    zipped = tmp_path / "Lone.zip"
    zipped.write_bytes(write_archive([("neutral.png", PNG + b"n")]))
    bunzai("apply", "--yes", input=bunzai("import", str(zipped), check=True).stdout, check=True)
    report = bunzai("export", "--into", str(tmp_path / "ST"), "--layout", "sillytavern", check=True).json
    assert [entry["path"] for entry in report["written"]] == ["characters/Lone/neutral.png"]
    assert report["written"][0]["format"] == "sillytavern.sprites.folder"
