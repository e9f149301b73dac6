"""A 5 MB RisuAI `.risupreset` through `bunzai import` and `bunzai import | bunzai apply`, in one run.

The file is made here the way RisuAI's downloadPreset writes it: gzip(msgpack({presetVersion:
2, type: "preset", preset: AES-GCM(msgpack(botPreset))})), with bunzai's own MessagePack writer
and cipher; the botPreset holds about 5 MB of prompt text, so the file is about 5 MB (the
ciphertext does not compress). Each case runs RUNS times, interleaved with `python -c pass`;
the least CPU time (user + system of the children, getrusage) and wall time of each is printed.
Goal (issue 17): the import in under a second.

    .venv/bin/python bench/risu_preset.py [MEGABYTES] [RUNS]      # default: 5 5
"""

from __future__ import annotations

import compileall
import gzip
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bunzai
from bunzai.adapters.risu import aesgcm
from bunzai.adapters.risu.msgpack_write import pack
from bunzai.adapters.risu.preset import IV, KEY

WORDS = "lantern river harbour engine winter garden letter mirror castle violin forest archive".split()


def preset_file(megabytes: float) -> bytes:
    """A .risupreset whose main prompt is `megabytes` of prose, as RisuAI writes the file."""
    rng = random.Random(17)
    words, size, target = [], 0, int(megabytes * 1_000_000)
    while size < target:
        word = rng.choice(WORDS)
        words.append(word)
        size += len(word) + 1
    prompt = " ".join(words)
    bot_preset = {"name": "Five megabytes", "mainPrompt": prompt, "jailbreak": "", "globalNote": "", "temperature": 80}
    sealed = aesgcm.encrypt(KEY, IV, pack(bot_preset))
    return gzip.compress(pack({"presetVersion": 2, "type": "preset", "preset": sealed}), mtime=0)


def timed(cmd: str, env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, shell=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main(megabytes: float, runs: int) -> None:
    compileall.compile_dir(Path(bunzai.__file__).parent, quiet=1)
    bunzai_cmd = str(Path(sys.executable).with_name("bunzai"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "five.risupreset"
        path.write_bytes(preset_file(megabytes))
        env = dict(os.environ, HOME=tmp)
        studios = iter(range(runs + 1))
        cases = {
            "python -c pass": lambda: f"{sys.executable} -c pass",
            "bunzai import": lambda: f"{bunzai_cmd} import {path}",
            "bunzai import | bunzai apply --yes": lambda: (
                f"{bunzai_cmd} init {tmp}/s{(n := next(studios))} && "
                f"BUNZAI_STUDIO={tmp}/s{n} {bunzai_cmd} import {path} | "
                f"BUNZAI_STUDIO={tmp}/s{n} {bunzai_cmd} apply --yes"
            ),
        }
        best = {label: (float("inf"), float("inf")) for label in cases}
        for _ in range(runs):
            for label, command in cases.items():
                cpu, wall = timed(command(), env)
                best[label] = (min(best[label][0], cpu), min(best[label][1], wall))
        print(f"{path.name}: {path.stat().st_size:,} bytes; least of {runs} runs")
        print(f"{'case':36} {'cpu s':>7} {'wall s':>7}")
        for label, (cpu, wall) in best.items():
            print(f"{label:36} {cpu:7.3f} {wall:7.3f}")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0, int(sys.argv[2]) if len(sys.argv) > 2 else 5)
