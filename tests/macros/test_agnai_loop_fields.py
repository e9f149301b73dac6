"""Agnai's loop fields are read in the body of their own loop and nowhere else (common/grammar.ts
at agnai 2421510e: BotRef, HistoryRef, ChatEmbedRef; template-parser.ts renderProp). Each reading
was checked by compiling that grammar with peggy 3.0.2 and parsing the case: in `{{#each bot}}`
`.name`, `.personality`/`.persona` and `.i`; in `{{#each msg}}` the same words with the dot or
without (`"."?`): `.msg`/`.message`/`.text`/`.dialogue`, `.name`, `.isuser`, `.isbot`, `.i`; in
`{{#each chat_embed}}` `.name`, `.text` and `.i`. Outside a loop `{{.name}}` is text."""

from __future__ import annotations

import pytest

from bunzai.macros.catalog import names_macro
from bunzai.macros.lookup import macro_lookup
from bunzai.macros.translate import translate_text


def _ops(text: str, target: str = "sillytavern") -> dict[str, str | None]:
    """Each token's op as Agnai reads it (the loop openers left out)."""
    verdicts = translate_text(text, "agnai", target).verdicts
    return {v["token"]: v["op"] for v in verdicts if not v["token"].startswith("{{#")}


BOT = "x.agnai.each_bot_name x.agnai.each_bot_personality x.agnai.each_bot_personality x.agnai.each_index"
MSG = "x.agnai.each_msg_name x.agnai.each_msg_text x.agnai.each_msg_text x.agnai.each_msg_text x.agnai.each_index"
MSG_MORE = "x.agnai.each_msg_isuser x.agnai.each_msg_isbot x.agnai.each_msg_text x.agnai.each_msg_name"
EMBED = "x.agnai.each_embed_name x.agnai.each_embed_text x.agnai.each_index"


@pytest.mark.parametrize(
    ("loop", "fields", "ops"),
    [
        ("bot", "{{.name}} {{.personality}} {{ .PERSONA }} {{.i}}", BOT),
        ("bots", "{{.name}} {{.personality}} {{ .PERSONA }} {{.i}}", BOT),
        ("msg", "{{.name}} {{.msg}} {{msg}} {{text}} {{i}}", MSG),
        ("history", "{{isuser}} {{.isbot}} {{.dialogue}} {{ .NAME }}", MSG_MORE),
        ("chat_embed", "{{.name}} {{.text}} {{.i}}", EMBED),
        ("ltm", "{{.name}} {{.text}} {{.i}}", EMBED),
    ],
)
def test_a_loops_fields_are_read_in_its_body(loop: str, fields: str, ops: str) -> None:
    found = _ops("{{#each " + loop + "}}" + fields + "{{/each}}")
    assert list(found.values()) == ops.split()


@pytest.mark.parametrize(
    "text",
    [
        "{{.name}} {{.i}} {{.isuser}} {{i}} {{.text}} {{.personality}}",  # no loop around them
        "{{#each bot}}{{.msg}} {{.text}} {{isuser}}{{/each}}",  # another loop's fields
        "{{#each chat_embed}}{{.msg}} {{.personality}} {{.isbot}}{{/each}}",
    ],
)
def test_a_field_outside_its_loop_is_text(text: str) -> None:
    assert set(_ops(text).values()) == {None}


def test_a_dotless_field_wins_over_the_placeholder_in_a_history_loop() -> None:
    # `{{msg}}` is the history outside; in `{{#each msg}}` it is a field, and in a template so is `{{name}}`
    text = "{{msg}} {{#each msg}}{{msg}}{{name}}{{/each}} {{msg}}"
    found = translate_text(text, "agnai", "sillytavern", where="preset:/body/prompts/*/content").verdicts
    assert [v["op"] for v in found] == [
        "chat.history",
        "loop.each_history",
        "x.agnai.each_msg_text",
        "x.agnai.each_msg_name",
        "chat.history",
    ]


