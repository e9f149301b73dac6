"""Chat-completion assembly as SillyTavern's prompt manager does it (public/scripts/openai.js,
PromptManager.js): every enabled in-chat block is injected wherever the order places it;
injections at one depth come in populationInjectionPrompts' order, one message per injection
order and role; a preset with no prompt order gets SillyTavern's default order and default
markers; preset-verify reads the same prompt manager as render."""

from __future__ import annotations

import copy
import json

from bunzai.adapters.inspect import read_bytes
from bunzai.render.chat_completion import Inputs, assemble, join_injections, prompt_manager
from bunzai.render.render import render
from bunzai.render.verify import verify
from testkit import corpus_path

CHAT = [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "hi there"}]
CARD = {"description": "A healer of the glade."}


def block(identifier: str, content: str = "", *, marker: bool = False, **extra) -> dict:
    """A canonical prompt block (the shape bunzai stores)."""
    base = {
        "identifier": identifier,
        "name": identifier,
        "system_prompt": False,
        "role": "system",
        "content": content,
        "marker": marker,
        "position": "relative",
        "depth": 4,
        "injection_order": 100,
        "triggers": [],
        "forbid_overrides": False,
        "enabled": True,
    }
    return base | extra


def in_chat(identifier: str, content: str, *, role: str = "system", depth: int = 0, order: int = 100) -> dict:
    return block(identifier, content, role=role, position="absolute", depth=depth, injection_order=order)


def order(*identifiers: str, disabled: tuple[str, ...] = (), target: str = "global") -> dict:
    return {"target": target, "items": [{"identifier": i, "enabled": i not in disabled} for i in identifiers]}


def loaded(
    preset: dict, *, card: dict | None = None, chat: list[dict] | None = None, persona: dict | None = None
) -> dict:
    """What render.gather returns, built in memory."""
    return {
        "preset_id": "p",
        "preset": {"name": "P", "body": preset},
        "character_id": "c",
        "character": {"name": "Sera", "body": card or dict(CARD)},
        "persona_id": "ada" if persona else None,
        "persona": {"name": "Ada", "body": persona} if persona else None,
        "books": [],
        "regex": [],
        "chat": list(CHAT if chat is None else chat),
        "templates": {},
    }


def final(preset: dict, **kwargs) -> list[dict]:
    return render(loaded(preset, **kwargs), stage="final")["messages"]


def test_in_chat_blocks_after_the_chat_history_are_injected() -> None:
    preset = {
        "prompts": [
            block("main", "Main."),
            block("chatHistory", marker=True),
            in_chat("late", "LATE", depth=0),
            in_chat("mid", "MID", role="user", depth=1),
            in_chat("off", "OFF", depth=0),
            in_chat("orphan", "ORPHAN", depth=0),  # in no order: SillyTavern never sends it
        ],
        "orders": [order("main", "chatHistory", "late", "mid", "off", disabled=("off",))],
    }
    messages = final(preset)
    assert [m["content"] for m in messages] == ["Main.", "[Start a new Chat]", "hello", "MID", "hi there", "LATE"]
    late = messages[-1]
    assert (late["block"], late["source"], late["depth"]) == ("late", "preset:p#late", 0)


