"""A chat preset prompt's `injection_position` as SillyTavern compares it: `===
INJECTION_POSITION.ABSOLUTE` (the number 1; openai.js populateChatCompletion,
PromptManager.js), so the text "1" is a relative prompt there, and so it reads here. The file
keeps what it wrote: an unedited prompt goes back with its "1", and only a prompt edited to be
in-chat is written with the number."""

from __future__ import annotations

import pytest
from test_st_presets_formats import read_doc, write

DOC = {"temperature": 1, "openai_max_context": 100}


def _prompt(**native) -> dict:
    return {"identifier": "x", "role": "system", "content": "c", **native}


@pytest.mark.parametrize(
    ("native", "position"),
    [(1, "absolute"), (1.0, "absolute"), ("1", "relative"), (" 1", "relative"), (True, "relative"), (0, "relative")],
)
def test_only_the_number_one_is_in_chat(native, position) -> None:
    piece = read_doc("sillytavern.preset.chat", dict(DOC, prompts=[_prompt(injection_position=native)]))
    assert piece.body.prompts[0].position == position


def test_a_text_position_goes_back_as_written() -> None:
    document = dict(DOC, prompts=[_prompt(injection_position="1", injection_depth="4")])
    written, losses = write(read_doc("sillytavern.preset.chat", document), "sillytavern.preset.chat")
    assert written["prompts"] == document["prompts"]
    assert {loss.code for loss in losses} <= {"preset.name.file_stem"}


def test_a_prompt_edited_to_be_in_chat_is_written_with_the_number() -> None:
    piece = read_doc("sillytavern.preset.chat", dict(DOC, prompts=[_prompt(injection_position="1")]))
    blocks = [piece.body.prompts[0].model_copy(update={"position": "absolute"})]
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": blocks})})
    written, _ = write(edited, "sillytavern.preset.chat")
    assert written["prompts"][0]["injection_position"] == 1


@pytest.mark.parametrize(
    ("native", "depth", "role"),
    [
        ({}, 4, "system"),
        ({"injection_depth": "2"}, 2, "system"),
        ({"role": 1}, 4, "user"),
        ({"role": None}, 4, "system"),
    ],
)
def test_a_prompt_edited_to_be_in_chat_gets_a_depth_and_role_sillytavern_finds(native, depth, role) -> None:
    # A relative prompt may hold its depth as text or not at all, and its role as a number: it is never
    # injected, so nothing depended on them. Made in-chat, it is written with the number and the name
    # openai.js populationInjectionPrompts compares with ===, or the prompt would never be sent.
    prompt = _prompt(injection_position=0, **native)
    if native.get("role", "") is None:
        del prompt["role"]
    piece = read_doc("sillytavern.preset.chat", dict(DOC, prompts=[prompt]))
    blocks = [piece.body.prompts[0].model_copy(update={"position": "absolute"})]
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": blocks})})
    written, _ = write(edited, "sillytavern.preset.chat")
    assert (written["prompts"][0]["injection_depth"], written["prompts"][0]["role"]) == (depth, role)
    # an in-chat prompt left as it is keeps what it held, sent or not (SillyTavern's file, unedited)
    unedited = read_doc("sillytavern.preset.chat", dict(DOC, prompts=[dict(prompt, injection_position=1)]))
    assert write(unedited, "sillytavern.preset.chat")[0]["prompts"] == [dict(prompt, injection_position=1)]


@pytest.mark.parametrize(("native", "role"), [("1", "user"), (" 2", "assistant"), ("²", "system"), ("١", "system")])
def test_a_role_of_ascii_digits_reads_as_its_number_any_other_text_as_system(native, role) -> None:
    # "²" and "١" are digits to str.isdigit but no number int() reads as one: read as any other text
    piece = read_doc("sillytavern.preset.chat", dict(DOC, prompts=[_prompt(role=native)]))
    assert piece.body.prompts[0].role == role
