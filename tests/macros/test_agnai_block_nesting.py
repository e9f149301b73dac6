"""Which Agnai blocks open inside which (common/grammar.ts at agnai 2421510e). A loop's body is
(BotChild / LoopText)* CloseLoop: another `{{#each}}` there is LoopText, so the loop ends at the
first `{{/each}}`. An `{{#if}}` body is Placeholder / Condition / LowPriority / ElseBlock, an
`{{#else}}` body Placeholder / BotIterator, an `{{#insert}}` or `{{#lowpriority}}` body
Placeholder alone: any other block there is text. Insert and lowpriority text stops at a loop's
field (BotChild, HistoryChild) and at `{{/if}}`: the block is then text, and a loop inside it a
loop. Each reading was checked by compiling that grammar with peggy 3.0.2 and parsing the case."""

from __future__ import annotations

import pytest

from bunzai.macros.translate import translate_text

_DROPPED = "{{// bunzai: dropped #each bot; kept its body}}"


def _ops(text: str, target: str = "lumiverse") -> list[tuple[str, str | None]]:
    return [(v["token"], v["op"]) for v in translate_text(text, "agnai", target).verdicts]


def test_a_loop_in_a_loop_is_text_and_the_first_closer_ends_the_outer_loop() -> None:
    # peggy: [each bots ["{{#each bot}}", bot-prop name], " ", placeholder char, "{{/each}}"]
    text = "{{#each bot}}{{#each bot}}{{.name}}{{/each}} {{char}}{{/each}}"
    out = translate_text(text, "agnai", "sillytavern")
    assert [(v["token"], v["op"]) for v in out.verdicts] == [
        ("{{#each bot}}", "loop.each_char"),
        ("{{#each bot}}", None),
        ("{{.name}}", "x.agnai.each_bot_name"),
        ("{{char}}", "char.name"),
    ]
    assert out.verdicts[1]["note"].startswith("agnai reads this as text in the body of #each, where no such block")
    # the loop's body ends at the first closer: `{{char}}` and the last `{{/each}}` are after it
    assert out.text == _DROPPED + "{{#each bot}}{{.name}} {{char}}{{/each}}"


def test_the_outer_loops_fields_run_to_its_first_closer() -> None:
    # peggy: [each history ["{{#each chat_embed}}", history-prop message], "{{.name}}{{/each}}"]
    text = "{{#each msg}}{{#each chat_embed}}{{.text}}{{/each}}{{.name}}{{/each}}"
    out = translate_text(text, "agnai", "lumiverse")
    assert [(v["token"], v["op"]) for v in out.verdicts] == [
        ("{{#each msg}}", "loop.each_history"),
        ("{{#each chat_embed}}", None),
        ("{{.text}}", "x.agnai.each_msg_text"),
        ("{{.name}}", None),  # after the loop: text
    ]
    assert out.text == "{{foreachMessage}}{{#each chat_embed}}{{.text}}{{/foreachMessage}}{{.name}}{{/each}}"


@pytest.mark.parametrize(
    ("text", "first"),
    [
        # peggy: [if scenario ["{{#each bot}}{{.name}}{{/each}}"]]
        ("{{#if scenario}}{{#each bot}}{{.name}}{{/each}}{{/if}}", ("{{#if scenario}}", "cond.if")),
        ("{{#if scenario}}{{#each msg}}{{.name}} {{char}}{{/each}}{{/if}}", ("{{#if scenario}}", "cond.if")),
        # peggy: [history-insert 1 ["{{#each msg}}x{{/each}} ", placeholder char]]
        ("{{#insert 1}}{{#each msg}}x{{/each}} {{char}}{{/insert}}", ("{{#insert 1}}", "block.insert_at_depth")),
        # peggy: [lowpriority ["{{#each bot}}x{{/each}}"]]
        ("{{#lowpriority}}{{#each bot}}x{{/each}}{{/lowpriority}}", ("{{#lowpriority}}", "block.lowpriority")),
    ],
)
def test_a_loop_in_an_if_insert_or_lowpriority_is_text(text: str, first: tuple[str, str]) -> None:
    found = _ops(text)
    assert found[0] == first
    loop = next(i for i, (token, _) in enumerate(found) if token.startswith("{{#each"))
    assert found[loop][1] is None
    # the loop's fields are text there; a placeholder is read
    assert all(op is None for token, op in found if token.startswith("{{.")), found
    assert all(op == "char.name" for token, op in found if token == "{{char}}")


