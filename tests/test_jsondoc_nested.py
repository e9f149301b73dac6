"""JSON held as a string inside a file goes through the one bounded reader (jsondoc.reading)."""

from __future__ import annotations

from bunzai.adapters.marinara.envelope import decode_nested
from bunzai.jsondoc.reading import read_notes


def test_a_nested_document_keeps_the_last_of_a_repeated_key_and_notes_it() -> None:
    with read_notes() as notes:
        assert decode_nested('{"temperature": 0.5, "temperature": 0.9}', {}) == {"temperature": 0.9}
    assert notes.duplicate_keys == ["temperature"]


def test_a_nested_document_out_of_bounds_or_not_json_reads_as_the_default() -> None:
    deep = "[" * 300 + "]" * 300
    assert decode_nested(deep, {}) == {}
    assert decode_nested('{"top_p": NaN}', {}) == {}
    assert decode_nested('{"top_p": 1e400}', {}) == {}
    assert decode_nested("not json", {"kept": True}) == {"kept": True}
    assert decode_nested('"a string"', {}) == {}
