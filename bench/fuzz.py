"""Fuzz every reader at a large budget: inputs tried, clean refusals, crashes grouped by
exception and location, with the smallest reproducer of each group written to a folder.

Seeds are real files from ../shared/corpus (where present) and files the tests make;
mutations are wrong-typed values at any key of a JSON document (a card PNG's chunk
included) and damaged bytes. The oracle (tests/fuzzkit.py) reads each input as `import`
does, then drafts it, formats its pieces as apply stores them, and writes the primary piece
back to its own format; one input in APPLY_EVERY also has its drafts applied to a scratch
studio, where a refused apply must change nothing and no write may land outside the studio.
The same oracle runs at a small budget in the test suite.

Families take turns, ROUND inputs at a time, each with its own random stream; SIGTERM (or
Ctrl-C) stops the run and prints the figures so far, so a run cut short has tried every
family and says how far each got.

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
PROGRESS_ROUNDS = 10  # a progress line per this many rounds, so a long run shows how far it got


ROUND = 500  # inputs per family per round: families take turns, so a stopped run has tried them all


def _report(family: str, members: list, outcome: Outcome, seconds: float, state: str) -> None:
    print(
        json.dumps(
            {
                "family": family,
                "state": state,
                "seeds": len(members),
                "tried": outcome.tried,
                "refused": outcome.refused,
                "accepted": outcome.accepted,
                "applied": outcome.applied,
                "crashes": sum(c[0] for c in outcome.crashes.values()),
                "studio_changes": outcome.studio_changes,
                "seconds": round(seconds, 1),
            }
        ),
        flush=True,
    )


def main() -> int:
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    budget = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seed_number = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    only = sys.argv[3].split(",") if len(sys.argv) > 3 else None
    families: dict[str, list] = {}
    for seed in seeds():
        if only is None or seed.family in only:
            families.setdefault(seed.family, []).append(seed)
    # Each family has its own random stream, so its inputs do not depend on which others run.
    rngs = {family: random.Random(f"{seed_number}:{family}") for family in families}
    outcomes = {family: Outcome() for family in families}
    watches = {family: StudioWatch() for family in families}
    seconds = dict.fromkeys(families, 0.0)
    stopped, rounds = False, 0
    try:
        while any(outcome.tried < budget for outcome in outcomes.values()):
            for family, members in sorted(families.items()):
                outcome, rng = outcomes[family], rngs[family]
                started = time.perf_counter()
                for _ in range(min(ROUND, budget - outcome.tried)):
                    seed = rng.choice(members)
                    data, forced = mutate(seed, rng), forced_format(seed, rng)
                    run_one(
                        data,
                        seed.name,
                        outcome,
                        read_and_follow_through,
                        forced,
                        watches[family] if rng.randrange(APPLY_EVERY) == 0 else None,
                    )
                seconds[family] += time.perf_counter() - started
            rounds += 1
            if rounds % PROGRESS_ROUNDS == 0:
                print(
                    json.dumps(
                        {
                            "round": rounds,
                            "tried": sum(o.tried for o in outcomes.values()),
                            "crashes": sum(c[0] for o in outcomes.values() for c in o.crashes.values()),
                        }
                    ),
                    flush=True,
                )
    except KeyboardInterrupt:  # SIGTERM too: the figures so far are still worth printing
        stopped = True
    total = Outcome()
    for family, members in sorted(families.items()):
        watches[family].close()
        total.add(outcomes[family])
        _report(
            family,
            members,
            outcomes[family],
            seconds[family],
            "stopped" if stopped and outcomes[family].tried < budget else "done",
        )
    keep = Path(tempfile.mkdtemp(prefix="bunzai-fuzz-"))
    for index, (group, (count, data, name, trace)) in enumerate(sorted(total.crashes.items())):
        path = keep / f"crash-{index}-{name}"
        path.write_bytes(data)
        print(json.dumps({"crash_group": group, "count": count, "reproducer": str(path)}), flush=True)
        print(trace, file=sys.stderr)
    print(
        f"fuzz: {total.tried} inputs, {total.refused} clean refusals, {total.accepted} accepted "
        f"({total.applied} applied to a scratch studio), {sum(c[0] for c in total.crashes.values())} crashes "
        f"in {len(total.crashes)} group(s), {total.studio_changes} studio changes"
        + (" (stopped before the budget)" if stopped else ""),
        flush=True,
    )
    return 1 if total.crashes or total.studio_changes else 0


if __name__ == "__main__":
    sys.exit(main())