def test_an_else_body_takes_a_bot_loop_and_no_other() -> None:
    # peggy: ElseBlock's children are Placeholder / BotIterator / ElseText
    bot = "{{#if x}}a{{#else}}{{#each bot}}{{.name}}{{/each}}{{/else}}{{/if}}"
    msg = "{{#if x}}a{{#else}}{{#each msg}}{{.name}}{{/each}}{{/else}}{{/if}}"
    assert _ops(bot)[1:] == [("{{#each bot}}", "loop.each_char"), ("{{.name}}", "x.agnai.each_bot_name")]
    assert _ops(msg)[1:] == [("{{#each msg}}", None), ("{{.name}}", None)]


def test_an_else_holding_a_lowpriority_closer_is_text_and_a_field_does_not_stop_it() -> None:
    # peggy: [if scenario ["a{{#else}}", lowpriority ["x", char], "b{{/else}}"]]: ElseText stops
    # at CloseLowPriority, so the else fails and the lowpriority opens in the if
    text = "{{#if scenario}}a{{#else}}{{#lowpriority}}x{{char}}{{/lowpriority}}b{{/else}}{{/if}}"
    assert _ops(text) == [
        ("{{#if scenario}}", "cond.if"),
        ("{{#else}}", None),  # text to Agnai, reported: Lumiverse would read it as the if's branch
        ("{{#lowpriority}}", "block.lowpriority"),
        ("{{char}}", "char.name"),
    ]
    # peggy: [if scenario ["a", else ["{{.name}}", each bots [bot-prop name]]]]: not at a field
    text = "{{#if scenario}}a{{#else}}{{.name}}{{#each bot}}{{.name}}{{/each}}{{/else}}{{/if}}"
    assert _ops(text) == [
        ("{{#if scenario}}", "cond.if"),
        ("{{.name}}", None),
        ("{{#each bot}}", "loop.each_char"),
        ("{{.name}}", "x.agnai.each_bot_name"),
    ]


def test_an_else_outside_an_if_is_text_and_takes_any_block() -> None:
    # peggy: ["{{#else}}", each history [history-prop name], "{{/else}}"]: ElseBlock is read only
    # as a ConditionChild
    out = translate_text("{{#else}}{{#each msg}}{{.name}}{{/each}}{{/else}}", "agnai", "lumiverse")
    assert [(v["token"], v["op"]) for v in out.verdicts] == [
        ("{{#each msg}}", "loop.each_history"),
        ("{{.name}}", "x.agnai.each_msg_name"),
    ]
    assert out.text == "{{#else}}{{foreachMessage}}{{.name}}{{/foreachMessage}}{{/else}}"


@pytest.mark.parametrize(
    ("text", "stop", "rest"),
    [
        # peggy: ["{{#insert 1}}", each history [history-prop name], "{{/insert}}"]
        (
            "{{#insert 1}}{{#each msg}}{{.name}}{{/each}}{{/insert}}",
            "{{.name}}",
            [("{{#each msg}}", "loop.each_history"), ("{{.name}}", "x.agnai.each_msg_name")],
        ),
        # peggy: ["{{#lowpriority}}", each bots [bot-prop name], "{{/lowpriority}}"]
        (
            "{{#lowpriority}}{{#each bot}}{{.name}}{{/each}}{{/lowpriority}}",
            "{{.name}}",
            [("{{#each bot}}", "loop.each_char"), ("{{.name}}", "x.agnai.each_bot_name")],
        ),
        # peggy: ["{{#insert 1}}", if x ["a"], "{{/insert}}"]
        ("{{#insert 1}}{{#if x}}a{{/if}}{{/insert}}", "{{/if}}", [("{{#if x}}", "cond.if")]),
        # peggy: ["{{#lowpriority}}{{i}} ", placeholder scenario, "{{/lowpriority}}"]
        (
            "{{#lowpriority}}{{i}} {{scenario}}{{/lowpriority}}",
            "{{i}}",
            [("{{i}}", None), ("{{scenario}}", "card.scenario")],
        ),
        # peggy: ["{{#each msg}}", each bots [bot-prop personality], "{{/each}}"]
        (
            "{{#each msg}}{{#each bot}}{{.personality}}{{/each}}{{/each}}",
            "{{.personality}}",
            [("{{#each bot}}", "loop.each_char"), ("{{.personality}}", "x.agnai.each_bot_personality")],
        ),
    ],
)
def test_a_block_read_as_text_lets_the_blocks_in_it_open(text: str, stop: str, rest: list) -> None:
    out = translate_text(text, "agnai", "lumiverse")
    opener = out.verdicts[0]
    assert (opener["verdict"], opener["op"]) == ("unknown", None)
    assert opener["note"].startswith(f"agnai reads this block as text, as its body holds {stop}")
    assert [(v["token"], v["op"]) for v in out.verdicts[1:]] == rest


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        # peggy: ["{{#insert 1}}", if .name ["{{/insert}}"]]: the HistoryCondition matches up to
        # its `{{/if}}`, past the insert's closer, so InsertText stops at its opener
        ("{{#insert 1}}{{#if .name}}{{/insert}}{{/if}}", "{{#if .name}}"),
        # peggy: ["{{#lowpriority}}", if .isbot ["{{/lowpriority}}"]]
        ("{{#lowpriority}}{{#if .isbot}}{{/lowpriority}}{{/if}}", "{{#if .isbot}}"),
        # peggy: ["{{#insert 1}}", if .personality ["{{/insert}}{{.name}}"]]: a BotCondition takes
        # the bot loop's fields ({{.name}} is one)
        ("{{#insert 1}}{{#if .personality}}{{/insert}}{{.name}}{{/if}}", "{{#if .personality}}"),
        # peggy: ["{{#insert 1}}", if .name ["{{/insert}}{{.msg}}"]]: a HistoryCondition takes {{.msg}}
        ("{{#insert 1}}{{#if .name}}{{/insert}}{{.msg}}{{/if}}", "{{#if .name}}"),
    ],
)
def test_a_field_condition_closed_past_an_insert_makes_the_insert_text(text: str, condition: str) -> None:
    out = translate_text(text, "agnai", "sillytavern")
    opener = out.verdicts[0]
    assert (opener["verdict"], opener["op"]) == ("unknown", None)
    assert opener["note"].startswith(
        f"agnai reads this block as text, as its body holds {condition}, a condition on a loop's field "
        "that runs past the block to its {{/if}}"
    )
    # the condition is then read where it stands, outside any loop: on no placeholder, always false
    assert (out.verdicts[1]["token"], out.verdicts[1]["op"]) == (condition, "cond.if")
    assert out.text.startswith(text.partition("}}")[0] + "}}{{if 0}}")


