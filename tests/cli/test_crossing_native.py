"""The crossing commands with the bunzai.native format (every kind, lossless)."""

from __future__ import annotations

import json
from pathlib import Path

ADA = '{"name": "Ada Lovelace", "tagline": "Countess of computing"}'


def make_ada(bunzai) -> None:
    draft = bunzai("create", "character", "--input", ADA, check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)


def studio_files(studio: Path) -> list:
    return sorted(p.relative_to(studio).as_posix() for p in studio.rglob("*") if ".bunzai/locks" not in p.as_posix())


def test_formats_lists_native_with_every_kind(bunzai):
    formats = {row["format"]: row for row in bunzai("formats", check=True).json["items"]}
    native = formats["bunzai.native"]
    assert native["read"] and native["write"]
    assert "promptbook" in native["kinds"] and len(native["kinds"]) == 9


def test_formats_recognised_only_to_be_refused_say_they_are_not_read(bunzai, tmp_path):
    formats = {row["format"]: row for row in bunzai("formats", check=True).json["items"]}
    for refused in ("marinara.chat_preset", "risu.card.encrypted"):
        assert not formats[refused]["read"] and not formats[refused]["write"], refused
    assert all(row["read"] for name, row in formats.items() if "refused" not in row["label"])
    preset = {"type": "marinara_chat_preset", "version": 1, "data": {"name": "Daily"}}
    (tmp_path / "daily.json").write_text(json.dumps(preset))
    refused = bunzai("import", str(tmp_path / "daily.json"))
    assert refused.code == 1 and refused.json["error"]["code"] == "unsupported"  # still told why


def test_transfer_previews_and_writes_nothing(bunzai):
    make_ada(bunzai)
    before = studio_files(bunzai.studio)
    preview = bunzai("transfer", "ada-lovelace", "--to", "bunzai.native", check=True).json
    assert preview["file_name"] == "Ada Lovelace.bunzai.json"  # the piece's name
    assert preview["losses"] == [] and preview["size"] > 0
    assert studio_files(bunzai.studio) == before


def test_export_writes_a_fresh_kit_folder_and_the_preview_matches(bunzai):
    make_ada(bunzai)
    preview = bunzai("transfer", "ada-lovelace", "--to", "bunzai.native", check=True).json
    first = bunzai("export", "ada-lovelace", "--to", "bunzai.native", check=True).json
    second = bunzai("export", "ada-lovelace", "--to", "bunzai.native", check=True).json
    assert first["status"] == "applied" and first["path"] != second["path"]
    path = bunzai.studio / first["path"]
    assert path.parent.parent.name == "Export" and path.parent.name.endswith(" Kit ada-lovelace")
    assert first["sha256"] == preview["sha256"] and first["losses"] == preview["losses"]


