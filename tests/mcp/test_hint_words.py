"""Hints in the tools' words (bunzai.mcp.hints): each rule, and every hint in the code.

The walk reads every hint bunzai can raise (hint_sites, from the source with `ast`), puts it in
the tools' words, and refuses any that still names a CLI command or a `--flag`: a new hint
worded for the shell fails here until bunzai/mcp/hints.py has a rule for it.
"""

from __future__ import annotations

import re
import textwrap

import pytest
from hint_sites import hint_sites
from hypothesis import given
from hypothesis import strategies as st

from bunzai.mcp.hints import RULES, advice_in_tool_words, in_tool_words
from bunzai.tools.contract import Untrusted

# (a hint as the CLI says it, as the agent reads it); between them, every rule fires
EXAMPLES = [
    (
        "run `bunzai cap check --write` (or `make capabilities`) and commit the result",
        "the capability catalog of this bunzai install differs from its code: reinstall bunzai, or report it",
    ),
    (
        "run `bunzai docs index`",
        "the docs index of this bunzai install differs from its pages: reinstall bunzai, or report it",
    ),
    (
        "restamp: `bunzai docs summaries stamp models --reviewer AUTHOR`",
        "docs summaries are written, stamped and reviewed by bunzai's maintainers in a shell; no tool does it",
    ),
    (
        "the id is taken and apply never writes over a piece: import the file again with --on-conflict suffix to "
        "keep both (the next free -2, -3), --id to name this one (one file), or --on-conflict skip to leave it out",
        "the id is taken and apply never writes over a piece: import the file again with folder_import "
        "on_conflict=suffix to keep both (the next free -2, -3), or on_conflict=skip to leave it out",
    ),
    (
        "make the draft again under another id (`bunzai create --id`, `bunzai duplicate REF NEW_ID`) to keep both; "
        "to change the stored piece, make an update draft (`bunzai cap run`)",
        "make the draft again under another id (the kind's create capability tool, studio.KIND.create, with "
        "id=NEW_ID) to keep both; to change the stored piece, make an update draft (a capability tool, found "
        "with capability_find)",
    ),
    (
        "pipe a draft in, e.g. `bunzai create ... | bunzai apply`",
        "name a draft: draft-N from a capability tool, or a saved draft's name",
    ),
    ("pipe a file in, e.g. `bunzai import - < card.png`", "give folder_import a file in a granted folder"),
    (
        "drafts come from `bunzai create`, `import`, `duplicate` or `cap run`",
        "drafts come from capability tools (capability_find reveals them) and folder_import",
    ),
    (
        "grant the folders you search in, further down, in place of this one: "
        "`bunzai folder grant /home/me/ST/SUBFOLDER`, then `bunzai folder revoke /home/me/ST`",
        "only the person can grant a folder: ask them to grant the folders you search in, further down in "
        "/home/me/ST, in place of /home/me/ST",
    ),
    (
        "grant the folder that really holds it first: `bunzai folder grant /home/me/cards`",
        "only the person can grant a folder: ask them to grant /home/me/cards, the folder that really holds it",
    ),
    (
        "grant the folder it is in first (or the nearest one above it, if that folder does not exist): "
        "`bunzai folder grant /home/me/cards`",
        "only the person can grant a folder: ask them to grant /home/me/cards, the folder it is in (or the nearest "
        "one above it, if that folder does not exist)",
    ),
    (
        "no folder /home/me/gone exists: grant the nearest one above it first: `bunzai folder grant /home/me`",
        "only the person can grant a folder: ask them to grant /home/me, the nearest folder above /home/me/gone "
        "that exists",
    ),
    (
        "a link does not carry a path out of a grant: give a path that stays inside, or grant the folder the link "
        "leads to with `bunzai folder grant`",
        "a link does not carry a path out of a grant: give a path that stays inside, or ask the person to grant the "
        "folder the link leads to (only they can grant a folder)",
    ),
    (
        "read a file in it by its path (`bunzai folder read /home/me/ST/NAME`), or import it whole "
        "(`bunzai folder import /home/me/ST`: an import walks any number of files)",
        "import it whole with folder_import paths=[/home/me/ST] (an import walks any number of files), or a file "
        "in it by its path",
    ),
    (
        "see `bunzai folder list`",
        "only the person grants folders: ask them to grant it, or search those granted with folder_search",
    ),
    (
        "create one with `bunzai init /s`, or give --studio DIR",
        "ask the person to create a studio at /s and to serve it with bunzai's MCP server",
    ),
    (
        "a session id is 1 to 64 letters; set BUNZAI_SESSION, or pass --session",
        "a session id is 1 to 64 letters; set BUNZAI_SESSION in the MCP server's environment",
    ),
    ("leave out --format to let bunzai recognise the file", "let bunzai recognise the file"),
    ("import it without --format", "import it without naming its format"),
    (
        "add --context ID (a context preset, e.g. default-context)",
        "give preset_verify context=ID (a context preset, e.g. default-context)",
    ),
    ("give a sysprompt preset to --sysprompt", "give a sysprompt preset as preset_verify's sysprompt"),
    (
        "give a sysprompt template (--sysprompt ID) or turn the system prompt off (--no-sysprompt), not both",
        "give a sysprompt template (sysprompt=ID) or turn the system prompt off (sysprompt_off=true), not both",
    ),
    (
        "see `bunzai mcp` tools/list or docs/mcp.md",
        "tools/list names the tools; docs_query action=read page=mcp-tools",
    ),
    (
        "did you mean character/ada? (see `bunzai list`)",
        "did you mean character/ada? (studio_list shows the pieces the studio holds)",
    ),
    ("see `bunzai read` for its media", "see studio_art for its media"),
    (
        "check the disk; `bunzai read character/ada` shows whether it is there",
        "check the disk; studio_read ref=character/ada shows whether it is there",
    ),
    (
        "check the disk; `bunzai graveyard list` shows whether it is there",
        "check the disk; studio_graveyard shows whether it is there",
    ),
    ("see `bunzai cap describe lorebook.entries.update`", "see capability_find describe=lorebook.entries.update"),
    ("start from `bunzai cap browse`; domains: content", 'start from capability_find browse=""; domains: content'),
    ("e.g. `bunzai cap browse content/character`", "e.g. capability_find browse=content/character"),
    ("see `bunzai cap find --kind preset ...`", "see capability_find query=... kind=preset"),
    ("see `bunzai cap find WORDS`", "see capability_find query=WORDS"),
    (
        "e.g. bunzai cap run lorebook.entries.update character/ID#book --input ...",
        "e.g. cap_lorebook_entries_update ref=character/ID#book input={...}",
    ),
    (
        "run this through `bunzai cap run`, which loads `source`",
        "run this through preset_copy_blocks, which loads `source`",
    ),
    ("see `bunzai docs browse`", "see docs_query action=browse"),
    ("see `bunzai docs search WORDS`", 'see docs_query action=search query="WORDS"'),
    ("e.g. bunzai docs search export containment", 'e.g. docs_query action=search query="export containment"'),
    ("see `bunzai docs outline model`", "see docs_query action=outline page=model"),
    (
        "e.g. bunzai docs query --action read --page commands/import",
        "e.g. docs_query action=read page=commands/import",
    ),
    (
        "see `bunzai schema KIND` for the fields",
        "see docs_query action=read page=model section=the-nine-kinds for the fields",
    ),
    ("see `bunzai schema promptbook`", "see docs_query action=read page=model section=promptbook-rules"),
    (
        "check the spelling, or list an engine's macros with `bunzai macro engines`",
        "check the spelling, or see the engines bunzai knows with docs_query action=read page=macros section=engines",
    ),
    ("e.g. bunzai regex-lab race 'a+' 'a*' --text aaa", "e.g. regex_lab action=race patterns=['a+', 'a*'] text=aaa"),
    ("e.g. bunzai regex-lab from-examples --match '*waves*'", "e.g. regex_lab action=from_examples match='*waves*'"),
    ("and see `bunzai regex-lab lint`", "and see regex_lab action=lint"),
    ("see `bunzai graveyard`", "see studio_graveyard"),
    ("until then so does `bunzai art` for its portrait", "until then so does studio_art for its portrait"),
    ("a receipt or `bunzai read` gives", "a receipt or studio_read gives"),
    ("see `bunzai draft list`", "see change_query"),
    ("(see `bunzai changes`)", "(see studio_changes)"),
    ("as `bunzai import` does", "as folder_import does"),
    ("engines: see `bunzai macro-lookup`", "engines: see macro_lookup"),
    ("see `bunzai formats`", "see docs_query action=read page=formats/index"),
    # flags: an argument with its value, a boolean, one followed by a word that is not its value
    ("start again from --offset 0", "start again from offset=0"),
    ("read again with --since 42 for the rest", "read again with since=42 for the rest"),
    ("give one with --id, e.g. --id my-character", "give one with the id argument, e.g. id=my-character"),
    ("use --outline to see what is there", "use outline=true to see what is there"),
    ('e.g. --input \'{"name": "Ada"}\'', 'e.g. input={"name": "Ada"}'),
    ("give --character and --preset for phases", "give the character argument and the preset argument for phases"),
]