@pytest.mark.parametrize(
    "text",
    [
        # peggy: [history-insert 1 ["{{#if .name}}", placeholder char], "{{/if}}"]: `{{char}}`
        # (ManyPlaceholder) stops the condition's text before its `{{/if}}`
        "{{#insert 1}}{{#if .name}}{{char}}{{/insert}}{{/if}}",
        # peggy: [history-insert 1 ["{{#if isuser}}"], "{{.personality}}{{/if}}"]: a bot field
        # is no history field
        "{{#insert 1}}{{#if isuser}}{{/insert}}{{.personality}}{{/if}}",
        # peggy: [history-insert 1 ["{{#if .name}}{{/each}}"], "{{/if}}"]
        "{{#insert 1}}{{#if .name}}{{/each}}{{/insert}}{{/if}}",
        # peggy: [history-insert 1 ["{{#if .name}}"], if isuser []]: the first `{{/if}}` closes a
        # field condition that matches, so the one before it does not
        "{{#insert 1}}{{#if .name}}{{/insert}}{{#if isuser}}{{/if}}",
        # peggy: [history-insert 1 ["{{#if x}}"], "{{/if}}"]: x is no loop's field
        "{{#insert 1}}{{#if x}}{{/insert}}{{/if}}",
    ],
)
def test_a_condition_that_does_not_match_past_the_closer_leaves_the_insert(text: str) -> None:
    assert translate_text(text, "agnai", "sillytavern").verdicts[0]["op"] == "block.insert_at_depth"


@pytest.mark.parametrize(
    ("text", "ops"),
    [
        # peggy: ["{{#if scenario}}", each history [history-if message ["{{#if .personality}}{{/lowpriority}}",
        # history-prop i]]]: the unclosed #if is text, so the loop opens, and the #if .text unclosed
        # inside the #if is a field condition in the loop, closed by the {{/if}}
        (
            "{{#if scenario}}{{#each msg}}{{#if .text}}{{#if .personality}}{{/lowpriority}}{{i}}{{/if}}{{/each}}",
            [None, "loop.each_history", "cond.if", None, "x.agnai.each_index"],
        ),
        # peggy: ["{{/each}}{{/if}}{{#each chat_embed}}{{#if .text}}{{#else}}{{#if isuser}}{{.msg}}",
        # each bots ["{{/else}}{{#each chat_embed}}{{#each chat_embed}}"]]: the bot loop, left
        # unclosed in an else in an unclosed #if, opens once both are text and runs to the {{/each}}
        (
            "{{/each}}{{/if}}{{#each chat_embed}}{{#if .text}}{{#else}}{{#if isuser}}{{.msg}}{{#each bot}}"
            "{{/else}}{{#each chat_embed}}{{#each chat_embed}}{{/each}}",
            [None, None, None, None, "loop.each_char", None, None],
        ),
    ],
)
def test_an_opener_left_unclosed_inside_another_is_read_again_once_that_one_is_text(text: str, ops: list) -> None:
    # each pairing reads only the outermost openers left unclosed as text: one inside may open
    # or close where it stands once they are gone (found by a random run against peggy)
    assert [v["op"] for v in translate_text(text, "agnai", "lumiverse").verdicts] == ops