def test_a_card_fields_name_is_replaced_before_any_loop_reads_it() -> None:
    # prompt.ts runs BOT_REPLACE over a card's scenario before the template grammar sees it
    text = "{{#each msg}}{{name}}{{/each}}"
    found = translate_text(text, "agnai", "sillytavern", where="character:/body/scenario").verdicts
    assert [v["op"] for v in found] == ["loop.each_history", "char.name"]


def test_a_field_in_a_field_condition_is_read() -> None:
    found = _ops("{{#each msg}}{{#if .isuser}}{{.name}}{{/if}}{{/each}}")
    assert found == {"{{.name}}": "x.agnai.each_msg_name"}


@pytest.mark.parametrize(
    "condition",
    # peggy: [each history [history-if PROP ["u"]]] for each: HistoryProperty's dot may be left out
    ["{{#if .isuser}}", "{{#if isuser}}", "{{#ifisuser}}", "{{#if name}}", "{{#if i}}", "{{#if .isbot}}"],
)
def test_a_condition_on_a_history_field_is_one_with_or_without_its_dot(condition: str) -> None:
    out = translate_text("{{#each msg}}" + condition + "u{{/if}}{{/each}}", "agnai", "sillytavern")
    assert [(v["token"], v["verdict"], v["op"]) for v in out.verdicts] == [
        ("{{#each msg}}", "flatten", "loop.each_history"),
        (condition, "flatten", "cond.if"),  # no target has a condition on a loop's field
    ]
    assert out.text.endswith("; kept its first branch}}u")


def test_a_bot_loop_takes_a_condition_on_its_field_only_with_the_dot() -> None:
    # peggy: ["{{#each bot}}", if name ["u"], "{{/each}}"]: BotProperty needs its dot, so the
    # plain #if's {{/if}} stops the loop's text and the loop is text
    out = translate_text("{{#each bot}}{{#if name}}u{{/if}}{{/each}}", "agnai", "sillytavern")
    assert [(v["verdict"], v["op"]) for v in out.verdicts] == [("unknown", None), ("portable", "cond.if")]


def test_into_agnai_a_token_is_read_as_a_field_only_inside_a_loop_agnai_keeps() -> None:
    # Lumiverse's foreachMessage is Agnai's #each msg: its `{{.msg}}` (a loop variable) lands in
    # that loop, where Agnai reads it as the message's text; outside it Agnai has no such macro
    text = "{{foreachMessage}}{{.msg}}{{/foreachMessage}} {{.msg}}"
    out = translate_text(text, "lumiverse", "agnai")
    inside, outside = (v for v in out.verdicts if v["token"] == "{{.msg}}")
    assert (inside["verdict"], inside["target_op"]) == ("collision", "x.agnai.each_msg_text")
    assert outside["verdict"] == "absent"
    assert out.text == "{{#each msg}}{{.msg}}{{/each}} "


def test_lookup_says_where_a_field_is_read_and_looks_it_up_there() -> None:
    [row] = macro_lookup(".personality", "agnai", "sillytavern")["items"]
    [form] = row["forms"]
    assert form["inside"] == ["loop.each_char"]
    [fate] = row["on"]["forms"]
    assert fate["inside"] == "{{#each bot}}…{{/each}}"
    assert (fate["verdict"], fate["target_op"]) == ("collision", "var.get")


def test_a_field_is_no_macro_of_its_own() -> None:
    assert not names_macro("agnai", ".personality") and names_macro("agnai", "char")


@pytest.mark.parametrize(
    "text",
    [
        "{{#each msg}}{{#if .isuser}}x{{/if}}{{/each}}",
        "{{#each bot}}{{#if .name}}x{{/if}}{{.name}}{{/each}}",
        "{{#each msg}}{{#if isuser }}x{{/if}}{{/each}}",
    ],
)
def test_a_loops_field_condition_stays_as_written_into_agnai(text: str) -> None:
    result = translate_text(text, "agnai", "agnai")
    assert result.text == text
    assert {v["verdict"] for v in result.verdicts} == {"portable"}
