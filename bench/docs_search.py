"""Time `docs search` on the full docs: making its index, each query after that, and the whole command.

All in one run, each beside a floor measured in that run, all in CPU time (a busy machine
stretches wall time):

- the index, in process: loaded from the catalog (what a search does while every page has the
  catalog's hash) and built from the pages (what it did before the catalog stored the index,
  and still does when a page changed since `bunzai docs index`), beside the floor of reading
  every page and hashing it, which either way is done first. Least of RUNS, each from a fresh
  `Docs` and an empty memory of stems, as a new process has;
- each query once the index is made (median and worst of RUNS);
- the whole command `bunzai docs search` beside `bunzai docs browse` (the same start-up, the
  catalog loaded, no search) and `python -c pass`: median CPU time (user + system of the child)
  of COMMAND_RUNS, interleaved so that a noisy neighbour slows all of them alike, bunzai's
  bytecode compiled first (as an installed wheel has it).

Goal: under 0.05 s per search once the index is made. Run: python bench/docs_search.py
"""

from __future__ import annotations

import compileall
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import bunzai
from bunzai.docs import bm25
from bunzai.docs.catalog import CATALOG_PATH
from bunzai.docs.pages import text_hash
from bunzai.docs.query import Docs, default_docs, search

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
COMMAND_RUNS = 21


def least(action) -> float:
    times = []
    for _ in range(RUNS):
        bm25._STEMS.clear()  # a new process starts with no stems remembered
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return min(times)


def index_times() -> None:
    docs = default_docs()
    catalog_text = CATALOG_PATH.read_text(encoding="utf-8")
    catalog = json.loads(catalog_text)
    without = {key: value for key, value in catalog.items() if key != "search"}
    stale = [page for page in sorted(docs.pages) if text_hash(docs.text(page)) != docs.pages[page]["sha256"]]
    if stale:
        print(f"the catalog is out of date ({', '.join(stale)}): run `make docs-index`, else both cases build")
    floor = least(lambda: [text_hash(docs.text(page)) for page in sorted(docs.pages)])
    parse = least(lambda: json.loads(catalog_text))
    loaded = least(lambda: Docs(docs.root, catalog).search_index())
    built = least(lambda: Docs(docs.root, without).search_index())
    chunks = len(docs.search_index()[1])
    print(f"the index of {chunks} chunks from {len(docs.pages)} pages, least CPU time of {RUNS}:")
    print(f"  floor: read and hash every page   {floor * 1000:7.2f} ms")
    print(f"  parse the catalog ({len(catalog_text) // 1024} KiB)      {parse * 1000:7.2f} ms")
    print(f"  load the stored index             {loaded * 1000:7.2f} ms  {loaded / floor:5.2f}x the floor")
    print(f"  build the index from the pages    {built * 1000:7.2f} ms  {built / floor:5.2f}x the floor")
    print(f"  building costs {built / loaded:.1f}x loading")


def query_times() -> None:
    docs = default_docs()
    search("warm up", docs=docs)
    for query in QUERIES:
        times = []
        for _ in range(RUNS):
            start = time.process_time()
            search(query, docs=docs)
            times.append(time.process_time() - start)
        print(
            f"search {query!r:32} median {statistics.median(times) * 1000:.2f} ms CPU, "
            f"worst {max(times) * 1000:.2f} ms (goal < 50 ms)"
        )


def cpu_time(cmd: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def command_times() -> None:
    compileall.compile_dir(Path(bunzai.__file__).parent, quiet=1)
    program = str(Path(sys.executable).with_name("bunzai"))
    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "bunzai docs browse": [program, "docs", "browse"],
        "bunzai docs search export containment": [program, "docs", "search", "export", "containment"],
    }
    samples: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(COMMAND_RUNS):
        for label, cmd in cases.items():
            samples[label].append(cpu_time(cmd))
    medians = {label: statistics.median(times) for label, times in samples.items()}
    browse = medians["bunzai docs browse"]
    print(f"whole commands, median CPU time of {COMMAND_RUNS} runs:")
    for label, cpu in medians.items():
        print(f"  {label:40} {cpu:.3f} s  {cpu / browse:5.2f}x docs browse")


def main() -> None:
    index_times()
    query_times()
    command_times()


if __name__ == "__main__":
    main()