def test_a_condition_on_another_loops_field_in_a_loops_own_condition_makes_the_loop_text() -> None:
    # peggy: ["{{#each msg}}{{#if isuser}}", if .personality [], "{{/each}}"]: the BotCondition
    # matches, so the HistoryCondition's text stops at it (it is text), and so does the loop's
    out = translate_text("{{#each msg}}{{#if isuser}}{{#if .personality}}{{/if}}{{/each}}", "agnai", "lumiverse")
    assert [(v["token"], v["op"]) for v in out.verdicts] == [
        ("{{#each msg}}", None),
        ("{{#if isuser}}", None),
        ("{{#if .personality}}", "cond.if"),
    ]
    assert out.verdicts[0]["note"].startswith(
        "agnai reads this block as text, as its body holds {{#if .personality}}, a condition on another loop's field"
    )
    # peggy: [each history ["{{#if isuser}}", history-if name []]]: one of the loop's own stands
    mine = translate_text("{{#each msg}}{{#if isuser}}{{#if .name}}{{/if}}{{/each}}", "agnai", "lumiverse")
    assert [v["op"] for v in mine.verdicts] == ["loop.each_history", None, "cond.if"]


def test_a_closer_in_a_loop_in_an_else_is_the_loops_text_not_the_elses() -> None:
    # peggy: [if x ["a", else [each bots ["{{/lowpriority}}"]]]]: ElseText stops at a
    # `{{/lowpriority}}`, but here the bot loop's LoopText takes it (found by a random run)
    inside = translate_text(
        "{{#if x}}a{{#else}}{{#each bot}}{{/lowpriority}}{{/each}}{{/else}}{{/if}}", "agnai", "sillytavern"
    )
    assert [(v["token"], v["op"]) for v in inside.verdicts] == [
        ("{{#if x}}", "cond.if"),
        ("{{#each bot}}", "loop.each_char"),
    ]
    assert inside.text.startswith("{{if 0}}a{{else}}")
    # peggy: [if x ["a{{#else}}{{/lowpriority}}{{/else}}"]]: in the else's own text it stops it
    bare = translate_text("{{#if x}}a{{#else}}{{/lowpriority}}{{/else}}{{/if}}", "agnai", "sillytavern")
    assert [(v["token"], v["op"]) for v in bare.verdicts] == [("{{#if x}}", "cond.if"), ("{{#else}}", None)]


def test_candidates_for_a_removed_macro_are_what_the_loop_reads() -> None:
    out = translate_text("{{foreachMessage}}{{scenario}} {{char}}{{/foreachMessage}}", "lumiverse", "agnai")
    verdict = out.verdicts[1]
    assert (verdict["verdict"], verdict["op"]) == ("absent", "card.scenario")
    # `{{personality}}` and `{{example_dialogue}}` are text in Agnai's loop: no candidate there
    assert "candidates" not in verdict
    # outside a loop the card's other fields are offered
    top = translate_text("{{description}}", "sillytavern", "agnai").verdicts[0]
    assert {"op": "card.personality", "form": "{{personality}}"} in top["candidates"]


@pytest.mark.parametrize(
    ("text", "out", "ops"),
    [
        (
            "{{#each bot}}{{#each bot}}{{.name}}{{/each}} {{char}}{{/each}}",
            _DROPPED + "{{#each bot}}{{.name}} {{char}}{{/each}}",
            ["loop.each_char", None, "x.agnai.each_bot_name", "char.name"],
        ),
        (
            "{{#if scenario}}{{#each bot}}{{.name}}{{/each}}{{/if}}",
            "{{if scenario}}{{#each bot}}{{.name}}{{/each}}{{/if}}",
            ["cond.if", None, None],
        ),
        (
            "{{#lowpriority}}{{#each bot}}{{.name}}{{/each}}{{/lowpriority}}",
            "{{#lowpriority}}" + _DROPPED + "{{.name}}{{/lowpriority}}",
            [None, "loop.each_char", "x.agnai.each_bot_name"],
        ),
        (
            "{{#each bot}}{{#foo}}{{char}}{{/foo}}{{/each}}",
            _DROPPED + "{{#foo}}{{char}}{{/foo}}",
            ["loop.each_char", None, "char.name"],
        ),
    ],
)
def test_the_command_pairs_and_reads_blocks_as_agnai_does(bare_bunzai, text: str, out: str, ops: list) -> None:
    doc = bare_bunzai("macro", "translate", "--from", "agnai", "--to", "sillytavern", input=text).json
    assert [v["op"] for v in doc["verdicts"]] == ops
    assert doc["text"] == out