def test_native_export_imports_back_identical(bunzai):
    make_ada(bunzai)
    exported = bunzai("export", "ada-lovelace", "--to", "bunzai.native", check=True).json
    original = bunzai("read", "character/ada-lovelace", check=True).json
    bunzai("delete", "character/ada-lovelace", "--yes", check=True)
    drafts = bunzai("import", str(bunzai.studio / exported["path"]), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    assert bunzai("read", "character/ada-lovelace", check=True).json["revision"] == original["revision"]


def test_import_of_a_taken_id_is_refused_not_replaced(bunzai):
    make_ada(bunzai)
    exported = bunzai("export", "ada-lovelace", "--to", "bunzai.native", check=True).json
    before = (bunzai.studio / "character" / "ada-lovelace.json").read_bytes()
    drafts = bunzai("import", str(bunzai.studio / exported["path"]), check=True)
    done = bunzai("apply", "--yes", input=drafts.stdout)
    assert done.code == 1 and done.json["reason"] == "occupied"
    assert (bunzai.studio / "character" / "ada-lovelace.json").read_bytes() == before


def test_import_with_id_renames_the_piece(bunzai):
    make_ada(bunzai)
    exported = bunzai("export", "ada-lovelace", "--to", "bunzai.native", check=True).json
    drafts = bunzai("import", str(bunzai.studio / exported["path"]), "--id", "ada-copy", check=True)
    assert bunzai("apply", "--yes", input=drafts.stdout, check=True).json["target"]["id"] == "ada-copy"


def test_convert_writes_out_and_refuses_to_replace(bunzai, tmp_path):
    make_ada(bunzai)
    exported = bunzai.studio / bunzai("export", "ada-lovelace", "--to", "bunzai.native", check=True).json["path"]
    out = tmp_path / "copy.bunzai.json"
    report = bunzai("convert", str(exported), "--to", "bunzai.native", "-o", str(out), check=True).json
    assert report["source_format"] == "bunzai.native" and report["losses"] == []
    assert json.loads(out.read_text())["piece"]["name"] == "Ada Lovelace"
    out.write_text("mine")
    refused = bunzai("convert", str(exported), "--to", "bunzai.native", "-o", str(out))
    assert refused.code == 1 and refused.json["error"]["code"] == "occupied"
    assert out.read_text() == "mine"
    bunzai("convert", str(exported), "--to", "bunzai.native", "-o", str(out), "--force", check=True)
    assert out.read_text() != "mine"


def test_convert_to_stdout_puts_the_report_on_stderr(bunzai):
    make_ada(bunzai)
    exported = bunzai.studio / bunzai("export", "ada-lovelace", "--to", "bunzai.native", check=True).json["path"]
    done = bunzai("convert", str(exported), "--to", "bunzai.native", "-o", "-", check=True)
    assert json.loads(done.stdout)["type"] == "bunzai.piece"
    assert json.loads(done.stderr.strip().splitlines()[-1])["format"] == "bunzai.native"


def test_unknown_format_lists_the_known_ones(bunzai):
    make_ada(bunzai)
    done = bunzai("transfer", "ada-lovelace", "--to", "nope.format")
    assert done.code == 1 and done.json["error"]["code"] == "unknown_format"
    assert "bunzai.native" in done.json["error"]["hint"]


def test_an_unrecognized_file_says_what_it_looked_like(bunzai, tmp_path):
    odd = tmp_path / "odd.json"
    odd.write_text('{"hello": "world"}')
    done = bunzai("import", str(odd))
    assert done.code == 1
    assert done.json["error"]["code"] == "unrecognized_file"
    assert "keys hello" in done.json["error"]["message"]


def group_drafts(bunzai, names: list[str]) -> list[dict]:
    drafts = [
        json.loads(bunzai("create", "lorebook", "--input", json.dumps({"name": n}), check=True).stdout) for n in names
    ]
    for index, draft in enumerate(drafts):
        draft["group"] = {"id": "g1", "index": index, "size": len(drafts)}
    return drafts


def test_a_group_applies_all_or_none(bunzai):
    draft = bunzai("create", "lorebook", "--input", '{"name": "Second"}', check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    drafts = group_drafts(bunzai, ["First", "Second", "Third"])
    done = bunzai("apply", "--yes", input="\n".join(json.dumps(d) for d in drafts))
    assert done.code == 1
    assert [r["status"] for r in done.lines] == ["stale", "stale", "stale"]
    assert [r["reason"] for r in done.lines] == ["group", "occupied", "group"]
    assert not (bunzai.studio / "lorebook" / "first.json").exists()
    assert not (bunzai.studio / "lorebook" / "third.json").exists()
    fresh = group_drafts(bunzai, ["Alpha", "Beta"])
    done = bunzai("apply", "--yes", input="\n".join(json.dumps(d) for d in fresh), check=True)
    assert [r["status"] for r in done.lines] == ["applied", "applied"]


def test_a_folder_walk_skips_files_no_format_claims_and_imports_the_rest(bunzai, tmp_path):
    make_ada(bunzai)
    exported = bunzai.studio / bunzai("export", "ada-lovelace", "--to", "bunzai.native", check=True).json["path"]
    folder = tmp_path / "data"
    (folder / "nested").mkdir(parents=True)
    (folder / "README.md").write_text("# notes, not a piece\n")
    (folder / "nested" / "ada.bunzai.json").write_bytes(exported.read_bytes())
    done = bunzai("import", str(folder))
    assert done.code == 0
    assert [d["target"]["id"] for d in done.lines] == ["ada-lovelace"]
    assert "skipped 1 file" in done.stderr and "README.md" in done.stderr


def test_a_damaged_file_in_a_folder_is_an_error_line(bunzai, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "broken.json").write_text('{"kind": "character", "id": ')
    done = bunzai("import", str(folder))
    assert done.code == 1
    assert done.json["error"]["code"] == "invalid_json"
