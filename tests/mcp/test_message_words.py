"""Error messages in the tools' words (bunzai.mcp.hints.MESSAGES): each template, every error message
in the code, and the values a message quotes, which are never rewritten.

The walk reads every error message bunzai can raise (message_sites, from the source with `ast`),
puts it in the tools' words, and refuses any that still names a CLI command or a `--flag`: a new
message worded for the shell fails here until bunzai/mcp/hints.py has its template. The CLI keeps
its words: it never runs the MCP layer.
"""

from __future__ import annotations

import json
import re
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st
from message_sites import message_sites
from test_hint_words import JSON, cli_commands, shell_words

from bunzai.limits import DOCS_READ_MAX, DOCS_READ_MIN, READ_PAGE_MAX, SEARCH_MAX_LIMIT
from bunzai.mcp.hints import MESSAGE_RULES, MESSAGES, advice_in_tool_words, message_in_tool_words
from mcpkit import connect, run

# (a message as the CLI says it, as the agent reads it); between them, every template is used
EXAMPLES = [
    ("--limit must be 1000 to 12000, not 5", "limit must be 1000 to 12000, not 5"),
    ("--offset must be at least 0, not -1", "offset must be at least 0, not -1"),
    (
        "permission_denied: this process cannot write the studio, so the cursor of session agent was left "
        "where it was; read on with --since 12",
        "permission_denied: this process cannot write the studio, so the cursor of session agent was left "
        "where it was; read on with since=12",
    ),
    ("--offset may not be negative", "offset may not be negative"),
    (
        "io_error: /s; the write was not done, but its change record was cut short: the change log ends with a "
        "cut-short line, which readers skip and `bunzai doctor` notes as torn",
        "io_error: /s; the write was not done, but its change record was cut short: the change log ends with a "
        "cut-short line, which readers skip and the studio's check (bunzai's doctor, run outside MCP) notes as torn",
    ),
    (f"--limit must be between 1 and {READ_PAGE_MAX}", f"limit must be between 1 and {READ_PAGE_MAX}"),
    ("give at least one --match example", "give at least one match example"),
    (
        "--on-conflict 'keep' is not one of refuse, skip, suffix",
        "on_conflict 'keep' is not one of refuse, skip, suffix",
    ),
    ("--action read needs a page", "action read needs a page"),
    ("--id 'Ada': ids are lowercase", "id 'Ada': ids are lowercase"),
    (
        "--embedded needs the character whose book to work on",
        "name the character whose book to work on: ref=character/ID#book",
    ),
    ("--layout 'flat' is not a known layout", "the layout 'flat' is not a known layout"),
    (
        "--reviewer takes an id without spaces, e.g. docs-author",
        "a reviewer is an id without spaces, e.g. docs-author",
    ),
    (
        "no studio chosen (no --studio, BUNZAI_STUDIO or bunzai.toml upward) and none at /h/.bunzai/studio",
        "no studio chosen (none given to the MCP server, BUNZAI_STUDIO or bunzai.toml upward) and none at "
        "/h/.bunzai/studio",
    ),
    (
        "BUNZAI_SESSION=a b is not a session id: bunzai labels its changes with it (and `bunzai revert` undoes "
        "them by it); nothing was written",
        "BUNZAI_SESSION=a b is not a session id: bunzai labels its changes with it (and studio_revert undoes "
        "them by it); nothing was written",
    ),
]


@pytest.mark.parametrize(("cli", "mcp"), EXAMPLES)
def test_each_example_reads_in_tool_words(cli, mcp):
    assert message_in_tool_words(cli) == mcp
    assert advice_in_tool_words({"error": {"code": "usage", "message": cli, "hint": ""}})["error"]["message"] == mcp


def test_every_template_has_an_example():
    unused = [
        cli
        for (pattern, _), (cli, _) in zip(MESSAGE_RULES, MESSAGES, strict=True)
        if not any(pattern.fullmatch(example) for example, _ in EXAMPLES)
    ]
    assert not unused, unused


# what a message may quote (a caller's argument, an author's file name), flags and commands included
QUOTED = st.text(max_size=12) | st.sampled_from(["--limit 5", "--offset", "bunzai list", "`bunzai graveyard`", ""])


@given(st.sampled_from(MESSAGES), st.lists(QUOTED, min_size=3, max_size=3))
def test_the_values_a_message_quotes_are_kept_as_they_are(template, values):
    cli, mcp = template
    count = cli.count("{}")
    assert message_in_tool_words(cli.format(*values[:count])) == mcp.format(*values[:count])


@given(st.text(max_size=60))
def test_a_message_of_no_template_is_left_whole(text):
    message = "pattern " + text  # no template opens with these words
    assert message_in_tool_words(message) == message


@given(JSON)
def test_only_advice_and_error_messages_change(value):
    """Besides hints and notes, only the message of an object under "error" and the strings of a
    "warnings" list are rewritten."""

    def strings(doc, advice=False):
        if isinstance(doc, dict):
            out = []
            for key, item in doc.items():
                if key == "error" and isinstance(item, dict):
                    item = {k: v for k, v in item.items() if k != "message"}
                if key == "warnings" and isinstance(item, list):
                    item = [warning for warning in item if not isinstance(warning, str)]
                out += strings(item, key in ("hint", "note"))
            return out
        if isinstance(doc, list):
            return [s for item in doc for s in strings(item)]
        return [] if advice and isinstance(doc, str) else [doc]

    shaped = {"error": {"code": "usage", "message": "--offset may not be negative"}, "items": [value]}
    out = advice_in_tool_words(shaped)
    assert strings(out) == strings(shaped)
    assert out["error"]["message"] == "offset may not be negative"