def test_the_command_offers_no_candidate_a_loop_does_not_read(bare_bunzai) -> None:
    text = "{{foreachMessage}}{{scenario}}{{/foreachMessage}}"
    doc = bare_bunzai("macro", "translate", "--from", "lumiverse", "--to", "agnai", input=text).json
    assert doc["text"] == "{{#each msg}}{{/each}}"
    assert doc["verdicts"][1]["verdict"] == "absent" and "candidates" not in doc["verdicts"][1]


_PROMPT, _SCENARIO = "preset:/body/prompts/*/content", "character:/body/scenario"


@pytest.mark.parametrize(
    ("text", "where", "found"),
    [
        # A preset's prompt: no BOT_REPLACE before the grammar, whose HistoryRef takes `{{name}}`.
        # peggy: ["{{#each bot}}{{name}}{{/each}}"], [each history [history-prop name]],
        # ["{{#insert 1}}{{name}}{{/insert}}"]
        ("{{#each bot}}{{name}}{{/each}}", _PROMPT, [("{{#each bot}}", None), ("{{name}}", None)]),
        ("{{#each chat_embed}}{{name}}{{/each}}", _PROMPT, [("{{#each chat_embed}}", None), ("{{name}}", None)]),
        (
            "{{#each msg}}{{name}}{{/each}}",
            _PROMPT,
            [("{{#each msg}}", "loop.each_history"), ("{{name}}", "x.agnai.each_msg_name")],
        ),
        ("{{#insert 1}}{{name}}{{/insert}}", _PROMPT, [("{{#insert 1}}", None), ("{{name}}", None)]),
        # A card's scenario: prompt.ts replaces `{{name}}` with the character's name first
        ("{{#each bot}}{{name}}{{/each}}", _SCENARIO, [("{{#each bot}}", "loop.each_char"), ("{{name}}", "char.name")]),
    ],
)
def test_name_in_a_block_is_read_as_agnai_reads_its_field(text: str, where: str, found: list) -> None:
    out = translate_text(text, "agnai", "lumiverse", where=where)
    assert [(v["token"], v["op"]) for v in out.verdicts] == found


def test_the_command_says_what_name_is_in_a_loop_where_the_field_is_not_known(bare_bunzai) -> None:
    # No field: `{{name}}` is read as in the card fields BOT_REPLACE runs over, and the note says
    # what the grammar makes of it in a preset's loop.
    text = "{{#each bot}}{{name}}{{/each}}"
    doc = bare_bunzai("macro", "translate", "--from", "agnai", "--to", "sillytavern", input=text).json
    verdict = doc["verdicts"][1]
    assert (verdict["verdict"], verdict["op"]) == ("portable", "char.name")
    assert "in {{#each bot}}, {{#each chat_embed}}, {{#insert}} or {{#lowpriority}} it makes" in verdict["note"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # peggy: [if scenario [char, "{{#else}}", if .isuser [user], "{{/else}}", scenario]]: the
        # `{{/if}}` in the else's body ends it (ElseText), so the else is text and the if opens
        (
            "{{#if scenario}}{{char}}{{#else}}{{#if .isuser}}{{user}}{{/if}}{{/else}}{{scenario}}{{/if}}",
            # the text `{{#else}}` is reported (None): Lumiverse reads it as a branch of the if
            ["cond.if", "char.name", None, "cond.if", "user.name", "card.scenario"],
        ),
        # peggy: [each bots ["{{#foo}}", char, "{{/foo}}"]]: a block the grammar has none of is text
        ("{{#each bot}}{{#foo}}{{char}}{{/foo}}{{/each}}", ["loop.each_char", None, "char.name"]),
        # peggy: [history-insert 1 ["{{#foo}}", char, "{{/foo}}"]]
        ("{{#insert 1}}{{#foo}}{{char}}{{/foo}}{{/insert}}", ["block.insert_at_depth", None, "char.name"]),
        # peggy: ["{{#foo}}", if scenario ["x{{/foo}}y"]] and ["{{#foo}}", each bots [char, "{{/foo}}"]]: at
        # the top too a block the grammar has none of is text, and its closer ends no block it crosses
        ("{{#foo}}{{#if scenario}}x{{/foo}}y{{/if}}", [None, "cond.if"]),
        ("{{#foo}}{{#each bot}}{{char}}{{/foo}}{{/each}}", [None, "loop.each_char", "char.name"]),
        # peggy: ["{{#EACH bot}}", if scenario ["{{#EACH bot}}x{{/each}}", char], "{{/each}}"]: `"#each"`
        # is matched in that case alone, and `{{#each foo}}` loops over nothing it knows: both text
        (
            "{{#EACH bot}}{{#if scenario}}{{#EACH bot}}x{{/each}}{{char}}{{/if}}{{/each}}",
            [None, "cond.if", None, "char.name"],
        ),
        (
            "{{#each foo}}{{#if scenario}}{{#each foo}}x{{/each}}{{char}}{{/if}}{{/each}}",
            [None, "cond.if", None, "char.name"],
        ),
    ],
)
def test_an_opener_agnai_reads_as_text_holds_nothing_open(text: str, found: list) -> None:
    out = translate_text(text, "agnai", "lumiverse")
    assert [v["op"] for v in out.verdicts] == found
    assert all(v["verdict"] in ("portable", "flatten") for v in out.verdicts if v["op"])


