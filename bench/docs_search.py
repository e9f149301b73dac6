"""Time `docs search` on the full docs: the first query (which builds the index) and then
each query after start-up, in process, and one whole `bunzai docs search` command.

Goal: under 0.05 s per search once the index is built. Run: python bench/docs_search.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from bunzai.docs.query import default_docs, search

QUERIES = (
    "export containment",
    "macro collision random",
    "lorebook entries update",
    "how writes happen",
    "sillytavern preset prompts",
    "apply stale revision",
    "charx assets",
    "graveyard restore",
)
RUNS = 20


def main() -> None:
    started = time.perf_counter()
    docs = default_docs()
    search("warm up", docs=docs)
    print(
        f"catalog loaded and index built on the first query in {time.perf_counter() - started:.3f} s "
        f"({len(docs.search_index()[1])} chunks from {len(docs.pages)} pages)"
    )
    for query in QUERIES:
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            search(query, docs=docs)
            times.append(time.perf_counter() - start)
        print(
            f"search {query!r:32} median {statistics.median(times) * 1000:.2f} ms, "
            f"worst {max(times) * 1000:.2f} ms (goal < 50 ms)"
        )
    bunzai = str(Path(sys.executable).with_name("bunzai"))
    times = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([bunzai, "docs", "search", "export containment"], stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    print(
        "whole command `bunzai docs search export containment` (start-up included): "
        f"median {statistics.median(times):.3f} s"
    )


if __name__ == "__main__":
    main()