def test_injections_at_one_depth_come_in_sillytaverns_order_and_join_per_order_and_role() -> None:
    # populationInjectionPrompts builds [200 system, 100 system, 100 user, 100 assistant, 50 user]
    # (orders high to low, roles system, user, assistant; the extension prompts join the order-100
    # system message after the preset's own) and splices them into the reversed chat, so the
    # prompt reads them backwards.
    preset = {
        "prompts": [
            block("main", "Main."),
            in_chat("sys-a", "SYS-A"),
            block("chatHistory", marker=True),
            in_chat("sys-b", "SYS-B"),
            in_chat("usr", "USR", role="user"),
            in_chat("high", "HIGH", order=200),
            in_chat("ast", "AST", role="assistant"),
            in_chat("low", "LOW", role="user", order=50),
        ],
        "orders": [order("main", "sys-a", "chatHistory", "sys-b", "usr", "high", "ast", "low")],
    }
    card = dict(CARD, depth_prompt={"text": "DEPTH", "depth": 0, "role": "system"})
    lore = [
        {"position": "at_depth", "content": "LORE", "book": "b", "uid": 1, "depth": 0, "role": "system", "order": 300}
    ]
    inputs = Inputs("p", preset, "c", card, chat=list(CHAT), lore=lore, authors_note="AN", authors_note_depth=0)
    parts, _ = assemble(inputs)
    after_chat = [p["content"] for p in parts[[p.get("chat_index") for p in parts].index(1) + 1 :]]
    assert after_chat == ["LOW", "AST", "USR", "SYS-A", "SYS-B", "AN", "DEPTH", "LORE", "HIGH"]
    sent = join_injections(parts)
    tail = [(p["role"], p["content"]) for p in sent[[p.get("chat_index") for p in sent].index(1) + 1 :]]
    assert tail == [
        ("user", "LOW"),
        ("assistant", "AST"),
        ("user", "USR"),
        ("system", "SYS-A\nSYS-B\nAN\nDEPTH\nLORE"),
        ("system", "HIGH"),
    ]
    joined = next(p for p in sent if p["content"].startswith("SYS-A"))
    assert joined["block"] == "sys-a, sys-b, authors_note, depth_prompt, world_info_depth"
    assert joined["source"] == "preset:p#sys-a, preset:p#sys-b, authors_note, character:c/depth_prompt, lorebook:b#1"
    assert joined["depth"] == 0 and joined["lore"] is True


def test_the_final_stage_joins_injections_and_the_earlier_stages_keep_each_part() -> None:
    preset = {
        "prompts": [block("chatHistory", marker=True), in_chat("a", " A "), in_chat("b", "B\n"), in_chat("e", "")],
        "orders": [order("chatHistory", "a", "b", "e")],
    }
    doc = render(loaded(preset))
    assert [m["content"] for m in doc["stages"]["regex"][-3:]] == [" A ", "B\n", ""]
    last = doc["stages"]["final"][-1]
    assert (last["content"], last["block"], last["depth"]) == ("A \nB", "a, b", 0)


def test_a_preset_with_no_order_renders_sillytaverns_default_order_and_markers() -> None:
    # A 2023 preset as the adapter stores it: three blocks, no markers, no order.
    preset = {
        "prompts": [
            block("main", "MAIN", system_prompt=True),
            block("nsfw", "AUX", system_prompt=True),
            block("jailbreak", "PHI", system_prompt=True),
        ],
        "orders": [],
    }
    stored = copy.deepcopy(preset)
    doc = render(loaded(preset), stage="final")
    assert [(m["block"], m["content"]) for m in doc["messages"]] == [
        ("main", "MAIN"),
        ("charDescription", CARD["description"]),
        ("nsfw", "AUX"),
        ("chatHistory", "[Start a new Chat]"),
        ("chatHistory", "hello"),
        ("chatHistory", "hi there"),
        ("jailbreak", "PHI"),
    ]
    assert doc["order"] == "default"
    assert any("default order" in note for note in doc["notes"])
    assert preset == stored  # the defaults are the render's, never written into the preset
    result = verify(loaded(preset))
    assert result["clean"], result["findings"]


def test_default_prompts_fill_identifiers_the_preset_lacks() -> None:
    # SillyTavern adds a missing default prompt on load (checkForMissingPrompts): an order naming
    # `charDescription` and `chatHistory` sends them though the preset holds no such block.
    preset = {"prompts": [block("main", "MAIN")], "orders": [order("main", "charDescription", "chatHistory")]}
    assert [m["content"] for m in final(preset)] == ["MAIN", CARD["description"], "[Start a new Chat]"] + [
        m["content"] for m in CHAT
    ]
    assert verify(loaded(preset))["findings"] == []
    manager = prompt_manager(preset)
    assert manager.blocks["main"][0] == 0 and manager.blocks["chatHistory"][0] is None


def test_verify_flags_exactly_the_blocks_render_does_not_send() -> None:
    only_other = {
        "prompts": [block("main", "MAIN"), block("extra", "EXTRA")],
        "orders": [order("main"), order("main", "extra", target="42")],
    }
    assert "EXTRA" not in [m["content"] for m in final(only_other)]
    findings = verify(loaded(only_other))["findings"]
    assert [(f["kind"], f["block"], f["pointer"]) for f in findings] == [
        ("unreachable_block", "extra", "/body/prompts/1")
    ]
    assert "only in other prompt orders, not the global order" in findings[0]["message"]

    no_order = {"prompts": [block("main", "MAIN"), block("custom", "CUSTOM")], "orders": []}
    assert "CUSTOM" not in [m["content"] for m in final(no_order)]
    findings = verify(loaded(no_order))["findings"]
    assert [(f["kind"], f["block"]) for f in findings] == [("unreachable_block", "custom")]
    assert "not in SillyTavern's default order" in findings[0]["message"]


