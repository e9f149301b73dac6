"""A SillyTavern user folder in and out: import every piece, re-import nothing, export it back."""

from __future__ import annotations

import base64
import json
import shutil
import struct
from pathlib import Path

import pytest

from testkit import corpus_path

# Relative path in the user folder -> corpus file (copied under SillyTavern's own names: two
# Default.json of different types, an instruct and a context ChatML.json, the world Eldoria
# that the card Seraphina is bound to).
LAYOUT = {
    "characters/default_Seraphina.png": "characters/default_Seraphina.png",
    "characters/Seraphina/joy.png": "characters/sprites/Seraphina/joy.png",
    "characters/Seraphina/neutral.png": "characters/sprites/Seraphina/neutral.png",
    "worlds/Eldoria.json": "worlds/Eldoria.json",
    "OpenAI Settings/Default.json": "presets/openai/Default.json",
    "TextGen Settings/Default.json": "presets/textgen/Default.json",
    "KoboldAI Settings/Godlike.json": "presets/kobold/Godlike.json",
    "NovelAI Settings/Erato-Golden Arrow.json": "presets/novel/Erato-Golden Arrow.json",
    "instruct/ChatML.json": "presets/instruct/ChatML.json",
    "instruct/Llama 3 Instruct.json": "presets/instruct/Llama 3 Instruct.json",
    "context/ChatML.json": "presets/context/ChatML.json",
    "context/Default.json": "presets/context/Default.json",
    "sysprompt/Neutral - Chat.json": "presets/sysprompt/Neutral - Chat.json",
    "reasoning/DeepSeek.json": "presets/reasoning/DeepSeek.json",
    "User Avatars/traveller.png": "characters/sprites/Seraphina/neutral.png",
}
SETTINGS = {
    "power_user": {
        "personas": {"traveller.png": "Wanderer"},
        "persona_descriptions": {
            "traveller.png": {"description": "A traveller.", "position": 0, "depth": 2, "role": 0, "lorebook": ""}
        },
        "default_persona": "traveller.png",
    },
    "extension_settings": {
        "regex": [
            {
                "id": "7c1c",
                "scriptName": "Trim stars",
                "findRegex": "/\\*+/g",
                "replaceString": "",
                "trimStrings": [],
                "placement": [2],
                "disabled": False,
                "markdownOnly": False,
                "promptOnly": False,
                "runOnEdit": True,
                "substituteRegex": 0,
                "minDepth": None,
                "maxDepth": None,
            }
        ]
    },
}


@pytest.fixture
def user_folder(bunzai, tmp_path) -> Path:
    root = tmp_path / "data" / "default-user"
    for relative, source in LAYOUT.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(corpus_path("sillytavern", *source.split("/")), root / relative)
    (root / "QuickReplies").mkdir()
    legacy = corpus_path("sillytavern", "quick-replies", "Default.v1.json")
    # SillyTavern saves sets as v2; the corpus has only a v1 file, so the test makes the v2 one.
    bunzai(
        "convert",
        str(legacy),
        "--to",
        "sillytavern.quickreply",
        "-o",
        str(root / "QuickReplies" / "Default.json"),
        check=True,
    )
    (root / "settings.json").write_text(json.dumps(SETTINGS, indent=4), encoding="utf-8")
    (root / "chats" / "Seraphina").mkdir(parents=True)
    (root / "chats" / "Seraphina" / "Seraphina - 2024-10-18.jsonl").write_text('{"user_name": "unused"}\n')
    return root


def imported(bunzai, folder: Path, *options: str):
    drafts = bunzai("import", *options, str(folder))
    assert drafts.code == 0, drafts.stdout + drafts.stderr
    return drafts


def pieces_files(root: Path) -> list[str]:
    skip = ("settings.json", "chats/")
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and not p.relative_to(root).as_posix().startswith(skip)
    )


def test_import_then_apply_takes_every_piece_with_no_refusal(bunzai, user_folder):
    drafts = imported(bunzai, user_folder)
    done = bunzai("apply", "--yes", input=drafts.stdout)
    assert done.code == 0, done.stdout
    assert {line["status"] for line in done.lines} == {"applied"}
    targets = {f"{line['target']['kind']}/{line['target']['id']}" for line in done.lines}
    assert {
        "preset/default",
        "preset/default-textgen",
        "preset/default-context",
        "preset/chatml-instruct",
        "preset/chatml-context",
        "lorebook/eldoria",
        "character/seraphina",
        "pack/seraphina",
        "persona/wanderer",
        "regex/global-regex-scripts",
        "quickreply/default",
    } <= targets
    # every file is accounted for: it is the source of a piece, or the image of a persona
    sources = {line["proposed"]["original"]["source"] for line in drafts.lines}
    accounted = sources | {"User Avatars/traveller.png"}
    for relative in pieces_files(user_folder):
        assert relative in accounted or relative.rsplit("/", 1)[0] in accounted, relative
    persona = bunzai("read", "persona/wanderer", check=True).json["piece"]
    assert persona["body"]["portrait"] is not None
    assert bunzai("read", "character/seraphina", "--pointer", "/body/links/lorebooks", check=True).json["value"] == [
        "eldoria"
    ]


