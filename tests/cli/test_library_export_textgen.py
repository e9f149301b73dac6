"""`bunzai export --into DIR --layout textgen`: text-generation-webui's `characters/` folder,
each character as `<name>.yaml` with its portrait beside it (`<name>.png`, a JPEG as
`<name>.jpg`), other kinds reported as not written, and the folder imports back."""

from __future__ import annotations

import base64
import hashlib
import json
import os

from testkit import v2_card_png

from bunzai.store.studio import init_studio

JPEG = base64.b64decode(
    "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////"
    "////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA="
)
GIF = base64.b64decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")


def _create(bunzai, kind: str, piece_id: str, body: dict) -> None:
    draft = bunzai("create", kind, "--id", piece_id, "--input", json.dumps(body), check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)


def _portrait(bunzai, tmp_path, piece_id: str, image: bytes, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(image)
    draft = bunzai("cap", "run", "character.media.update", piece_id, "--input", json.dumps({"portrait": f"@{path}"}))
    bunzai("apply", "--yes", input=draft.stdout, check=True)


def _stored(bunzai, piece_id: str) -> dict:
    return json.loads((bunzai.studio / "character" / f"{piece_id}.json").read_text(encoding="utf-8"))


def _export(bunzai, out, *refs: str):
    return bunzai("export", "--into", str(out), "--layout", "textgen", *refs)


def _imported(bunzai, tmp_path, folder) -> dict[str, list[dict]]:
    """The characters a fresh studio gets from importing `folder`, by name."""
    init_studio(tmp_path / "again")
    own, bunzai.studio = bunzai.studio, tmp_path / "again"
    try:
        draft = bunzai("import", str(folder), "--on-conflict", "suffix", check=True).stdout  # two of one name
        bunzai("apply", "--yes", input=draft, check=True)
        pieces = [json.loads(path.read_text(encoding="utf-8")) for path in (bunzai.studio / "character").glob("*.json")]
    finally:
        bunzai.studio = own
    named: dict[str, list[dict]] = {}
    for piece in sorted(pieces, key=lambda piece: piece["body"]["description"]):
        named.setdefault(piece["name"], []).append(piece)
    return named


def _paths(report: dict, section: str = "written") -> list[str]:
    return [entry["path"] for entry in report[section]]


def test_a_studio_exports_as_a_textgen_characters_folder_and_imports_back(bunzai, tmp_path):
    card = tmp_path / "Ada.png"
    card.write_bytes(v2_card_png("Ada"))
    bunzai("apply", "--yes", input=bunzai("import", str(card), check=True).stdout, check=True)
    _create(bunzai, "character", "bo", {"name": "Bo", "description": "Bo rows the ferry."})
    _create(bunzai, "lorebook", "eldoria", {"name": "Eldoria", "entries": [{"uid": 0, "content": "A glade."}]})
    out = tmp_path / "textgen"
    result = _export(bunzai, out)
    assert result.code == 0, result.stdout + result.stderr
    report = result.json
    assert report["layout"] == "textgen"
    assert _paths(report) == ["characters/Ada.yaml", "characters/Ada.png", "characters/Bo.yaml"]
    assert report["not_written"] == [
        {"ref": "lorebook/eldoria", "reason": "text-generation-webui has no file for a lorebook piece"}
    ]
    assert sorted(os.listdir(out)) == ["characters"]
    assert sorted(os.listdir(out / "characters")) == ["Ada.png", "Ada.yaml", "Bo.yaml"]
    portrait = _stored(bunzai, "ada")["body"]["portrait"]
    image = (out / "characters" / "Ada.png").read_bytes()
    assert hashlib.sha256(image).hexdigest() == portrait["sha256"]  # the portrait as stored
    ada_yaml = next(entry for entry in report["written"] if entry["path"] == "characters/Ada.yaml")
    assert ada_yaml["format"] == "textgen.character.yaml"
    codes = {loss["code"] for loss in ada_yaml["losses"]}
    assert "textgen.portrait.not_carried" not in codes  # the portrait is beside it
    # The one-file export of the same character does report it.
    single = bunzai("transfer", "ada", "--to", "textgen.character.yaml", check=True).json
    assert "textgen.portrait.not_carried" in {loss["code"] for loss in single["losses"]}

    back = _imported(bunzai, tmp_path, out / "characters")
    assert sorted(back) == ["Ada", "Bo"]
    [ada], [bo] = back["Ada"], back["Bo"]
    assert ada["body"]["portrait"]["sha256"] == portrait["sha256"]
    assert ada["body"]["first_message"] == "Hello from Ada."
    assert bo["body"]["portrait"] is None
    assert bo["body"]["description"] == "Bo rows the ferry."

    again = _export(bunzai, out).json  # create-only: everything is there now
    assert again["counts"] == {"written": 0, "skipped_existing": 3, "not_written": 1}
    assert not any(entry.get("differs") for entry in again["skipped_existing"])


def test_a_jpeg_portrait_goes_as_jpg_and_a_gif_under_the_png_name_textgen_looks_for(bunzai, tmp_path):
    _create(bunzai, "character", "jo", {"name": "Jo"})
    _portrait(bunzai, tmp_path, "jo", JPEG, "jo.jpg")
    _create(bunzai, "character", "gil", {"name": "Gil"})
    _portrait(bunzai, tmp_path, "gil", GIF, "gil.gif")
    out = tmp_path / "textgen"
    report = _export(bunzai, out).json
    assert sorted(_paths(report)) == [
        "characters/Gil.png",
        "characters/Gil.yaml",
        "characters/Jo.jpg",
        "characters/Jo.yaml",
    ]
    assert (out / "characters" / "Jo.jpg").read_bytes() == JPEG
    assert (out / "characters" / "Gil.png").read_bytes() == GIF  # as stored: textgen opens it by its content
    back = _imported(bunzai, tmp_path, out / "characters")
    for name, piece_id in (("Jo", "jo"), ("Gil", "gil")):
        [piece] = back[name]
        assert piece["body"]["portrait"]["sha256"] == _stored(bunzai, piece_id)["body"]["portrait"]["sha256"]


def test_hostile_names_stay_in_the_characters_folder(bunzai, tmp_path):
    names = {"up": "../../escaped", "slash": "a/b", "dots": "..", "hidden": ".secret"}
    for piece_id, name in names.items():
        _create(bunzai, "character", piece_id, {"name": name, "description": piece_id})
    _portrait(bunzai, tmp_path, "up", JPEG, "up.jpg")
    out = tmp_path / "deep" / "textgen"
    report = _export(bunzai, out).json
    assert report["counts"]["written"] == 5, report
    files = sorted(os.listdir(out / "characters"))
    assert files == ["ab.yaml", "dots.yaml", "escaped.jpg", "escaped.yaml", "secret.yaml"]
    assert sorted(os.listdir(tmp_path)) == ["deep", "home", "studio", "up.jpg"]
    assert sorted(os.listdir(tmp_path / "deep")) == ["textgen"]
    back = _imported(bunzai, tmp_path, out / "characters")
    assert sorted(piece["body"]["description"] for pieces in back.values() for piece in pieces) == sorted(names)


def test_two_characters_of_one_name_get_textgens_next_name_with_their_own_portraits(bunzai, tmp_path):
    _create(bunzai, "character", "alice-a", {"name": "Alice", "description": "The first."})
    _create(bunzai, "character", "alice-b", {"name": "Alice", "description": "The second."})
    # Same text, other portraits: two characters, not one written twice.
    _create(bunzai, "character", "twin-a", {"name": "Twin"})
    _create(bunzai, "character", "twin-b", {"name": "Twin"})
    _portrait(bunzai, tmp_path, "alice-b", JPEG, "b.jpg")
    _portrait(bunzai, tmp_path, "twin-a", JPEG, "t.jpg")
    _portrait(bunzai, tmp_path, "twin-b", GIF, "t.gif")
    out = tmp_path / "textgen"
    report = _export(bunzai, out).json
    assert sorted(os.listdir(out / "characters")) == [
        "Alice.yaml",
        "Alice_001.jpg",
        "Alice_001.yaml",
        "Twin.jpg",
        "Twin.yaml",
        "Twin_001.png",
        "Twin_001.yaml",
    ]
    renamed = {entry["path"]: entry.get("renamed_from") for entry in report["written"] if "format" in entry}
    assert renamed["characters/Alice_001.yaml"] == "characters/Alice.yaml"
    assert renamed["characters/Alice.yaml"] is None
    back = _imported(bunzai, tmp_path, out / "characters")
    assert [piece["body"]["description"] for piece in back["Alice"]] == ["The first.", "The second."]
    portraits = {piece["body"]["portrait"]["sha256"] for piece in back["Twin"]}
    assert portraits == {hashlib.sha256(JPEG).hexdigest(), hashlib.sha256(GIF).hexdigest()}
    again = _export(bunzai, out).json  # the same pieces in the same order get the same names
    assert again["counts"]["written"] == 0
    assert not any(entry.get("differs") for entry in again["skipped_existing"])


def test_an_existing_file_is_left_alone_and_reported(bunzai, tmp_path):
    _create(bunzai, "character", "ada", {"name": "Ada", "description": "New text."})
    _portrait(bunzai, tmp_path, "ada", JPEG, "ada.jpg")
    folder = tmp_path / "textgen" / "characters"
    folder.mkdir(parents=True)
    (folder / "Ada.yaml").write_text("name: Ada\ncontext: mine\n", encoding="utf-8")
    report = _export(bunzai, tmp_path / "textgen").json
    [entry] = report["skipped_existing"]
    assert (entry["ref"], entry["path"], entry["differs"]) == ("character/ada", "characters/Ada.yaml", True)
    # The picture would become the other character's: it is not written, and the entry says so.
    assert entry["portrait_not_written"]["path"] == "characters/Ada.jpg"
    assert report["written"] == []
    assert sorted(os.listdir(folder)) == ["Ada.yaml"]
    assert (folder / "Ada.yaml").read_text(encoding="utf-8") == "name: Ada\ncontext: mine\n"


def test_an_unchanged_yaml_still_gets_its_missing_portrait(bunzai, tmp_path):
    _create(bunzai, "character", "ada", {"name": "Ada"})
    _portrait(bunzai, tmp_path, "ada", JPEG, "ada.jpg")
    out = tmp_path / "textgen"
    assert _export(bunzai, out).code == 0
    (out / "characters" / "Ada.jpg").unlink()  # the YAML there is this very character's
    report = _export(bunzai, out).json
    assert report["skipped_existing"] == [{"ref": "character/ada", "path": "characters/Ada.yaml"}]
    assert _paths(report) == ["characters/Ada.jpg"]
    assert (out / "characters" / "Ada.jpg").read_bytes() == JPEG


def test_an_existing_yml_would_hide_the_yaml_so_neither_it_nor_the_portrait_is_written(bunzai, tmp_path):
    _create(bunzai, "character", "ada", {"name": "Ada", "description": "Mine."})
    _portrait(bunzai, tmp_path, "ada", GIF, "ada.gif")
    _create(bunzai, "character", "bo", {"name": "Bo"})
    folder = tmp_path / "textgen" / "characters"
    folder.mkdir(parents=True)
    (folder / "Ada.yml").write_text("name: Someone\ncontext: theirs\n", encoding="utf-8")
    result = _export(bunzai, tmp_path / "textgen")
    assert result.code == 0, result.stdout + result.stderr  # a clash, as the layout reports others
    report = result.json
    [entry] = report["not_written"]
    assert (entry["ref"], entry["path"]) == ("character/ada", "characters/Ada.yaml")
    assert "characters/Ada.yml" in entry["reason"]
    assert entry["portrait_not_written"]["path"] == "characters/Ada.png"
    assert _paths(report) == ["characters/Bo.yaml"]
    assert sorted(os.listdir(folder)) == ["Ada.yml", "Bo.yaml"]


def test_an_existing_png_would_hide_a_jpg_portrait_so_it_is_reported_not_written(bunzai, tmp_path):
    _create(bunzai, "character", "jo", {"name": "Jo"})
    _portrait(bunzai, tmp_path, "jo", JPEG, "jo.jpg")
    _create(bunzai, "character", "gil", {"name": "Gil"})
    _portrait(bunzai, tmp_path, "gil", GIF, "gil.gif")
    folder = tmp_path / "textgen" / "characters"
    folder.mkdir(parents=True)
    (folder / "Jo.png").write_bytes(GIF)  # textgen shows a .png before a .jpg
    (folder / "Gil.jpg").write_bytes(JPEG)  # a .png is shown before it: no clash
    report = _export(bunzai, tmp_path / "textgen").json
    assert report["not_written"] == [
        {
            "ref": "character/jo",
            "path": "characters/Jo.jpg",
            "reason": "characters/Jo.png is there, and text-generation-webui shows it before Jo.jpg",
        }
    ]
    assert sorted(_paths(report)) == ["characters/Gil.png", "characters/Gil.yaml", "characters/Jo.yaml"]
    assert (folder / "Jo.png").read_bytes() == GIF
    jo_yaml = next(entry for entry in report["written"] if entry["path"] == "characters/Jo.yaml")
    assert "textgen.portrait.not_carried" in {loss["code"] for loss in jo_yaml["losses"]}  # not shown with it
