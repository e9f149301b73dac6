"""What Agnai reads in a loop's body (common/grammar.ts at agnai 2421510e). BotChild, HistoryChild
and ChatEmbedChild are the loop's own fields and ManyPlaceholder (`{{char}}`, `{{user}}`,
`{{random}}`, `{{roll}}`, no pipe); anything else is LoopText, so `{{scenario}}` in
`{{#each msg}}` is printed as written. LoopText stops at another loop's field and at `{{/if}}`:
the loop then fails, and the grammar reads its opener, closer and fields as text and the rest
of its body as if no loop were there (`{{scenario}}` is then the scenario). Each reading was
checked by compiling that grammar with peggy 3.0.2 and parsing the case."""

from __future__ import annotations

import pytest

from bunzai.macros.translate import translate_text


def _ops(text: str, target: str = "sillytavern") -> list[tuple[str, str | None]]:
    return [(v["token"], v["op"]) for v in translate_text(text, "agnai", target).verdicts]


def test_only_the_loop_placeholders_are_read_in_a_loop() -> None:
    text = "{{#each msg}}{{scenario}} {{char}} {{user}} {{random: a, b}} {{roll 2d6}} {{char | upper}}{{/each}}"
    assert _ops(text, "lumiverse") == [
        ("{{#each msg}}", "loop.each_history"),
        ("{{scenario}}", None),
        ("{{char}}", "char.name"),
        ("{{user}}", "user.name"),
        ("{{random: a, b}}", "random.pick"),
        ("{{roll 2d6}}", "dice.roll"),
        ("{{char | upper}}", None),
    ]


def test_the_verdict_says_why_a_placeholder_is_text_there() -> None:
    found = translate_text("{{#each bot}}{{scenario}}{{/each}}", "agnai", "lumiverse").verdicts
    assert found[1]["note"].startswith("agnai reads this as text in the body of #each, which takes only char.name")


@pytest.mark.parametrize(
    ("text", "stop"),
    [
        ("{{#each bot}}{{scenario}} {{.msg}} {{.name}} {{char}}{{/each}}", "{{.msg}}"),
        ("{{#each bot}}{{i}}{{/each}}", "{{i}}"),  # HistoryRef's dot is optional
        ("{{#each chat_embed}}{{.personality}}{{/each}}", "{{.personality}}"),
        ("{{#each msg}}{{#if scenario}}x{{/if}}{{/each}}", "{{/if}}"),
        ("{{#each msg}}{{#if .isuser}}{{char}}{{/if}}{{/each}}", "{{char}}"),  # HistoryCondition: fields alone
        # ChatEmbedChild has no condition: an `{{#if}}` on its own field is LoopText there, its closer a stop
        ("{{#each chat_embed}}{{#if .name}}x{{/if}}{{.text}}{{/each}}", "{{/if}}"),
        ("{{#each ltm}}{{#if .i}}{{char}}{{/if}}{{/each}}", "{{/if}}"),  # not {{char}}: no condition there
    ],
)
def test_another_loops_field_or_an_if_closer_makes_the_whole_loop_text(text: str, stop: str) -> None:
    out = translate_text(text, "agnai", "lumiverse")
    opener = out.verdicts[0]
    assert opener["verdict"] == "unknown" and opener["op"] is None
    assert opener["note"].startswith(f"agnai reads this block as text, as its body holds {stop}")
    assert out.text.startswith(text[: text.index("}}") + 2])  # the opener is left as written


def test_in_a_loop_read_as_text_the_body_is_read_as_if_no_loop_were_there() -> None:
    text = "{{#each bot}}{{scenario}} {{.msg}} {{.name}} {{char}}{{/each}}"
    assert _ops(text)[1:] == [
        ("{{scenario}}", "card.scenario"),
        ("{{.msg}}", None),
        ("{{.name}}", None),
        ("{{char}}", "char.name"),
    ]


def test_a_field_condition_keeps_the_loop() -> None:
    found = _ops("{{#each msg}}{{#if .isuser}}{{.name}}{{/if}}{{/each}}")
    assert found[0] == ("{{#each msg}}", "loop.each_history")


def test_into_agnai_a_placeholder_its_loop_does_not_read_is_said_so() -> None:
    out = translate_text("{{foreachMessage}}{{scenario}} {{char}}{{/foreachMessage}}", "lumiverse", "agnai")
    assert out.text == "{{#each msg}} {{char}}{{/each}}"
    verdict = out.verdicts[1]
    assert verdict["verdict"] == "absent"
    assert verdict["note"].startswith("agnai reads no card.scenario in the body of #each")


def test_the_command_reads_the_loop_as_agnai_does(bare_bunzai) -> None:
    args = ("macro", "translate", "--from", "agnai", "--to", "lumiverse")
    doc = bare_bunzai(*args, input="{{#each msg}}{{scenario}}{{/each}}").json
    assert [(v["verdict"], v["op"]) for v in doc["verdicts"]] == [("portable", "loop.each_history"), ("unknown", None)]
    assert doc["text"] == "{{foreachMessage}}{{scenario}}{{/foreachMessage}}"
