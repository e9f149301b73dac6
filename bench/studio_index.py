"""`bunzai list` and `bunzai search` in studios of 1,000 and 10,000 pieces, with the studio index.

Writes N character pieces (canonical JSON, a few hundred words of prose each) straight into a
fresh studio, then times, per size, in one run:

- the floor: a Python process that reads and parses every piece file (what `list` and
  `search` did before the index);
- the stat floor: a Python process that lists each kind folder and stats every piece file,
  the least any reader can do and still notice a piece edited in place (an edit in place
  changes no folder's mtime);
- `bunzai list` and `bunzai search` the first time (the index is built from the files);
- the same commands warm (the index is fresh: each file is only stat'ed);
- after one piece is edited by hand (one file is read again).

CPU time is user+system of the child process (getrusage), wall time beside it; bunzai's bytecode
is compiled first (as an installed wheel has it). Each case runs in two environments, in the
same rounds: the development one (`make install`, bunzai editable) and bunzai installed from a
wheel (`bench/installed.py`), whose `python -c pass` does not import what the editable
finder's does (pathlib, re, urllib.parse), so that bunzai pays for them itself, as a user's
bunzai does. Each environment's floors run on its own Python. `--editable-only` skips the
second. The repeated cases run RUNS times, interleaved
across sizes too, so that a noisy neighbour slows all of them alike, and the least CPU time of
each is printed.
Goal (issue 10): warm `list` and `search` at most 0.1 s and flat from 1,000 to 10,000 pieces.

The prose follows Zipf's law, as prose does: the word of rank r is drawn with odds 1/r, so the
commonest word is 12% of all words and the two searched as "common words" 19%. That is heavier
at the top than the cards in ../shared/corpus, whose commonest word ("a") is 4% of their
words and the two commonest 7%. `--skew` draws the words as this script did until 2026-12-02
(a Pareto tail so steep that the two commonest words are over half of all prose): a
stress case for BM25, which visits every occurrence of a searched word in every row it matches.

    .venv/bin/python bench/studio_index.py [--skew] [--editable-only] [N ...]   # default: 1000 10000
"""

from __future__ import annotations

import itertools
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
RUNS = 7
COMMON = (
    "lantern river harbour engine winter garden letter mirror castle violin forest archive signal "
    "copper meadow thunder compass orchard beacon velvet"
).split()
SYLLABLES = ("ka", "lo", "mi", "ren", "tor", "vel", "sa", "qui", "dan", "op", "eth", "ur")
# A vocabulary of 1,748 words, drawn with a long tail as prose is: common words appear in
# every piece, most words in few. RARE is the word searched as a rare one.
WORDS = COMMON + [a + b + c for a in SYLLABLES for b in SYLLABLES for c in SYLLABLES]
RARE = "urethvel"
ZIPF = list(itertools.accumulate(1 / rank for rank in range(1, len(WORDS) + 1)))  # cumulative odds

FLOOR = """
import json, os, sys
root = sys.argv[1]
names = []
for kind in sorted(os.listdir(root)):
    folder = os.path.join(root, kind)
    if kind.startswith('.') or not os.path.isdir(folder):
        continue
    for name in sorted(os.listdir(folder)):
        if name.endswith('.json'):
            with open(os.path.join(folder, name), 'rb') as f:
                names.append(json.loads(f.read()).get('name'))
print(len(names))
"""

STAT_FLOOR = """
import os, sys
root, count = sys.argv[1], 0
for kind in sorted(os.listdir(root)):
    folder = os.path.join(root, kind)
    if kind.startswith('.') or not os.path.isdir(folder):
        continue
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)  # each stat resolves from the folder
    with os.scandir(descriptor) as entries:
        for entry in entries:
            if entry.name.endswith('.json'):
                entry.stat(follow_symlinks=False)
                count += 1
    os.close(descriptor)
print(count)
"""


def prose_words(rng: random.Random, skew: bool) -> list[str]:
    """300 words of prose: Zipf's law, or with `skew` the steep tail of the earlier runs."""
    if skew:
        return [WORDS[min(int(rng.paretovariate(0.7)) - 1, len(WORDS) - 1)] for _ in range(300)]
    return rng.choices(WORDS, cum_weights=ZIPF, k=300)


def make_studio(root: Path, count: int, skew: bool = False) -> float:
    """The studio, and the share of its prose's words that are the two searched as common."""
    subprocess.run([BIN / "bunzai", "init", str(root)], check=True, stdout=subprocess.DEVNULL)
    rng = random.Random(count)
    folder = root / "character"
    common = total = 0
    for n in range(count):
        words = prose_words(rng, skew)
        common += sum(word in ("lantern", "river") for word in words)
        total += len(words)
        prose = " ".join(words)
        piece = {
            "kind": "character",
            "id": f"c{n:05d}",
            "name": f"Character {n} {rng.choice(WORDS).title()}",
            "body": {"description": prose, "tags": [rng.choice(COMMON)], "personality": prose[:400]},
        }
        (folder / f"c{n:05d}.json").write_text(json.dumps(piece, ensure_ascii=False, sort_keys=True))
    return common / total


