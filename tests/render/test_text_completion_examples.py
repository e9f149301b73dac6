"""Dialogue examples in a text-completion prompt as SillyTavern sends them: cut into blocks by
script.js parseMesExamples (text before a first `<START>` is a block, an empty block is still sent
as its heading), and, with an instruct template, formatted by instruct-mode.js
formatInstructModeExamples (each message in the input or output sequence; a block with no message
is left out unless no block has one; `skip_examples` keeps them as written)."""

from __future__ import annotations

from bunzai.render.render import render
from bunzai.render.text_completion import wrap

NAMES = {"user": "User", "assistant": "Ivo"}
CONTEXT = {
    "family": "context",
    "templates": {
        "sequences": {"story_string": "{{description}}\n", "example_separator": "***", "chat_start": "---"},
        "options": {},
    },
}


def _instruct(options: dict, **sequences: str) -> dict:
    return {"family": "instruct", "templates": {"sequences": sequences, "options": options}}


def _loaded(examples: str, instruct: dict | None = None, context: dict = CONTEXT) -> dict:
    return {
        "preset_id": "ctx",
        "preset": {"name": "Ctx", "body": context},
        "character_id": "ivo",
        "character": {"name": "Ivo", "body": {"description": "A guard.", "example_messages": examples}},
        "persona_id": None,
        "persona": None,
        "books": [],
        "regex": [],
        "chat": [{"role": "user", "content": "Hello."}],
        "templates": {"instruct": ("inst", instruct)} if instruct else {},
    }


def _prompt(examples: str, instruct: dict | None = None, context: dict = CONTEXT) -> str:
    return render(_loaded(examples, instruct, context), stage="final")["prompt"]


# --- blocks (parseMesExamples) ----------------------------------------------------------------
def test_an_empty_block_is_sent_as_its_heading() -> None:
    prompt = _prompt("<START>\n<START>\n{{user}}: Hi\n{{char}}: Halt.\n<START>\n")
    assert prompt == "A guard.\n***\n\n***\nUser: Hi\nIvo: Halt.\n***\n\n---\nUser: Hello.\nIvo:"


def test_whitespace_before_the_first_start_opens_no_block_and_text_before_it_is_one() -> None:
    assert _prompt("\n  <START>\n{{user}}: Hi").startswith("A guard.\n***\nUser: Hi\n---\n")
    assert _prompt("Ivo nods.\n<START>\n{{user}}: Hi").startswith("A guard.\n***\nIvo nods.\n***\nUser: Hi\n---\n")
    # a lower-case first tag is no `<START>` to startsWith: SillyTavern opens an empty block before it
    assert _prompt("<start>\n{{user}}: Hi").startswith("A guard.\n***\n\n***\nUser: Hi\n---\n")


def test_without_a_separator_an_empty_block_is_a_blank_line() -> None:
    context = {"family": "context", "templates": {"sequences": {"story_string": "{{description}}\n"}, "options": {}}}
    assert _prompt("<START>\n<START>\n{{user}}: Hi", context=context).startswith("A guard.\n\nUser: Hi\nUser: Hello.")


# --- instruct formatting (formatInstructModeExamples) -------------------------------------------
CHATML = _instruct(
    {"wrap": True, "macro": True, "names_behavior": "always"},
    input_sequence="<|im_start|>user",
    input_suffix="<|im_end|>\n",
    output_sequence="<|im_start|>assistant",
    output_suffix="<|im_end|>\n",
)


def test_examples_are_sent_in_the_instruct_sequences() -> None:
    prompt = _prompt("<START>\n{{user}}: Hi\n{{char}}: Halt.\nNo one passes.", CHATML)
    examples = "<|im_start|>user\nUser: Hi<|im_end|>\n<|im_start|>assistant\nIvo: Halt.\nNo one passes.<|im_end|>\n"
    assert prompt.startswith("A guard.\n***\n" + examples + "---\n<|im_start|>user\n")


