"""RisuAI presets hold JavaScript's `undefined` (a botPreset key RisuAI's database never set, such
as `localStopStrings`), which msgpackr, RisuAI's encoder, writes as its extension 0: `d4 00 00`."""

from __future__ import annotations

import gzip
import struct

import pytest
from risu_support import packb

from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.risu import aesgcm
from bunzai.adapters.risu.msgpack_read import unpack
from bunzai.adapters.risu.preset import IV, KEY
from bunzai.errors import BunzaiError

UNDEFINED = object()


def js_pack(value) -> bytes:
    """MessagePack as msgpackr 1.10 writes it by default (RisuAI's `encodeMsgpack`): every object
    as a map16 (`de`, its size in two bytes), `undefined` as `d4 00 00`."""
    if value is UNDEFINED:
        return b"\xd4\x00\x00"
    if isinstance(value, dict):
        return b"\xde" + struct.pack(">H", len(value)) + b"".join(js_pack(k) + js_pack(v) for k, v in value.items())
    if isinstance(value, list):
        return bytes([0x90 | len(value)]) + b"".join(js_pack(item) for item in value)
    if isinstance(value, str) and len(value.encode()) < 32:
        return bytes([0xA0 | len(value.encode())]) + value.encode()
    return packb(value)


def test_undefined_reads_as_javascript_then_sees_it():
    document = {"top": UNDEFINED, "kept": 1, "nested": {"gone": UNDEFINED, "here": "x"}, "list": [UNDEFINED, 2]}
    assert unpack(js_pack(document), "preset") == {
        "top": None,  # the import's spread keeps the key over the template's default
        "kept": 1,
        "nested": {"here": "x"},  # an undefined property reads as a missing one
        "list": [None, 2],
    }


def test_an_extension_other_than_undefined_is_still_refused():
    with pytest.raises(BunzaiError) as caught:
        unpack(js_pack({"a": 1})[:-1] + b"\xd4\x01\x00", "preset")
    assert caught.value.code == "corrupt_file"


def test_a_preset_risuai_exported_with_undefined_keys_imports(no_table):
    preset = {
        "name": "Sparse",
        "mainPrompt": "Be {{char}}.",
        "temperature": 80,
        "localStopStrings": UNDEFINED,
        "openAIPrediction": UNDEFINED,
        "promptTemplate": [
            {"type": "plain", "type2": "main", "text": "Main", "role": "system"},
            {"type": "chat", "rangeStart": 0, "rangeEnd": UNDEFINED},  # slices to the end in RisuAI
        ],
    }
    sealed = aesgcm.encrypt(KEY, IV, js_pack(preset))
    data = gzip.compress(packb({"presetVersion": 2, "type": "preset", "preset": sealed}), mtime=0)
    _adapter, decoded = read_bytes(data, "sparse.risupreset")
    piece = decoded.pieces[0]
    assert piece.name == "Sparse"
    orders = [item.identifier for item in piece.body.orders[0].items]
    assert "chatHistory" in orders, "a chat item whose rangeEnd is undefined sends the whole chat"
    assert piece.original.document["preset"]["localStopStrings"] is None