def test_blocks_read_as_text_nested_past_the_bound_leave_what_they_hold_as_written() -> None:
    # each reading finds the outermost blocks read as text, and the ones they held shut open on
    # the next: one reading a level, so 800 of them took seconds; past the bound the rest is left
    # as written, and said so
    from bunzai.limits import MACRO_TEXT_BLOCKS_NESTED_MAX as BOUND

    def nested(levels: int) -> str:
        return "{{#insert 1}}{{.msg}}" * levels + "x" + "{{/insert}}" * levels

    said = "blocks agnai reads as text, one inside another: its blocks not read"
    within = translate_text(nested(BOUND), "agnai", "sillytavern")
    assert within.text == nested(BOUND)
    assert not any(said in v.get("note", "") for v in within.verdicts)
    past = translate_text(nested(BOUND + 10), "agnai", "sillytavern")
    assert past.text == nested(BOUND + 10)
    noted = [v for v in past.verdicts if said in v.get("note", "")]
    assert noted and all(v["verdict"] == "unknown" for v in noted)
    assert min(v["at"] for v in noted) > past.verdicts[2 * BOUND]["at"]
    # only the blocks held shut are said so; the other macros there still cross
    deep = "{{#insert 1}}{{.msg}}" * (BOUND + 1) + "{{random:a,b}} {{#each msg}}{{.name}}{{/each}}"
    out = translate_text(deep + "{{/insert}}" * (BOUND + 1), "agnai", "lumiverse")
    assert [v["token"] for v in out.verdicts if said in v.get("note", "")] == ["{{#each msg}}"]
    assert next(v for v in out.verdicts if v["token"] == "{{random:a,b}}")["verdict"] == "portable"


def test_an_else_without_its_closer_is_reported_where_the_target_would_read_a_branch() -> None:
    # peggy: [if char ["a{{else}}b"]]: ElseBlock needs its {{/else}}, so Agnai shows "a{{else}}b"
    # whole; SillyTavern would read a branch there and show "a" alone
    out = translate_text("{{#if char}}a{{else}}b{{/if}}", "agnai", "sillytavern")
    assert [(v["token"], v["verdict"]) for v in out.verdicts] == [("{{#if char}}", "portable"), ("{{else}}", "unknown")]
    assert "sillytavern may read it as the condition's other branch" in out.verdicts[1]["note"]
    # RisuAI's branch is {{:else}}: there `{{else}}` is text too, and nothing is reported
    out = translate_text("{{#if char}}a{{else}}b{{/if}}", "agnai", "risuai")
    assert [v["verdict"] for v in out.verdicts] == ["portable"]
    # but an Agnai `{{:else}}`, text to Agnai, is RisuAI's branch, inline in a one-line body or on a
    # line of its own
    for body in ("a{{:else}}b", "a\n{{:else}}\nb"):
        out = translate_text("{{#if char}}" + body + "{{/if}}", "agnai", "risuai")
        assert [(v["token"], v["verdict"]) for v in out.verdicts] == [
            ("{{#if char}}", "portable"),
            ("{{:else}}", "unknown"),
        ]
    # with its closer it is the branch, carried as one
    out = translate_text("{{#if char}}a{{#else}}b{{/else}}{{/if}}", "agnai", "sillytavern")
    assert out.text == "{{if char}}a{{else}}b{{/if}}" and [v["verdict"] for v in out.verdicts] == ["portable"]


@pytest.mark.parametrize(
    ("body", "target", "reported"),
    [
        # cautious: RisuAI would print these (inline in a body of several lines; spaced), yet the
        # target's catalog reads the spelling as its branch, so they are reported as "may read"
        ("a\nx{{:else}}b\nc", "risuai", True),
        ("a{{ :else }}b", "risuai", True),
        ("a{{:ELSE}}b", "risuai", True),
        # Agnai's else in any case is no branch into RisuAI, whose is `{{:else}}`
        ("a{{ELSE}}b", "risuai", False),
        ("a{{:ELSE}}b", "sillytavern", False),
        ("a{{ELSE}}b", "sillytavern", True),
    ],
)
def test_an_else_agnai_reads_as_text_is_reported_in_any_case_where_the_target_may_read_a_branch(
    body: str, target: str, reported: bool
) -> None:
    out = translate_text("{{#if char}}" + body + "{{/if}}", "agnai", target)
    found = [v for v in out.verdicts if v["verdict"] == "unknown"]
    assert [v["verdict"] for v in out.verdicts][:1] == ["portable"]
    assert bool(found) is reported
    assert all(f"{target} may read it as the condition's other branch" in v["note"] for v in found)


