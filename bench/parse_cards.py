"""Parse 1,000 copies of the Seraphina PNG card into canonical pieces, next to the floor.

The floor is what any reader must do: read the file, scan its chunks, base64-decode the
card chunk and json.loads it. The goal is to stay within 3x of it.

    .venv/bin/python bench/parse_cards.py [copies]
"""

from __future__ import annotations

import base64
import json
import struct
import sys
import tempfile
import time
from pathlib import Path

CARD = (
    Path(__file__).resolve().parents[1].parent
    / "shared"
    / "corpus"
    / "sillytavern"
    / "characters"
    / "default_Seraphina.png"
)


def floor(paths: list[Path]) -> None:
    for path in paths:
        data = path.read_bytes()
        pos, text = 8, None
        while pos < len(data):
            length, kind = struct.unpack_from(">I4s", data, pos)
            if kind == b"tEXt" and data[pos + 8 : pos + 13] == b"ccv3\0":
                text = data[pos + 13 : pos + 8 + length]
            pos += 12 + length
            if kind == b"IEND":
                break
        json.loads(base64.b64decode(text))


def bunzai_read(paths: list[Path]) -> None:
    from bunzai.adapters.inspect import read_bytes

    for path in paths:
        read_bytes(path.read_bytes(), path.name)


def main() -> int:
    if not CARD.exists():
        print(f"skipped: {CARD} is absent (../shared/corpus is not beside this checkout)")
        return 0
    copies = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    from bunzai.adapters.registry import all_adapters

    all_adapters()  # load the spokes outside the timing
    with tempfile.TemporaryDirectory() as folder:
        data = CARD.read_bytes()
        paths = [Path(folder) / f"card{index}.png" for index in range(copies)]
        for path in paths:
            path.write_bytes(data)
        timings = {}
        for label, run in (("floor", floor), ("bunzai", bunzai_read)):
            start = time.perf_counter()
            run(paths)
            timings[label] = time.perf_counter() - start
    ratio = timings["bunzai"] / timings["floor"]
    print(f"{copies} x {CARD.name} ({len(data)} bytes)")
    print(f"floor  (read + chunk scan + base64 + json.loads): {timings['floor']:.3f} s")
    print(f"bunzai (read_bytes -> canonical pieces):          {timings['bunzai']:.3f} s")
    print(f"ratio: {ratio:.2f}x (goal: within 3x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
