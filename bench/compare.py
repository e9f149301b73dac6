"""bunzai beside its peers on the same cards, in one run: parse time and fidelity. Writes docs/benchmarks.md.

Peers, installed from the package index into the bench's own virtual environment (created
outside the checkout, at $BUNZAI_BENCH_VENV or <tmp>/bunzai-bench-venv, and reused):

- tavern-card (`parse_png_card`), aichar (`load_character_card`), card-forge
  (`forge.helper.extract_card_data`);
- character-foundry (`parseCard` of `@character-foundry/character-foundry/loader`, the package
  that re-exports its loader) from the npm registry where `node` and `npm` exist, installed into
  the bench's own folder ($BUNZAI_BENCH_NPM or <tmp>/bunzai-bench-npm) and reused. Its loop is
  timed with `process.cpuUsage()` after 50 warm-up parses, so the JIT has compiled the parser,
  as the Python readers' first parse has filled their caches.

Cards: the 552 KB Seraphina PNG from ../shared/corpus (V3 with a lorebook) when present, and a
small Character Card V2 PNG made here (about 2 KB, with the V1 mirror fields SillyTavern writes).
Each reader parses COPIES copies in its own process, ROUNDS times, the readers interleaved;
the time is the least CPU time of the parse loop (time.process_time), so imports and
start-up are not counted. The floor is what any reader must do: scan the chunks, base64-decode the card chunk
and json.loads it, with the standard library's base64 as the issue defines it; a second floor,
*floor (pybase64)*, decodes with the library bunzai uses, so the page shows what bunzai does beyond a
floor that decodes as fast. Each Python reader's process times the floor as well, in BLOCKS blocks that
alternate with its own, and the ratio to the floor is taken within the process: the machine's
load, which moves a process's speed by a fifth from one run to the next, then moves both.
bunzai's reading hashes no media: the canonical piece names the original file and the
portrait by lazily hashed references (`LazyAssetRef`), whose SHA-256 is made when an import
draft, a store or a convert asks for it, so it is not in the parse time.

Fidelity: every non-empty string in the card's own JSON (under `data`) is a field to keep; a
reader keeps it when the same string appears among the strings of what it returns. bunzai's
escrow (`original`, the native document kept whole) is left out, so only modelled fields count.

    .venv/bin/python bench/compare.py [COPIES]          # default 1000
"""

from __future__ import annotations

import base64
import json
import os
import platform
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from datetime import datetime, UTC
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERAPHINA = ROOT.parent / "shared" / "corpus" / "sillytavern" / "characters" / "default_Seraphina.png"
PEERS = {"tavern-card": "tavern-card", "aichar": "aichar", "card-forge": "card-forge"}
NODE_PEER, NODE_PACKAGE = "character-foundry", "@character-foundry/character-foundry"
PAGE = ROOT / "docs" / "benchmarks.md"
ROUNDS = 5  # each reader's least CPU time of this many runs is kept
BLOCKS = 10  # a Python reader's loop, split in this many blocks alternating with the floor's

# The floor of a PNG card, as driver source (bench/ab.py's driver uses it too): walk the chunks,
# base64-decode the card chunk (ccv3 over chara) and json.loads it.
PNG_FLOOR = r"""
import base64, json, struct
def floor(blob, b64decode=base64.b64decode):
    pos, text = 8, None
    while pos < len(blob):
        length, kind = struct.unpack_from(">I4s", blob, pos)
        if kind == b"tEXt":
            key, _, value = blob[pos + 8:pos + 8 + length].partition(b"\0")
            if key == b"ccv3" or (key == b"chara" and text is None):
                text = value
        pos += 12 + length
        if kind == b"IEND":
            break
    return json.loads(b64decode(text))
"""