@pytest.mark.parametrize(
    ("text", "target", "written"),
    [
        # Agnai shows "ac" or "b": text after the else block is the first branch's
        ("{{#if char}}a{{#else}}b{{/else}}c{{/if}}", "sillytavern", "{{if char}}ac{{else}}b{{/if}}"),
        ("{{#if char}}a{{#else}}b{{/else}}{{user}}{{/if}}", "sillytavern", "{{if char}}a{{user}}{{else}}b{{/if}}"),
        # always false in Agnai: it always shows "b", and so does the written condition
        ("{{#if persona}}a{{#else}}b{{/else}}c{{/if}}", "sillytavern", "{{if 0}}ac{{else}}b{{/if}}"),
        # of several else blocks Agnai shows only the last (renderCondition's `.slice(-1)`)
        ("{{#if char}}a{{#else}}b{{/else}}{{#else}}d{{/else}}{{/if}}", "sillytavern", "{{if char}}a{{else}}d{{/if}}"),
        # RisuAI's else on a line of its own
        (
            "{{#if char}}a{{#else}}b{{/else}}c{{/if}}",
            "risuai",
            "{{#when {{notequal::{{char}}::}}}}ac\n{{:else}}\nb{{/when}}",
        ),
        # an else block holding macros is moved translated
        ("{{#if char}}a{{#else}}{{user}}{{/else}}c{{/if}}", "sillytavern", "{{if char}}ac{{else}}{{user}}{{/if}}"),
        ("{{#if persona}}a{{#else}}{{user}}{{/else}}c{{/if}}", "sillytavern", "{{if 0}}ac{{else}}{{user}}{{/if}}"),
        (
            "{{#if char}}a{{#else}}{{random:1,2}}{{/else}}c{{/if}}",
            "lumiverse",
            "{{if::{{char}}}}ac{{else}}{{pick::1::2}}{{/if}}",
        ),
        # the else blocks before the last are never shown: cut, their macros not translated
        (
            "{{#if char}}a{{#else}}{{user}}{{/else}}{{#else}}{{char}}x{{/else}}c{{/if}}",
            "sillytavern",
            "{{if char}}ac{{else}}{{char}}x{{/if}}",
        ),
        # a condition in the first branch moves its own else block
        (
            "{{#if char}}{{#if user}}p{{#else}}{{char}}{{/else}}q{{/if}}{{#else}}{{user}}{{/else}}c{{/if}}",
            "sillytavern",
            "{{if char}}{{if user}}pq{{else}}{{char}}{{/if}}c{{else}}{{user}}{{/if}}",
        ),
        (
            "{{#if char}}a\n{{#else}}\n{{user}}\n{{/else}}\nc\n{{/if}}",
            "risuai",
            "{{#when {{notequal::{{char}}::}}}}a\n\nc\n{{:else}}\n{{user}}\n{{/when}}",
        ),
    ],
)
def test_an_else_block_that_does_not_end_its_condition_is_written_at_its_end(
    text: str, target: str, written: str
) -> None:
    out = translate_text(text, "agnai", target)
    assert out.text == written
    assert (
        out.verdicts[0]["verdict"] == "portable" and "its else block is written at its end" in out.verdicts[0]["note"]
    )


def test_the_macros_of_a_moved_else_block_are_judged_and_those_of_an_unshown_one_are_not() -> None:
    text = "{{#if char}}a{{#else}}{{original}}{{/else}}{{#else}}{{user}}{{random:1,2}}{{/else}}c{{/if}}"
    out = translate_text(text, "agnai", "sillytavern")
    assert [v["token"] for v in out.verdicts] == ["{{#if char}}", "{{user}}", "{{random:1,2}}"]
    assert out.verdicts[0]["note"].endswith("and only the last of its else blocks")
    assert "agnai shows the text after it" in out.verdicts[0]["note"]


def test_an_else_block_at_the_end_of_its_condition_is_carried_as_the_branch() -> None:
    out = translate_text("{{#if char}}a{{#else}}b{{/else}}{{/if}}", "agnai", "sillytavern")
    assert out.text == "{{if char}}a{{else}}b{{/if}}" and out.verdicts[0]["verdict"] == "portable"


