"""Fuzz every reader at a large budget: inputs tried, clean refusals, crashes grouped by
exception and location, with the smallest reproducer of each group written to a folder.

Seeds are real files from ../shared/corpus (where present) and files the tests make;
mutations are wrong-typed values at any key of a JSON document (a card PNG's chunk
included) and damaged bytes. The oracle (tests/fuzzkit.py) reads each input as `import`
does, then drafts it, formats its pieces as apply stores them, and writes the primary piece
back to its own format. The same oracle runs at a small budget in the test suite.

    .venv/bin/python bench/fuzz.py [INPUTS_PER_FAMILY] [SEED]     # default 2000, 1
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fuzzkit import Outcome, mutate, read_and_follow_through, run_one, seeds  # noqa: E402


def main() -> int:
    budget = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    families: dict[str, list] = {}
    for seed in seeds():
        families.setdefault(seed.family, []).append(seed)
    total = Outcome()
    keep = Path(tempfile.mkdtemp(prefix="bunzai-fuzz-"))
    for family, members in sorted(families.items()):
        outcome = Outcome()
        started = time.perf_counter()
        for _ in range(budget):
            seed = rng.choice(members)
            run_one(mutate(seed, rng), seed.name, outcome, read_and_follow_through)
        for group, (count, data, name, trace) in outcome.crashes.items():
            known = total.crashes.setdefault(group, [0, data, name, trace])
            known[0] += count
        total.tried += outcome.tried
        total.refused += outcome.refused
        total.accepted += outcome.accepted
        print(json.dumps({"family": family, "seeds": len(members), "tried": outcome.tried, "refused": outcome.refused,
                          "accepted": outcome.accepted, "crashes": sum(c[0] for c in outcome.crashes.values()),
                          "seconds": round(time.perf_counter() - started, 1)}))
    for index, (group, (count, data, name, trace)) in enumerate(sorted(total.crashes.items())):
        path = keep / f"crash-{index}-{name}"
        path.write_bytes(data)
        print(json.dumps({"crash_group": group, "count": count, "reproducer": str(path)}))
        print(trace, file=sys.stderr)
    print(f"fuzz: {total.tried} inputs, {total.refused} clean refusals, {total.accepted} accepted, "
          f"{sum(c[0] for c in total.crashes.values())} crashes in {len(total.crashes)} group(s)")
    return 1 if total.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
