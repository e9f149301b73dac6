"""The foundation's walk, step by step, through the installed command."""

from __future__ import annotations

import json
from pathlib import Path

ADA = '{"name": "Ada Lovelace"}'


def create_ada(bunzai):
    draft = bunzai("create", "character", "--input", ADA, check=True)
    return bunzai("apply", "--yes", input=draft.stdout)


def test_create_then_apply_stores_the_piece(bunzai):
    done = create_ada(bunzai)
    assert done.code == 0, done.stdout
    receipt = done.json
    assert receipt["type"] == "bunzai.receipt"
    assert receipt["status"] == "applied"
    assert receipt["target"] == {"kind": "character", "id": "ada-lovelace"}
    assert receipt["seq"] == 1
    stored = json.loads((bunzai.studio / "character" / "ada-lovelace.json").read_text())
    assert stored["name"] == "Ada Lovelace"


def test_read_returns_the_piece_with_its_revision(bunzai):
    applied = create_ada(bunzai).json
    read = bunzai("read", "character/ada-lovelace", check=True).json
    assert read["revision"] == applied["revision"]
    assert read["piece"]["name"] == "Ada Lovelace"
    assert bunzai("read", "ada-lovelace", check=True).json["revision"] == applied["revision"]


def test_list_and_search_find_the_piece(bunzai):
    create_ada(bunzai)
    listed = bunzai("list", check=True).json
    assert listed["count"] == 1 and listed["items"][0]["id"] == "ada-lovelace"
    hits = bunzai("search", "lovelace", check=True).json["items"]
    assert hits[0]["id"] == "ada-lovelace"
    assert hits[0]["pointer"] == "/name"
    assert "Lovelace" in hits[0]["snippet"]


def test_duplicate_creates_a_copy(bunzai):
    create_ada(bunzai)
    draft = bunzai("duplicate", "ada-lovelace", "ada-2", check=True)
    done = bunzai("apply", "--yes", input=draft.stdout, check=True).json
    assert done["status"] == "applied" and done["target"]["id"] == "ada-2"
    copy = bunzai("read", "character/ada-2", check=True).json["piece"]
    assert copy["name"] == "Ada Lovelace"


def test_creating_an_occupied_id_is_stale_and_writes_nothing(bunzai):
    create_ada(bunzai)
    path = bunzai.studio / "character" / "ada-lovelace.json"
    before = path.read_bytes()
    again = create_ada(bunzai)
    assert again.code == 1
    assert again.json["status"] == "stale" and again.json["reason"] == "occupied"
    assert path.read_bytes() == before


def test_a_hand_edit_makes_an_older_draft_stale(bunzai):
    create_ada(bunzai)
    path = bunzai.studio / "character" / "ada-lovelace.json"
    read = bunzai("read", "character/ada-lovelace", check=True).json
    proposed = dict(read["piece"], name="Ada, Countess of Lovelace")
    draft = {
        "type": "bunzai.draft",
        "format": 1,
        "target": {"kind": "character", "id": "ada-lovelace"},
        "mode": "update",
        "baseline": read["revision"],
        "operations": [],
        "changes": [],
        "warnings": [],
        "impact": [],
        "proposed": proposed,
    }
    hand = json.loads(path.read_text())
    hand["body"]["nickname"] = "Ada"
    path.write_text(json.dumps(hand, indent=2, sort_keys=True) + "\n")
    edited = path.read_bytes()
    done = bunzai("apply", "--yes", input=json.dumps(draft))
    assert done.code == 1
    assert done.json["status"] == "stale" and done.json["reason"] == "changed"
    assert path.read_bytes() == edited


def test_bury_list_and_restore(bunzai):
    create_ada(bunzai)
    buried = bunzai("bury", "ada-lovelace", check=True).json
    assert buried["status"] == "applied"
    assert not (bunzai.studio / "character" / "ada-lovelace.json").exists()
    entries = bunzai("graveyard", "list", check=True).json["items"]
    assert [e["entry"] for e in entries] == [buried["entry"]]
    restored = bunzai("graveyard", "restore", buried["entry"], check=True).json
    assert restored["status"] == "applied"
    assert bunzai("read", "character/ada-lovelace", check=True).json["piece"]["name"] == "Ada Lovelace"


def test_restore_is_refused_when_the_id_was_taken_since(bunzai):
    create_ada(bunzai)
    entry = bunzai("bury", "ada-lovelace", check=True).json["entry"]
    create_ada(bunzai)
    path = bunzai.studio / "character" / "ada-lovelace.json"
    before = path.read_bytes()
    refused = bunzai("graveyard", "restore", entry)
    assert refused.code == 1 and refused.json["reason"] == "occupied"
    assert path.read_bytes() == before


def studio_files(studio: Path) -> list:
    """Every file and folder of the studio, less lock files (they are not content)."""
    return sorted(p.relative_to(studio) for p in studio.rglob("*") if ".bunzai/locks" not in p.as_posix())


def test_delete_of_a_missing_id_is_stale_and_writes_nothing(bunzai):
    before = studio_files(bunzai.studio)
    done = bunzai("delete", "character/nobody", "--yes")
    assert done.code == 1
    assert done.json["status"] == "stale" and done.json["reason"] == "missing"
    assert studio_files(bunzai.studio) == before


def test_delete_of_a_lorebook_nothing_links_says_so(bunzai):
    draft = bunzai("create", "lorebook", "--input", '{"name": "Eldoria"}', check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    done = bunzai("delete", "lorebook/eldoria", "--yes", check=True).json
    assert done["status"] == "applied"
    assert done["references_checked"] is True
    assert done["referrers"] == [] and done["referrers_count"] == 0
    assert "note" not in done


def test_apply_without_yes_and_without_terminal_refuses(bunzai):
    draft = bunzai("create", "character", "--input", ADA, check=True)
    done = bunzai("apply", input=draft.stdout)
    assert done.code == 1
    assert done.json["error"]["code"] == "confirmation_required"
    assert not (bunzai.studio / "character" / "ada-lovelace.json").exists()


def test_an_error_document_is_passed_on(bunzai):
    failed = bunzai("create", "nonsense", "--input", ADA)
    assert failed.code == 2 and failed.json["error"]["code"] == "unknown_kind"  # a mistyped kind is usage
    passed = bunzai("apply", "--yes", input=failed.stdout)
    assert passed.code == 1  # apply refuses the error it was given
    assert passed.json == failed.json


def test_version_and_help(bare_bunzai):
    assert bare_bunzai("--version", check=True).stdout.startswith("bunzai ")
    helped = bare_bunzai("--help", check=True).stdout
    for command in (
        "init",
        "create",
        "read",
        "list",
        "search",
        "duplicate",
        "delete",
        "bury",
        "graveyard",
        "apply",
        "draft",
        "schema",
    ):
        assert command in helped


def test_usage_errors_are_json_with_exit_2(bunzai):
    bad = bunzai("read")
    assert bad.code == 2
    assert bad.json["error"]["code"] == "usage"
    assert bad.stderr.strip()