@pytest.mark.parametrize(
    ("source", "text", "written"),
    [
        # Lumiverse takes a bare word as itself: the placeholder is written as the macro it resolves
        ("agnai", "{{#if personality}}a{{/if}}", "{{if::{{personality}}}}a{{/if}}"),
        ("agnai", "{{#if persona}}a{{#else}}{{user}}{{/else}}c{{/if}}", "{{if::0}}ac{{else}}{{user}}{{/if}}"),
        ("sillytavern", "{{if description}}a{{/if}}", "{{if::{{description}}}}a{{/if}}"),
        ("sillytavern", "{{if !description}}a{{/if}}", "{{if::!{{description}}}}a{{/if}}"),
        ("sillytavern", "{{if !$flag}}a{{/if}}", "{{if::!{{getglobalvar::flag}}}}a{{/if}}"),
        # Lumiverse's .mood is a variable of one render, not SillyTavern's chat variable
        ("sillytavern", "{{if .mood}}a{{/if}}", "{{if::{{getchatvar::mood}}}}a{{/if}}"),
        ("sillytavern", "{{if !.mood::x}}", "{{if::!{{getchatvar::mood}}}}x{{/if}}"),
        ("sillytavern", "{{if off}}a{{/if}}", "{{if::0}}a{{/if}}"),
    ],
)
def test_a_condition_into_lumiverse_tests_the_value_not_the_word(source: str, text: str, written: str) -> None:
    out = translate_text(text, source, "lumiverse")
    assert out.text == written and out.verdicts[0]["verdict"] == "portable"
    judged = "{{if::0}}" in written or "{{if::1}}" in written
    said = "Lumiverse also counts 0, false, null, undefined, no and off as false" in out.verdicts[0]["note"]
    assert said is not judged


@pytest.mark.parametrize(
    "text",
    [
        # Agnai's loop takes the {{/else}} into its body: all text there, or the else holds the loop
        "{{#if char}}a{{#else}}{{#each bot}}x{{/else}}c{{/each}}{{/if}}",
        "{{#if char}}a{{#else}}{{#each bot}}x{{/else}}{{/each}}{{/else}}{{/if}}",
    ],
)
def test_an_else_block_among_closers_that_pair_with_nothing_is_not_moved(text: str) -> None:
    out = translate_text(text, "agnai", "sillytavern")
    assert out.verdicts[0]["verdict"] == "flatten"
    assert out.verdicts[0]["note"].startswith("its else block does not end it, and a closer in it pairs with nothing")


@pytest.mark.parametrize(
    ("source", "target", "text", "written"),
    [
        # Lumiverse into SillyTavern: its macros and ! as they are, a word judged now by Lumiverse's truth
        ("lumiverse", "sillytavern", "{{if::!{{char}}}}a{{/if}}", "{{if !{{char}}}}a{{/if}}"),
        ("lumiverse", "sillytavern", "{{if::description}}a{{/if}}", "{{if 1}}a{{/if}}"),
        ("lumiverse", "sillytavern", "{{if:: No }}a{{/if}}", "{{if 0}}a{{/if}}"),
        ("lumiverse", "sillytavern", "{{if::$flag}}a{{/if}}", "{{if $flag}}a{{/if}}"),
        ("lumiverse", "risuai", "{{if::null}}a{{/if}}", "{{#when 0}}a{{/when}}"),
        ("risuai", "lumiverse", "{{#when yes}}a{{/when}}", "{{if::0}}a{{/if}}"),  # only 1 and true in RisuAI
    ],
)
def test_a_lumiverse_condition_crosses_by_the_truth_it_is_judged_by(
    source: str, target: str, text: str, written: str
) -> None:
    out = translate_text(text, source, target)
    assert out.text == written and out.verdicts[-1]["verdict"] == "portable"


@pytest.mark.parametrize(
    ("source", "target", "text"),
    [
        ("lumiverse", "sillytavern", "{{if::.mood}}a{{/if}}"),  # a variable of one render
        ("lumiverse", "sillytavern", "{{if @alive}}a{{/if}}"),  # the space form's chat variable
        ("lumiverse", "risuai", "{{if @alive}}a{{/if}}"),
        ("lumiverse", "sillytavern", "{{if::$flag-}}a{{/if}}"),  # SillyTavern's shorthand ends in a word character
        ("lumiverse", "sillytavern", "{{if::x\ufeff.mood}}a{{/if}}"),  # U+FEFF is JavaScript's white space
        ("lumiverse", "sillytavern", "{{if::{{char}} == Bob}}a{{/if}}"),  # a comparison
        ("lumiverse", "risuai", "{{if::{{char}}}}a{{/if}}"),
        ("lumiverse", "agnai", "{{if::description}}a{{/if}}"),
        ("risuai", "lumiverse", "{{#when {{getvar::x}}}}a{{/when}}"),
        ("risuai", "lumiverse", "{{#when::not::{{getvar::x}}}}a{{/when}}"),
    ],
)
def test_a_lumiverse_condition_bunzai_cannot_say_is_flattened_and_reported(source: str, target: str, text: str) -> None:
    out = translate_text(text, source, target)
    assert out.verdicts[-1]["verdict"] == "flatten" and out.text.endswith("a")
