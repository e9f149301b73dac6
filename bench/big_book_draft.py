"""A one-entry edit of a big lorebook, beside reading that book, in the same run.

A draft on a book reads, validates and compares the whole book and prints it, and computes
its platform impact: the proposed book is written to each lorebook format bunzai writes and
read back, and each changed pointer is looked up in what came back. The impact of a change
to a few entries crosses those entries only (changes/entry_slice.py); the rest is work in
proportion to the book, so the figures that matter are how many reads of the same book one
draft costs, and that the draft's time per entry stays about the same as the book grows.

For each size, a studio holds a SillyTavern world of that many entries (Eldoria's, repeated
with fresh uids: see bench/lorebooks.py) and a V2 card holding a book of as many entries. The
commands run as a person runs them, each in its own process, ROUNDS times interleaved; the
least CPU time of each is kept, and the highest peak RSS of the drafts:

- `bunzai read lorebook/ID`: the book read from the studio and printed;
- `bunzai cap run lorebook.entries.enable lorebook/ID --input '{"uids": [5], "enabled": false}'`;
- `bunzai cap run lorebook.entries.create lorebook/ID --input '{"entries": [...]}'`: one entry
  added at the end (the "book append" row);
- `bunzai cap run lorebook.entries.remove lorebook/ID --input '{"uids": [5]}'`: one entry
  removed (the "book remove" row);
- `bunzai cap run lorebook.entries.reorder lorebook/ID --input '{"index": -1, "to": 0}'`: the last
  entry moved to the top (the "book move" row), which renumbers every entry's display_index as
  SillyTavern's editor does (its impact crosses a few entries standing in for the rest:
  changes/entry_slice.py);
- `bunzai read character/ID` and `bunzai cap run character.identity.update character/ID
  --input '{"name": "Archie"}'`: the card renamed, its impact crossed through the card formats.

    .venv/bin/python bench/big_book_draft.py [ENTRIES ...]   # default: 1000 4000
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lorebooks import ELDORIA, card, world  # noqa: E402 - the bench's own module, beside this one

BIN = Path(sys.executable).parent / "bunzai"
ROUNDS = 3
EDIT = json.dumps({"uids": [5], "enabled": False})
RENAME = json.dumps({"name": "Archie"})
REMOVE = json.dumps({"uids": [5]})
MOVE = json.dumps({"index": -1, "to": 0})  # the last entry to the top: every entry's display_index changes
APPEND = json.dumps({"entries": [{"keys": ["lantern"], "content": "{{char}} lights the lantern."}]})


def cpu(args: list[str], studio: Path) -> tuple[float, float]:
    """(CPU seconds, user + system; peak RSS in MB) of one `bunzai` process, which must succeed."""
    child = subprocess.Popen([str(BIN), "--studio", str(studio), *args], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"bunzai {' '.join(args[:3])} failed with exit {child.returncode}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def studio_with(folder: Path, entries: int) -> tuple[Path, dict[str, str]]:
    """A fresh studio holding a world and a card's book of `entries` entries; (studio, refs by kind)."""
    studio = folder / f"studio-{entries}"
    world_file, card_file = folder / f"World{entries}.json", folder / f"Archivist{entries}.json"
    world_file.write_text(json.dumps(world(entries), indent=4), encoding="utf-8")
    card_file.write_text(json.dumps(card(entries)), encoding="utf-8")
    subprocess.run([str(BIN), "init", str(studio)], check=True, stdout=subprocess.DEVNULL)
    refs = {}
    for source in (world_file, card_file):
        drafts = subprocess.run(
            [str(BIN), "--studio", str(studio), "import", str(source)], check=True, capture_output=True
        ).stdout
        done = subprocess.run(
            [str(BIN), "--studio", str(studio), "apply", "--yes"], input=drafts, check=True, capture_output=True
        )
        target = json.loads(done.stdout.decode().splitlines()[0])["target"]
        refs[target["kind"]] = f"{target['kind']}/{target['id']}"
    return studio, refs


COMMANDS = {  # label: (the kind it works on, the command after `bunzai`, with REF for the piece)
    "read book": ("lorebook", ["read", "REF"]),
    "book draft": ("lorebook", ["cap", "run", "lorebook.entries.enable", "REF", "--input", EDIT]),
    "book append": ("lorebook", ["cap", "run", "lorebook.entries.create", "REF", "--input", APPEND]),
    "book remove": ("lorebook", ["cap", "run", "lorebook.entries.remove", "REF", "--input", REMOVE]),
    "book move": ("lorebook", ["cap", "run", "lorebook.entries.reorder", "REF", "--input", MOVE]),
    "read card": ("character", ["read", "REF"]),
    "card draft": ("character", ["cap", "run", "character.identity.update", "REF", "--input", RENAME]),
}


def main(sizes: list[int]) -> int:
    if not ELDORIA.exists():
        print(f"skipped: {ELDORIA} is absent (../shared/corpus is not beside this checkout)")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        studios = {size: studio_with(Path(folder), size) for size in sizes}
        best: dict[tuple[int, str], float] = {}
        peak: dict[tuple[int, str], float] = {}
        for _ in range(ROUNDS):
            for size, (studio, refs) in studios.items():
                for label, (kind, args) in COMMANDS.items():
                    seconds, rss = cpu([refs[kind] if arg == "REF" else arg for arg in args], studio)
                    best[(size, label)] = min(best.get((size, label), seconds), seconds)
                    peak[(size, label)] = max(peak.get((size, label), 0.0), rss)
    print(f"least CPU time (highest peak RSS) of {ROUNDS} interleaved rounds, each command in its own process")
    print("| entries | draft | `read` | one-change draft | draft per entry | draft / read | draft peak RSS |")
    print("|---|---|---|---|---|---|---|")
    drafts = (
        ("book", "book draft"),
        ("book", "book append"),
        ("book", "book remove"),
        ("book", "book move"),
        ("card", "card draft"),
    )
    for size in sizes:
        for piece, label in drafts:
            read, draft = best[(size, f"read {piece}")], best[(size, label)]
            print(
                f"| {size:,} | {label} | {read:.2f} s | {draft:.2f} s | {draft / size * 1e3:.2f} ms | "
                f"{draft / read:.1f}x | {peak[(size, label)]:.0f} MB |"
            )
    if len(sizes) > 1:
        small, large = sizes[0], sizes[-1]
        for _piece, label in drafts:
            growth = best[(large, label)] / best[(small, label)]
            print(f"{label} at {large:,} entries / at {small:,}: {growth:.2f}x (in proportion: {large / small:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main([int(arg) for arg in sys.argv[1:]] or [1000, 4000]))
