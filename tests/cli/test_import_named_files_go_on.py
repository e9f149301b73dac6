"""Files named on the command line are each read: one that cannot be read is reported in the
stream, and the files named after it are still imported (as a folder walk goes on)."""

from __future__ import annotations

import json

WORLD = {"entries": {"0": {"uid": 0, "key": ["gate"], "content": "The old gate.", "comment": "Gate"}}}


def _lines(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def test_a_bad_file_among_named_files_stops_none_of_the_others(bunzai, tmp_path):
    (tmp_path / "notes.png").write_text("not a picture at all")
    (tmp_path / "Gate.json").write_text(json.dumps(WORLD))
    (tmp_path / "missing.json").unlink(missing_ok=True)
    names = ["notes.png", "missing.json", "Gate.json"]
    result = bunzai("import", *(str(tmp_path / name) for name in names))
    assert result.code == 1
    lines = _lines(result.stdout)
    errors = [line["error"] for line in lines if "error" in line]
    assert [(e["code"], e["details"]["path"]) for e in errors] == [
        ("unrecognized_file", str(tmp_path / "notes.png")),
        ("not_found", str(tmp_path / "missing.json")),
    ]
    [draft] = [line for line in lines if line.get("type") == "bunzai.draft"]
    assert draft["target"] == {"kind": "lorebook", "id": "gate"}
    applied = bunzai("apply", "--yes", input=result.stdout)
    assert applied.code == 1  # the errors are passed on, the draft is applied
    assert bunzai("read", "lorebook/gate", check=True).json["piece"]["name"] == "Gate"


def test_a_format_that_does_not_exist_is_the_commands_error(bunzai, tmp_path):
    (tmp_path / "Gate.json").write_text(json.dumps(WORLD))
    result = bunzai("import", "--format", "nope", str(tmp_path / "Gate.json"), str(tmp_path / "Gate.json"))
    assert result.code == 1
    assert [line["error"]["code"] for line in _lines(result.stdout)] == ["unknown_format"]


def test_an_unknown_format_is_refused_before_any_file_is_read(bunzai, tmp_path):
    result = bunzai("import", "--format", "nope", str(tmp_path / "missing.json"))
    assert result.code == 1
    assert [line["error"]["code"] for line in _lines(result.stdout)] == ["unknown_format"]
