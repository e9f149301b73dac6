"""SillyTavern sprite folders written back: folder -> studio -> folder, and into a user folder."""

from __future__ import annotations

import json
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


def _user_folder(tmp_path: Path, sprites: str, settings: dict | None = None) -> Path:
    """A SillyTavern user folder: the card default_Seraphina.png and a sprite folder `sprites`."""
    root = tmp_path / "ST"
    (root / "characters").mkdir(parents=True)
    shutil.copyfile(
        corpus_path("sillytavern", "characters", "default_Seraphina.png"), root / "characters" / "default_Seraphina.png"
    )
    shutil.copytree(corpus_path("sillytavern", "characters", "sprites", "Seraphina"), root / "characters" / sprites)
    (root / "settings.json").write_text(json.dumps(settings or {}), encoding="utf-8")
    return root


def test_a_user_folder_card_links_to_its_sprites_and_a_renamed_card_takes_them_along(bunzai, tmp_path):
    """SillyTavern shows a character the sprites of characters/<its name>/ (getSpriteFolderName)."""
    root = _user_folder(tmp_path, "Seraphina")
    drafts = bunzai("import", str(root), check=True)
    assert [(d["target"]["kind"], d["target"]["id"]) for d in drafts.lines][:2] == [
        ("pack", "seraphina"),
        ("character", "seraphina"),
    ]
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    assert bunzai("read", "character/seraphina", "--pointer", "/body/media/pack", check=True).json["value"] == (
        "seraphina"
    )
    renamed = bunzai("cap", "run", "character.identity.update", "character/seraphina", "--input", '{"name": "Sera"}')
    bunzai("apply", "--yes", input=renamed.stdout, check=True)
    out = tmp_path / "out"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True).json
    written = {entry["path"]: entry["losses"] for entry in report["written"]}
    assert set(written) == {
        "characters/default_Seraphina.png",
        "characters/Sera/joy.png",
        "characters/Sera/neutral.png",
    } | {path for path in written if path.startswith("worlds/")}
    assert written["characters/default_Seraphina.png"] == []  # the sprites are beside it, where ST looks
    assert not (out / "characters" / "Seraphina").exists()
    alone = bunzai("export", "--into", str(tmp_path / "alone"), "--layout", "sillytavern", "character/seraphina")
    [card] = alone.json["written"]
    assert [loss["pointer"] for loss in card["losses"]] == ["/body/media"]  # its sprites are not written


def test_a_sprite_folder_override_in_settings_links_the_card_to_that_folder(bunzai, tmp_path):
    overrides = {"extension_settings": {"expressionOverrides": [{"name": "default_Seraphina", "path": "Sera alt"}]}}
    root = _user_folder(tmp_path, "Sera alt", overrides)
    shutil.copytree(root / "characters" / "Sera alt", root / "characters" / "Seraphina")  # not shown: overridden
    bunzai("apply", "--yes", input=bunzai("import", str(root), check=True).stdout, check=True)
    assert bunzai("read", "character/seraphina", "--pointer", "/body/media/pack", check=True).json["value"] == (
        "sera-alt"
    )


def test_a_card_named_otherwise_than_a_sprite_folder_is_not_linked(bunzai, tmp_path):
    root = _user_folder(tmp_path, "Someone Else")
    bunzai("apply", "--yes", input=bunzai("import", str(root), check=True).stdout, check=True)
    assert bunzai("read", "character/seraphina", "--pointer", "/body/media/pack", check=True).json["value"] is None
