"""`bunzai mcp`: time from starting the server to its initialize response, and a studio_read round trip.

Run with `make bench` (or `.venv/bin/python bench/mcp_start.py [RUNS]`). Compiles bunzai's
bytecode first (as an installed wheel has it), then, RUNS times, starts `bunzai mcp STUDIO`,
sends `initialize` and waits for the answer (start-up), then sends `notifications/initialized`
and one `tools/call studio_read` and waits for its answer (the first call pays for importing
the tools; a second, warm call is timed too). Prints medians in milliseconds, and the start-up
next to `python -c pass` started the same way. Goal (issue 14): initialize answered under 0.3 s.
"""

from __future__ import annotations

import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 15


def _frame(proc, message: dict) -> None:
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def one_run(command: list[str], env: dict) -> tuple[float, float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    _frame(
        proc,
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        },
    )
    assert json.loads(proc.stdout.readline())["id"] == 1
    started = time.perf_counter() - start
    _frame(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    times = []
    for request_id in (2, 3):
        before = time.perf_counter()
        _frame(
            proc,
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "method": "tools/call",
                "params": {"name": "studio_read", "arguments": {"ref": "character/ada-lovelace"}},
            },
        )
        answer = json.loads(proc.stdout.readline())
        assert answer["id"] == request_id and not answer["result"]["isError"], answer
        times.append(time.perf_counter() - before)
    proc.stdin.close()
    proc.wait()
    return started, times[0], times[1]


def python_pass(env: dict) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
    return time.perf_counter() - start


def main(runs: int) -> None:
    import bunzai

    compileall.compile_dir(Path(bunzai.__file__).parent, quiet=1)
    bunzai_cmd = str(Path(sys.executable).with_name("bunzai"))
    with tempfile.TemporaryDirectory() as tmp:
        studio = str(Path(tmp) / "studio")
        env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")} | {"HOME": tmp}
        subprocess.run([bunzai_cmd, "init", studio], env=env, check=True, stdout=subprocess.DEVNULL)
        draft = subprocess.run(
            [
                bunzai_cmd,
                "--studio",
                studio,
                "create",
                "character",
                "--input",
                '{"name": "Ada Lovelace", "description": "Writes the first program."}',
            ],
            env=env,
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(
            [bunzai_cmd, "--studio", studio, "apply", "--yes"],
            input=draft,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        starts, firsts, warms, passes = [], [], [], []
        for _ in range(runs):  # interleaved, so a noisy neighbour slows both alike
            started, first, warm = one_run([bunzai_cmd, "mcp", studio], env)
            starts.append(started)
            firsts.append(first)
            warms.append(warm)
            passes.append(python_pass(env))
    base = statistics.median(passes)
    rows = [
        ("python -c pass", base),
        ("bunzai mcp: start to initialize answer", statistics.median(starts)),
        ("studio_read round trip, first call", statistics.median(firsts)),
        ("studio_read round trip, warm", statistics.median(warms)),
    ]
    print(f"bunzai mcp, median of {runs} runs (wall time)")
    print(f"{'case':<42} {'ms':>8} {'x python -c pass':>18}")
    for name, value in rows:
        print(f"{name:<42} {value * 1000:8.1f} {value / base:18.2f}")
    goal = statistics.median(starts)
    print(f"goal: initialize answered under 300 ms: {'met' if goal < 0.3 else 'NOT met'} ({goal * 1000:.0f} ms)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else RUNS)