def test_sillytaverns_2023_default_preset_sends_its_prompts_description_and_chat() -> None:
    path = corpus_path("sillytavern", "presets", "openai", "Default.legacy-2023-12.json")
    document = json.loads(path.read_bytes())
    piece = read_bytes(path.read_bytes(), path.name, "sillytavern.preset.chat")[1].pieces[0]
    preset = piece.body.model_dump(mode="json")
    assert preset["orders"] == [] and {b["identifier"] for b in preset["prompts"]} == {"main", "nsfw", "jailbreak"}
    messages = final(preset)
    blocks = [m["block"] for m in messages]
    assert blocks[:3] == ["main", "charDescription", "nsfw"] and blocks[-1] == "jailbreak"
    assert [m["content"] for m in messages] == [
        document["main_prompt"].replace("{{char}}", "Sera").replace("{{user}}", "User"),
        CARD["description"],
        document["nsfw_prompt"],
        "[Start a new Chat]",
        *[m["content"] for m in CHAT],
        document["jailbreak_prompt"],
    ]
    result = verify(loaded(preset))
    assert result["clean"], result["findings"]


def test_the_sillytavern_default_preset_sends_the_persona_of_its_100001_order() -> None:
    # SillyTavern uses the 100001 list (openai.js dummyId 100001); only that list holds personaDescription.
    path = corpus_path("sillytavern", "presets", "openai", "Default.json")
    piece = read_bytes(path.read_bytes(), path.name, "sillytavern.preset.chat")[1].pieces[0]
    preset = piece.body.model_dump(mode="json")
    persona = {"description": "Ada is a cartographer.", "position": "in_prompt"}
    doc = render(loaded(preset, persona=persona), stage="final")
    assert doc["order"] == "global"
    sent = [(m["block"], m["content"]) for m in doc["messages"]]
    assert ("personaDescription", persona["description"]) in sent
    blocks = [block for block, _ in sent]
    assert blocks.index("main") < blocks.index("personaDescription") < blocks.index("charDescription")
    assert verify(loaded(preset, persona=persona))["clean"]


def test_a_preset_read_under_the_old_mapping_renders_its_100001_order() -> None:
    # bunzai once read 100000 as `global` and 100001 as "100001": "100001" is then the order SillyTavern uses
    preset = {
        "prompts": [block("main", "MAIN"), block("extra", "EXTRA")],
        "orders": [order("main"), order("main", "extra", target="100001")],
    }
    doc = render(loaded(preset), stage="final")
    assert doc["order"] == "100001" and [m["content"] for m in doc["messages"]] == ["MAIN", "EXTRA"]
    assert verify(loaded(preset))["findings"] == []


def test_a_preset_without_the_global_order_renders_sillytaverns_default_order_and_verify_flags_it() -> None:
    # A file with only the 100000 list: SillyTavern adds its default order for 100001 and sends that.
    preset = {
        "prompts": [block("main", "MAIN"), block("extra", "EXTRA"), block("chatHistory", marker=True)],
        "orders": [order("extra", "main", "chatHistory", target="100000")],
    }
    stored = copy.deepcopy(preset)
    doc = render(loaded(preset), stage="final")
    assert doc["order"] == "default"
    assert [m["content"] for m in doc["messages"]][:2] == ["MAIN", CARD["description"]]
    assert "EXTRA" not in [m["content"] for m in doc["messages"]]
    assert any("no global prompt order" in note and "'100000'" in note for note in doc["notes"])
    assert preset == stored
    result = verify(loaded(preset))
    assert [(f["kind"], f["pointer"]) for f in result["findings"]] == [
        ("order_not_used", "/body/orders"),
        ("unreachable_block", "/body/prompts/1"),
    ]
    assert result["findings"][0]["orders"] == ["100000"]
    assert "only in other prompt orders, not SillyTavern's default order" in result["findings"][1]["message"]
    assert not any("no global prompt order" in note for note in result["notes"])  # the finding says it