# The timed loop every bench driver ends with (bench/lorebooks.py and bench/ab.py run it too):
# `parse`, `floor`, `data`, `copies` and `reader` are the driver's. Paired (a fourth argument,
# the number of blocks), the floor is timed in the same process, in blocks alternating with the
# reader's, so both see the same load and their ratio is steady. It leaves `timing`: the
# reader's CPU seconds, and the floor's when paired.
PAIRED_LOOP = r"""
blocks = int(sys.argv[4]) if len(sys.argv) > 4 and reader != "floor" else 0
loops = [(parse, copies)] if not blocks else [
    (loop, copies // blocks + (block < copies % blocks))
    for block in range(blocks)
    for loop in ((floor, parse) if block % 2 else (parse, floor))
]
spent = {parse: 0.0, floor: 0.0}
floor(data)
for loop, count in loops:
    start = time.process_time()
    for _ in range(count):
        loop(bytes(data))
    spent[loop] += time.process_time() - start
timing = {"seconds": spent[parse], **({"floor_seconds": spent[floor]} if blocks else {})}
"""

# The floor with pybase64's decoder, the one bunzai decodes card chunks with (its
# pyproject says why): beside it, the ratio shows what bunzai does beyond a floor that decodes
# as fast. The floor is the standard library's; both are on the page.
FAST_FLOOR = "floor (pybase64)"

DRIVER = (
    r"""
import base64, json, struct, sys, time
reader, path, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
"""
    + f"FAST_FLOOR = {FAST_FLOOR!r}\n"
    + r"""
data = open(path, "rb").read()

"""
    + PNG_FLOOR
    + """

if reader == "floor":
    parse, dump = floor, lambda r: r
elif reader == FAST_FLOOR:
    import pybase64
    b64 = pybase64.b64decode
    parse, dump = (lambda blob: floor(blob, b64)), lambda r: r
elif reader == "bunzai":
    from bunzai.adapters.inspect import read_bytes
    from bunzai.adapters.registry import all_adapters
    all_adapters()
    parse = lambda blob: read_bytes(blob, "card.png")
    def dump(result):
        pieces = [p.model_dump(mode="json") for p in result[1].pieces]
        for piece in pieces:
            piece.pop("original", None)
        return pieces
elif reader == "tavern-card":
    from tavern_card import parse_png_card
    parse, dump = parse_png_card, lambda r: r
elif reader == "aichar":
    import aichar
    parse = aichar.load_character_card
    dump = lambda r: json.loads(r.export_json("sillytavern"))
elif reader == "card-forge":
    import io, contextlib
    from forge.helper import extract_card_data
    def parse(blob):
        with contextlib.redirect_stdout(io.StringIO()):
            return extract_card_data(io.BytesIO(blob))
    dump = lambda r: None if r is None else json.loads(r.model_dump_json())
result = parse(data)
"""
    + PAIRED_LOOP
    + """
print(json.dumps({**timing, "output": dump(result)}, default=str))
"""
)


NODE_DRIVER = r"""
const fs = require("fs");
const { parseCard } = require("@character-foundry/character-foundry/loader");
const path = process.argv[2], copies = Number(process.argv[3]);
const data = new Uint8Array(fs.readFileSync(path));
const result = parseCard(data);
for (let i = 0; i < 50; i++) parseCard(new Uint8Array(data));
const start = process.cpuUsage();
for (let i = 0; i < copies; i++) parseCard(new Uint8Array(data));
const used = process.cpuUsage(start);
process.stdout.write(JSON.stringify({ seconds: (used.user + used.system) / 1e6, output: result.card }) + "\n");
"""


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def small_card() -> bytes:
    """A small Character Card V2 PNG (about 2 KB): a 16x16 portrait and a chara chunk."""
    raw = b"".join(b"\0" + bytes((40, 90, 160)) * 16 for _ in range(16))
    card = {
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {
            "name": "Mira Vale",
            "description": "A cartographer who maps the rivers of a drowned city. " * 6,
            "personality": "patient, wry, curious",
            "scenario": "Aboard a flat-bottomed boat at dawn.",
            "first_mes": "*Mira unrolls a damp chart.* You came for the north channel, didn't you?",
            "mes_example": "<START>\n{{user}}: Where does this lead?\n{{char}}: Somewhere the maps stop.",
            "creator_notes": "Slow-burn exploration.",
            "system_prompt": "",
            "post_history_instructions": "",
            "alternate_greetings": ["*The fog lifts.* Early start, then.", "*She taps the compass.* It lies today."],
            "tags": ["explorer", "fantasy"],
            "creator": "bench",
            "character_version": "1.0",
            "extensions": {},
        },
    }
    for key in ("name", "description", "personality", "scenario", "first_mes", "mes_example"):
        card[key] = card["data"][key]  # the V1 mirror SillyTavern writes beside `data`
    text = b"chara\0" + base64.b64encode(json.dumps(card).encode())
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
        + _chunk(b"tEXt", text)
        + _chunk(b"IDAT", zlib.compress(raw))
        + _chunk(b"IEND", b"")
    )