def fired(text: str) -> tuple[str, set[int]]:
    """The rules, one by one as in_tool_words applies them: the text after, and which changed it."""
    hits = set()
    for index, (pattern, replacement) in enumerate(RULES):
        after = pattern.sub(replacement, text)
        if after != text:
            hits.add(index)
        text = after
    return text, hits


@pytest.mark.parametrize(("cli", "mcp"), EXAMPLES)
def test_each_example_reads_in_tool_words(cli, mcp):
    assert in_tool_words(cli) == mcp
    assert fired(cli)[0] == mcp


def test_every_rule_has_an_example():
    hits = set().union(*(fired(cli)[1] for cli, _ in EXAMPLES))
    unused = [RULES[index][0].pattern for index in range(len(RULES)) if index not in hits]
    assert not unused, unused


def test_a_flag_no_tool_takes_is_left_for_the_walk_to_catch():
    assert in_tool_words("give --studio DIR") == "give --studio DIR"
    assert in_tool_words("see `bunzai doctor`") == "see `bunzai doctor`"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["hint", "note", "text", "message"]), inner, max_size=4)
    ),
    max_leaves=12,
)
SHELL_WORDS = st.sampled_from([cli for cli, _ in EXAMPLES])


@given(st.dictionaries(st.sampled_from(["hint", "note", "data"]), JSON | SHELL_WORDS, max_size=3))
def test_what_authors_wrote_is_never_rewritten(value):
    """Inside an Untrusted value (the envelope's data), a "hint" is the author's text, kept as written."""
    out = advice_in_tool_words({"piece": Untrusted(value), "items": [Untrusted(value)]})
    assert out["piece"].value is value and out["items"][0].value is value