def test_a_block_whose_triggers_leave_out_a_normal_generation_is_not_rendered() -> None:
    preset = {
        "prompts": [
            block("main", "Main."),
            block("imp", "ONLY ON IMPERSONATE", triggers=["impersonate"]),
            block("both", "NORMAL TOO", triggers=["normal", "swipe"]),
            block("chatHistory", marker=True),
        ],
        "orders": [order("main", "imp", "both", "chatHistory")],
    }
    contents = [m["content"] for m in final(preset)]
    assert "NORMAL TOO" in contents and "ONLY ON IMPERSONATE" not in contents


def test_a_main_block_for_other_generations_is_an_empty_slot_the_card_still_fills() -> None:
    preset = {
        "prompts": [
            block("main", "PRESET MAIN", triggers=["impersonate"]),
            block("charDescription", marker=True, triggers=["impersonate"]),
            block("chatHistory", marker=True),
        ],
        "orders": [order("main", "charDescription", "chatHistory")],
    }
    contents = [m["content"] for m in final(preset, card=dict(CARD, system_prompt="CARD SYSTEM"))]
    assert contents[0] == "CARD SYSTEM" and "PRESET MAIN" not in contents
    assert CARD["description"] in contents  # a marker is sent whatever its triggers


def test_a_jailbreak_or_chat_history_for_other_generations_is_not_sent() -> None:
    preset = {
        "prompts": [
            block("main", "MAIN"),
            block("jailbreak", "PRESET JB", triggers=["impersonate"]),
            block("chatHistory", marker=True, triggers=["impersonate"]),
        ],
        "orders": [order("main", "chatHistory", "jailbreak")],
    }
    card = dict(CARD, post_history_instructions="CARD PHI")
    assert [m["content"] for m in final(preset, card=card)] == ["MAIN"]


def test_the_cards_original_is_the_main_prompt_with_its_macros_filled() -> None:
    # openai.js takes mainOriginalContent from the prompt collection, whose prompts
    # preparePrompt has already substituted: {{original}} brings the main prompt's text with its
    # macros filled, not its {{char}} as written.
    preset = {
        "prompts": [block("main", "Write {{char}}'s next reply."), block("chatHistory", marker=True)],
        "orders": [order("main", "chatHistory")],
    }
    card = dict(CARD, system_prompt="{{original}} Stay terse.")
    assert final(preset, card=card)[0]["content"] == "Write Sera's next reply. Stay terse."


def test_lorebook_entries_at_the_examples_top_come_highest_order_first() -> None:
    # getWorldInfoPrompt lists them lowest order first, and script.js unshifts each in front of
    # the examples: the highest order ends up first; those at the bottom are pushed, lowest first.
    preset = {
        "prompts": [block("dialogueExamples", marker=True), block("chatHistory", marker=True)],
        "orders": [order("dialogueExamples", "chatHistory")],
    }
    lore = [
        {"position": position, "content": "{{char}}: " + text, "book": "b", "uid": uid, "order": rank}
        for uid, (position, text, rank) in enumerate(
            [
                ("em_top", "TOP-10", 10),
                ("em_top", "TOP-50", 50),
                ("em_bottom", "BOT-10", 10),
                ("em_bottom", "BOT-50", 50),
            ]
        )
    ]
    card = dict(CARD, example_messages="<START>\n{{user}}: hi\n{{char}}: hello")
    inputs = Inputs("p", preset, "c", card, chat=list(CHAT), lore=lore)
    parts, _ = assemble(inputs)
    texts = [p["content"] for p in parts if p.get("block") == "dialogueExamples"]
    assert [t for t in texts if t.startswith(("TOP", "BOT"))] == ["TOP-50", "TOP-10", "BOT-10", "BOT-50"]