def strings(value, out: set[str], numbers: bool = False) -> set[str]:
    """Every non-empty string in `value`; with `numbers`, numbers too as `str()` spells them, so
    a reader that types SillyTavern's string "0.5" (talkativeness) as the number 0.5 keeps it."""
    if isinstance(value, str):
        if value.strip():
            out.add(value)
    elif numbers and isinstance(value, (int, float)) and not isinstance(value, bool):
        out.add(str(value))
    elif isinstance(value, dict):
        for item in value.values():
            strings(item, out, numbers)
    elif isinstance(value, list):
        for item in value:
            strings(item, out, numbers)
    return out


def _work(card: Path) -> list[str]:
    """What bunzai's read of `card` does beyond the floor, for the page's sentence."""
    data = card.read_bytes()
    work = ["sniffs the file for every image format", "checks the PNG's chunks (CRCs)"]
    if data.count(b"tEXtchara\0") and data.count(b"tEXtccv3\0"):
        work.append(
            "keeps both card chunks for the escrow (SillyTavern writes two; the second is compared with "
            "the first in base64, only its relabelled values decoded)"
        )
    work.append("maps the card's fields to the canonical model")
    if b"character_book" in base64.b64decode(_card_text(data)):
        work.append("maps the book's entries")
    work.append(
        "builds the canonical model from the mapped values (not validated again: model/built.py) and names "
        "the original file and the portrait"
    )
    return work


def _card_text(data: bytes) -> bytes:
    """The base64 text of the card chunk (ccv3 first, as the floor reads it)."""
    found = {}
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        if kind == b"tEXt":
            key, _, value = data[pos + 8 : pos + 8 + length].partition(b"\0")
            found.setdefault(key, value)
        pos += 12 + length
        if kind == b"IEND":
            break
    return found.get(b"ccv3") or found.get(b"chara", b"")


def bench_python() -> tuple[Path | None, dict[str, str]]:
    """The bench venv's python and, per peer, why it is missing ('' when installed)."""
    venv = Path(os.environ.get("BUNZAI_BENCH_VENV") or Path(tempfile.gettempdir()) / "bunzai-bench-venv")
    python = venv / "bin" / "python"
    missing = {}
    if not python.exists():
        made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
        if made.returncode:
            return None, {peer: f"no virtual environment: {made.stderr.strip()[-200:]}" for peer in PEERS}
    for peer, package in PEERS.items():
        module = {"tavern-card": "tavern_card", "aichar": "aichar", "card-forge": "forge.helper"}[peer]
        if subprocess.run([python, "-c", f"import {module}"], capture_output=True).returncode == 0:
            missing[peer] = ""
            continue
        done = subprocess.run([python, "-m", "pip", "install", "--quiet", package], capture_output=True, text=True)
        missing[peer] = "" if done.returncode == 0 else f"pip install {package} failed: {done.stderr.strip()[-200:]}"
    return python, missing


