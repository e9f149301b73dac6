"""A library export (`export --into DIR --layout sillytavern`) into folders as people have them:
a file where SillyTavern keeps a folder, a link to nothing, a disk that refuses a file, a
folder exported into before (and pieces edited since), and personas whose image is not a PNG."""

from __future__ import annotations

import base64
import errno
import json
import os

from bunzai import library_export
from bunzai.store import atomic
from bunzai.store.studio import find_studio

# A 1x1 JPEG (an avatar as Agnai, RisuAI or a photo gives it).
JPEG = base64.b64decode(
    "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////"
    "////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA="
)


def _create(bunzai, kind: str, piece_id: str, body: dict) -> None:
    draft = bunzai("create", kind, "--id", piece_id, "--input", json.dumps(body), check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)


def _world(bunzai, piece_id: str, name: str, content: str = "A glade.") -> None:
    _create(
        bunzai,
        "lorebook",
        piece_id,
        {"name": name, "entries": [{"uid": 0, "keys": [{"text": "k"}], "content": content}]},
    )


def _export(bunzai, out, *refs: str):
    return bunzai("export", "--into", str(out), "--layout", "sillytavern", *refs)


def test_a_persona_with_a_jpeg_portrait_gets_its_image_under_the_name_its_backup_keys_it_by(bunzai, tmp_path):
    # SillyTavern's restore looks in User Avatars/ for each key of the backup, and uploads its
    # default avatar where the file is missing: the image must carry the key's name.
    _create(bunzai, "persona", "wren", {"name": "Wren", "description": "A quiet reader."})
    portrait = {"portrait": "data:image/jpeg;base64," + base64.b64encode(JPEG).decode()}
    draft = bunzai("cap", "run", "persona.presentation.update", "wren", "--input", json.dumps(portrait), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    out = tmp_path / "ST"
    report = _export(bunzai, out, "persona/wren").json
    [backup_path] = [entry["path"] for entry in report["written"] if entry["path"].startswith("Import in")]
    backup = json.loads((out / backup_path).read_text(encoding="utf-8"))
    [key] = backup["personas"]
    assert sorted(os.listdir(out / "User Avatars")) == [key]
    assert (out / "User Avatars" / key).read_bytes() == JPEG


def test_a_file_where_sillytavern_keeps_a_folder_refuses_its_pieces_and_the_others_are_written(bunzai, tmp_path):
    _world(bunzai, "eldoria", "Eldoria")
    _create(bunzai, "character", "ada", {"name": "Ada"})
    out = tmp_path / "ST"
    out.mkdir()
    (out / "worlds").write_text("not a folder")
    result = _export(bunzai, out)
    assert result.code == 1, result.stderr  # a refusal with its report, not an internal fault
    report = result.json
    assert [entry["path"] for entry in report["written"]] == ["characters/Ada.png"]
    [refused] = report["not_written"]
    assert refused["ref"] == "lorebook/eldoria" and refused["error"]["code"] == "invalid_input"
    assert (out / "worlds").read_text() == "not a folder"


def test_a_folder_to_export_into_that_cannot_be_made_is_refused_not_a_crash(bunzai, tmp_path):
    _create(bunzai, "character", "ada", {"name": "Ada"})
    (tmp_path / "file").write_text("x")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    for into in (tmp_path / "file" / "ST", tmp_path / "dangling"):
        result = _export(bunzai, into)
        assert result.code == 1, result.stderr
        assert result.json["error"]["code"] == "invalid_input"
    assert not (tmp_path / "nowhere").exists()


def test_personas_refused_late_leave_the_report_of_what_was_written(bunzai, tmp_path):
    # Personas read from one backup are written last, together; a refusal there must not
    # swallow the report of the hundreds of files written before it.
    backup = {
        "personas": {"ada.png": "Ada", "abe.png": "Abe"},
        "persona_descriptions": {"ada.png": {"description": "Ada"}, "abe.png": {"description": "Abe"}},
    }
    (tmp_path / "personas.json").write_text(json.dumps(backup), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "personas.json"), check=True).stdout, check=True)
    _world(bunzai, "eldoria", "Eldoria")
    out = tmp_path / "ST"
    out.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (out / "Import in SillyTavern").symlink_to(tmp_path / "elsewhere")
    result = _export(bunzai, out)
    assert result.code == 1
    report = result.json
    assert [entry["path"] for entry in report["written"]] == ["worlds/Eldoria.json"]
    assert sorted(entry["ref"] for entry in report["not_written"]) == ["persona/abe", "persona/ada"]
    assert {entry["error"]["code"] for entry in report["not_written"]} == {"invalid_input"}
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_a_file_the_disk_refuses_is_reported_and_the_export_goes_on(bunzai, tmp_path, monkeypatch):
    # A FAT or exFAT stick has no hard links (link(2) fails with EPERM): said for that piece.
    _world(bunzai, "eldoria", "Eldoria")
    _create(bunzai, "character", "ada", {"name": "Ada"})
    link = os.link

    def no_links_for_worlds(source, target, *args, **kwargs):
        if str(target).endswith(".json"):
            raise PermissionError(errno.EPERM, "Operation not permitted", str(target))
        return link(source, target, *args, **kwargs)

    monkeypatch.setattr(atomic.os, "link", no_links_for_worlds)
    out = tmp_path / "ST"
    report = library_export.export_library(find_studio(str(bunzai.studio)), out, "sillytavern")
    assert [entry["path"] for entry in report.written] == ["characters/Ada.png"]
    [refused] = report.not_written
    assert refused["ref"] == "lorebook/eldoria" and refused["error"]["code"] == "permission_denied"
    assert report.failed
    assert sorted(os.listdir(out / "worlds")) == []  # no temp file left behind