def test_a_key_settings_json_repeats_is_reported_on_the_pieces_taken_from_it(bunzai, user_folder):
    text = json.dumps(SETTINGS, indent=4).replace('"power_user": {', '"power_user": {"theme": "a", "theme": "b",', 1)
    (user_folder / "settings.json").write_text(text, encoding="utf-8")
    drafts = imported(bunzai, user_folder).lines
    taken = [d for d in drafts if d["proposed"]["original"]["source"].startswith("settings.json")]
    assert len(taken) == 2
    for draft in taken:
        assert any("settings.json: an object repeats the key(s) theme" in w for w in draft["warnings"])
    others = [d for d in drafts if d not in taken]
    assert not any("repeats the key" in w for d in others for w in d["warnings"])


def test_reimport_with_skip_writes_nothing(bunzai, user_folder):
    bunzai("apply", "--yes", input=imported(bunzai, user_folder).stdout, check=True)
    again = imported(bunzai, user_folder, "--on-conflict", "skip")
    assert again.stdout == ""


def png_cards(path: Path) -> dict:
    data, at, found = path.read_bytes(), 8, {}
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        if kind == b"tEXt":
            key, _, text = body.partition(b"\x00")
            found[key.decode("latin-1")] = json.loads(base64.b64decode(text))
        at += 12 + length
    return found


def test_export_into_a_fresh_folder_gives_back_the_same_files(bunzai, user_folder, tmp_path):
    bunzai("apply", "--yes", input=imported(bunzai, user_folder).stdout, check=True)
    out = tmp_path / "out"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern")
    assert report.code == 0, report.stdout
    assert report.json["counts"]["skipped_existing"] == 0 and report.json["not_written"] == []
    assert not (out / "settings.json").exists()
    exported = [path for path in pieces_files(out) if not path.startswith("Import in SillyTavern/")]
    assert exported == pieces_files(user_folder)
    for relative in exported:
        before, after = user_folder / relative, out / relative
        if relative.endswith(".json"):
            # The text itself, keys in their order (the studio's files sort theirs): SillyTavern
            # writes no newline at the end, which the corpus files, from its repository, have.
            assert after.read_text("utf-8") == before.read_text("utf-8").removesuffix("\n"), relative
        elif relative.startswith("characters/") and relative.count("/") == 1:
            assert png_cards(after)["chara"] == png_cards(before)["chara"]
        else:
            assert after.read_bytes() == before.read_bytes(), relative
    extra = {path for path in pieces_files(out) if path.startswith("Import in SillyTavern/")}
    assert extra == {
        "Import in SillyTavern/personas/personas.json",
        "Import in SillyTavern/regex/Global regex scripts.json",
    }
    backup = json.loads((out / "Import in SillyTavern/personas/personas.json").read_text())
    assert backup["personas"] == {"traveller.png": "Wanderer"}
    notes = [entry for entry in report.json["written"] if "note" in entry]
    assert {entry["ref"] for entry in notes} == {"persona/wanderer", "regex/global-regex-scripts"}


def test_export_leaves_existing_files_alone_and_reports_them(bunzai, user_folder, tmp_path):
    bunzai("apply", "--yes", input=imported(bunzai, user_folder).stdout, check=True)
    out = tmp_path / "out"
    (out / "worlds").mkdir(parents=True)
    (out / "worlds" / "Eldoria.json").write_text("mine")
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", "lorebook/eldoria", check=True).json
    assert report["skipped_existing"] == [{"ref": "lorebook/eldoria", "path": "worlds/Eldoria.json", "differs": True}]
    assert (out / "worlds" / "Eldoria.json").read_text() == "mine"


