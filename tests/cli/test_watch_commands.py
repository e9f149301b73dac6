"""`bunzai changes`, `wait` and `revert` end to end: separate processes with their own
BUNZAI_SESSION, as two agents (or an agent and a person) sharing one studio."""

from __future__ import annotations

import json
import subprocess
import time

from testkit import bunzai_executable, v2_card_png


def run(bunzai, session: str, *args: str, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        bunzai_executable() + list(args),
        input=input,
        capture_output=True,
        text=True,
        env=bunzai.env() | {"BUNZAI_SESSION": session},
        cwd=bunzai.cwd,
        timeout=60,
        start_new_session=True,
    )


def applied(bunzai, session: str, *draft_args: str) -> dict:
    draft = run(bunzai, session, *draft_args)
    assert draft.returncode == 0, draft.stdout + draft.stderr
    done = run(bunzai, session, "apply", "--yes", input=draft.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def rename(bunzai, session: str, ref: str, name: str) -> dict:
    return applied(
        bunzai, session, "cap", "run", "character.identity.update", ref, "--input", json.dumps({"name": name})
    )


def name_of(bunzai, ref: str) -> str:
    return json.loads(bunzai("read", ref, check=True).stdout)["piece"]["name"]


def test_two_sessions_watch_wait_and_revert(bunzai) -> None:
    applied(bunzai, "person", "create", "character", "--input", '{"name": "Ada"}')  # 1
    applied(bunzai, "person", "create", "character", "--input", '{"name": "Bob"}')  # 2
    first = json.loads(run(bunzai, "agent", "changes").stdout)
    assert first["basis"] == "first-read" and first["head"] == 2 and first["items"] == []

    rename(bunzai, "agent", "ada", "Ada (agent)")  # 3
    rename(bunzai, "agent", "bob", "Bob (agent)")  # 4
    waiter = subprocess.Popen(
        bunzai_executable() + ["wait", "--changed-since", "4", "--timeout", "55"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=bunzai.env() | {"BUNZAI_SESSION": "agent"},
        start_new_session=True,
    )
    try:
        time.sleep(1.0)
        assert waiter.poll() is None, "wait answered before anything changed"
        rename(bunzai, "person", "bob", "Bob (person)")  # 5
        out, err = waiter.communicate(timeout=60)
    finally:
        if waiter.poll() is None:
            waiter.kill()
    assert waiter.returncode == 0, err
    woke = json.loads(out)
    assert woke["met"] is True and woke["change"]["seq"] == 5 and woke["change"]["session"] == "person"

    seen = json.loads(run(bunzai, "agent", "changes").stdout)
    assert seen["basis"] == "since-cursor"
    rows = [(c["seq"], c["session"], c["mine"]) for c in seen["items"]]
    assert rows == [(3, "agent", True), (4, "agent", True), (5, "person", False)]

    undone = run(bunzai, "agent", "revert", "--session", "agent")
    assert undone.returncode == 1, undone.stdout  # one change could not be undone
    doc = json.loads(undone.stdout)
    rows = {row["seq"]: row for row in doc["changes"]}
    assert rows[3]["status"] == "reverted"
    assert rows[4]["status"] == "forbidden" and rows[4]["code"] == "revert_forbidden"
    assert rows[4]["by"] == {"session": "person", "seq": 5}
    assert name_of(bunzai, "ada") == "Ada" and name_of(bunzai, "bob") == "Bob (person)"

    # a restarted process with the same session id continues from its cursor
    again = json.loads(run(bunzai, "agent", "changes").stdout)
    assert again["basis"] == "since-cursor" and again["since"] == 5
    assert [(c["seq"], c.get("revert_of")) for c in again["items"]] == [(6, 3)]


def test_wait_times_out_with_an_answer_and_refuses_bad_conditions(bunzai) -> None:
    done = run(bunzai, "agent", "wait", "--piece-exists", "character/nobody", "--timeout", "0.2")
    assert done.returncode == 0 and json.loads(done.stdout)["met"] is False
    for args in (
        ["wait"],
        ["wait", "--changed-since", "0", "--piece-exists", "x"],
        ["wait", "--changed-since", "0", "--timeout", "99"],
        ["wait", "--revision-changed", "ada@1"],
    ):
        refused = run(bunzai, "agent", *args)
        assert refused.returncode == 1 and json.loads(refused.stdout)["error"]["code"] == "invalid_input", args


def test_revert_needs_a_session(bunzai) -> None:
    done = bunzai("revert")
    assert done.code == 2 and done.json["error"]["code"] == "usage"
    nothing = run(bunzai, "agent", "revert")
    assert nothing.returncode == 0 and json.loads(nothing.stdout)["changes"] == []


def test_doctor_repair_keeps_the_media_revert_puts_back(bunzai) -> None:
    (bunzai.cwd / "red.png").write_bytes(v2_card_png("Red", seed=1))
    (bunzai.cwd / "blue.png").write_bytes(v2_card_png("Blue", seed=2))
    applied(bunzai, "agent", "create", "character", "--input", '{"name": "Pix", "portrait": "@red.png"}')
    red = json.loads(bunzai("read", "character/pix", check=True).stdout)["piece"]["body"]["portrait"]
    applied(bunzai, "agent", "cap", "run", "character.media.update", "pix", "--input", '{"portrait": "@blue.png"}')
    assert bunzai("doctor", check=True).json["clean"] is True  # the red portrait is history's, not an orphan
    repaired = bunzai("doctor", "--repair", check=True).json
    assert repaired["repaired"] == [] and repaired["assets"] == 2
    undone = run(bunzai, "agent", "revert", "--session", "agent")
    assert undone.returncode == 0, undone.stdout
    assert [row["status"] for row in json.loads(undone.stdout)["changes"]] == ["reverted", "reverted"]
    assert (bunzai.studio / "assets" / f"{red['sha256']}.{red['ext']}").read_bytes() == (
        bunzai.cwd / "red.png"
    ).read_bytes()


def test_a_session_label_revert_could_not_take_is_refused_before_any_write(bunzai) -> None:
    draft = run(bunzai, "person", "create", "persona", "--input", '{"name": "Agent Made"}').stdout
    for label in ("claude code", "claude:main", "agent/1"):
        for args, done in (
            (("apply", "--yes"), run(bunzai, label, "apply", "--yes", input=draft)),
            (("revert",), run(bunzai, label, "revert")),
            (("mcp",), run(bunzai, label, "mcp", input="")),
        ):
            assert done.returncode == 1, (label, args, done.stdout, done.stderr)
            assert f"BUNZAI_SESSION={label!r} is not a session id" in done.stderr, done.stderr
            if args[0] != "mcp":  # the server's stdout is the client's: its refusal is on stderr alone
                assert json.loads(done.stdout)["error"]["code"] == "invalid_input"
    assert not (bunzai.studio / ".bunzai" / "changes.jsonl").exists()
    assert json.loads(bunzai("list", check=True).stdout)["items"] == []
    # a session id the log takes is one revert takes
    assert json.loads(run(bunzai, "claude-code.1", "apply", "--yes", input=draft).stdout)["status"] == "applied"
    undone = run(bunzai, "claude-code.1", "revert")
    assert undone.returncode == 0 and json.loads(undone.stdout)["reverted"] == 1
