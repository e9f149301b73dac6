"""A Marinara preset's choice variables (its choice blocks, the preset's default choices and its
variable values): Marinara's assembler (packages/server/src/services/prompt/assembler.ts) puts
each choice block's chosen value (else its first option) in the variables, and its macro engine
gives a bare `{{name}}` left over the variable of that name (macro-engine.ts, the catch-all), so
render gives them and preset-verify does not call them unknown."""

from __future__ import annotations

import json

from bunzai.adapters.inspect import read_bytes
from bunzai.render.render import render
from bunzai.render.verify import verify
from test_chat_completion import block, loaded, order
from testkit import corpus_path


def _marinara(choice_blocks: list[dict], default_choices: dict, values: dict | None = None) -> dict:
    """A Marinara escrow as the adapter keeps it: nested values are JSON strings."""
    preset = {"defaultChoices": json.dumps(default_choices), "variableValues": json.dumps(values or {})}
    blocks = [
        {"multiSelect": "false", "randomPick": "false", "separator": ", "}
        | cb
        | {"options": json.dumps([{"id": str(i), "label": v, "value": v} for i, v in enumerate(cb["options"])])}
        for cb in choice_blocks
    ]
    document = {"type": "marinara_preset", "version": 1, "data": {"preset": preset, "choiceBlocks": blocks}}
    return {"format": "marinara.preset", "document": document}


def _loaded(content: str, original: dict) -> dict:
    preset = {
        "prompts": [block("main", content), block("chatHistory", marker=True)],
        "orders": [order("main", "chatHistory")],
    }
    doc = loaded(preset)
    doc["preset"]["original"] = original
    return doc


def test_a_choice_gives_the_default_choice_else_the_first_option() -> None:
    original = _marinara(
        [
            {"variableName": "pov", "options": ["first person", "second person"]},
            {"variableName": "tense", "options": ["past", "present"]},
            {"variableName": "tags", "options": ["a", "b", "c"], "multiSelect": "true", "separator": "; "},
        ],
        {"pov": "second person, as {{user}} sees it", "tags": ["b", "c"]},
        {"mood": "grim"},
    )
    doc = render(_loaded("{{pov}}|{{tense}}|{{tags}}|{{mood}}|{{user}}", original), stage="final")
    assert doc["messages"][0]["content"] == "second person, as User sees it|past|b; c|grim|User"
    assert doc["unresolved"] == []


def test_a_choice_is_a_variable_that_getvar_reads_and_setvar_changes() -> None:
    # Marinara's engine keeps one store (macro-engine.ts: getvar, setvar and the bare catch-all
    # all read ctx.variables), which the assembler fills with the choices
    original = _marinara([{"variableName": "pov", "options": ["first person", "second person"]}], {})
    text = "{{getvar::pov}}|{{setvar::pov::third person}}{{pov}}|{{getvar::pov}}"
    doc = render(_loaded(text, original), stage="final")
    assert doc["messages"][0]["content"] == "first person|third person|third person"
    assert doc["unresolved"] == []


def test_a_choice_is_set_before_the_card_fields_are_filled_and_over_a_variable_of_the_card() -> None:
    # Marinara's assembler sets its variables to the preset's values and choices before anything
    # is built, and has no other variables a card could bring (assembler.ts)
    original = _marinara([{"variableName": "pov", "options": ["first person"]}], {})
    doc = _loaded("{{description}}|{{getvar::pov}}", original)
    doc["character"]["body"]["description"] = "told in {{getvar::pov}}"
    doc["character"]["body"]["settings"] = dict(doc["character"]["body"].get("settings") or {}, variables={"pov": "x"})
    assert render(doc, stage="final")["messages"][0]["content"] == "told in first person|first person"


def test_a_choice_variable_does_not_shadow_a_macro_and_an_unknown_name_stays_unknown() -> None:
    original = _marinara([{"variableName": "user", "options": ["Nobody"]}], {})
    doc = render(_loaded("{{user}} {{nothing}}", original), stage="final")
    assert doc["messages"][0]["content"] == "User {{nothing}}"
    assert [p["token"] for p in doc["unresolved"]] == ["{{nothing}}"]


def test_a_sillytavern_preset_has_no_choice_variables() -> None:
    doc = _loaded("{{pov}}", {"format": "sillytavern.preset.chat", "document": {"defaultChoices": '{"pov": "x"}'}})
    assert [p["token"] for p in render(doc, stage="final")["unresolved"]] == ["{{pov}}"]


def test_marinaras_universal_preset_verifies_without_unknown_choice_variables() -> None:
    path = corpus_path("marinara-engine", "default-preset.marinara.json")
    piece = read_bytes(path.read_bytes(), path.name)[1].pieces[0]
    doc = loaded(piece.body.model_dump(mode="json"))
    doc["preset"]["original"] = piece.original.model_dump(mode="json")
    findings = verify(doc)["findings"]
    assert [f for f in findings if f["kind"].endswith("_macro")] == []
    role = render(doc, stage="final")["messages"][0]["content"]
    assert role.startswith("You are an excellent Game Master.") and "protagonist, User, who" in role
