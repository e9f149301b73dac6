"""A reader keeps the document it is handed as its escrow without copying it (see
Adapter.read), so it must never change it: every text format's read leaves `parsed` as it
was, for the fuzz kit's seeds (real files where the corpus is beside the checkout, files
the tests make, and their pieces written into every format) and a book written into every
lorebook format."""

from __future__ import annotations

import copy
import json

import pytest
from fuzzkit import seeds

from bunzai.adapters.inspect import parse_text
from bunzai.adapters.registry import all_adapters, get_adapter
from bunzai.convert import convert_piece
from bunzai.model.lorebook import Lorebook


def _book_files() -> list[tuple[str, bytes, str]]:
    book = Lorebook.model_validate(
        {
            "id": "harbour",
            "name": "Harbour",
            "body": {
                "entries": [
                    {"uid": uid, "keys": [f"boat{uid}"], "content": "Boats come in at dawn.", "sticky": 2}
                    for uid in range(3)
                ]
            },
        }
    )
    files = []
    for adapter in all_adapters():
        if "lorebook" in adapter.kinds and adapter.can_write and adapter.container == "text":
            if adapter.why_unavailable():
                continue
            crossing = convert_piece(book, adapter.format_id, lambda ref: b"")
            files.append((crossing.file_name, crossing.data, adapter.format_id))
    return files


def _text_files() -> list[tuple[str, bytes, str]]:
    found = _book_files()
    for seed in seeds():
        if seed.format_id and get_adapter(seed.format_id).container == "text":
            found.append((seed.name, seed.data, seed.format_id))
    return found


FILES = _text_files()


@pytest.mark.parametrize(("name", "data", "format_id"), FILES, ids=[f"{f}:{n}" for n, _, f in FILES])
def test_a_read_leaves_the_parsed_document_as_it_was(name: str, data: bytes, format_id: str) -> None:
    adapter = get_adapter(format_id)
    try:
        parsed = parse_text(data, name)
    except Exception:  # noqa: BLE001 - a binary format of the text container (.risum) is read unparsed
        pytest.skip(f"{name} is not JSON or YAML: its reader gets no document")
    before = copy.deepcopy(parsed)
    adapter.read(data, name, parsed)
    assert json.dumps(parsed, sort_keys=True) == json.dumps(before, sort_keys=True)


def test_the_files_cover_every_lorebook_format_that_writes_text() -> None:
    formats = {format_id for _, _, format_id in _book_files()}
    assert {"sillytavern.world", "agnai.memory.json", "marinara.lorebook", "risu.lorebook"} <= formats
