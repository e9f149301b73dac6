"""Input piped in through a non-blocking stdin is read whole (bunzai.files.read_some).

A parent may leave O_NONBLOCK on the pipe it hands over as stdin. Reading it before the
writer has written raised BlockingIOError (an internal error), and Python's buffered stdin
returned None or only the part written so far: `create --input -` failed, `import -` and
`convert -` failed, and a draft `apply` met in the middle of a line stopped the stream.
"""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest
from testkit import bunzai_executable, corpus_path, v2_card_png


def run_with_slow_non_blocking_stdin(bunzai, args: list[str], data: bytes) -> subprocess.CompletedProcess:
    """Run `bunzai ARGS` with stdin a non-blocking pipe that gets `data` in two halves, the
    first after the command has started and the second a moment later."""
    reading, writing = os.pipe()
    os.set_blocking(reading, False)
    try:
        proc = subprocess.Popen(
            bunzai_executable() + args,
            stdin=reading,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=bunzai.env(),
            cwd=bunzai.cwd,
            start_new_session=True,
        )
    finally:
        os.close(reading)
    half = len(data) // 2
    try:
        # Pauses, not assertions on time: the command reaches its read before the input does.
        time.sleep(0.4)
        os.write(writing, data[:half])
        time.sleep(0.3)
        os.write(writing, data[half:])
    except BrokenPipeError:  # the command stopped reading: its output says why
        pass
    finally:
        os.close(writing)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out.decode("utf-8"), err.decode("utf-8"))


def test_create_input_from_a_non_blocking_stdin(bunzai):
    done = run_with_slow_non_blocking_stdin(bunzai, ["create", "character", "--input", "-"], b'{"name": "Ada"}')
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["proposed"]["name"] == "Ada"


def test_import_of_a_card_from_a_non_blocking_stdin(bunzai):
    card = v2_card_png("Keeper", description="The keeper of the light. " * 40)
    done = run_with_slow_non_blocking_stdin(bunzai, ["import", "-"], card)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["proposed"]["name"] == "Keeper"


def test_convert_from_a_non_blocking_stdin(bunzai, tmp_path):
    preset = corpus_path("sillytavern", "presets", "openai", "Default.json").read_bytes()
    out = tmp_path / "preset.json"
    args = ["convert", "-", "--to", "sillytavern.preset.chat", "-o", str(out)]
    done = run_with_slow_non_blocking_stdin(bunzai, args, preset)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(out.read_bytes())["prompts"] == json.loads(preset)["prompts"]


@pytest.mark.parametrize("command", [["macro", "translate", "-", "--from", "sillytavern", "--to", "risuai"]])
def test_text_from_a_non_blocking_stdin(bunzai, command):
    done = run_with_slow_non_blocking_stdin(bunzai, command, b"Hello {{user}}, I am {{char}}.")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["text"] == "Hello {{user}}, I am {{char}}."


def test_apply_of_drafts_cut_mid_line_from_a_non_blocking_stdin(bunzai):
    drafts = "".join(
        bunzai("create", "character", "--input", json.dumps({"name": name}), check=True).stdout
        for name in ("Ada", "Grace", "Hedy")
    )
    done = run_with_slow_non_blocking_stdin(bunzai, ["apply", "--yes"], drafts.encode())
    assert done.returncode == 0, done.stdout + done.stderr
    receipts = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["target"]["id"] for r in receipts if r["status"] == "applied"] == ["ada", "grace", "hedy"]