def test_lorebook_entries_at_the_examples_are_example_blocks_of_their_own() -> None:
    # Generate runs each through parseMesExamples: a header and named messages, and an entry
    # with no speaker line sends its header alone (script.js, then setOpenAIMessageExamples)
    lore = [
        {"position": "em_top", "content": "The forest is dark.", "book": "b", "uid": 0, "order": 1},
        {
            "position": "em_bottom",
            "content": "{{user}}: Is it safe?\n{{ char }}: Never.",
            "book": "b",
            "uid": 1,
            "order": 1,
        },
    ]
    preset = {
        "prompts": [block("dialogueExamples", marker=True), block("chatHistory", marker=True)],
        "orders": [order("dialogueExamples", "chatHistory")],
    }
    parts, _ = assemble(Inputs("p", preset, "c", dict(CARD), chat=list(CHAT), lore=lore))
    shown = [(p.get("name"), p["content"], p.get("lore", False)) for p in parts if p["block"] == "dialogueExamples"]
    assert shown == [
        (None, "[Example Chat]", False),
        (None, "[Example Chat]", False),
        ("example_user", "Is it safe?", True),
        ("example_assistant", "Never.", True),
    ]


def test_preset_verify_names_the_card_or_persona_for_a_typo_in_their_descriptions() -> None:
    preset = {
        "prompts": [
            block("charDescription", marker=True),
            block("personaDescription", marker=True),
            block("chatHistory", marker=True),
        ],
        "orders": [order("charDescription", "personaDescription", "chatHistory")],
    }
    card = dict(CARD, description="A healer.\nShe greets {{usr}}.")
    report = verify(loaded(preset, card=card, persona={"description": "Ada, {{chr}}'s friend."}))
    found = {(f["token"], f["piece"], f["pointer"], f["line"], f["column"]) for f in report["findings"]}
    assert ("{{usr}}", "character/c", "/body/description", 2, 12) in found
    assert ("{{chr}}", "persona/ada", "/body/description", 1, 6) in found


def test_a_typo_in_the_text_original_brings_is_reported_on_the_block_only_when_sent() -> None:
    # the card's system prompt stands in for main; {{original}} sends main's text, typo and all
    preset = {
        "prompts": [block("main", "Write {{chr}}'s next reply."), block("chatHistory", marker=True)],
        "orders": [order("main", "chatHistory")],
    }
    sent = verify(loaded(preset, card=dict(CARD, system_prompt="{{original}} Stay terse.")))
    found = [(f["token"], f["piece"], f["pointer"], f["line"], f["column"]) for f in sent["findings"]]
    assert ("{{chr}}", "preset/p", "/body/prompts/0/content", 1, 7) in found
    unsent = verify(loaded(preset, card=dict(CARD, system_prompt="Stay terse.")))
    assert not [f for f in unsent["findings"] if f.get("token") == "{{chr}}"]


# --- dialogue examples, as populateDialogueExamples and parseExampleIntoIndividual send them ------


def _example_parts(examples: str) -> list[tuple[str, str | None, str]]:
    preset = {
        "prompts": [block("dialogueExamples", marker=True), block("chatHistory", marker=True)],
        "orders": [order("dialogueExamples", "chatHistory")],
    }
    card = dict(CARD, example_messages=examples)
    inputs = Inputs("p", preset, "c", card, chat=list(CHAT), user_name="Ada", char_name="Sera")
    parts, _ = assemble(inputs)
    return [(p["role"], p.get("name"), p["content"]) for p in parts if p["block"] == "dialogueExamples"]


def test_example_lines_are_named_system_messages_without_their_speaker() -> None:
    assert _example_parts("<START>\n{{user}}: Hi\n{{Char}}: Hello,\n  {{user}}.\n") == [
        ("system", None, "[Example Chat]"),
        ("system", "example_user", "Hi"),
        ("system", "example_assistant", "Hello,\n  {{user}}."),
    ]


def test_example_speakers_may_be_written_by_name_and_case_counts() -> None:
    parts = _example_parts("<START>\nAda: Hi\nsera: not a speaker\nSera: Hello\nSera: again")
    assert parts[1:] == [
        ("system", "example_user", "Hi\nsera: not a speaker"),
        # the same speaker twice is one message; only the first name is taken out
        ("system", "example_assistant", "Hello\nSera: again"),
    ]


def test_example_lines_before_a_speaker_join_the_first_message_and_a_block_without_one_sends_only_its_header() -> None:
    parts = _example_parts("Scene: a glade.\n{{char}}: Welcome.\n<START>\nNo speaker here.\n<START>")
    assert parts == [
        ("system", None, "[Example Chat]"),
        ("system", "example_assistant", "Scene: a glade.\n Welcome."),  # the name and colon go, the space stays
        ("system", None, "[Example Chat]"),
        ("system", None, "[Example Chat]"),
    ]