def bench_node() -> tuple[Path | None, str]:
    """The bench's npm folder holding character-foundry and its driver, or why it is missing."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        return None, "`node` and `npm` are not both installed"
    folder = Path(os.environ.get("BUNZAI_BENCH_NPM") or Path(tempfile.gettempdir()) / "bunzai-bench-npm")
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "node_modules" / NODE_PACKAGE / "package.json").exists():
        done = subprocess.run(
            [npm, "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--ignore-scripts", NODE_PACKAGE],
            capture_output=True,
            text=True,
        )
        if done.returncode:
            return None, f"npm install {NODE_PACKAGE} failed: {done.stderr.strip()[-200:]}"
    (folder / "drive.cjs").write_text(NODE_DRIVER, encoding="utf-8")
    return folder, ""


def node_version(folder: Path) -> str:
    package = folder / "node_modules" / NODE_PACKAGE / "package.json"
    return json.loads(package.read_text(encoding="utf-8")).get("version", "?")


def run(runner: Path, reader: str, card: Path, copies: int, blocks: int = 0) -> dict:
    """One reader's timed loop: `runner` is the Python that runs DRIVER, or for the node peer
    the npm folder holding its driver. With `blocks`, a Python reader's process times the
    floor too, in blocks alternating with the reader's (`floor_seconds`)."""
    if reader == NODE_PEER:
        command, cwd = ["node", str(runner / "drive.cjs"), str(card), str(copies)], runner
    else:
        paired = [str(blocks)] if blocks else []
        command, cwd = [str(runner), "-c", DRIVER, reader, str(card), str(copies), *paired], None
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if done.returncode:
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1][:200]}
    return json.loads(done.stdout.splitlines()[-1])


def _node_version() -> str:
    done = subprocess.run(["node", "--version"], capture_output=True, text=True)
    return done.stdout.strip() or "?"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}; shared with other jobs, so only ratios within one run mean much"
    )


def main(copies: int) -> int:
    python, missing = bench_python()
    npm_folder, node_missing = bench_node()
    notes = []
    readers = ["floor", FAST_FLOOR, "bunzai"] + [peer for peer in PEERS if python is not None and not missing.get(peer)]
    if npm_folder is not None:
        readers.append(NODE_PEER)
        notes.append(f"{NODE_PEER} {node_version(npm_folder)} ran under node {_node_version()}")
    else:
        notes.append(f"{NODE_PEER} (npm): not run; {node_missing}")
    for peer, why in missing.items():
        if why:
            notes.append(f"{peer}: not installed ({why})")
    with tempfile.TemporaryDirectory() as folder:
        cards = []
        if SERAPHINA.exists():
            cards.append(("Seraphina (V3 + lorebook)", SERAPHINA))
        else:
            notes.append(f"the 552 KB Seraphina card is absent ({SERAPHINA}); only the small card was measured")
        small = Path(folder) / "small-v2.png"
        small.write_bytes(small_card())
        cards.append(("small V2 card", small))
        results: dict[str, dict[str, dict]] = {}
        for label, card in cards:
            source = json.loads(json.dumps(run(Path(sys.executable), "floor", card, 1)["output"]))
            fields = strings(source.get("data", source), set())
            results[label] = {"_size": {"bytes": card.stat().st_size, "fields": len(fields), "work": _work(card)}}
            for _ in range(ROUNDS):  # interleaved, so a noisy neighbour slows every reader alike
                for reader in readers:
                    ours = reader in ("floor", FAST_FLOOR, "bunzai")  # run by this Python; the peers by the bench's
                    interpreter = Path(sys.executable) if ours else python
                    if reader == NODE_PEER:
                        interpreter = npm_folder
                    outcome = run(interpreter, reader, card, copies, 0 if reader == NODE_PEER else BLOCKS)
                    if "error" not in outcome:
                        kept = strings(outcome.pop("output"), set(), numbers=True)
                        outcome["kept"] = len(fields & kept)
                    best = results[label].get(reader)
                    ratios = best.get("ratios", []) if best else []
                    if "floor_seconds" in outcome:
                        ratios = ratios + [outcome["seconds"] / outcome["floor_seconds"]]
                    if best is None or "error" in outcome or outcome["seconds"] < best.get("seconds", 0):
                        results[label][reader] = outcome
                    results[label][reader]["ratios"] = ratios
    lines = _page(copies, results, readers, notes)
    PAGE.write_text(_spliced(PAGE.read_text(encoding="utf-8") if PAGE.exists() else "# Benchmarks\n", lines))
    print("\n".join(lines))
    print(f"\nwrote {PAGE.relative_to(ROOT)}")
    return 0


