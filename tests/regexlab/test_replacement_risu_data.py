"""RisuAI's `{{data}}` in OUT is the whole match (scripts.ts turns it into `$&` before the
replace): crossing to SillyTavern it becomes `{{match}}`, and draws the same text."""

from __future__ import annotations

import json

from bunzai.regexlab import engine
from bunzai.regexlab.replacement import captures, translate

PATTERN, TEXT = r"\*(\w+)\*", "hi *waves* and *nods*"


def _drawn(replacement: str, convention: str) -> str:
    request = {
        "op": "replace",
        "pattern": PATTERN,
        "flags": "g",
        "text": TEXT,
        "replacement": replacement,
        "convention": convention,
        "trims": [],
        "macros": {},
        "substitute": "none",
        "noEndNewline": True,
    }
    return engine.call(request)["result"]


def test_risu_data_macro_reaches_sillytavern_as_the_whole_match() -> None:
    out = "<b>{{data}}</b>7 ($1)"
    carried = translate(out, "risuai", "sillytavern", captures(PATTERN), no_end_newline=True)
    assert carried.text == "<b>{{match}}</b>7 ($1)"
    # RisuAI's own first step, spelled out: {{data}} is $& before JavaScript's replace
    assert _drawn(carried.text, "sillytavern") == _drawn(out.replace("{{data}}", "$&"), "risuai")
    assert [v["token"] for v in carried.verdicts] == ["{{data}}"]


def test_a_data_macro_before_a_digit_stays_the_match_alone() -> None:
    carried = translate("{{data}}5", "risuai", "sillytavern", captures(PATTERN))
    assert carried.text == "{{match}}{{noop}}5"


def test_risu_export_with_data_converts_to_a_sillytavern_script(bunzai, tmp_path) -> None:
    source = tmp_path / "regexscript_export.json"
    script = {"comment": "wrap", "in": PATTERN, "out": "[{{data}}]", "type": "editdisplay"}
    source.write_text(json.dumps({"type": "regex", "data": [script]}))
    target = tmp_path / "st.json"
    bunzai("convert", str(source), "--to", "sillytavern.regex", "-o", str(target), check=True)
    assert json.loads(target.read_text())["replaceString"] == "[{{match}}]"
