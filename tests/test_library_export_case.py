"""A SillyTavern export onto a file system that folds case (macOS's default): two cards whose
names differ only in case get two files, SillyTavern's next name for the second, instead of the
second finding the first one's file and being reported as already there."""

from __future__ import annotations

import json

import pytest

from bunzai import library_export
from bunzai.store.studio import find_studio


def _create(bunzai, piece_id: str, name: str) -> None:
    draft = bunzai("create", "character", "--id", piece_id, "--input", json.dumps({"name": name}), check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)


@pytest.mark.parametrize("folds", [True, False])
def test_names_that_differ_only_in_case(bunzai, tmp_path, monkeypatch, folds):
    if not folds and library_export._folds_case(tmp_path):
        pytest.skip("this file system folds case: it cannot hold both names")
    _create(bunzai, "luna", "Luna")
    _create(bunzai, "luna-2", "luna")
    monkeypatch.setattr(library_export, "_folds_case", lambda folder: folds)
    report = library_export.export_library(find_studio(str(bunzai.studio)), tmp_path / "ST", "sillytavern")
    written = {entry["ref"]: entry["path"] for entry in report.written}
    if folds:
        assert written == {
            "character/luna": "characters/Luna.png",
            "character/luna-2": "characters/luna1.png",
        }
    else:  # a file system that tells them apart keeps each name as it is
        assert written == {
            "character/luna": "characters/Luna.png",
            "character/luna-2": "characters/luna.png",
        }
    assert report.skipped == []
    assert sorted(path.name for path in (tmp_path / "ST" / "characters").iterdir()) == sorted(
        path.rsplit("/", 1)[1] for path in written.values()
    )


def test_a_recorded_name_in_decomposed_form_is_one_name_with_its_composed_form_where_case_folds():
    composed, decomposed = "characters/Zo\u00e9.png", "characters/Zoe\u0301.png"
    assert library_export._name_key(composed, True) == library_export._name_key(decomposed.upper(), True)
    assert library_export._name_key(composed, False) != library_export._name_key(decomposed, False)


def test_the_probe_leaves_nothing_behind_and_sees_this_file_system(tmp_path):
    folds = library_export._folds_case(tmp_path)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "Case.txt").write_text("x")
    assert folds == (tmp_path / "CASE.TXT").exists()


def _persona_backup(path, names: tuple[str, ...]) -> None:
    """A backup of several personas (one of a single persona is exported as a persona file)."""
    avatars = {f"{name.lower()}.png": name for name in names}
    backup = {
        "personas": avatars,
        "persona_descriptions": {
            avatar: {"description": f"{name} listens.", "position": 0} for avatar, name in avatars.items()
        },
        "default_persona": next(iter(avatars)),
    }
    path.write_text(json.dumps(backup), encoding="utf-8")


def test_persona_backups_whose_names_differ_only_in_case_get_two_files_where_case_folds(bunzai, tmp_path, monkeypatch):
    if library_export._folds_case(tmp_path):
        pytest.skip("this file system folds case: it cannot hold both backups to import")
    backups = tmp_path / "backups"
    backups.mkdir()
    _persona_backup(backups / "Personas.json", ("Ada", "Abe"))
    _persona_backup(backups / "personas.json", ("Bea", "Bob"))
    bunzai("apply", "--yes", input=bunzai("import", str(backups), check=True).stdout, check=True)
    monkeypatch.setattr(library_export, "_folds_case", lambda folder: True)
    report = library_export.export_library(find_studio(str(bunzai.studio)), tmp_path / "ST", "sillytavern")
    folder = "Import in SillyTavern/personas"
    written = {entry["ref"]: (entry["path"], entry.get("renamed_from")) for entry in report.written}
    first, second = (f"{folder}/Personas.json", None), (f"{folder}/personas1.json", f"{folder}/personas.json")
    assert written == {"persona/ada": first, "persona/abe": first, "persona/bea": second, "persona/bob": second}
    assert report.skipped == []
    assert sorted(path.name for path in (tmp_path / "ST" / folder).iterdir()) == ["Personas.json", "personas1.json"]


def _user_folder(root, avatar: str, name: str, image: bytes) -> None:
    (root / "characters").mkdir(parents=True)
    (root / "User Avatars").mkdir()
    (root / "User Avatars" / avatar).write_bytes(image)
    power = {"personas": {avatar: name}, "persona_descriptions": {avatar: {"description": name, "position": 0}}}
    (root / "settings.json").write_text(json.dumps({"power_user": power}), encoding="utf-8")


