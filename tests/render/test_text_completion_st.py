"""Text completion against SillyTavern's own assembly (script.js Generate, instruct-mode.js,
power-user.js renderStoryString): the story-string wrapper, the sequences of each chat message,
the last line, the post-history instructions, examples and their lorebook entries.
Expectations come from the corpus templates or from the templates written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.render.text_completion import DEFAULT_SYSPROMPT_NOTE, wrap
from testkit import corpus_path

NAMES = {"user": "User", "assistant": "Ivo"}


def _import(bunzai, path: Path, *, check: bool = True) -> None:
    drafts = bunzai("import", str(path), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=check)


def _corpus(bunzai, *parts: str) -> dict:
    path = corpus_path("sillytavern", *parts)
    _import(bunzai, path)
    return json.loads(path.read_text(encoding="utf-8"))


def _instruct(options: dict, **sequences: str) -> dict:
    return {"family": "instruct", "templates": {"sequences": sequences, "options": options}}


def _context(**options) -> dict:
    return {"family": "context", "templates": {"sequences": {}, "options": options}}


def _part(role: str, content: str, block: str = "chatHistory", index: int | None = None) -> dict:
    part = {"role": role, "content": content, "block": block, "source": block, "pointer": block}
    if index is not None:
        part["chat_index"] = index
    return part


def _prompt(parts: list[dict], instruct: dict | None, context: dict | None = None) -> str:
    return wrap(parts, instruct, context or _context(), NAMES, lambda text: (text, []))[1]


CARD = {
    "spec": "chara_card_v2",
    "spec_version": "2.0",
    "data": {
        "name": "Ivo",
        "description": "A guard.",
        "first_mes": "Halt.",
        "mes_example": "<START>\n{{user}}: Hi\n{{char}}: Halt, I said.",
        "system_prompt": "{{original}} Stay terse.",
        "post_history_instructions": "Answer as {{char}} only.",
        "character_book": {
            "entries": [
                {"keys": ["tower"], "content": "Top example.", "enabled": True, "insertion_order": 100, "id": 0,
                 "extensions": {"position": 5}},
                {"keys": ["tower"], "content": "Bottom example.", "enabled": True, "insertion_order": 100, "id": 1,
                 "extensions": {"position": 6}},
            ]
        },
    },
}  # fmt: skip


@pytest.fixture
def ivo(bunzai, tmp_path: Path):
    card = tmp_path / "ivo.json"
    card.write_text(json.dumps(CARD), encoding="utf-8")
    _import(bunzai, card)
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "Who built the tower?"}]), encoding="utf-8")
    return bunzai, chat


def _render(bunzai, context: str, chat: Path, *extra: str, character: str = "ivo") -> dict:
    args = ("render", context, "-c", character, "--chat", str(chat), *extra)
    return bunzai(*args, check=True).json


# --- the story string -------------------------------------------------------------------------
def test_a_template_without_story_string_prefix_does_not_wrap_the_story_string(bunzai, tmp_path: Path) -> None:
    """SillyTavern defaults a missing story_string_prefix/suffix to "" (migrateInstructModeSettings):
    the ChatML context template writes its own <|im_start|>system, which must appear once."""
    context = _corpus(bunzai, "presets", "context", "ChatML.json")
    instruct = _corpus(bunzai, "presets", "instruct", "ChatML.json")
    _import(bunzai, corpus_path("sillytavern", "characters", "default_Seraphina.png"))
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "Hello."}]), encoding="utf-8")
    prompt = _render(bunzai, "chatml-context", chat, "--instruct", "chatml-instruct", character="seraphina")["prompt"]
    assert "story_string_prefix" not in instruct and context["story_string"].startswith(instruct["system_sequence"])
    assert prompt.startswith(instruct["system_sequence"] + "\n") and prompt.count(instruct["system_sequence"]) == 1
    assert instruct["system_suffix"] * 2 not in prompt


def test_story_string_prefix_takes_the_wrap_newline_and_the_suffix_follows_the_text() -> None:
    # formatInstructModeStoryString: prefix + "\n" (wrap) + story + suffix; renderStoryString adds no newline
    # of its own when the template has a suffix.
    instruct = _instruct({"wrap": True}, story_string_prefix="<|im_start|>system", story_string_suffix="<|im_end|>\n")
    prompt = _prompt([_part("system", "Story.", "story_string")], instruct)
    assert prompt.startswith("<|im_start|>system\nStory.<|im_end|>\n")


def test_without_wrap_or_suffix_the_story_string_keeps_its_own_end() -> None:
    unwrapped = _instruct({"wrap": False}, story_string_prefix="<sys>\n", story_string_suffix="</sys>\n")
    assert _prompt([_part("system", "Story.", "story_string")], unwrapped).startswith("<sys>\nStory.</sys>\n")
    bare = _instruct({"wrap": True}, output_sequence="<out>")
    assert _prompt([_part("system", "Story.", "story_string")], bare).startswith("Story.\n")


def test_carriage_returns_are_not_sent(bunzai, tmp_path: Path) -> None:
    _corpus(bunzai, "presets", "context", "Default.json")
    _import(bunzai, corpus_path("sillytavern", "characters", "default_Seraphina.png"))
    card = bunzai("read", "character/seraphina", check=True).json["piece"]["body"]
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "Hello."}]), encoding="utf-8")
    prompt = _render(bunzai, "default-context", chat, character="seraphina")["prompt"]
    assert "\r" in card["description"] and "\r" not in prompt  # combinedPrompt.replace(/\r/gm, '')


# --- the last line ------------------------------------------------------------------------------
def test_force_names_do_not_name_the_reply_in_instruct_mode(bunzai, tmp_path: Path) -> None:
    """always_force_name2 is for prompts without instruct; formatInstructModePrompt names the reply only
    when names_behavior is `always` (Gemma 4 says `force`, and wraps nothing)."""
    _corpus(bunzai, "presets", "context", "Gemma 4.json")
    instruct = _corpus(bunzai, "presets", "instruct", "Gemma 4.json")
    _import(bunzai, corpus_path("sillytavern", "characters", "default_Seraphina.png"))
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "Hello."}]), encoding="utf-8")
    doc = _render(bunzai, "gemma-4-context", chat, "--instruct", "gemma-4-instruct", character="seraphina")
    assert instruct["names_behavior"] == "force" and instruct["wrap"] is False
    user_turn = instruct["input_sequence"] + "Hello." + instruct["input_suffix"]
    assert doc["prompt"].endswith(user_turn + instruct["output_sequence"])


def test_without_instruct_the_reply_is_named_only_with_always_force_name2() -> None:
    parts = [_part("user", "Hi.", index=0)]
    assert _prompt(parts, None, _context(always_force_name2=True)).endswith("User: Hi.\nIvo:")
    assert _prompt(parts, None, _context(always_force_name2=False)).endswith("User: Hi.")


def test_the_last_message_gives_up_one_newline_to_the_reply_line() -> None:
    # With wrap, SillyTavern drops the last message's final newline and the reply line starts with one,
    # so a suffix without a newline still leaves the reply sequence on its own line.
    instruct = _instruct({"wrap": True}, input_sequence="[INST]", input_suffix="[/INST]", output_sequence="<out>")
    assert _prompt([_part("user", "Hi.", index=0)], instruct).endswith("[INST]\nHi.[/INST]\n<out>\n")
    alpaca = _instruct({"wrap": True}, input_sequence="### Instruction:", input_suffix="\n\n", output_sequence="### R:")
    assert _prompt([_part("user", "Hi.", index=0)], alpaca).endswith("### Instruction:\nHi.\n\n### R:\n")


# --- chat messages --------------------------------------------------------------------------
def test_first_and_last_sequences_go_to_the_oldest_message_and_the_last_user_message() -> None:
    instruct = _instruct(
        {"wrap": True, "names_behavior": "none"},
        input_sequence="<in>",
        first_input_sequence="<first-in>",
        last_input_sequence="<last-in>",
        output_sequence="<out>",
        first_output_sequence="<first-out>",
    )
    chat = [_part("user", "A", index=0), _part("assistant", "B", index=1), _part("user", "C", index=2)]
    prompt = _prompt(chat, instruct)
    assert "<first-in>\nA\n<out>\nB\n<last-in>\nC\n<out>\n" in prompt
    opened_by_the_character = _prompt([_part("assistant", "B", index=0), _part("user", "C", index=1)], instruct)
    assert opened_by_the_character.startswith("<first-out>\nB\n<last-in>\nC")


def test_system_same_as_user_sends_system_messages_in_user_sequences() -> None:
    options = {"wrap": True, "system_same_as_user": True}
    instruct = _instruct(options, input_sequence="<in>", input_suffix="</in>\n", system_sequence="<sys>")
    parts = [_part("system", "Note.", "authors_note"), _part("user", "Hi.", index=0)]
    assert _prompt(parts, instruct).startswith("<in>\nNote.</in>\n<in>\nHi.</in>\n")
    instruct["templates"]["options"]["system_same_as_user"] = False
    assert _prompt(parts, instruct).startswith("<sys>\nNote.\n<in>\n")


def test_name_in_a_system_sequence_is_the_character_s_for_an_injection() -> None:
    # doChatInject gives a system injection no name; formatMessageHistoryItem then names it after
    # the character, and formatInstructModeChat fills {{name}} with that (not 'System')
    instruct = _instruct({"wrap": True}, system_sequence="<sys {{name}}>", system_suffix="</{{name}}>\n")
    parts = [_part("system", "Note.", "authors_note"), _part("user", "Hi.", index=0)]
    assert _prompt(parts, instruct).startswith("<sys Ivo>\nNote.</Ivo>\n")
    named = dict(_part("system", "Rain falls.", index=0), name="Narrator")
    assert _prompt([named], instruct).startswith("<sys Narrator>\nRain falls.</Narrator>\n")
    instruct["templates"]["options"]["system_same_as_user"] = True
    instruct["templates"]["sequences"] |= {"input_sequence": "<in {{name}}>", "input_suffix": "</in>\n"}
    assert _prompt(parts, instruct).startswith("<in Ivo>\nNote.</in>\n<in User>\nHi.</in>\n")


def test_post_history_instructions_are_the_newest_user_message(ivo) -> None:
    bunzai, chat = ivo
    _corpus(bunzai, "presets", "context", "Default.json")
    instruct = _corpus(bunzai, "presets", "instruct", "ChatML.json")
    prompt = _render(bunzai, "default-context", chat, "--instruct", "chatml-instruct")["prompt"]
    # script.js pushes the post-history instructions after the chat as {mes, is_user: true}, without a name.
    phi = instruct["input_sequence"] + "\nAnswer as Ivo only." + instruct["input_suffix"]
    assert phi in prompt and prompt.index("Who built the tower?") < prompt.index(phi)
    assert instruct["system_sequence"] not in prompt


def test_the_cards_original_is_the_sysprompt_template(ivo) -> None:
    bunzai, chat = ivo
    _corpus(bunzai, "presets", "context", "Default.json")
    sysprompt = _corpus(bunzai, "presets", "sysprompt", "Neutral - Chat.json")
    doc = _render(bunzai, "default-context", chat, "--sysprompt", "neutral-chat-sysprompt")
    expected = sysprompt["content"].replace("{{char}}", "Ivo").replace("{{user}}", "User") + " Stay terse."
    assert doc["prompt"].startswith(expected + "\n") and doc["unresolved"] == []


# --- examples ---------------------------------------------------------------------------------
def test_examples_and_their_lorebook_entries_are_sent_after_the_story_string(ivo) -> None:
    bunzai, chat = ivo
    context = _corpus(bunzai, "presets", "context", "Default.json")
    prompt = _render(bunzai, "default-context", chat)["prompt"]
    heading = context["example_separator"] + "\n"
    blocks = [heading + "Top example.\n", heading + "User: Hi\nIvo: Halt, I said.\n", heading + "Bottom example.\n"]
    assert "".join(blocks) + context["chat_start"] + "\nUser: Who built the tower?" in prompt


def test_skip_examples_skips_their_formatting_not_the_examples(ivo, tmp_path: Path) -> None:
    bunzai, chat = ivo
    _corpus(bunzai, "presets", "context", "Default.json")
    template = json.loads(corpus_path("sillytavern", "presets", "instruct", "Alpaca.json").read_text(encoding="utf-8"))
    path = tmp_path / "Skipping.json"
    path.write_text(json.dumps(dict(template, name="Skipping", skip_examples=True)), encoding="utf-8")
    _import(bunzai, path)
    prompt = _render(bunzai, "default-context", chat, "--instruct", "skipping-instruct")["prompt"]
    assert "User: Hi\nIvo: Halt, I said.\n" in prompt


# --- preset-verify ----------------------------------------------------------------------------
def test_preset_verify_on_a_context_template_says_nothing_of_prompt_manager_slots(ivo) -> None:
    bunzai, chat = ivo
    _corpus(bunzai, "presets", "context", "Default.json")
    _corpus(bunzai, "presets", "instruct", "ChatML.json")
    verdict = bunzai(
        "preset-verify", "default-context", "-c", "ivo", "--instruct", "chatml-instruct", "--chat", str(chat)
    )
    assert verdict.code == 0 and verdict.json["notes"] == [DEFAULT_SYSPROMPT_NOTE]  # and no prompt-manager slot


def test_card_fields_are_trimmed_as_sillytavern_reads_them(bunzai, tmp_path: Path) -> None:
    context = _corpus(bunzai, "presets", "context", "Default.json")
    data = dict(CARD["data"], description="\n  A guard.\n\n", scenario="At the gate.\n", mes_example="")
    card = tmp_path / "ivo.json"
    card.write_text(json.dumps(dict(CARD, data=data)), encoding="utf-8")
    _import(bunzai, card)
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "Hi."}]), encoding="utf-8")
    prompt = _render(bunzai, "default-context", chat)["prompt"]
    # getCharacterCardFields trims each field before the story string's `{{description}}\n`
    assert f"\nA guard.\nScenario: At the gate.\n{context['example_separator']}\n" in prompt


def test_user_alignment_message_opens_a_chat_the_user_does_not_open(ivo, tmp_path: Path) -> None:
    bunzai, chat = ivo
    _corpus(bunzai, "presets", "context", "Default.json")
    template = json.loads(corpus_path("sillytavern", "presets", "instruct", "ChatML.json").read_text(encoding="utf-8"))
    path = tmp_path / "Aligned.json"
    path.write_text(json.dumps(dict(template, name="Aligned", user_alignment_message="Begin, {{char}}.")), "utf-8")
    _import(bunzai, path)
    opened_by_the_card = bunzai("render", "default-context", "-c", "ivo", "--instruct", "aligned-instruct", check=True)
    user, output = template["input_sequence"], template["output_sequence"]
    aligned = f"{user}\nUser: Begin, Ivo.{template['input_suffix']}{output}\nIvo: Halt."
    assert aligned in opened_by_the_card.json["prompt"]
    opened_by_the_user = _render(bunzai, "default-context", chat, "--instruct", "aligned-instruct")["prompt"]
    assert "Begin," not in opened_by_the_user


def test_a_story_string_placed_in_the_chat_is_named_in_the_notes(ivo, tmp_path: Path) -> None:
    bunzai, chat = ivo
    template = json.loads(corpus_path("sillytavern", "presets", "context", "Gemma 4.json").read_text(encoding="utf-8"))
    path = tmp_path / "InChat.json"
    path.write_text(json.dumps(dict(template, name="InChat", story_string_position=1)), encoding="utf-8")
    _import(bunzai, path)
    assert any("story_string_position" in note for note in _render(bunzai, "inchat-context", chat)["notes"])


@settings(max_examples=60, deadline=None)
@given(
    chat=st.lists(
        st.tuples(st.sampled_from(["user", "assistant"]), st.text(alphabet="abc .", min_size=1).filter(str.strip)),
        max_size=5,
    ),
    behaviour=st.sampled_from(["always", "force", "none"]),
    wrapping=st.booleans(),
)
def test_instruct_prompt_keeps_the_chat_in_order_and_names_the_reply_only_with_always(
    chat: list[tuple[str, str]], behaviour: str, wrapping: bool
) -> None:
    options = {"wrap": wrapping, "names_behavior": behaviour}
    instruct = _instruct(options, input_sequence="<in>", output_sequence="<out>", output_suffix="</out>")
    parts = [_part(role, text, index=i) for i, (role, text) in enumerate(chat)]
    prompt = _prompt(parts, instruct, _context(always_force_name2=True))
    position = 0
    for _, text in chat:
        position = prompt.index(text, position) + len(text)
    assert prompt.rstrip("\n").endswith("<out>" + ("\nIvo:" if wrapping else "Ivo:") * (behaviour == "always"))


def test_the_mcp_tool_verifies_a_text_completion_setup_as_the_command_does(ivo, tmp_path: Path) -> None:
    from bunzai.mcp.dispatch import Dispatcher
    from bunzai.mcp.handles import Handles
    from bunzai.store.studio import Studio
    from bunzai.tools.contract import Context

    bunzai, chat = ivo
    _corpus(bunzai, "presets", "context", "Default.json")
    instruct = dict(_corpus(bunzai, "presets", "instruct", "ChatML.json"), name="Typo ChatML")
    instruct["output_sequence"] = "<|im_start|>{{chr}}"  # a typo the greeting's sequence carries into the prompt
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(instruct), encoding="utf-8")
    _import(bunzai, path)
    command = bunzai(
        "preset-verify",
        "default-context",
        "-c",
        "ivo",
        "--instruct",
        "typo-chatml-instruct",
        "--authors-note",
        "Be {{chr}}.",
    ).json
    assert {finding["piece"] for finding in command["findings"]} == {
        "preset/typo-chatml-instruct",
        "preset/default-context",
    }
    session = Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))
    arguments = {
        "preset": "default-context",
        "character": "ivo",
        "instruct": "typo-chatml-instruct",
        "authors_note": "Be {{chr}}.",
    }
    called = session.call("preset_verify", arguments, "2025-06-18")
    assert not called["isError"], called
    assert called["structuredContent"]["report"]["data"] == command  # the same report as the command's


def test_the_mcp_tool_takes_the_chat_inline_and_answers_as_the_command_with_its_file(ivo) -> None:
    from bunzai.mcp.dispatch import Dispatcher
    from bunzai.mcp.handles import Handles
    from bunzai.store.studio import Studio
    from bunzai.tools.contract import Context

    bunzai, chat = ivo
    _corpus(bunzai, "presets", "context", "Default.json")
    _corpus(bunzai, "presets", "instruct", "ChatML.json")
    args = ("preset-verify", "default-context", "-c", "ivo", "--instruct", "chatml-instruct", "--chat", str(chat))
    command = bunzai(*args, "--authors-note", "Mind {{chr}}.").json
    session = Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))
    arguments = {
        "preset": "default-context",
        "character": "ivo",
        "instruct": "chatml-instruct",
        "chat": json.loads(chat.read_text(encoding="utf-8")),
        "authors_note": "Mind {{chr}}.",
    }
    called = session.call("preset_verify", arguments, "2025-06-18")
    assert not called["isError"], called
    assert called["structuredContent"]["report"]["data"] == command and command["findings"]
    refused = session.call("preset_verify", dict(arguments, chat=[{"role": "narrator", "content": "x"}]), "2025-06-18")
    assert refused["isError"] and "role 'narrator'" in refused["content"][0]["text"]