@given(JSON)
def test_only_hint_and_note_strings_change(value):
    def strings(doc, advice=False):
        if isinstance(doc, dict):
            return [s for key, item in doc.items() for s in strings(item, key in ("hint", "note"))]
        if isinstance(doc, list):
            return [s for item in doc for s in strings(item)]
        return [] if advice and isinstance(doc, str) else [doc]

    assert strings(advice_in_tool_words(value)) == strings(value)


def test_hints_and_notes_are_rewritten_and_authors_text_is_not():
    author = {"hint": "see `bunzai graveyard`", "note": "--offset 5"}
    doc = {
        "error": {
            "code": "stale",
            "hint": "see `bunzai graveyard`",
            "details": {"receipts": [{"hint": "use --outline to see what is there", "message": "--offset 1"}]},
        },
        "note": "read again with --since 7 for the rest",
        "piece": Untrusted(author),
        "message": "see `bunzai graveyard`",
    }
    out = advice_in_tool_words(doc)
    assert out["error"]["hint"] == "see studio_graveyard"
    assert out["error"]["details"]["receipts"][0] == {
        "hint": "use outline=true to see what is there",
        "message": "--offset 1",
    }
    assert out["note"] == "read again with since=7 for the rest"
    assert out["piece"].value == author  # the authors' words, untouched
    assert out["message"] == doc["message"]


