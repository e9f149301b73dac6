"""The spacer a SillyTavern replacement gets for RisuAI (a literal `$n`) is a macro SillyTavern
knows: the crossing translates it to RisuAI's {{blank}}, and its macro report calls nothing
bunzai wrote unknown."""

from __future__ import annotations

import json

from bunzai.macros.translate import translate_text
from bunzai.regexlab import engine
from bunzai.regexlab.replacement import Captures, translate

ST_RULES = [{"scriptName": "Price", "findRegex": "/(\\d+) coins/g", "replaceString": "cost: $n $1", "placement": [2]}]


def _drawn(replacement: str, convention: str) -> str:
    request = {
        "op": "replace",
        "pattern": "(\\d+) coins",
        "flags": "g",
        "text": "5 coins",
        "replacement": replacement,
        "convention": convention,
        "trims": [],
        "macros": {},
        "substitute": "none",
        "noEndNewline": False,
    }
    return engine.call(request)["result"]


def test_the_spacer_is_a_sillytavern_macro_the_translation_knows() -> None:
    carried = translate("cost: $n $1", "sillytavern", "risuai", Captures(1, False))
    macros = translate_text(carried.text, "sillytavern", "risuai")
    assert [v["verdict"] for v in macros.verdicts] == ["portable"]
    assert macros.text == "cost: $${{blank}}n $01"
    assert _drawn(macros.text, "risuai") == _drawn("cost: $n $1", "sillytavern") == "cost: $n 5"


def test_a_converted_file_reports_no_unknown_macro_and_draws_dollar_n(bunzai, tmp_path) -> None:
    source = tmp_path / "st.json"
    source.write_text(json.dumps(ST_RULES), encoding="utf-8")
    out = tmp_path / "risu.json"
    report = bunzai("convert", str(source), "--to", "risu.regex", "-o", str(out), check=True).json
    assert report["macros"]["counts"]["unknown"] == 0
    assert [(v["token"], v["to"]) for v in report["macros"]["verdicts"]] == [("{{noop}}", "{{blank}}")]
    written = json.loads(out.read_text(encoding="utf-8"))["data"][0]["out"]
    assert written == "cost: $${{blank}}n $01" and _drawn(written, "risuai") == "cost: $n 5"


def test_a_set_made_in_bunzai_reaches_risuai_with_its_spacer_translated() -> None:
    from bunzai.adapters.registry import get_adapter
    from bunzai.convert import _translated
    from bunzai.validate import validate_piece

    made = validate_piece(
        {
            "kind": "regex",
            "id": "made",
            "name": "made",
            "body": {
                "rules": [{"name": "Price", "pattern": "(\\d+) coins", "flags": "g", "replacement": "cost: $n $1"}]
            },
        }
    )
    crossed, report, _ = _translated(made, get_adapter("risu.regex"), None)
    assert crossed.body.rules[0].replacement == "cost: $${{blank}}n $01"  # no source engine: read as SillyTavern's
    assert report is not None and report["counts"]["unknown"] == 0
