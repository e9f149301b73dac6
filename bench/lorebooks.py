"""Entry-heavy lorebooks beside the floor: a 200-entry SillyTavern world, a card holding a 200-entry book,
and the same world as a RisuAI lorebook, an Agnai memory book and a Marinara lorebook.

The entries are Eldoria's (../shared/corpus/sillytavern/worlds/Eldoria.json) repeated with
new uids, so every one is a real SillyTavern entry; the other formats' files are that world as
bunzai writes it in each. The floor is `json.loads` of the file (for the card: its JSON, as
`chara_card_v2` JSON), the least any reader does. Each reader
parses the file COPIES times in its own process, ROUNDS times interleaved; the least CPU
time of the loop is kept, start-up and imports left out. bunzai's process times the floor
too, in BLOCKS blocks alternating with its own, and *x floor* is the median of those
in-process ratios with their range (as bench/compare.py gives it): the machine's load then
moves both sides of each ratio alike.

    .venv/bin/python bench/lorebooks.py [COPIES] [ENTRIES]   # default 50 copies, 200 entries
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import PAIRED_LOOP, times_floor  # noqa: E402 - the bench's own module, beside this one

ROOT = Path(__file__).resolve().parents[1]
ELDORIA = ROOT.parent / "shared" / "corpus" / "sillytavern" / "worlds" / "Eldoria.json"
ROUNDS = 5
BLOCKS = 10  # bunzai's loop, split in this many blocks alternating with the floor's

DRIVER = (
    r"""
import json, sys, time
reader, path, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(path, "rb").read()
floor = json.loads
if reader == "floor":
    parse = floor
else:
    from bunzai.adapters.inspect import read_bytes
    from bunzai.adapters.registry import all_adapters
    all_adapters()
    parse = lambda blob: read_bytes(blob, path)
parse(data)
"""
    + PAIRED_LOOP
    + """
print(json.dumps(timing))
"""
)


def world(entries: int) -> dict:
    """A SillyTavern world of `entries` entries, Eldoria's repeated with fresh uids."""
    source = list(json.loads(ELDORIA.read_text(encoding="utf-8"))["entries"].values())
    made = {}
    for uid in range(entries):
        entry = copy.deepcopy(source[uid % len(source)])
        entry["uid"] = uid
        made[str(uid)] = entry
    return {"entries": made}


def card(entries: int) -> dict:
    """A Character Card V2 whose `character_book` holds `entries` entries made from Eldoria's, as
    SillyTavern writes a world into a card (its keys, extensions holding the rest)."""
    from bunzai.adapters.inspect import read_bytes
    from bunzai.adapters.registry import get_adapter

    book_piece = read_bytes(json.dumps(world(entries)).encode(), "Eldoria.json")[1].pieces[0]
    character = {
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {"name": "Archivist", "description": "Keeper of Eldoria's lore.", "extensions": {}},
    }
    document = json.loads(get_adapter("ccv2.json").write(_with_book(character, book_piece), None).data)
    return document


def written(entries: int, format_id: str) -> bytes:
    """The world of `entries` entries as bunzai writes it in `format_id` (a lorebook format)."""
    from bunzai.adapters.inspect import read_bytes
    from bunzai.adapters.registry import get_adapter

    book_piece = read_bytes(json.dumps(world(entries)).encode(), "Eldoria.json")[1].pieces[0]
    return get_adapter(format_id).write(book_piece, None).data


OTHER_BOOKS = (("RisuAI lorebook", "risu.lorebook"), ("Agnai memory book", "agnai.memory.json"))
OTHER_BOOKS += (("Marinara lorebook", "marinara.lorebook"),)


def _with_book(character: dict, book_piece):
    from bunzai.adapters.inspect import read_bytes

    piece = read_bytes(json.dumps(character).encode(), "archivist.json")[1].pieces[0]
    return piece.model_copy(update={"body": piece.body.model_copy(update={"book": _as_card_book(book_piece)})})


def _as_card_book(book_piece):
    from bunzai.model.character import CharacterBook

    return CharacterBook.model_validate({"name": "Eldoria", **book_piece.body.model_dump()})


def run(reader: str, path: Path, copies: int) -> dict:
    """The reader's loop time (`seconds`) and, for bunzai, the floor's in the same process."""
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, reader, str(path), str(copies), str(BLOCKS)], capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"{reader} failed on {path.name}: {done.stderr.strip()[-300:]}")
    return json.loads(done.stdout.splitlines()[-1])


def main(copies: int, entries: int) -> int:
    if not ELDORIA.exists():
        print(f"skipped: {ELDORIA} is absent (../shared/corpus is not beside this checkout)")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        files = {
            f"SillyTavern world, {entries} entries": Path(folder) / "world.json",
            f"V2 card JSON with a {entries}-entry book": Path(folder) / "card.json",
        }
        paths = list(files.values())
        paths[0].write_text(json.dumps(world(entries), indent=4), encoding="utf-8")
        paths[1].write_text(json.dumps(card(entries)), encoding="utf-8")
        for label, format_id in OTHER_BOOKS:
            files[f"{label}, {entries} entries"] = path = Path(folder) / f"{format_id}.json"
            path.write_bytes(written(entries, format_id))
        best: dict[tuple[str, str], float] = {}
        ratios: dict[str, list[float]] = {label: [] for label in files}
        for _ in range(ROUNDS):
            for label, path in files.items():
                for reader in ("floor", "bunzai"):
                    outcome = run(reader, path, copies)
                    seconds = outcome["seconds"]
                    best[(label, reader)] = min(best.get((label, reader), seconds), seconds)
                    if "floor_seconds" in outcome:
                        ratios[label].append(seconds / outcome["floor_seconds"])
        print(
            f"{copies} parses each, least CPU time of {ROUNDS} interleaved rounds; x floor paired in each "
            f"bunzai process ({BLOCKS} alternating blocks): median (range)"
        )
        print("| file | bytes | floor (json.loads) | bunzai | per entry | x floor |")
        print("|---|---|---|---|---|---|")
        for label, path in files.items():
            floor, mine = best[(label, "floor")], best[(label, "bunzai")]
            print(
                f"| {label} | {path.stat().st_size:,} | {floor / copies * 1000:.2f} ms | "
                f"{mine / copies * 1000:.2f} ms | {mine / copies / entries * 1e6:.0f} µs | "
                f"{times_floor({'ratios': ratios[label]}, mine / floor)} |"
            )
    return 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    raise SystemExit(main(int(arguments[0]) if arguments else 50, int(arguments[1]) if len(arguments) > 1 else 200))