# --- the walk over every hint in the code ------------------------------------------------


def cli_commands() -> list[str]:
    import typer

    from bunzai.cli.app import app

    return sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def shell_words(text: str, commands: list[str]) -> list[str]:
    """The CLI forms a hint still holds: `bunzai COMMAND` and `--flag` (a `--{placeholder}` too)."""
    command = re.compile(r"\bbunzai (?:" + "|".join(map(re.escape, commands)) + r")(?![\w.-])")
    return command.findall(text) + re.findall(r"(?<![\w-])--[a-z{][\w{}.-]*", text)


def unmapped(sites) -> list[str]:
    commands = cli_commands()
    return [
        f"{site} -> {in_tool_words(site.template)!r}"
        for site in sites
        if shell_words(in_tool_words(site.template), commands)
    ]


def test_the_walk_finds_the_hints_worded_for_the_shell():
    """A walk that found nothing would pass: it must see the hints known to name commands and flags."""
    sites = hint_sites()
    commands = cli_commands()
    worded = [site for site in sites if shell_words(site.template, commands)]
    assert len(worded) >= 70, len(worded)
    shown = {(site.path, site.template) for site in sites}
    assert ("bunzai/store/graveyard.py", "see `bunzai graveyard`") in shown
    assert ("bunzai/store/pieces.py", "see `bunzai list`") in shown  # through the module constant
    assert any(
        path == "bunzai/changes/apply.py" and "--on-conflict" in text for path, text in shown
    )  # a helper's return
    assert any(path == "bunzai/query/pointer.py" and "--outline" in text for path, text in shown)


def test_no_hint_served_over_mcp_names_a_command_or_a_flag():
    assert not unmapped(hint_sites()), "\n".join(unmapped(hint_sites()))


def test_no_hint_changes_on_a_second_pass():
    for site in hint_sites():
        once = in_tool_words(site.template)
        assert in_tool_words(once) == once, site


def test_a_new_hint_worded_for_the_shell_fails_the_walk(tmp_path, monkeypatch):
    import hint_sites as walk

    package = tmp_path / "bunzai"
    (package / "store").mkdir(parents=True)
    (package / "store" / "new.py").write_text(
        textwrap.dedent(
            """
            from bunzai.errors import BunzaiError

            REPAIR = "run `bunzai doctor --repair`"

            def refuse_it(message, *, hint=""):
                return BunzaiError("invalid_input", message, hint)

            def check():
                raise BunzaiError("stale", "it changed", REPAIR)

            def other():
                raise refuse_it("no", hint="see `bunzai graveyard`")
            """
        )
    )
    (package / "errors.py").write_text(
        "class BunzaiError(Exception):\n    def __init__(self, code, message, hint=''): ...\n"
    )
    monkeypatch.setattr(walk, "ROOT", package)
    for cached in (walk.hint_sites, walk.hint_takers):
        cached.cache_clear()
    try:
        sites = walk.hint_sites()
        worded = {site.template for site in sites if "bunzai" in site.template}
        assert worded == {"run `bunzai doctor --repair`", "see `bunzai graveyard`"}
        [missing] = unmapped(sites)  # the graveyard hint has its rule; the new one has none
        assert "run `bunzai doctor --repair`" in missing and "store/new.py" in missing
    finally:
        for cached in (walk.hint_sites, walk.hint_takers):
            cached.cache_clear()
