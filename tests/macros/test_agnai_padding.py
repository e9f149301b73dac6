"""Agnai reads a token only with spaces around its name, as its template grammar has it
(common/grammar.ts at agnai 2421510e): `OP = "{{" WS`, `CL = WS "}}"`, `WS = " "*`, each
keyword followed by `WS` before its argument; only a pipe's `|` may have tabs around it
(`_ = [ \\t]*`). `#if` and `#each` are matched in that case alone (`"#if"`, `"#each"`, no `i`);
the other keywords and the closers in any case. `{{name}}` is no word of the grammar: prompt.ts's
BOT_REPLACE, /(\\{\\{char\\}\\}|\\{\\{name\\}\\})/gi, replaces it written exactly so, in any case.
Each reading was checked by compiling that grammar with peggy 3 and parsing the case."""

from __future__ import annotations

import pytest

from bunzai.macros.translate import translate_text

TEXT_IN_AGNAI = [
    "{{\tchar}}",
    "{{\nchar}}",
    "{{char\t}}",
    "{{char\u00a0}}",
    "{{\u3000char}}",
    "{{char | upper\t}}",
    "{{roll\t2d6}}",
    "{{random:\ta, b}}",
    "{{ name }}",
    "{{name }}",
    "{{name | upper}}",
    "{{#IF char}}x{{/if}}",
    "{{#Each bot}}x{{/each}}",
    "{{#if\tchar}}x{{/if}}",
    "{{#if char}}x{{/if\t}}",
    "{{#lowpriority\t}}x{{/lowpriority}}",
]


@pytest.mark.parametrize("written", TEXT_IN_AGNAI)
def test_agnai_prints_it_as_text(written: str) -> None:
    out = translate_text(written, "agnai", "sillytavern")
    assert out.text == written
    assert [v["verdict"] for v in out.verdicts] == ["unknown"]


READ_IN_AGNAI = [
    ("{{ char }}", "{{char}}"),
    ("{{CHAR}}", "{{char}}"),
    ("{{user  }}", "{{user}}"),
    ("{{char\t|\tupper}}", "{{char}}"),
    ("{{ roll 2d6 }}", "{{roll::2d6}}"),
    ("{{NAME}}", "{{char}}"),
    ("{{#INSERT 3 }}x{{/insert}}", None),
    ("{{ #LowPriority }}x{{/lowpriority}}", None),
    ("{{#if char}}x{{/IF}}", None),
]


@pytest.mark.parametrize(("written", "crossed"), READ_IN_AGNAI)
def test_agnai_reads_it(written: str, crossed: str | None) -> None:
    out = translate_text(written, "agnai", "sillytavern")
    assert "unknown" not in [v["verdict"] for v in out.verdicts]
    if crossed is not None:
        assert out.text == crossed


EACH = [
    ("bot", "loop.each_char"),
    ("bots", "loop.each_char"),
    ("BOT", "loop.each_char"),
    ("msg", "loop.each_history"),
    ("msgs", "loop.each_history"),
    ("messages", "loop.each_history"),
    ("history", "loop.each_history"),
    ("chat_embed", "x.agnai.each_chat_embed"),
    ("ltm", "x.agnai.each_chat_embed"),
    ("Long_Memory", "x.agnai.each_chat_embed"),
    ("longterm_memory", "x.agnai.each_chat_embed"),
    ("long_term_memory", "x.agnai.each_chat_embed"),
]


@pytest.mark.parametrize(("what", "op"), EACH)
def test_each_reads_every_spelling_of_what_it_loops_over(what: str, op: str) -> None:
    # grammar.ts: Bots = "bots"i / "bot"i; History = "history"i / "messages"i / "msgs"i / "msg"i;
    # ChatEmbed = "chat_embed"i / "ltm"i / "long_memory"i / "longterm_memory"i / "long_term_memory"i
    [verdict] = translate_text(f"{{{{#each {what}}}}}x{{{{/each}}}}", "agnai", "sillytavern").verdicts
    assert (verdict["verdict"], verdict["op"]) == ("flatten", op)


PHRASES = [  # DelimitedWords = Phrase ("," WS Phrase)*, each Phrase quoted or comma-free (grammar.ts)
    ('{{random: "a, b", c}}', ["a, b", "c"]),
    ('{{random: a"b, c}}', ['a"b', "c"]),
    ('{{random: "", c}}', ['""', "c"]),
    ('{{random: a, "b"}}', ["a", "b"]),
    ("{{random:a,b | upper}}", ["a", "b | upper"]),
    ("{{random: a ,b}}", ["a", "b"]),
]


@pytest.mark.parametrize(("written", "items"), PHRASES)
def test_random_items_are_agnais_phrases(written: str, items: list[str]) -> None:
    from bunzai.macros.catalog import catalog_for
    from bunzai.macros.syntax import parse_token

    assert parse_token(written, 0, catalog_for("agnai").syntax).args == items


@pytest.mark.parametrize(
    "written",
    [
        "{{random: café, b}}",  # a phrase holds ASCII letters, digits, its symbols and spaces alone
        "{{random: a,,b}}",  # no empty phrase
        "{{random: , b}}",
        "{{random: a{b, c}}",
        '{{random: "a" b, c}}',  # a quoted phrase ends the item
        "{{random: {{user}}, b}}",  # no nesting: a brace is no phrase character
        "{{#if café}}x{{/if}}",
    ],
)
def test_a_list_agnai_cannot_read_is_text(written: str) -> None:
    out = translate_text(written, "agnai", "sillytavern")
    assert out.text == written
    assert {v["verdict"] for v in out.verdicts} == {"unknown"}


def test_an_item_with_a_comma_is_written_quoted() -> None:
    # QuotedPhrase = '"' (BasicChar / Symbol / "," / " ")+ '"': Agnai reads "a, b" as one item
    out = translate_text("{{random::a, b::c}}", "sillytavern", "agnai")
    assert out.text == '{{random: "a, b", c}}'
    assert [v["verdict"] for v in out.verdicts] == ["portable"]