BEGIN = "<!-- begin bench/compare.py: this part is rewritten by each run of the script -->"
END = "<!-- end bench/compare.py -->"


def _spliced(page: str, lines: list[str]) -> str:
    """The page with this script's part (between its markers) replaced; the rest is kept."""
    part = "\n".join([BEGIN, *lines, END])
    if BEGIN in page and END in page:
        return page[: page.index(BEGIN)] + part + page[page.index(END) + len(END) :]
    return page.rstrip() + "\n\n" + part + "\n"


def _page(copies: int, results: dict, readers: list[str], notes: list[str]) -> list[str]:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"Written by `bench/compare.py` on {stamp}. Machine: {machine()}.",
        "",
        "## Parsing cards beside the peers",
        "",
        f"Each reader parses {copies} copies of a card in its own process, {ROUNDS} times with the readers "
        "interleaved; the time is the least CPU time of the",
        "parse loop only (bunzai hashes no media while reading: see the module's docstring). "
        f"*x floor* is paired: each Python reader's process also times the floor, in {BLOCKS} blocks "
        "alternating with its own, so both see the same load; the cell gives the median of the "
        f"{ROUNDS} processes' ratios and their range (the node peer, timed by node, is divided by the "
        "floor's least time instead, marked *). "
        "*Kept* counts the card's non-empty strings (under `data`) found among the",
        "strings the reader returns (a number counts as the string that spells it); bunzai's escrow of the "
        "native document is left out of that count.",
        "",
    ]
    for label, rows in results.items():
        size = rows["_size"]
        floor = rows.get("floor", {}).get("seconds")
        lines += [
            f"### {label}: {size['bytes']:,} bytes, {size['fields']} fields",
            "",
            "| reader | CPU s | x floor | x bunzai | fields kept |",
            "|---|---|---|---|---|",
        ]
        mine = rows.get("bunzai", {}).get("seconds")
        for reader in readers:
            row = rows.get(reader, {})
            if "error" in row:
                lines.append(f"| {reader} | failed: {row['error']} | | | |")
                continue
            seconds = row["seconds"]
            lines.append(
                f"| {reader} | {seconds:.3f} | {times_floor(row, seconds / floor if reader != 'floor' else 1.0)} | "
                f"{seconds / mine:.2f}x | {row['kept']} of {size['fields']} |"
            )
        fast = rows.get(FAST_FLOOR, {}).get("seconds")
        if fast and mine:
            lines += [
                "",
                f"Beside the floor with pybase64's decoder, the one bunzai decodes card chunks with, bunzai "
                f"took {mine / fast:.1f}x its time (least CPU times, unpaired).",
            ]
        behind = [
            r
            for r in readers
            if r not in ("floor", FAST_FLOOR, "bunzai") and "seconds" in rows.get(r, {}) and rows[r]["seconds"] < mine
        ]
        lines.append("")
        if behind:
            lines.append(
                f"bunzai is behind {', '.join(behind)} on this card (parse time): beyond the floor, it "
                + ", ".join(size["work"])
                + "."
            )
        else:
            lines.append("bunzai is not behind any peer measured on this card (parse time).")
        lines.append("")
    lines += ["### Notes", ""] + [f"- {note}" for note in notes] + [""]
    return lines


def times_floor(row: dict, unpaired: float) -> str:
    """The paired ratio's median and range over the rounds, or `unpaired` (marked *) without pairs."""
    ratios = sorted(row.get("ratios") or [])
    if not ratios:
        return f"{unpaired:.1f}x" + ("" if unpaired == 1.0 else " *")
    middle = len(ratios) // 2
    median = ratios[middle] if len(ratios) % 2 else (ratios[middle - 1] + ratios[middle]) / 2
    return f"{median:.1f}x ({ratios[0]:.1f}-{ratios[-1]:.1f})"


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
