"""Shared folders: nothing outside the studio is read without a grant, and no link escapes one."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path


def shared(tmp_path: Path) -> Path:
    folder = tmp_path / "shared-folder"
    (folder / "worlds").mkdir(parents=True)
    (folder / "worlds" / "notes.txt").write_text("hello from a shared folder\n")
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "key.txt").write_text("do not read")
    os.symlink(secret, folder / "escape")
    os.symlink(secret / "key.txt", folder / "worlds" / "key-link.txt")
    return folder


def test_reading_needs_a_grant(bunzai, tmp_path):
    folder = shared(tmp_path)
    refused = bunzai("folder", "read", str(folder / "worlds" / "notes.txt"))
    assert refused.code == 1 and refused.json["error"]["code"] == "not_granted"
    assert bunzai("folder", "grant", str(folder), check=True).json["items"] == [str(folder.resolve())]
    page = bunzai("folder", "read", str(folder / "worlds" / "notes.txt"), "--limit", "5", check=True).json
    assert page["value"] == "hello" and page["next_offset"] == 5


def test_a_symlink_cannot_carry_a_path_out_of_a_grant(bunzai, tmp_path):
    folder = shared(tmp_path)
    bunzai("folder", "grant", str(folder), check=True)
    for path in (folder / "escape" / "key.txt", folder / "worlds" / "key-link.txt"):
        refused = bunzai("folder", "read", str(path))
        assert refused.code == 1 and refused.json["error"]["code"] == "not_granted"
        assert "do not read" not in refused.stdout


def test_search_walks_grants_and_skips_symlinks(bunzai, tmp_path):
    folder = shared(tmp_path)
    bunzai("folder", "grant", str(folder), check=True)
    hits = bunzai("folder", "search", "txt", check=True).json["items"]
    assert [hit["relative"] for hit in hits] == ["worlds/notes.txt"]


def test_revoke_takes_the_grant_back(bunzai, tmp_path):
    folder = shared(tmp_path)
    bunzai("folder", "grant", str(folder), check=True)
    assert bunzai("folder", "revoke", str(folder), check=True).json["items"] == []
    assert bunzai("folder", "read", str(folder / "worlds" / "notes.txt")).json["error"]["code"] == "not_granted"
    assert bunzai("folder", "revoke", str(folder)).json["error"]["code"] == "not_found"


def test_folder_import_refuses_ungranted_paths(bunzai, tmp_path):
    folder = shared(tmp_path)
    done = bunzai("folder", "import", str(folder / "worlds" / "notes.txt"))
    assert done.code == 1 and done.json["error"]["code"] == "not_granted"


def test_the_studio_is_a_standing_grant(bunzai):
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    page = bunzai("folder", "read", str(bunzai.studio / "character" / "ada.json"), check=True).json
    assert page["type"] == "text" and '"Ada"' in page["value"]


def test_folder_import_drafts_a_granted_file_and_a_granted_folder(bunzai, tmp_path):
    import shutil

    from testkit import corpus_path

    folder = tmp_path / "st"
    (folder / "worlds").mkdir(parents=True)
    shutil.copy(corpus_path("sillytavern", "worlds", "Eldoria.json"), folder / "worlds" / "Eldoria.json")
    shutil.copy(corpus_path("sillytavern", "characters", "default_Seraphina.png"), folder / "Seraphina.png")
    refused = bunzai("folder", "import", str(folder / "Seraphina.png"))
    assert refused.code == 1 and refused.json["error"]["code"] == "not_granted"
    bunzai("folder", "grant", str(folder), check=True)
    one = bunzai("folder", "import", str(folder / "worlds" / "Eldoria.json"), check=True).lines
    assert [(d["target"]["kind"], d["target"]["id"]) for d in one] == [("lorebook", "eldoria")]
    every = bunzai("folder", "import", str(folder), check=True).lines
    assert {(d["target"]["kind"], d["target"]["id"]) for d in every} >= {
        ("character", "seraphina"),
        ("lorebook", "eldoria"),
    }
    assert all(d["type"] == "bunzai.draft" for d in every)


def test_the_folder_to_grant_is_not_said_missing_when_it_is_a_file(bunzai, tmp_path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("a file, not a folder", encoding="utf-8")
    for path in (notes / "x.png", notes / "deeper" / "x.png"):
        error = bunzai("folder", "read", str(path)).json["error"]
        assert error["code"] == "not_granted"
        assert error["hint"] == (
            f"{notes} is a file, not a folder: grant the folder that holds it first: `bunzai folder grant {tmp_path}`"
        ), error


def test_what_is_checked_is_where_a_path_leads_not_how_it_is_written(bunzai, tmp_path) -> None:
    folder = shared(tmp_path)
    bunzai("folder", "grant", str(folder), check=True)
    os.symlink(folder / "worlds", tmp_path / "worlds-link")  # written outside every grant, leads into one
    page = bunzai("folder", "read", str(tmp_path / "worlds-link" / "notes.txt"), check=True).json
    assert page["value"] == "hello from a shared folder\n"
    assert page["path"] == str((folder / "worlds" / "notes.txt").resolve())  # the file it really is


def test_search_and_a_listing_show_a_dot_file_as_import_and_sillytavern_do(bunzai, tmp_path) -> None:
    # SillyTavern lists characters/.hack.png as any card (its readdir keeps dot files), and so does
    # `folder import`; a hidden folder (.git) and the leftovers of systems and editors are skipped.
    folder = shared(tmp_path)
    characters = folder / "characters"
    characters.mkdir()
    for name in (".hack.png", ".DS_Store", "._hack.png", ".hack.png.swp", ".hack.png.42-0123456789ab.tmp"):
        (characters / name).write_bytes(b"x")
    (folder / ".git").mkdir()
    (folder / ".git" / "hack.png").write_bytes(b"x")
    bunzai("folder", "grant", str(folder), check=True)
    hits = bunzai("folder", "search", "hack", check=True).json["items"]
    assert [hit["relative"] for hit in hits] == ["characters/.hack.png"]
    listing = bunzai("folder", "read", str(characters), check=True).json
    assert (listing["files"], listing["count"]) == ([".hack.png"], 1)


def test_reading_a_folder_lists_its_subfolders_and_files_a_page_at_a_time(bunzai, tmp_path) -> None:
    # a grant holding only folders (a SillyTavern data folder) is not an empty listing: its
    # subfolders are named, to read in turn; a hidden folder and a link to one are not
    folder = shared(tmp_path)  # worlds/ (notes.txt), and escape, a link to a folder
    (folder / "characters").mkdir()
    (folder / ".git").mkdir()
    bunzai("folder", "grant", str(folder), check=True)
    listing = bunzai("folder", "read", str(folder), check=True).json
    assert (listing["folders"], listing["files"], listing["count"]) == (["characters", "worlds"], [], 2)
    assert listing["next_offset"] is None
    (folder / "about.txt").write_text("a library\n")
    first = bunzai("folder", "read", str(folder), "--limit", "2", check=True).json
    assert (first["folders"], first["files"], first["count"], first["next_offset"]) == (
        ["characters", "worlds"],
        [],
        3,
        2,
    )
    rest = bunzai("folder", "read", str(folder), "--offset", "2", "--limit", "2", check=True).json
    assert (rest["folders"], rest["files"], rest["next_offset"]) == ([], ["about.txt"], None)
    inner = bunzai("folder", "read", str(folder / "worlds"), check=True).json
    assert (inner["folders"], inner["files"]) == ([], ["notes.txt"])


def test_search_finds_a_name_written_decomposed_by_a_query_typed_composed_and_back(bunzai, tmp_path):
    # macOS writes file names decomposed (é as e and U+0301): a query typed composed did not find
    # them, nor a decomposed query a composed name
    folder = tmp_path / "shared"
    folder.mkdir()
    names = (unicodedata.normalize("NFD", "Café Noir.png"), "Ἀθηνᾶ.json", unicodedata.normalize("NFD", "한국어.txt"))
    for name in names:
        (folder / name).write_bytes(b"x")
    bunzai("folder", "grant", str(folder), check=True)

    def found(query):
        return [hit["relative"] for hit in bunzai("folder", "search", query, check=True).json["items"]]

    for form in ("NFC", "NFD"):
        assert found(unicodedata.normalize(form, "CAFÉ noir")) == [names[0]]  # named as the file is
        assert found(unicodedata.normalize(form, "ἀθηνᾶ")) == [names[1]]
        assert found(unicodedata.normalize(form, "국어")) == [names[2]]
