"""`export --help` and `transfer --help` say that `--to` takes a platform's name as well as a
format id, and the names the help gives as examples are ones `--to` really takes; `convert`,
which has no stored piece to choose for, keeps to format ids."""

from __future__ import annotations

import re

import pytest

from bunzai.adapters.registry import all_adapters
from bunzai.cli.hot_tables import build_help


def to_help(command: str) -> str:
    """The help line of --to, its wrapping undone."""
    text = " ".join(build_help(command).split())
    found = re.search(r"--to <str> (.*?)(?= --[a-z]| -h, --help)", text)
    assert found, text
    return found.group(1)


@pytest.mark.parametrize("command", ["export", "transfer"])
def test_the_help_of_to_names_platforms_that_to_takes(bunzai, command: str) -> None:
    words = to_help(command)
    assert "format id" in words and "platform" in words
    named = re.search(r"\(e\.g\. ([a-z, ]+)\)", words)
    assert named, words
    platforms = [name.strip() for name in named.group(1).split(",")]
    platform_names = {a.format_id: (a.format_id.split(".")[0], a.engine) for a in all_adapters()}
    assert set(platforms) <= {name for names in platform_names.values() for name in names}
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    for platform in platforms:
        answer = bunzai("transfer", "ada", "--to", platform)
        if answer.code == 0:  # the platform's one format for a character
            assert platform in platform_names[answer.json["format"]], answer.json
        else:  # several: the refusal lists them, all the platform's
            error = answer.json["error"]
            assert error["code"] == "unknown_format" and error["details"]["choices"], error


def test_convert_keeps_to_format_ids() -> None:
    assert "platform" not in to_help("convert")
