"""A draft's impact names why a format refuses the piece, as the export to it would.

A chat-completion preset's draft used to list "sillytavern.context cannot write this piece"
(and the same for the other template formats): the catch-all of a crossing that raised. A
context template keeps nothing of a chat-completion preset, and the writer refuses it with
that reason and the formats that do keep it; the impact row now says so, in the words
`transfer` and `export` print. A file that does not read back is still named as before.
"""

from __future__ import annotations

import json

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import platform_impact
from bunzai.model import dump_piece
from testkit import corpus_path

REFUSED = "refused (unsupported): {fmt} ({label}) keeps nothing of {family} preset"


def corpus_piece(*parts: str) -> dict:
    path = corpus_path(*parts)
    return dump_piece(read_bytes(path.read_bytes(), path.name)[1].pieces[0])


def notes(impact: list[dict]) -> dict[str, str]:
    return {row["platform"]: row["note"] for row in impact if row["pointer"] == ""}


def test_a_chat_preset_draft_says_why_a_context_template_refuses_it():
    before = corpus_piece("sillytavern", "presets", "openai", "Default.json")
    after = json.loads(json.dumps(before))
    after["body"]["description"] = "For GPT"
    found = notes(platform_impact(before, after))
    context = REFUSED.format(
        fmt="sillytavern.context", label="SillyTavern context template", family="a chat completion"
    )
    assert found["sillytavern.context"].startswith(context)
    assert found["sillytavern.context"].endswith(
        "write a chat completion preset as marinara.preset or risu.preset or sillytavern.preset.chat; "
        "bunzai.native keeps every field"
    )
    for fmt in ("sillytavern.instruct", "sillytavern.sysprompt", "sillytavern.reasoning"):
        assert found[fmt].startswith(f"refused (unsupported): {fmt} ("), found[fmt]


def test_a_template_draft_names_marinaras_refusal_and_the_formats_that_keep_it():
    before = corpus_piece("sillytavern", "presets", "instruct", "ChatML.json")
    after = json.loads(json.dumps(before))
    after["body"]["templates"]["sequences"]["input_sequence"] = "<|im_start|>user\n"
    found = notes(platform_impact(before, after))
    marinara = REFUSED.format(fmt="marinara.preset", label="Marinara Engine preset", family="an instruct")
    assert found["marinara.preset"].startswith(marinara) and "as sillytavern.instruct;" in found["marinara.preset"]
    assert found["sillytavern.preset.chat"].startswith("refused (unsupported): sillytavern.preset.chat (")


def test_cap_run_prints_the_refusal_in_the_drafts_impact(bunzai):
    source = corpus_path("sillytavern", "presets", "openai", "Default.json")
    bunzai("apply", "--yes", input=bunzai("import", str(source), check=True).stdout, check=True)
    draft = bunzai(
        "cap", "run", "preset.settings.update", "default", "--input", '{"description": "For GPT"}', check=True
    )
    found = notes(draft.json["impact"])
    assert "keeps nothing of a chat completion preset" in found["sillytavern.context"]
    assert not [note for note in found.values() if note.endswith("cannot write this piece")]
