"""Hostile ids and hostile JSON are refused with a coded error before any file operation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

HOSTILE_IDS = [
    "../x",
    "/abs",
    "a\x00b",
    "CON",
    "con",
    "x" * 300,
    ".",
    "..",
    "Ada",
    "аda",
    "ada\n",
    "nul.txt",
    "a/b",
    "trailing.",
]


def snapshot(studio: Path) -> list:
    return sorted(
        (p.relative_to(studio).as_posix(), p.read_bytes() if p.is_file() else None)
        for p in studio.rglob("*")
        if ".bunzai/locks" not in p.as_posix()
    )


@pytest.mark.parametrize("bad", HOSTILE_IDS, ids=repr)
def test_create_with_a_hostile_id_is_refused(bunzai, bad):
    before = snapshot(bunzai.studio)
    if "\x00" in bad:  # a NUL cannot travel in argv: send it inside the JSON input instead
        done = bunzai("create", "character", "--input", json.dumps({"name": "Ada", "id": bad}))
    else:
        done = bunzai("create", "character", "--input", '{"name": "Ada"}', "--id", bad)
    assert done.code == 1
    assert done.json["error"]["code"] == "invalid_id"
    assert snapshot(bunzai.studio) == before


@pytest.mark.parametrize("bad", [b for b in HOSTILE_IDS if "\x00" not in b], ids=repr)
def test_reading_or_removing_a_hostile_ref_touches_nothing(bunzai, bad):
    before = snapshot(bunzai.studio)
    for args in (
        ["read", f"character/{bad}"],
        ["bury", f"character/{bad}"],
        ["delete", f"character/{bad}", "--yes"],
        ["graveyard", "restore", f"character/{bad}@20260101T000000000000Z"],
    ):
        done = bunzai(*args)
        assert done.code == 1, (args, done.stdout)
        assert done.json["error"]["code"] in ("invalid_id", "not_found"), (args, done.stdout)
    assert snapshot(bunzai.studio) == before


def test_a_draft_targeting_a_hostile_id_is_refused(bunzai):
    proposed = {"kind": "character", "id": "../../evil", "name": "Evil"}
    draft = {
        "type": "bunzai.draft",
        "format": 1,
        "target": {"kind": "character", "id": "../../evil"},
        "mode": "create",
        "baseline": None,
        "operations": [],
        "changes": [],
        "warnings": [],
        "impact": [],
        "proposed": proposed,
    }
    before = snapshot(bunzai.studio)
    done = bunzai("apply", "--yes", input=json.dumps(draft))
    assert done.code == 1 and done.json["error"]["code"] == "invalid_id"
    assert snapshot(bunzai.studio) == before


def test_ten_thousand_deep_json_is_refused_cleanly(bunzai):
    deep = "[" * 10_000 + "]" * 10_000
    done = bunzai("create", "character", "--input", "-", input=deep)
    assert done.code == 1
    assert done.json["error"]["code"] == "too_deep"


def test_invalid_json_and_invalid_utf8_are_refused(bunzai):
    assert bunzai("apply", "--yes", input="{not json").json["error"]["code"] == "invalid_json"
    assert bunzai("apply", "--yes", input=b"\xff\xfe{}").json["error"]["code"] == "invalid_json"


def test_a_document_that_is_not_a_draft_is_refused(bunzai):
    done = bunzai("apply", "--yes", input='{"kind": "character", "id": "x", "name": "X"}')
    assert done.code == 1 and done.json["error"]["code"] == "invalid_draft"


def test_a_stream_with_one_bad_draft_applies_the_good_one_and_refuses_the_bad(bunzai):
    good = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout.strip()
    done = bunzai("apply", "--yes", input='{"type": "bunzai.draft"}\n' + good + "\n")
    refused, applied = done.lines
    assert done.code == 1 and refused["error"]["code"] == "invalid_draft"
    assert applied["status"] == "applied"
    assert (bunzai.studio / "character" / "ada.json").exists()


def test_an_invalid_proposed_piece_fails_and_writes_nothing(bunzai):
    draft = json.loads(bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout)
    draft["proposed"]["body"]["shoe_size"] = 5
    done = bunzai("apply", "--yes", input=json.dumps(draft))
    assert done.code == 1
    assert done.json["status"] == "failed" and done.json["reason"] == "invalid_input"
    assert not (bunzai.studio / "character" / "ada.json").exists()


def test_an_id_that_is_not_utf8_is_shown_as_a_terminal_shows_it(bunzai):
    # Python keeps argv bytes that are not UTF-8 as lone surrogates; the message said '\udcff'
    done = bunzai("read", b"character/a\xffb")
    assert done.code == 1 and done.json["error"]["code"] == "invalid_id"
    message = done.json["error"]["message"]
    assert message.startswith("'a\ufffdb' is not a valid id") and "udcff" not in message