def test_force_names_the_user_s_examples_only_and_macros_give_a_missing_suffix_a_newline() -> None:
    alpaca = _instruct(
        {"wrap": True, "macro": True, "names_behavior": "force"}, input_sequence="### I:", output_sequence="### R:"
    )
    prompt = _prompt("<START>\n{{user}}: Hi\n{{char}}: Halt.", alpaca)
    assert prompt.startswith("A guard.\n***\n### I:\nUser: Hi\n### R:\nHalt.\n---\n")
    alpaca["templates"]["options"]["macro"] = False  # the default suffix comes only with macros on
    assert _prompt("<START>\n{{user}}: Hi\n{{char}}: Halt.", alpaca).startswith(
        "A guard.\n***\n### I:\nUser: Hi### R:\nHalt.---\n"
    )


def test_a_block_with_no_message_is_left_out_unless_no_block_has_one() -> None:
    prompt = _prompt("<START>\n<START>\nJust a note.\n<START>\n{{char}}: Halt.", CHATML)
    assert prompt.startswith("A guard.\n***\n<|im_start|>assistant\nIvo: Halt.<|im_end|>\n---\n")
    unformatted = _prompt("<START>\n<START>\nJust a note.", CHATML)
    assert unformatted.startswith("A guard.\n***\n\n***\nJust a note.\n---\n")


def test_skip_examples_sends_them_as_written() -> None:
    skipping = _instruct(dict(CHATML["templates"]["options"], skip_examples=True), **CHATML["templates"]["sequences"])
    assert _prompt("<START>\n{{user}}: Hi", skipping).startswith("A guard.\n***\nUser: Hi\n---\n")


def test_wrap_formats_example_parts_by_their_heading_as_evaluated() -> None:
    context = {"family": "context", "templates": {"sequences": {"example_separator": "[{{char}}]"}, "options": {}}}
    parts = [
        {"role": "system", "content": "[Ivo]\nUser: Hi", "block": "dialogueExamples", "source": "x", "pointer": "x"}
    ]
    prompt = wrap(parts, CHATML, context, NAMES, lambda text: (text.replace("{{char}}", "Ivo"), []))[1]
    assert prompt.startswith("[Ivo]\n<|im_start|>user\nUser: Hi<|im_end|>\n")


def test_example_separator_and_chat_start_macros_read_the_context_template() -> None:
    sequences = dict(
        CONTEXT["templates"]["sequences"], story_string="{{description}} [{{exampleSeparator}}|{{chatStart}}]\n"
    )
    context = {"family": "context", "templates": {"sequences": sequences, "options": {}}}
    assert _prompt("", context=context).startswith("A guard. [***|---]\n")


def test_mes_examples_macro_heads_each_block_with_the_separator() -> None:
    # the macro gives what the story string's {{mesExamples}} gives: each block after its heading,
    # an empty one too, ending in a newline
    doc = render(_loaded("<START>\n<START>\n{{user}}: Hi"), stage="final", authors_note="[{{mesExamples}}]")
    assert "[***\n\n***\nUser: Hi\n]" in doc["prompt"]


def _story(story_string: str, examples: str, instruct: dict | None = None) -> str:
    sequences = dict(CONTEXT["templates"]["sequences"], story_string=story_string)
    return _prompt(examples, instruct, {"family": "context", "templates": {"sequences": sequences, "options": {}}})


def test_the_story_strings_mes_examples_raw_is_the_parsed_blocks() -> None:
    # Generate passes mesExamplesRaw: mesExamplesRawArray.join(''): parseMesExamples' blocks (each
    # headed, trimmed, ending in a newline), lorebook example entries among them, before the
    # instruct formatting; without instruct the heading is the example separator
    examples = "Ivo nods.\n<START>\n  {{user}}: Hi  \n"
    assert _story("[{{mesExamplesRaw}}]\n", examples).startswith("[***\nIvo nods.\n***\nUser: Hi\n]\n")


def test_with_instruct_the_story_strings_mes_examples_raw_heads_blocks_with_start() -> None:
    # parseMesExamples heads every block with `<START>\n` in instruct mode; formatInstructModeExamples
    # formats only mesExamples
    prompt = _story("[{{mesExamplesRaw}}]\n", "<START>\n{{user}}: Hi", CHATML)
    assert prompt.startswith("[<START>\nUser: Hi\n]\n")
