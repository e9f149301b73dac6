"""docs/commands/regex-from-drawing.md: every example names the platform whose replacement
syntax it writes, and a pattern spelled as that platform stores it (a `$` in a drawing means
something else on each)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "commands" / "regex-from-drawing.md"


def _drawing_commands() -> list[list[str]]:
    commands = []
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("$ bunzai regex-from-drawing "):
            commands.append(shlex.split(line[2:].split("|")[0].split("   #")[0]))
    return commands


def test_every_drawing_example_names_its_platform_and_spells_the_pattern_for_it() -> None:
    commands = _drawing_commands()
    assert len(commands) >= 4
    platforms = set()
    for words in commands:
        assert "--platform" in words, words
        platform = words[words.index("--platform") + 1]
        pattern = words[words.index("--pattern") + 1]
        platforms.add(platform)
        # RisuAI stores IN bare; SillyTavern reads findRegex as /pattern/flags
        assert (platform == "risuai") == (not re.fullmatch(r"/.+/[a-z]*", pattern)), words
        assert platform in ("risuai", "sillytavern"), words
    assert platforms == {"risuai", "sillytavern"}
