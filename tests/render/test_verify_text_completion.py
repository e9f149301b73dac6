"""preset-verify in text-completion mode: each macro problem names the piece its text comes from
(card field, persona, sysprompt, instruct or context template, lorebook entry) and a JSON pointer
into it, with the line and column in that text; the instruct sequences' problems are reported."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.query.pointer import resolve
from bunzai.render.story_string import render_story_string
from bunzai.render.text_completion import _span, _story_string
from bunzai.render.verify import verify

STORY = (
    "{{#if system}}{{system}}\n{{/if}}{{#if description}}{{description}}\n{{/if}}{{#if persona}}{{persona}}\n{{/if}}"
)


def _template(family: str, sequences: dict, changes: dict | None) -> dict:
    return {"family": family, "templates": {"sequences": sequences | (changes or {}), "options": {}}}


def _loaded(
    card: dict | None = None,
    *,
    context: dict | None = None,
    instruct: dict | None = None,
    sysprompt: dict | None = None,
    persona: dict | None = None,
    books: list[dict] | None = None,
    chat: list[dict] | None = None,
) -> dict:
    """What render.gather returns for `preset-verify ctx --instruct ins --sysprompt sys`, in memory."""
    return {
        "preset_id": "ctx",
        "preset": {"name": "Ctx", "body": _template("context", {"story_string": STORY}, context)},
        "character_id": "c",
        "character": {"name": "Sera", "body": {"description": "A healer.", **(card or {})}},
        "persona_id": "ada" if persona else None,
        "persona": {"name": "Ada", "body": persona} if persona else None,
        "books": books or [],
        "regex": [],
        "chat": [{"role": "user", "content": "Hello."}] if chat is None else chat,
        "templates": {
            "instruct": (
                "ins",
                _template("instruct", {"input_sequence": "<in>", "output_sequence": "<out>"}, instruct),
            ),
            "sysprompt": ("sys", _template("sysprompt", {"content": "Be kind."}, sysprompt)),
        },
    }


def _findings(loaded: dict) -> list[tuple[str, str, str]]:
    """(piece, pointer, token) of each macro finding, after checking that its line and column
    point at the token in the text the piece holds at the pointer."""
    docs = {f"preset/{loaded['preset_id']}": loaded["preset"], "character/c": loaded["character"]}
    docs |= {f"preset/{pid}": {"body": body} for pid, body in loaded["templates"].values()}
    docs |= {"persona/ada": loaded["persona"]} | {book["ref"]: {"body": book["body"]} for book in loaded["books"]}
    found = []
    for finding in verify(loaded)["findings"]:
        text = resolve(docs[finding["piece"]], finding["pointer"])
        line = text.split("\n")[finding["line"] - 1]
        assert line[finding["column"] - 1 :].startswith(finding["token"]), finding
        found.append((finding["piece"], finding["pointer"], finding["token"]))
    return found


def test_a_typo_in_the_sysprompt_content_belongs_to_the_sysprompt_template() -> None:
    found = _findings(_loaded(sysprompt={"content": "SYS {{charr}}"}))
    assert found == [("preset/sys", "/body/templates/sequences/content", "{{charr}}")]


def test_a_typo_in_the_sysprompt_post_history_belongs_to_the_sysprompt_template() -> None:
    found = _findings(_loaded(sysprompt={"post_history": "x {{usr}}"}))
    assert found == [("preset/sys", "/body/templates/sequences/post_history", "{{usr}}")]


def test_a_typo_in_the_cards_post_history_instructions_belongs_to_the_card() -> None:
    # the card's field is trimmed before it is sent: the line and column are counted in the field as written
    found = _findings(_loaded({"post_history_instructions": " \ncard phi {{usr}}"}))
    assert found == [("character/c", "/body/post_history_instructions", "{{usr}}")]


def test_a_typo_in_the_user_alignment_message_belongs_to_the_instruct_template() -> None:
    loaded = _loaded({"first_message": "Welcome."}, instruct={"user_alignment_message": "Hi {{chr}}"}, chat=[])
    loaded["chat"] = None  # the card's greeting opens the chat, so the alignment message is sent
    found = _findings(loaded)
    assert found == [("preset/ins", "/body/templates/sequences/user_alignment_message", "{{chr}}")]


def test_unknown_macros_in_the_instruct_sequences_are_reported() -> None:
    instruct = {"input_sequence": "<in {{name}}> {{usr}}", "story_string_prefix": "{{sytem}}"}
    found = _findings(_loaded(instruct=instruct))
    assert sorted(found) == [
        ("preset/ins", "/body/templates/sequences/input_sequence", "{{usr}}"),
        ("preset/ins", "/body/templates/sequences/story_string_prefix", "{{sytem}}"),
    ]


def test_a_sequence_used_on_every_turn_is_reported_once() -> None:
    chat = [{"role": "user", "content": "Hi."}, {"role": "assistant", "content": "Yes?"}] * 3
    found = _findings(_loaded(instruct={"input_sequence": "{{usr}}"}, chat=chat))
    assert found == [("preset/ins", "/body/templates/sequences/input_sequence", "{{usr}}")]


def test_the_story_strings_own_text_belongs_to_the_context_template() -> None:
    context = {"story_string": "\n\n{{description}}\nNote: {{charr}}\n{{#if persona}}{{persona}}{{/if}}"}
    found = _findings(_loaded(context=context))
    assert found == [("preset/ctx", "/body/templates/sequences/story_string", "{{charr}}")]


def test_text_a_story_string_parameter_brings_in_belongs_to_its_source() -> None:
    book = {
        "id": "eldoria",
        "ref": "lorebook/eldoria",
        "body": {
            "entries": [
                {"uid": 7, "keys": [{"text": "unused"}], "content": "Far away.", "position": "before_char"},
                {"uid": 8, "keys": [], "constant": True, "content": "Lore {{lor}}", "position": "before_char"},
            ]
        },
    }
    context = {"story_string": "{{wiBefore}}\n" + STORY, "example_separator": "*** {{sep}}"}
    card = {"description": "  A healer.\nShe is {{charr}}.", "example_messages": "<START>\n  {{usr}}: hi"}
    loaded = _loaded(card, context=context, persona={"description": "Me, {{persna}}"}, books=[book])
    assert sorted(_findings(loaded)) == [
        ("character/c", "/body/description", "{{charr}}"),
        ("character/c", "/body/example_messages", "{{usr}}"),
        ("lorebook/eldoria", "/body/entries/1/content", "{{lor}}"),
        ("persona/ada", "/body/description", "{{persna}}"),
        ("preset/ctx", "/body/templates/sequences/example_separator", "{{sep}}"),
    ]


def test_examples_placed_by_the_story_string_belong_to_the_card() -> None:
    context = {"story_string": "{{description}}\n{{mesExamples}}", "example_separator": "<ex>"}
    found = _findings(_loaded({"example_messages": "<START>\nok\n<START>\n{{char}}: {{usr}}"}, context=context))
    assert found == [("character/c", "/body/example_messages", "{{usr}}")]


def test_raw_examples_placed_by_the_story_string_belong_to_the_card() -> None:
    # in instruct mode each block is headed `<START>`, which no piece wrote: the typo is still the card's
    context = {"story_string": "{{description}}\n{{mesExamplesRaw}}", "example_separator": "<ex>"}
    found = _findings(_loaded({"example_messages": "<START>\nok\n<START>\n  {{char}}: {{usr}}"}, context=context))
    assert found == [("character/c", "/body/example_messages", "{{usr}}")]


def test_the_cards_system_prompt_is_its_own() -> None:
    found = _findings(_loaded({"system_prompt": "{{original}}\nAnd {{charr}}"}))
    assert found == [("character/c", "/body/system_prompt", "{{charr}}")]


_PLAIN = st.text(alphabet=string.ascii_letters + " \n", max_size=12)


@settings(max_examples=60, deadline=None)
@given(
    before=_PLAIN,
    after=_PLAIN,
    persona=_PLAIN,
    lead=st.text(alphabet=" \n", max_size=3),
    field=st.sampled_from(["description", "personality", "scenario"]),
)
def test_a_typo_in_any_card_field_of_the_story_string_is_found_where_it_is_written(
    before: str, after: str, persona: str, lead: str, field: str
) -> None:
    context = {"story_string": "\n{{#if persona}}{{persona}}\n{{/if}}{{description}}|{{personality}}|{{scenario}}"}
    card = {field: lead + before + "{{charr}}" + after}
    found = _findings(_loaded(card, context=context, persona={"description": persona}))
    assert found == [("character/c", f"/body/{field}", "{{charr}}")]


_FRAGMENTS = st.sampled_from(
    ["ab", "\n", "}}", "{", "{{charr}}", "{{description}}", "{{persona}}", "{{#if persona}}", "{{else}}", "{{/if}}"]
    + ["{{#unless description}}", "{{/unless}}", "{{ description }}", "{{getvar::{{persona}}}}"]
)


@settings(max_examples=200, deadline=None)
@given(
    template=st.lists(_FRAGMENTS, max_size=12).map("".join),
    description=st.text(alphabet="x{}\n ", max_size=6),
    persona=st.text(alphabet="y{}\n ", max_size=6),
)
def test_story_string_spans_hold_the_text_of_their_source(template: str, description: str, persona: str) -> None:
    params = {"description": description, "persona": persona}
    sources = {name: [_span(f"{name}:", value, value)] for name, value in params.items()}
    story, spans = _story_string(template, params, sources)
    assert story == render_story_string(template, params)
    for span in spans:
        length = span["end"] - span["start"]
        assert story[span["start"] : span["end"]] == span["raw"][span["base"] : span["base"] + length]
    covered = sorted((s["start"], s["end"]) for s in spans)
    assert all(end <= start for (_, end), (start, _) in zip(covered, covered[1:]))  # no text has two sources


def test_a_typo_in_the_sysprompt_the_cards_original_brings_is_the_sysprompts() -> None:
    """{{original}} in the card's system prompt sends the sysprompt template's content, typo and all;
    without {{original}} that text is not sent, and no finding names it."""
    sent = _loaded({"system_prompt": "{{original}} Stay terse."}, sysprompt={"content": "Be {{chr}}."})
    assert ("preset/sys", "/body/templates/sequences/content", "{{chr}}") in _findings(sent)
    unsent = _loaded({"system_prompt": "Stay terse."}, sysprompt={"content": "Be {{chr}}."})
    assert [f for f in _findings(unsent) if f[2] == "{{chr}}"] == []