def test_exporting_again_after_an_edit_says_which_files_differ(bunzai, tmp_path):
    _world(bunzai, "eldoria", "Eldoria")
    _world(bunzai, "vale", "Vale")
    out = tmp_path / "ST"
    _export(bunzai, out)
    edit = json.dumps({"uid": 0, "set": {"content": "A changed vale."}})
    draft = bunzai("cap", "run", "lorebook.entries.update", "vale", "--input", edit, check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    again = _export(bunzai, out).json
    assert again["counts"]["written"] == 0
    assert again["skipped_existing"] == [
        {"ref": "lorebook/eldoria", "path": "worlds/Eldoria.json"},
        {"ref": "lorebook/vale", "path": "worlds/Vale.json", "differs": True},
    ]


def test_exporting_again_writes_no_temp_file_for_a_file_already_there(bunzai, tmp_path, monkeypatch):
    _world(bunzai, "eldoria", "Eldoria")
    _create(bunzai, "character", "ada", {"name": "Ada"})
    out = tmp_path / "ST"
    studio = find_studio(str(bunzai.studio))
    library_export.export_library(studio, out, "sillytavern")
    temps = []
    write_temp = atomic.write_temp
    monkeypatch.setattr(atomic, "write_temp", lambda *args: temps.append(args[0]) or write_temp(*args))
    report = library_export.export_library(studio, out, "sillytavern")
    assert len(report.skipped) == 2 and temps == []


def test_an_empty_into_is_refused_rather_than_the_working_folder(bunzai, tmp_path):
    # `bunzai export --into "$ST" ...` with ST unset must not fill the working folder.
    _create(bunzai, "character", "ada", {"name": "Ada"})
    before = sorted(os.listdir(bunzai.cwd))
    result = _export(bunzai, "")
    assert result.code == 2 and result.json["error"]["code"] == "usage"
    assert sorted(os.listdir(bunzai.cwd)) == before


def test_exported_personas_come_back_with_their_images_and_export_again_the_same(bunzai, tmp_path):
    # the export keeps personas as backups under Import in SillyTavern/personas/ (it writes no
    # settings.json): importing it read them without their images, skipped as used by nobody
    _create(bunzai, "persona", "wren", {"name": "Wren", "description": "A quiet reader."})
    portrait = {"portrait": "data:image/jpeg;base64," + base64.b64encode(JPEG).decode()}
    draft = bunzai("cap", "run", "persona.presentation.update", "wren", "--input", json.dumps(portrait), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    _world(bunzai, "glade", "Glade")
    first, again = tmp_path / "ST", tmp_path / "ST-again"
    for refs in (("persona/wren",), ("persona/wren", "lorebook/glade")):  # personas alone, and beside a world
        out = first / str(len(refs))
        _export(bunzai, out, *refs)
        fresh = bunzai.__class__(bunzai.home, tmp_path / f"studio-{len(refs)}")
        fresh("init", str(fresh.studio), check=True)
        drafts = fresh("import", str(out), check=True)
        assert "skipped" not in drafts.stderr
        fresh("apply", "--yes", input=drafts.stdout, check=True)
        image = fresh("read", "persona/wren", "--pointer", "/body/portrait", check=True).json["value"]
        assert image["sha256"] == bunzai("read", "persona/wren", "--pointer", "/body/portrait").json["value"]["sha256"]
        back = again / str(len(refs))
        fresh("export", "--into", str(back), "--layout", "sillytavern", *refs, check=True)
        files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
        assert files == sorted(p.relative_to(back).as_posix() for p in back.rglob("*") if p.is_file())
        assert all((out / name).read_bytes() == (back / name).read_bytes() for name in files)