def test_two_users_avatars_of_one_name_with_other_images_are_not_written_over_each_other(bunzai, tmp_path):
    # SillyTavern keys a persona by its avatar's file name, so the second cannot be renamed:
    # it is reported as not written, with why, rather than as a file that was already there.
    from testkit import v2_card_png

    _user_folder(tmp_path / "a" / "default-user", "user.png", "Ada", v2_card_png("x", seed=1))
    _user_folder(tmp_path / "b" / "default-user", "user.png", "Bea", v2_card_png("y", seed=2))
    drafts = bunzai("import", str(tmp_path / "a" / "default-user"), str(tmp_path / "b" / "default-user"), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    report = library_export.export_library(find_studio(str(bunzai.studio)), tmp_path / "ST", "sillytavern")
    avatars = [entry for entry in report.written if entry["path"].startswith("User Avatars/")]
    assert [entry["path"] for entry in avatars] == ["User Avatars/user.png"]
    refused = [entry for entry in report.not_written if entry["path"] == "User Avatars/user.png"]
    assert len(refused) == 1 and refused[0]["ref"] != avatars[0]["ref"]
    assert "another persona of this export has an avatar of this file name" in refused[0]["reason"]
    assert not any(entry["path"].startswith("User Avatars/") for entry in report.skipped)
    assert not report.failed


def test_the_personas_of_settings_json_and_a_backup_called_personas_json_get_two_files(bunzai, tmp_path):
    # Both want personas.json, on any file system: the later gets SillyTavern's next name.
    root = tmp_path / "default-user"
    (root / "characters").mkdir(parents=True)
    avatars = {"ada.png": "Ada", "abe.png": "Abe"}
    power = {
        "personas": avatars,
        "persona_descriptions": {a: {"description": n, "position": 0} for a, n in avatars.items()},
    }
    (root / "settings.json").write_text(json.dumps({"power_user": power}), encoding="utf-8")
    backups = tmp_path / "backups"
    backups.mkdir()
    _persona_backup(backups / "personas.json", ("Bea", "Bob"))
    drafts = bunzai("import", str(root), str(backups), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    report = library_export.export_library(find_studio(str(bunzai.studio)), tmp_path / "ST", "sillytavern")
    folder = tmp_path / "ST" / "Import in SillyTavern" / "personas"
    assert sorted(path.name for path in folder.iterdir()) == ["personas.json", "personas1.json"]
    renamed = {entry["ref"] for entry in report.written if entry.get("renamed_from")}
    assert len(renamed) == 2 and report.skipped == []
    held = sorted(
        sorted(json.loads((folder / name).read_text(encoding="utf-8"))["personas"])
        for name in ("personas.json", "personas1.json")
    )
    assert held == [["abe.png", "ada.png"], ["bea.png", "bob.png"]]


def test_exporting_again_writes_an_avatar_image_that_went_missing(bunzai, tmp_path):
    # The persona's backup is there already (skipped_existing); its image is looked at even so.
    from testkit import v2_card_png

    root = tmp_path / "default-user"
    _user_folder(root, "ada.png", "Ada", v2_card_png("x", seed=1))
    (root / "User Avatars" / "abe.png").write_bytes(v2_card_png("y", seed=2))
    settings = json.loads((root / "settings.json").read_text(encoding="utf-8"))
    settings["power_user"]["personas"]["abe.png"] = "Abe"
    (root / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(root), check=True).stdout, check=True)
    studio = find_studio(str(bunzai.studio))
    first = library_export.export_library(studio, tmp_path / "ST", "sillytavern")
    assert sorted(entry["path"] for entry in first.written if entry["path"].startswith("User Avatars/")) == [
        "User Avatars/abe.png",
        "User Avatars/ada.png",
    ]
    (tmp_path / "ST" / "User Avatars" / "abe.png").unlink()
    again = library_export.export_library(studio, tmp_path / "ST", "sillytavern")
    assert [entry["path"] for entry in again.written] == ["User Avatars/abe.png"]
    assert (tmp_path / "ST" / "User Avatars" / "abe.png").read_bytes() == v2_card_png("y", seed=2)
