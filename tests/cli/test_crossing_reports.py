"""The crossings the design names must report what they cost (through the real command)."""

from __future__ import annotations

import json

from testkit import corpus_path


def codes(report: dict) -> dict[str, str]:
    return {loss["pointer"]: loss["code"] for loss in report["losses"]}


def test_world_positions_beyond_before_and_after_are_reported_flattened(bunzai, tmp_path):
    world = json.loads(corpus_path("sillytavern", "worlds", "Eldoria.json").read_text())
    world["entries"]["0"]["position"] = 4  # at depth
    world["entries"]["1"]["position"] = 2  # top of the author's note
    path = tmp_path / "Eldoria.json"
    path.write_text(json.dumps(world, indent=4))
    bunzai("apply", "--yes", input=bunzai("import", str(path), check=True).stdout, check=True)
    report = bunzai("transfer", "lorebook/eldoria", "--to", "lorebook_v3.json", check=True).json
    found = codes(report)
    assert found["/body/entries/0/position"] == "book.position.collapsed"
    assert found["/body/entries/1/position"] == "book.position.collapsed"


def test_a_v3_card_to_v1_reports_everything_v1_lacks(bunzai):
    png = corpus_path("sillytavern", "characters", "default_Seraphina.png")
    bunzai("apply", "--yes", input=bunzai("import", str(png), check=True).stdout, check=True)
    found = codes(bunzai("transfer", "seraphina", "--to", "ccv1.json", check=True).json)
    for pointer in ("/body/book", "/body/creator", "/body/creator_notes", "/body/links", "/body/portrait"):
        assert any(p == pointer or p.startswith(pointer + "/") for p in found), pointer


def test_a_card_with_assets_to_v2_reports_the_assets(bunzai):
    card = corpus_path("card-architect", "test-ccv3-jem.json")
    bunzai("apply", "--yes", input=bunzai("import", str(card), check=True).stdout, check=True)
    pieces = bunzai("list", "--kind", "character", check=True).json["items"]
    report = bunzai("transfer", f"character/{pieces[0]['id']}", "--to", "ccv2.json", check=True).json
    assert codes(report).get("/assets") == "card.assets.not_carried"


def test_a_preset_to_a_card_format_is_refused_with_a_reason(bunzai):
    preset = corpus_path("sillytavern", "presets", "openai", "Default.json")
    bunzai("apply", "--yes", input=bunzai("import", str(preset), check=True).stdout, check=True)
    refused = bunzai("transfer", "preset/default", "--to", "sillytavern.card.png")
    assert refused.code == 1
    assert refused.json["error"]["code"] == "unsupported"
    assert "not a preset" in refused.json["error"]["message"]


def _png_card_book(path) -> dict:
    import base64
    import struct

    data, offset = path.read_bytes(), 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        if data[offset + 4 : offset + 8] == b"tEXt":
            keyword, _, text = data[offset + 8 : offset + 8 + length].partition(b"\0")
            if keyword == b"ccv3":
                return json.loads(base64.b64decode(text))["data"]["character_book"]
        offset += 12 + length
    raise AssertionError("no ccv3 chunk")


def test_an_export_embeds_the_linked_lorebook_as_it_is_now(bunzai):
    png = corpus_path("sillytavern", "characters", "default_Seraphina.png")
    bunzai("apply", "--yes", input=bunzai("import", str(png), check=True).stdout, check=True)
    before = bunzai("transfer", "seraphina", "--to", "sillytavern.card.png", check=True).json
    assert before["book"] == {
        "ref": "lorebook/eldoria",
        "revision": before["book"]["revision"],
        "differs_from_import": False,
    }
    edit = json.dumps({"index": 0, "set": {"content": "Eldoria, edited after import."}})
    draft = bunzai("cap", "run", "lorebook.entries.update", "lorebook/eldoria", "--input", edit, check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    report = bunzai("transfer", "seraphina", "--to", "sillytavern.card.png", check=True).json
    assert report["book"]["differs_from_import"] is True
    receipt = bunzai("export", "seraphina", "--to", "sillytavern.card.png", check=True).json
    book = _png_card_book(bunzai.studio / receipt["path"])
    assert book["entries"][0]["content"] == "Eldoria, edited after import."


def test_a_nickname_draft_reports_impact_on_the_v2_formats_and_none_on_v3(bunzai):
    png = corpus_path("sillytavern", "characters", "default_Seraphina.png")
    bunzai("apply", "--yes", input=bunzai("import", str(png), check=True).stdout, check=True)
    draft = bunzai(
        "cap", "run", "character.identity.update", "seraphina", "--input", '{"nickname": "Sera"}', check=True
    ).json
    platforms = {row["platform"] for row in draft["impact"]}
    assert platforms == {
        "ccv2.json",
        "sillytavern.card.json",
        "agnai.tavern.json",
        "marinara.character",
    }  # the V2 formats
    assert all(row["pointer"] == "/body/nickname" for row in draft["impact"])
