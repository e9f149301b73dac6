"""A whole library through one pipe: `bunzai import DIR | bunzai apply --yes`, next to the floor.

Generates N distinct Character Card V2 PNGs (a small portrait and a chara chunk of about
2 KB, as most downloaded cards are), then, in the same run:

- the floor: a script that writes each card into a folder atomically (read it, temp file,
  fsync, rename, folder fsync), the least any durable store does per piece;
- bunzai: `bunzai import DIR | bunzai apply --yes` into a fresh studio, as one pipe.

It prints wall times and their ratio, each process's peak RSS, and what the studio holds
(files per card, lock files, and its bytes over the cards': the floor stores each card once,
1.0). Goals (issue 9): ratio at most 2.5, apply's peak RSS at most 150 MB and flat from
1,000 to 10,000 cards, at most 3 files per card, no lock file.

`--side S` gives each card an S x S portrait of noise instead (256: about 196 KB a card, as
a downloaded card's art is), where keeping a card's original as a splice of its portrait
decides the studio's size (docs/studio.md, "Assets").

    .venv/bin/python bench/library.py [--side S] [N ...]        # default: 1000 10000
"""

from __future__ import annotations

import base64
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

BIN = Path(sys.executable).parent


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def portrait(seed: int, side: int = 0) -> bytes:
    """A 16x16 RGB image whose colour depends on `seed` (so every card's art differs), or with
    `side`, a side x side image of noise drawn from `seed` (it does not compress)."""
    if side:
        noise = random.Random(seed)
        raw = zlib.compress(b"".join(b"\0" + noise.randbytes(side * 3) for _ in range(side)))
    else:
        rgb = bytes(((seed * 37) % 256, (seed * 91) % 256, (seed * 53) % 256))
        raw = zlib.compress(b"".join(b"\0" + rgb * 16 for _ in range(16)))
    header = struct.pack(">IIBBBBB", side or 16, side or 16, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", raw)


def card_png(index: int, side: int = 0) -> bytes:
    name = f"Bench Character {index}"
    data = {
        "name": name,
        "description": f"{name} keeps a lighthouse on the northern coast. " * 8,
        "personality": "patient, dry humour, fond of storms",
        "scenario": "A storm night at the lighthouse.",
        "first_mes": f"*{name} looks up from the logbook.* You made it through the storm.",
        "mes_example": "<START>\n{{user}}: Is the lamp lit?\n{{char}}: Always.",
        "creator_notes": "bench card",
        "system_prompt": "",
        "post_history_instructions": "",
        "alternate_greetings": ["Another night, another ship."],
        "tags": ["bench", "lighthouse"],
        "creator": "bench",
        "character_version": "1.0",
        "extensions": {},
    }
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": data}
    card.update(
        {key: data[key] for key in ("name", "description", "personality", "scenario", "first_mes", "mes_example")}
    )
    text = base64.b64encode(json.dumps(card).encode("utf-8"))
    return portrait(index, side) + _chunk(b"tEXt", b"chara\0" + text) + _chunk(b"IEND", b"")


def generate(folder: Path, count: int, side: int = 0) -> int:
    """Write the cards; their bytes in all."""
    folder.mkdir(parents=True)
    total = 0
    for index in range(count):
        data = card_png(index, side)
        (folder / f"card-{index:05d}.png").write_bytes(data)
        total += len(data)
    return total


def floor(cards: Path, out: Path) -> float:
    """Write every card into `out` atomically, one at a time."""
    out.mkdir()
    start = time.perf_counter()
    dir_fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    for path in sorted(cards.iterdir()):
        data = path.read_bytes()
        temp = out / f".{path.name}.tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        os.write(fd, data)
        os.fsync(fd)
        os.close(fd)
        os.replace(temp, out / path.name)
        os.fsync(dir_fd)
    os.close(dir_fd)
    return time.perf_counter() - start


def bunzai_pipe(cards: Path, studio: Path) -> dict:
    """`bunzai import cards | bunzai apply --yes`; wall time, exit codes, peak RSS of each side."""
    subprocess.run([BIN / "bunzai", "init", studio], check=True, capture_output=True)
    env = dict(os.environ, BUNZAI_STUDIO=str(studio))
    start = time.perf_counter()
    importer = subprocess.Popen([BIN / "bunzai", "import", cards], stdout=subprocess.PIPE, env=env)
    applier = subprocess.Popen(
        [BIN / "bunzai", "apply", "--yes"], stdin=importer.stdout, stdout=subprocess.PIPE, env=env
    )
    importer.stdout.close()
    receipts = 0
    applied = 0
    for line in applier.stdout:
        receipts += 1
        applied += b'"status":"applied"' in line
    _, import_status, import_usage = os.wait4(importer.pid, 0)
    _, apply_status, apply_usage = os.wait4(applier.pid, 0)
    wall = time.perf_counter() - start
    return {
        "wall": wall,
        "receipts": receipts,
        "applied": applied,
        "import_exit": os.waitstatus_to_exitcode(import_status),
        "apply_exit": os.waitstatus_to_exitcode(apply_status),
        "import_rss_mb": import_usage.ru_maxrss / 1024,
        "apply_rss_mb": apply_usage.ru_maxrss / 1024,
    }


def studio_files(studio: Path) -> tuple[int, int, int]:
    """(files that hold pieces or assets, their bytes, lock files) in the studio."""
    held = size = locks = 0
    for folder, _, files in os.walk(studio):
        for name in files:
            if name.endswith(".lock"):
                locks += 1
            elif name not in ("bunzai.toml", "changes.jsonl"):
                held += 1
                size += os.path.getsize(os.path.join(folder, name))
    return held, size, locks


def run(count: int, work: Path, side: int = 0) -> dict:
    cards = work / f"cards-{count}"
    card_bytes = generate(cards, count, side)
    floor_s = floor(cards, work / f"floor-{count}")
    result = bunzai_pipe(cards, work / f"studio-{count}")
    held, size, locks = studio_files(work / f"studio-{count}")
    shutil.rmtree(work / f"floor-{count}")
    return {
        "cards": count,
        "floor_s": round(floor_s, 2),
        "bunzai_s": round(result["wall"], 2),
        "ratio": round(result["wall"] / floor_s, 2),
        "applied": result["applied"],
        "exit": [result["import_exit"], result["apply_exit"]],
        "apply_rss_mb": round(result["apply_rss_mb"], 1),
        "import_rss_mb": round(result["import_rss_mb"], 1),
        "files_per_card": round(held / count, 2),
        "bytes_over_cards": round(size / card_bytes, 2),
        "lock_files": locks,
    }


def main() -> int:
    args = sys.argv[1:]
    side = 0
    if args[:1] == ["--side"]:
        side, args = int(args[1]), args[2:]
    counts = [int(arg) for arg in args] or [1000, 10_000]
    with tempfile.TemporaryDirectory(prefix="bunzai-library-") as folder:
        rows = [run(count, Path(folder), side) for count in counts]
    for row in rows:
        print(json.dumps(row))
    worst = max(row["ratio"] for row in rows)
    rss = [row["apply_rss_mb"] for row in rows]
    print(
        f"library: worst ratio {worst:.2f}x the atomic-write floor (goal 2.5x); apply peak RSS "
        f"{', '.join(f'{r:.0f}' for r in rss)} MB (goal <= 150, flat); files per card "
        f"{max(row['files_per_card'] for row in rows)} (goal <= 3); lock files {sum(r['lock_files'] for r in rows)}; "
        f"studio bytes {max(row['bytes_over_cards'] for row in rows)}x the cards' (the floor: 1.0x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
