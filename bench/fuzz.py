"""Fuzz every reader at a large budget: inputs tried, clean refusals, crashes grouped by
exception and location, with the smallest reproducer of each group written to a folder.

Seeds are real files from ../shared/corpus (where present) and files the tests make;
mutations are wrong-typed values at any key of a JSON document (a card PNG's chunk
included) and damaged bytes. The oracle (tests/fuzzkit.py) reads each input as `import`
does, then drafts it, formats its pieces as apply stores them, and writes the primary piece
back to its own format. The same oracle runs at a small budget in the test suite.

    .venv/bin/python bench/fuzz.py [INPUTS_PER_FAMILY] [SEED] [FAMILY,...]   # default 2000, 1, all
"""

from __future__ import annotations

import json
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fuzzkit import Outcome, StudioWatch, forced_format, mutate, read_and_follow_through, run_one, seeds  # noqa: E402

# One accepted input in APPLY_EVERY also goes through apply into a scratch studio (apply is
# a disk write with fsync, far slower than a read); refused applies must change nothing.
APPLY_EVERY = 50
PROGRESS_EVERY = 10_000  # a line per this many inputs, so a long run shows how far it got


def _report(family: str, members: list, outcome: Outcome, started: float, state: str) -> None:
    print(json.dumps({"family": family, "state": state, "seeds": len(members), "tried": outcome.tried,
                      "refused": outcome.refused, "accepted": outcome.accepted, "applied": outcome.applied,
                      "crashes": sum(c[0] for c in outcome.crashes.values()),
                      "studio_changes": outcome.studio_changes,
                      "seconds": round(time.perf_counter() - started, 1)}), flush=True)


def _order(family: str, only: list[str]) -> int:
    return only.index(family) if family in only else len(only)


def main() -> int:
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    budget = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    only = sys.argv[3].split(",") if len(sys.argv) > 3 else None  # run in the order given
    families: dict[str, list] = {}
    for seed in seeds():
        if only is None or seed.family in only:
            families.setdefault(seed.family, []).append(seed)
    total = Outcome()
    keep = Path(tempfile.mkdtemp(prefix="bunzai-fuzz-"))
    for family, members in sorted(families.items(), key=lambda item: (only is not None and
                                                                       _order(item[0], only), item[0])):
        outcome = Outcome()
        watch = StudioWatch()
        started = time.perf_counter()
        stopped = False
        try:
            for done in range(1, budget + 1):
                seed = rng.choice(members)
                data, forced = mutate(seed, rng), forced_format(seed, rng)
                run_one(data, seed.name, outcome, read_and_follow_through, forced,
                        watch if rng.randrange(APPLY_EVERY) == 0 else None)
                if done % PROGRESS_EVERY == 0 and done < budget:
                    _report(family, members, outcome, started, "running")
        except KeyboardInterrupt:  # SIGTERM too: the figures so far are still worth printing
            stopped = True
        watch.close()
        total.add(outcome)
        _report(family, members, outcome, started, "stopped" if stopped else "done")
        if stopped:
            break
    for index, (group, (count, data, name, trace)) in enumerate(sorted(total.crashes.items())):
        path = keep / f"crash-{index}-{name}"
        path.write_bytes(data)
        print(json.dumps({"crash_group": group, "count": count, "reproducer": str(path)}), flush=True)
        print(trace, file=sys.stderr)
    print(f"fuzz: {total.tried} inputs, {total.refused} clean refusals, {total.accepted} accepted "
          f"({total.applied} applied to a scratch studio), {sum(c[0] for c in total.crashes.values())} crashes "
          f"in {len(total.crashes)} group(s), {total.studio_changes} studio changes")
    return 1 if total.crashes or total.studio_changes else 0


if __name__ == "__main__":
    sys.exit(main())
