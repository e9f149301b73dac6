"""A format that is YAML alone, named with --format, reads YAML whatever the input's name:
standard input, a file without a suffix, one named .txt (they were parsed as JSON and refused)."""

from __future__ import annotations

import json

import pytest

YAML = "name: Bob\ncontext: Bob keeps bees.\ngreeting: Hello there.\n"


@pytest.mark.parametrize("name", ["-", "noext", "bob.txt"])
def test_convert_with_the_yaml_format_named_reads_yaml(bunzai, tmp_path, name) -> None:
    source = "-" if name == "-" else str(tmp_path / name)
    if name != "-":
        (tmp_path / name).write_text(YAML)
    args = ("convert", source, "--format", "textgen.character.yaml", "--to", "ccv3.json", "-o", "-")
    done = bunzai(*args, input=YAML if name == "-" else None)
    assert done.code == 0, done.stderr
    card = json.loads(done.stdout.split("\n}\n", 1)[0] + "\n}")
    assert card["data"]["name"] == "Bob" and card["data"]["first_mes"] == "Hello there."


def test_import_from_standard_input_with_the_yaml_format_named(bunzai) -> None:
    draft = bunzai("import", "-", "--format", "textgen.character.yaml", input=YAML, check=True).lines[0]
    assert draft["proposed"]["name"] == "Bob"
    assert draft["proposed"]["body"]["description"] == "Bob keeps bees."


def test_bad_yaml_is_said_to_be_yaml(bunzai, tmp_path) -> None:
    out = str(tmp_path / "out.json")
    done = bunzai(
        "convert", "-", "--format", "textgen.character.yaml", "--to", "ccv3.json", "-o", out, input=": : bad\n  - x"
    )
    assert done.code == 1 and "is not valid YAML" in done.json["error"]["message"]