def run(cmd: list[str], env: dict) -> tuple[float, float]:
    """(cpu s, wall s) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def cases(studio: Path, bin_dir: Path) -> dict[str, list[str]]:
    python, bunzai = str(bin_dir / "python"), str(bin_dir / "bunzai")
    return {
        "python -c pass": [python, "-c", "pass"],
        "python stats every piece (stat floor)": [python, "-c", STAT_FLOOR, str(studio)],
        "python reads every piece (floor)": [python, "-c", FLOOR, str(studio)],
        "bunzai list, warm": [bunzai, "list"],
        "bunzai search, warm": [bunzai, "search", RARE],
        "bunzai search common words, warm": [bunzai, "search", "lantern river"],
        "bunzai search phrase, warm": [bunzai, "search", '"lantern river"'],
        "bunzai search prefix, warm": [bunzai, "search", "vel*"],
    }


def main(sizes: list[int], skew: bool = False, installed: bool = True) -> None:
    import compileall

    import bunzai as package

    compileall.compile_dir(Path(package.__file__).parent, quiet=1)
    print("prose:", "the steep tail of the earlier runs (--skew)" if skew else "Zipf's law")
    rows = []  # (environment, pieces, measure, cpu, wall)
    with tempfile.TemporaryDirectory() as tmp:
        environments = {"editable": BIN}
        if installed:
            from installed import installed_bin

            environments["installed"] = installed_bin(Path(tmp) / "installed")
        print(f"{'bunzai':>10} {'pieces':>7} {'measure':38} {'cpu s':>7} {'wall s':>7}   (least cpu of {RUNS} runs)")
        studios, envs = {}, {}
        for count in sizes:
            studios[count] = studio = Path(tmp) / f"studio-{count}"
            share = make_studio(studio, count, skew)
            print(f"{'':>10} {count:>7} the words searched as common are {share:.0%} of the prose")
            envs[count] = env = dict(os.environ, HOME=tmp, BUNZAI_STUDIO=str(studio))
            cpu, wall = run([str(BIN / "bunzai"), "list"], env)
            rows.append(("editable", count, "bunzai list, first (builds the index)", cpu, wall))
            print(f"{'editable':>10} {count:>7} {'bunzai list, first (builds the index)':38} {cpu:7.3f} {wall:7.3f}")
        # Every size's and environment's cases in each round, so that the machine's load, which
        # moves by the minute here, weighs on all of them alike and their ratios mean something.
        samples: dict[tuple[str, int, str], list[tuple[float, float]]] = {}
        for _ in range(RUNS):
            for count in sizes:
                for where, bin_dir in environments.items():
                    for label, cmd in cases(studios[count], bin_dir).items():
                        samples.setdefault((where, count, label), []).append(run(cmd, envs[count]))
        for (where, count, label), times in samples.items():
            cpu, wall = min(t[0] for t in times), statistics.median(t[1] for t in times)
            rows.append((where, count, label, cpu, wall))
            print(f"{where:>10} {count:>7} {label:38} {cpu:7.3f} {wall:7.3f}")
        for count in sizes:
            for n, (where, bin_dir) in enumerate(environments.items()):
                edited = studios[count] / "character" / f"c{n:05d}.json"
                edited.write_text(edited.read_text().replace("Character", "Lanthorn"))
                cpu, wall = run([str(bin_dir / "bunzai"), "search", "lanthorn"], envs[count])
                rows.append((where, count, "bunzai search after a hand edit", cpu, wall))
                print(f"{where:>10} {count:>7} {'bunzai search after a hand edit':38} {cpu:7.3f} {wall:7.3f}")
    warm = [label for label in cases(Path(), BIN) if label.startswith("bunzai")]
    for where in environments:
        if len(sizes) > 1:
            small, large = sizes[0], sizes[-1]
            for label in warm:
                a = next(r[3] for r in rows if r[:3] == (where, small, label))
                b = next(r[3] for r in rows if r[:3] == (where, large, label))
                print(f"{where}: {label}: {large} pieces / {small} pieces = {b / a:.2f}x cpu")
        for count in sizes:
            got = {r[2]: r[3] for r in rows if r[:2] == (where, count)}
            stat_floor = got["python stats every piece (stat floor)"]
            for label in warm:
                print(
                    f"{where}: {count} pieces, {label}: {got[label] / stat_floor:.2f}x the stat floor, "
                    f"{got[label] - stat_floor:.3f} s above it"
                )


if __name__ == "__main__":
    import argparse

    # argparse, not a scan of sys.argv: `--help` took the help flag for a studio size and crashed.
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, metavar="N", help="studio sizes (default: 1000 10000)")
    parser.add_argument("--skew", action="store_true", help="the steep word distribution used until 2026-12-02")
    parser.add_argument("--editable-only", action="store_true", help="skip bunzai installed from a wheel")
    options = parser.parse_args()
    main(options.sizes or [1000, 10000], options.skew, not options.editable_only)
