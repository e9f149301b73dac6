"""`bunzai doctor` over a library-sized studio, with and without `--verify-assets`, beside a floor.

Builds a studio of N cards as bench/library.py makes them (`--side S`: S x S portraits of
noise, 256 by default, about 200 KB a card, so the media dominate as in a real library), with
`bunzai import DIR | bunzai apply --yes`. Then, ROUNDS times, interleaved, it runs:

- the floor: a Python process that reads every file in the studio's `assets/` and hashes it
  with SHA-256, the least a check of every asset's bytes does; and the same process doing
  nothing (its imports only), whose time is taken off the floor's, so the floor is the
  reading and hashing alone;
- `bunzai doctor`, which reads pieces, log and folders but no asset's bytes;
- `bunzai doctor --verify-assets`, which also reads and hashes every asset in use (rebuilding
  each splice from its base).

It prints each one's least CPU time (the child's user + system) and the ratios: verify's extra
over plain doctor beside the floor (both differences of whole processes, so start-up cancels
out), and verify and plain doctor over the floor. No goal is set by an issue; the figures say
what the flag costs on a library.

    .venv/bin/python bench/doctor.py [--side S] [N]        # default: --side 256 300
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from library import BIN, bunzai_pipe, generate

ROUNDS = 5
IMPORTS = "import hashlib, os, sys\n"
FLOOR = (
    IMPORTS
    + r"""
for entry in os.scandir(sys.argv[1]):
    with open(entry.path, "rb") as handle:
        hashlib.sha256(handle.read()).hexdigest()
"""
)


def _cpu(command: list, env: dict) -> tuple[float, int]:
    """The child's CPU seconds (user + system) and its exit code."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    return usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def main() -> int:
    args = sys.argv[1:]
    side = 256
    if args[:1] == ["--side"]:
        side, args = int(args[1]), args[2:]
    count = int(args[0]) if args else 300
    with tempfile.TemporaryDirectory(prefix="bunzai-doctor-") as folder:
        cards, studio = Path(folder) / "cards", Path(folder) / "studio"
        card_bytes = generate(cards, count, side)
        piped = bunzai_pipe(cards, studio)
        if piped["applied"] != count:
            print(f"doctor: only {piped['applied']} of {count} cards applied", file=sys.stderr)
            return 1
        env = dict(os.environ, BUNZAI_STUDIO=str(studio))
        runs = {
            "start": [sys.executable, "-c", IMPORTS],
            "floor": [sys.executable, "-c", FLOOR, str(studio / "assets")],
            "doctor": [BIN / "bunzai", "doctor"],
            "verify": [BIN / "bunzai", "doctor", "--verify-assets"],
        }
        best = dict.fromkeys(runs, float("inf"))
        for _ in range(ROUNDS):
            for name, command in runs.items():
                seconds, code = _cpu(command, env)
                if code != 0:
                    print(f"doctor: {name} exited {code}", file=sys.stderr)
                    return 1
                best[name] = min(best[name], seconds)
        assets = sum(entry.stat().st_size for entry in os.scandir(studio / "assets"))
    row = {
        "cards": count,
        "side": side,
        "card_mb": round(card_bytes / 1e6, 1),
        "asset_mb": round(assets / 1e6, 1),
        **{f"{name}_cpu_s": round(seconds, 3) for name, seconds in best.items()},
    }
    print(json.dumps(row))
    # Reading and hashing the assets, start-up taken off (a millisecond at least: a tiny studio
    # reads in less than the processes' noise).
    floor = max(best["floor"] - best["start"], 0.001)
    print(
        f"doctor: --verify-assets's extra over plain doctor {(best['verify'] - best['doctor']) / floor:.2f}x "
        f"the floor (reading and hashing every asset, {floor:.3f} s); --verify-assets "
        f"{best['verify'] / floor:.2f}x it, plain doctor {best['doctor'] / floor:.2f}x it "
        f"({count} cards, {assets / 1e6:.1f} MB of assets)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
