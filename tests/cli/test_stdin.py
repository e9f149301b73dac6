"""`-` reads standard input wherever a file is read: import, convert, draft validate."""

from __future__ import annotations

import json
import os

import pytest
from testkit import v2_card_png

from bunzai.errors import BunzaiError
from bunzai.files import read_stdin_bytes

CARD = v2_card_png("Seraphina", description="A guardian of the forest.")


def test_import_from_stdin_sniffs_the_format(bunzai):
    imported = bunzai("import", "-", input=CARD)
    assert imported.code == 0, imported.stdout
    draft = imported.lines[0]
    assert draft["target"] == {"kind": "character", "id": "seraphina"}
    assert draft["operations"][0]["input"]["format"] == "sillytavern.card.png"
    applied = bunzai("apply", "--yes", input=imported.stdout)
    assert applied.code == 0 and bunzai("read", "seraphina").json["piece"]["name"] == "Seraphina"


def test_import_from_stdin_with_a_named_format_and_id(bunzai):
    card = json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Ada"}})
    imported = bunzai("import", "-", "--format", "ccv2.json", "--id", "ada-2", input=card)
    assert imported.code == 0 and imported.lines[0]["target"]["id"] == "ada-2"


def test_convert_from_stdin(bunzai, tmp_path):
    out = tmp_path / "card.json"
    converted = bunzai("convert", "-", "--to", "ccv3.json", "-o", str(out), input=CARD)
    assert converted.code == 0, converted.stdout
    assert converted.json["source"] == "-" and converted.json["source_format"] == "sillytavern.card.png"
    assert json.loads(out.read_text())["data"]["name"] == "Seraphina"


def test_draft_validate_from_stdin(bunzai):
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    assert bunzai("draft", "validate", "-", input=draft).json["valid"] is True


@pytest.mark.parametrize("args", [["import", "-"], ["convert", "-", "--to", "ccv3.json", "-o", "-"]])
def test_empty_stdin_is_refused(bunzai, args):
    answer = bunzai(*args, input=b"")
    assert answer.code == 1 and answer.json["error"]["code"] == "invalid_input"


def test_stdin_is_read_once(bunzai):
    answer = bunzai("import", "-", "-", input=CARD)
    assert answer.code == 2 and answer.json["error"]["code"] == "usage"


def test_not_a_known_format_on_stdin(bunzai):
    answer = bunzai("import", "-", input=b"just some words")
    assert answer.code == 1 and answer.json["error"]["code"] in {"unrecognized_file", "invalid_json"}


def test_stdin_is_bounded(monkeypatch):
    read_end, write_end = os.pipe()
    os.write(write_end, b"x" * 65)
    os.close(write_end)

    class Stdin:
        def fileno(self):
            return read_end

    monkeypatch.setattr("sys.stdin", Stdin())
    try:
        with pytest.raises(BunzaiError) as refused:
            read_stdin_bytes(limit=64)
    finally:
        os.close(read_end)
    assert refused.value.code == "too_large"