# --- the walk over every error message in the code ------------------------------------------------


def filled(template: str) -> str:
    """A walk template with each `{expression}` (braces nested inside it too) as a value, X."""
    out, depth = [], 0
    for char in template:
        if char == "{":
            depth += 1
            if depth == 1:
                out.append("X")
        elif char == "}" and depth:
            depth -= 1
        elif not depth:
            out.append(char)
    return "".join(out)


def named(text: str, commands: list[str]) -> list[str]:
    """The CLI forms a message holds; "a bunzai draft" names a thing, not the command."""
    return shell_words(re.sub(r"\ban? bunzai (?=\w)", "a ", text), commands)


def unmapped(sites) -> list[str]:
    commands = cli_commands()
    return [
        f"{site} -> {message_in_tool_words(filled(site.template))!r}"
        for site in sites
        if named(message_in_tool_words(filled(site.template)), commands)
    ]


def test_the_walk_finds_the_messages_worded_for_the_shell():
    """A walk that found nothing would pass: it must see the messages known to name flags."""
    sites = message_sites()
    assert len(sites) >= 400, len(sites)
    shown = {(site.path, filled(site.template)) for site in sites}
    assert ("bunzai/query/outline.py", "--offset may not be negative") in shown
    assert ("bunzai/query/outline.py", "--limit must be between 1 and X") in shown
    assert ("bunzai/query/reading.py", "--limit must be between 1 and X") in shown
    assert ("bunzai/regexlab/examples.py", "give at least one --match example") in shown
    assert ("bunzai/changes/conflicts.py", "--on-conflict X is not one of X") in shown
    commands = cli_commands()
    assert len([site for site in sites if named(filled(site.template), commands)]) >= 10


def test_no_error_message_served_over_mcp_names_a_command_or_a_flag():
    assert not unmapped(message_sites()), "\n".join(unmapped(message_sites()))


def test_a_new_message_worded_for_the_shell_fails_the_walk(tmp_path, monkeypatch):
    import hint_sites as walk
    import message_sites as messages

    package = tmp_path / "bunzai"
    (package / "query").mkdir(parents=True)
    (package / "query" / "new.py").write_text(
        textwrap.dedent(
            """
            from bunzai.errors import BunzaiError

            def _refuse(message):
                return BunzaiError("invalid_input", message, "")

            def check(width):
                raise BunzaiError("invalid_input", f"--width {width} is too wide")

            def other():
                raise _refuse("--offset may not be negative")
            """
        )
    )
    (package / "errors.py").write_text(
        "class BunzaiError(Exception):\n    def __init__(self, code, message, hint=''): ...\n"
    )
    monkeypatch.setattr(walk, "ROOT", package)
    caches = (walk.hint_takers, messages.message_sites, messages.message_takers)
    for cached in caches:
        cached.cache_clear()
    try:
        sites = messages.message_sites()
        assert {site.template for site in sites} >= {"--width {width} is too wide", "--offset may not be negative"}
        [missing] = unmapped(sites)  # the offset message has its template; the new one has none
        assert "--width" in missing and "query/new.py" in missing
    finally:
        for cached in caches:
            cached.cache_clear()


# --- end to end: the agent reads the tools' words, the CLI keeps its own -------------------------


def test_over_mcp_the_messages_name_arguments_and_the_cli_keeps_its_flags(bunzai):
    async def body():
        async with connect(bunzai.home, bunzai.studio) as client:
            said = []
            for name, arguments in (
                # a limit that depends on the action is the tool's to refuse (a fixed one is in the schema)
                ("docs_query", {"action": "read", "page": "commands/mcp", "limit": DOCS_READ_MIN - 1}),
                ("regex_lab", {"action": "from_examples"}),
                ("docs_query", {"action": "read"}),
            ):
                result = await client.call(name, arguments)
                assert result.is_error
                assert json.loads(result.content[0].text) == result.structured_content
                said.append(result.structured_content["error"]["message"])
            return said

    said = run(body)
    assert said == [
        f"limit must be {DOCS_READ_MIN} to {DOCS_READ_MAX}, not {DOCS_READ_MIN - 1}",
        "give at least one match example",
        "action read needs a page",
    ]
    cli = bunzai("docs", "read", "commands/mcp", "--limit", str(DOCS_READ_MIN - 1))
    assert (
        cli.json["error"]["message"] == f"--limit must be {DOCS_READ_MIN} to {DOCS_READ_MAX}, not {DOCS_READ_MIN - 1}"
    )
    cli = bunzai("search", "x", "--limit", str(SEARCH_MAX_LIMIT + 1))
    assert cli.code == 1 and cli.json["error"]["message"] == f"--limit must be between 1 and {SEARCH_MAX_LIMIT}"
    cli = bunzai("regex-lab", "from-examples")
    assert cli.json["error"]["message"] == "give at least one --match example"
