"""Apply's input, read one document at a time: JSON lines, documents in a row, an array."""

from __future__ import annotations

import os
import threading

import pytest

from bunzai import limits
from bunzai.changes.documents import IDLE, DocumentStream
from bunzai.errors import BunzaiError


def read_all(data: bytes, **options) -> tuple[list, DocumentStream]:
    read_end, write_end = os.pipe()

    def feed() -> None:
        os.write(write_end, data)
        os.close(write_end)

    threading.Thread(target=feed).start()
    stream = DocumentStream(read_end, "stdin", **options)
    try:
        docs = [doc.code if isinstance(doc, BunzaiError) else doc for doc in stream if doc is not IDLE]
    finally:
        os.close(read_end)
    return docs, stream


def test_json_lines_pretty_documents_and_arrays_all_read_one_document_at_a_time() -> None:
    assert read_all(b'{"a": 1}\n{"b": 2}\n')[0] == [{"a": 1}, {"b": 2}]
    assert read_all(b'{\n  "a": 1\n}\n{\n  "b": 2\n}')[0] == [{"a": 1}, {"b": 2}]
    assert read_all(b'[{"a": 1},\n {"b": [1, 2]}]')[0] == [{"a": 1}, {"b": [1, 2]}]
    assert read_all(b'\xef\xbb\xbf{"a": 1}')[0] == [{"a": 1}]


def test_single_is_one_document_outside_an_array() -> None:
    assert read_all(b'{"a": 1}\n')[1].single
    assert not read_all(b'[{"a": 1}]')[1].single
    assert not read_all(b'{"a": 1}\n{"a": 2}\n')[1].single


def test_broken_input_ends_the_stream_with_invalid_json_after_the_good_documents() -> None:
    assert read_all(b'{"a": 1}\n{"b": ')[0] == [{"a": 1}, "invalid_json"]
    assert read_all(b'[{"a": 1}, {"b": 2}')[0] == [{"a": 1}, {"b": 2}, "invalid_json"]
    assert read_all(b'[{"a": 1}] x')[0] == [{"a": 1}, "invalid_json"]
    assert read_all(b"")[0] == ["invalid_json"]
    assert read_all(b'{"a": NaN}')[0] == ["invalid_json"]
    assert read_all(b"\xff{}")[0] == ["invalid_json"]


def test_limits_hold_per_document_not_per_stream(monkeypatch) -> None:
    monkeypatch.setattr(limits, "JSON_MAX_BYTES", 1000)
    line = b'{"x": "' + b"y" * 900 + b'"}\n'
    assert read_all(line * 50)[0] == [{"x": "y" * 900}] * 50  # 46 KB in all, each under 1,000
    assert read_all(b'{"x": "' + b"y" * 5000 + b'"}\n')[0] == ["too_large"]
    monkeypatch.setattr(limits, "WRAPPED_JSON_MAX_DEPTH", 5)
    assert read_all(b'{"a": [[[[[[1]]]]]]}\n{"ok": 1}')[0] == ["too_deep", {"ok": 1}]


def test_documents_split_across_many_reads_are_whole() -> None:
    big = [{"n": n, "text": "é" * 70_000} for n in range(4)]
    data = b"".join(__import__("json").dumps(doc, ensure_ascii=False).encode() + b"\n" for doc in big)
    assert read_all(data)[0] == big


def test_a_paused_input_yields_idle_between_documents() -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b'{"a": 1}\n')
    stream = iter(DocumentStream(read_end, "stdin", patience=0.01))
    assert next(stream) == {"a": 1}
    assert next(stream) is IDLE
    os.write(write_end, b'{"b": 2}\n')
    os.close(write_end)
    assert [doc for doc in stream if doc is not IDLE] == [{"b": 2}]
    os.close(read_end)


@pytest.mark.parametrize("number", [b"12345", b"1.5e3", b"-0"])
def test_a_number_split_by_a_read_is_read_whole(number: bytes) -> None:
    assert read_all(b"[" + number + b", 7]")[0] == [__import__("json").loads(number), 7]
