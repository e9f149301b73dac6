"""A rule with no flags (SillyTavern's bare pattern: the first match only, case-sensitive) runs in
RisuAI as it ran: RisuAI compiles an empty flag as `g`, so it is written `d`, which matches alike."""

from __future__ import annotations

import json
import re

import pytest
from st_side_formats_support import read_json, round_trip, st_regex_script, undeclared

SCRIPT = st_regex_script(scriptName="Fix name", replaceString="Bob")


def _risu_compiled_flags(script: dict) -> str:
    """The flags RisuAI's processScriptFull compiles a script with (scripts.ts)."""
    flag = script.get("flag") if script.get("ableFlag") else None
    if flag and "<" in flag:
        flag = re.sub(r"<(.+?)>", "", flag)
    flag = flag or "g"
    kept = "".join(dict.fromkeys(re.sub(r"[^dgimsuvy]", "", flag.strip())))
    return kept or "u"


@pytest.mark.parametrize(
    ("find", "compiled"),
    [("Alice", "d"), ("/Alice/", "d"), ("/Alice/i", "i"), ("/Alice/g", "g"), ("/Alice/gi", "gi")],
)
def test_the_flags_risuai_compiles_are_the_flags_sillytavern_read(find, compiled):
    piece = read_json(dict(SCRIPT, findRegex=find), "Fix name.json").pieces[0]
    crossing = round_trip(piece, "risu.regex")
    script = json.loads(crossing.data)["data"][0]
    assert _risu_compiled_flags(script) == compiled
    assert ("g" in _risu_compiled_flags(script)) == ("g" in piece.body.rules[0].flags)
    assert undeclared(crossing) == []


def test_an_empty_flag_keeps_its_tokens():
    piece = read_json(dict(SCRIPT, findRegex="Alice", substituteRegex=1), "Fix name.json").pieces[0]
    script = json.loads(round_trip(piece, "risu.regex").data)["data"][0]
    assert (script["flag"], script["ableFlag"]) == ("d<cbs>", True)
