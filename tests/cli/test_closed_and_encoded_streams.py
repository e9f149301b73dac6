"""Standard streams bunzai starts with closed, or encoding other than UTF-8 (bunzai.cli.stdio).

A closed stdout made every answer an AttributeError with a traceback, a closed stdin made
`--input -` an internal error, and PYTHONIOENCODING=ascii (or latin-1) turned any answer
holding a name like 雪乃 into an internal error. Now a closed descriptor is opened on the null
device, and JSON goes out as the same JSON in ASCII.
"""

from __future__ import annotations

import json
import os
import subprocess

from testkit import bunzai_executable

NAME = "雪乃 Ōkami"


def run_with(bunzai, args: list[str], *, close: tuple[int, ...] = (), env: dict | None = None, input: bytes = b""):
    """Run `bunzai ARGS` with the standard descriptors in `close` closed before it starts."""

    def closing() -> None:
        for fd in close:
            os.close(fd)

    return subprocess.run(
        bunzai_executable() + args,
        input=None if 0 in close else input,
        capture_output=False,
        stdout=None if 1 in close else subprocess.PIPE,
        stderr=None if 2 in close else subprocess.PIPE,
        env=bunzai.env() | (env or {}),
        cwd=bunzai.cwd,
        preexec_fn=closing,
        timeout=120,
    )


def stored_ada(bunzai) -> str:
    drafts = bunzai("create", "character", "--input", json.dumps({"name": NAME}), check=True).stdout
    return bunzai("apply", "--yes", input=drafts, check=True).json["target"]["id"]


def test_apply_with_stdout_closed_writes_and_ends_as_it_would(bunzai):
    drafts = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    done = run_with(bunzai, ["apply", "--yes"], close=(1,), input=drafts.encode())
    assert (done.returncode, done.stderr.decode()) == (0, "")
    assert bunzai("read", "character/ada", "--pointer", "/name", check=True).json["value"] == "Ada"


def test_an_answer_and_an_error_into_a_closed_stdout(bunzai):
    stored_ada(bunzai)
    for args, status in ((["read", "character/xuenai-" + "x"], 1), (["list"], 0), (["formats"], 0)):
        done = run_with(bunzai, args, close=(1,))
        assert done.returncode == status, args
        assert "Traceback" not in done.stderr.decode(), args


def test_input_from_a_closed_stdin_is_empty_input_not_a_fault(bunzai):
    done = run_with(bunzai, ["create", "character", "--input", "-"], close=(0,))
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["code"] == "invalid_json"


def test_json_answers_in_ascii_where_stdout_is_not_utf8(bunzai):
    piece_id = stored_ada(bunzai)
    for encoding in ("ascii", "latin-1"):
        env = {"PYTHONIOENCODING": encoding}
        for args in (["read", f"character/{piece_id}"], ["list"], ["search", "Okami"], ["list", "--nl"]):
            done = run_with(bunzai, args, env=env)
            assert done.returncode == 0, (args, done.stderr)
            assert done.stdout.isascii(), args
            expected = bunzai(*args, check=True).stdout
            assert [json.loads(line) for line in done.stdout.splitlines()] == [
                json.loads(line) for line in expected.splitlines()
            ], args
        made = run_with(
            bunzai, ["create", "character", "--input", "-"], env=env, input=f'{{"name": "{NAME}"}}'.encode()
        )
        assert made.returncode == 0 and json.loads(made.stdout)["proposed"]["name"] == NAME


def test_a_table_where_stdout_is_ascii_escapes_what_it_cannot_hold(bunzai):
    stored_ada(bunzai)
    done = run_with(bunzai, ["list", "--table"], env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert "\\u96ea\\u4e43" in done.stdout.decode("ascii")


def test_a_review_card_where_stdout_is_ascii_escapes_what_it_cannot_hold(bunzai):
    draft = bunzai("create", "character", "--input", json.dumps({"name": NAME}), check=True).stdout
    done = run_with(bunzai, ["draft", "show", "--text"], env={"PYTHONIOENCODING": "ascii"}, input=draft.encode())
    assert done.returncode == 0, done.stderr
    assert done.stdout.isascii() and "\\u96ea\\u4e43" in done.stdout.decode("ascii")
