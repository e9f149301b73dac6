"""Fixtures for the RisuAI tests: a fake RPack table in a checkout layout, modules, presets, archives."""

from __future__ import annotations

import gzip
import io
import json
import random
import struct
import zipfile
from pathlib import Path

from bunzai.adapters.risu import aesgcm, rpack
from bunzai.adapters.risu.preset import IV, KEY


def fake_checkout(root: Path, seed: int = 7) -> rpack.Table:
    """A RisuAI checkout holding a table of our own (a random permutation and its inverse)."""
    encode = list(range(256))
    random.Random(seed).shuffle(encode)
    decode = [0] * 256
    for plain, packed in enumerate(encode):
        decode[packed] = plain
    path = root / rpack.TABLE_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(encode) + bytes(decode))
    return rpack.Table(bytes(encode), bytes(decode))


def configured_checkout(root: Path, monkeypatch):
    """A fake checkout (`fake_checkout`) set as bunzai's RisuAI root for one test, and unset
    after it: a fixture's body, `yield from configured_checkout(tmp_path, monkeypatch)`."""
    monkeypatch.delenv(rpack.ENV_ROOT, raising=False)
    table = fake_checkout(root)
    rpack.configure_risu_root(root, verify_hash=False)
    try:
        yield table
    finally:
        rpack.configure_risu_root(None)


def module_bytes(module: dict, table: rpack.Table, assets: list[bytes] = ()) -> bytes:
    main = table.encode(json.dumps({"module": module, "type": "risuModule"}, indent=2).encode())
    out = bytes([111, 0]) + struct.pack("<I", len(main)) + main
    for asset in assets:
        out += b"\x01" + struct.pack("<I", len(asset)) + table.encode(asset)
    return out + b"\x00"


def packb(value) -> bytes:
    """A small MessagePack writer for the fixtures (maps, arrays, str, bin, ints, floats, bool, nil)."""
    if value is None:
        return b"\xc0"
    if value is True or value is False:
        return b"\xc3" if value else b"\xc2"
    if isinstance(value, int):
        if 0 <= value < 128:
            return bytes([value])
        return b"\xd3" + struct.pack(">q", value)
    if isinstance(value, float):
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        raw = value.encode()
        return b"\xdb" + struct.pack(">I", len(raw)) + raw
    if isinstance(value, bytes):
        return b"\xc6" + struct.pack(">I", len(value)) + value
    if isinstance(value, list):
        return b"\xdd" + struct.pack(">I", len(value)) + b"".join(packb(item) for item in value)
    if isinstance(value, dict):
        return b"\xdf" + struct.pack(">I", len(value)) + b"".join(packb(k) + packb(v) for k, v in value.items())
    raise TypeError(type(value))


def risupreset_bytes(preset: dict) -> bytes:
    sealed = aesgcm.encrypt(KEY, IV, packb(preset))
    return gzip.compress(packb({"presetVersion": 2, "type": "preset", "preset": sealed}), mtime=0)


def risup_bytes(preset: dict, table: rpack.Table) -> bytes:
    return table.encode(risupreset_bytes(preset))


def zip_of(items: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in items:
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def opened(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [(info.filename, archive.read(info)) for info in archive.infolist()]
