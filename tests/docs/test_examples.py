"""Every `console` example in docs/ and the README runs, in a fresh studio, and prints what the page says.

A page is one scenario: its examples run in order in one studio. A line `$ command` is run
with bash; a trailing `# exits N` says the exit status it must have (else 0). The lines after
a command, up to the next command, are its expected output: JSON (one document, or JSON
lines) is compared as a subset — the output may have more keys, and the string "…" stands
for any value — and anything else must match exactly. `$CORPUS` in a command is the
shared corpus beside the checkout; a page that uses it is skipped where it is absent.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"  # examples refer to it as $CORPUS
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md")) + [ROOT / "README.md"]
_BLOCK = re.compile(r"```console\n(.*?)```", re.S)
_EXIT = re.compile(r"#\s*exits\s+(\d+)\s*$")


def examples(page: Path) -> list[tuple[str, int, str]]:
    steps = []
    for block in _BLOCK.findall(page.read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith("$ "):
                command = line[2:]
                match = _EXIT.search(command)
                steps.append([command, int(match.group(1)) if match else 0, []])
            elif steps:
                steps[-1][2].append(line)
    return [(cmd, code, "\n".join(out).strip()) for cmd, code, out in steps]


def matches(expected, actual) -> bool:
    if expected == "…":
        return True
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(map(matches, expected, actual))
    return expected == actual


def parse_json_output(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("page", [p for p in PAGES if examples(p)], ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples_run_as_documented(page: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("BUNZAI_")}
    if "$CORPUS" in page.read_text(encoding="utf-8") and not CORPUS.is_dir():
        pytest.skip(f"{page.name} uses the corpus, and {CORPUS} is absent")
    env.update(
        HOME=str(home),
        BUNZAI_STUDIO=str(tmp_path / "studio"),
        CORPUS=str(CORPUS),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
    )
    subprocess.run(["bunzai", "init", env["BUNZAI_STUDIO"]], env=env, check=True, capture_output=True)
    for command, want_code, want_out in examples(page):
        proc = subprocess.run(
            ["bash", "-c", command],
            env=env,
            cwd=work,
            capture_output=True,
            text=True,
            start_new_session=True,
            timeout=60,
        )
        assert proc.returncode == want_code, (
            f"{page.name}: `{command}` exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
        )
        if not want_out:
            continue
        if want_out[:1] in "{[":
            assert matches(parse_json_output(want_out), parse_json_output(proc.stdout)), (
                f"{page.name}: `{command}` printed\n{proc.stdout}\nwhich does not match\n{want_out}"
            )
        else:
            assert proc.stdout.strip() == want_out, f"{page.name}: `{command}` printed {proc.stdout!r}"