def test_a_piece_name_cannot_lead_outside_the_folder(bunzai, tmp_path):
    draft = bunzai("create", "lorebook", "--input", '{"name": "../../escape"}', "--id", "escape", check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    out = tmp_path / "deep" / "out"
    report = bunzai("export", "--into", str(out), "--layout", "sillytavern", "lorebook/escape", check=True).json
    [written] = report["written"]
    assert written["path"].startswith("worlds/") and ".." not in written["path"].split("/")
    assert (out / written["path"]).is_file()
    assert sorted(p.name for p in (tmp_path / "deep").iterdir()) == ["out"]


def test_a_plain_folder_is_not_a_user_folder(tmp_path):
    from bunzai.adapters.sillytavern.user_folder import is_user_folder

    (tmp_path / "worlds").mkdir()
    assert not is_user_folder(tmp_path)
    (tmp_path / "settings.json").write_text("{}")
    assert is_user_folder(tmp_path)


def test_pieces_made_elsewhere_go_to_their_kinds_folder_under_their_name(bunzai, tmp_path):
    for kind, doc in (
        ("character", '{"name": "Ada Lovelace"}'),
        ("preset", '{"name": "Mine", "family": "text_completion"}'),
        ("htmldoc", '{"name": "Page"}'),
    ):
        bunzai("apply", "--yes", input=bunzai("create", kind, "--input", doc, check=True).stdout, check=True)
    report = bunzai("export", "--into", str(tmp_path / "out"), "--layout", "sillytavern", check=True).json
    assert sorted(entry["path"] for entry in report["written"]) == [
        "TextGen Settings/Mine.json",
        "characters/Ada Lovelace.png",
    ]
    assert [entry["ref"] for entry in report["not_written"]] == ["htmldoc/page"]


@pytest.mark.parametrize(
    ("avatar", "data", "ext"),
    [
        ("face.svg", b'<svg xmlns="http://www.w3.org/2000/svg"/>', "svg"),  # image/svg+xml
        ("face.ico", b"\x00\x00\x01\x00\x01\x00", "ico"),  # image/vnd.microsoft.icon
        ("face.jpeg", b"\xff\xd8\xff\xe0 not much of a jpeg", "jpg"),
    ],
)
def test_a_persona_avatar_of_any_image_type_is_stored_under_an_asset_extension(bunzai, tmp_path, avatar, data, ext):
    # the extension came from the type's subtype: svg+xml was no asset extension, and import failed as internal
    root = tmp_path / "default-user"
    (root / "worlds").mkdir(parents=True)
    (root / "User Avatars").mkdir()
    (root / "User Avatars" / avatar).write_bytes(data)
    power = {"personas": {avatar: "Ann"}, "persona_descriptions": {avatar: {"description": "A traveller."}}}
    (root / "settings.json").write_text(json.dumps({"power_user": power}))
    drafts = imported(bunzai, root).lines
    assert [draft["target"]["kind"] for draft in drafts] == ["persona"]
    assert bunzai("apply", "--yes", input="\n".join(map(json.dumps, drafts))).code == 0
    portrait = bunzai("read", "persona/ann", "--pointer", "/body/portrait").json["value"]
    assert portrait["ext"] == ext


def test_a_damaged_card_on_the_characters_shelf_is_an_error_not_passed_over(bunzai, tmp_path):
    # a half-copied card is the user's to hear about; a note beside the cards is passed over
    root = tmp_path / "ST"
    (root / "characters").mkdir(parents=True)
    (root / "worlds").mkdir()
    shutil.copyfile(corpus_path("sillytavern", "worlds", "Eldoria.json"), root / "worlds" / "Eldoria.json")
    (root / "characters" / "Alice.png").write_bytes(b"")
    (root / "characters" / "Bob.png").write_text("not a card", encoding="utf-8")
    (root / "characters" / "readme.txt").write_text("notes", encoding="utf-8")
    done = bunzai("import", str(root))
    assert done.code == 1
    errors = {Path(line["error"]["details"]["path"]).name: line["error"] for line in done.lines if "error" in line}
    assert sorted(errors) == ["Alice.png", "Bob.png"]
    assert errors["Alice.png"]["message"] == "Alice.png is not a PNG: it is empty"
    assert [line["target"]["id"] for line in done.lines if "target" in line] == ["eldoria"]
    assert "readme.txt" in done.stderr


def test_a_damaged_file_sillytavern_does_not_list_is_passed_over(bunzai, tmp_path):
    # SillyTavern lists characters/*.png as written (characters.js) and worlds/*.json in any case
    # (worldinfo.js): a damaged Alice.PNG is no card it would show, so it is passed over and named on
    # stderr, as a readme beside the cards is; a damaged world named Eldoria.JSON is an error line
    root = tmp_path / "ST"
    for folder in ("characters", "worlds"):
        (root / folder).mkdir(parents=True)
    (root / "characters" / "Alice.PNG").write_bytes(b"")
    (root / "characters" / "Bob.png").write_bytes(b"")
    (root / "worlds" / "Eldoria.JSON").write_bytes(b"")
    done = bunzai("import", str(root))
    errors = sorted(line["error"]["details"]["path"] for line in done.lines if "error" in line)
    assert errors == [str(root / "characters" / "Bob.png"), str(root / "worlds" / "Eldoria.JSON")]
    assert "skipped 1 file(s) or folder(s): Alice.PNG" in done.stderr
