"""Hints in the tools' words: what an error (or a result's note) tells an agent to do next.

bunzai's hints are written for a person at a shell: "see `bunzai graveyard`", "import the file
again with --on-conflict suffix". An agent over MCP has no shell; it calls tools. Every result
and error the server answers goes through `advice_in_tool_words`, which rewrites the `hint` and
`note` strings bunzai wrote (never what a piece's authors wrote: that stays inside its envelope)
with `in_tool_words`: RULES, in order, each applied once over the whole text:

- a command with a tool becomes the tool and its arguments (`bunzai cap describe X` ->
  `capability_find describe=X`, `bunzai list` -> `studio_list`);
- a step no tool takes (granting a folder, a maintainer's regeneration) becomes what to ask
  the person, or is dropped;
- last, a `--flag` that names a tool argument becomes that argument: `--offset 0` ->
  `offset=0`, `--outline` -> `outline=true`, `--pointer` -> `the pointer argument`.

A CLI form no rule knows is left as it is: tests/mcp/test_hint_words.py reads every hint in the
code and fails on one, so a new CLI-worded hint comes with its rule here.

An error's `message` may quote what the caller or a piece's authors wrote (a pattern, a file name),
so rules are not run over it: a message whose whole text has the shape of one of MESSAGES (a template
of a message worded for a shell, `--limit must be between 1 and {}`) is given that template's MCP
words (`limit must be between 1 and {}`), with the values it quotes kept as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from bunzai.store.pieces import LIST_HINT_MCP

# The result and error keys whose strings are bunzai's advice (an error's hint, a receipt's hint,
# a report's note); other strings are data and are never rewritten.
ADVICE_KEYS = ("hint", "note")

# Commands whose tool takes no argument the hint would need.
RENAMED = {
    "list": "studio_list",
    "read": "studio_read",
    "graveyard": "studio_graveyard",
    "changes": "studio_changes",
    "draft list": "change_query",
    "import": "folder_import",
    "macro-lookup": "macro_lookup",
    "formats": "docs_query action=read page=formats/index",
}

# Words that follow a flag without being its value ("--outline to see", "--character and --preset").
_NOT_VALUES = frozenset({"a", "an", "and", "first", "for", "from", "in", "of", "on", "or", "the", "then", "to", "with"})


def _cap_tool(match: re.Match) -> str:
    from bunzai.tools.capability_tools import tool_name  # lazy: the tools are imported when a hint needs them

    return f"{tool_name(match[1])} ref={match[2]} input={{...}}"


def _cap_find(match: re.Match) -> str:
    return f"capability_find query={match[2]}" + (f" kind={match[1]}" if match[1] else "")


def _race(match: re.Match) -> str:
    return "regex_lab action=race patterns=[" + ", ".join(re.findall(r"'[^']*'", match[1])) + "] "


def _schema(match: re.Match) -> str:
    section = "promptbook-rules" if match[1] == "promptbook" else "the-nine-kinds"
    return f"docs_query action=read page=model section={section}"


def _docs_search(match: re.Match) -> str:
    return f'docs_query action=search query="{(match[1] or match[2]).strip()}"'


def _flag(match: re.Match) -> str:
    """`--name [value]` as the tool argument it names; left as it is when no tool takes one."""
    name, value = match[1].replace("-", "_"), match[2]
    names, booleans = _arguments()
    if name not in names:
        return match[0]
    rest = ""
    if value is not None and value.lower() in _NOT_VALUES:
        value, rest = None, " " + match[2]
    if value is None:
        return (f"{name}=true" if name in booleans else f"the {name} argument") + rest
    if value[:1] == "'" and value[1:2] in "{[":  # shell quotes around a JSON value
        value = value[1:-1]
    return f"{name}={value}"


@lru_cache(maxsize=1)
def _arguments() -> tuple[frozenset, frozenset]:
    """(every argument name a tool takes, those that are booleans): the tools' and the capability tools'."""
    from bunzai.tools.capability_tools import CapabilityArgs  # lazy: as in _cap_tool
    from bunzai.tools.discovery import all_tools

    schemas = [tool.input_schema() for tool in all_tools()] + [CapabilityArgs.model_json_schema()]
    properties = [item for schema in schemas for item in schema.get("properties", {}).items()]
    return (
        frozenset(name for name, _ in properties),
        frozenset(name for name, spec in properties if spec.get("type") == "boolean"),
    )


Replacement = str | Callable[[re.Match], str]

# (pattern, replacement), applied in this order; specific phrases before the commands they hold,
# flags last. tests/mcp/test_hint_words.py gives each rule an example.
RULES: tuple[tuple[re.Pattern, Replacement], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        # maintainer steps: an installed copy out of step with itself, or docs summaries
        (
            r"run `bunzai cap check --write`.*",
            "the capability catalog of this bunzai install differs from its code: reinstall bunzai, or report it",
        ),
        (
            r"run `bunzai docs index`.*",
            "the docs index of this bunzai install differs from its pages: reinstall bunzai, or report it",
        ),
        (
            r".*(?:bunzai docs summaries|--notes|--reviewer)\b.*",
            "docs summaries are written, stamped and reviewed by bunzai's maintainers in a shell; no tool does it",
        ),
        # a create onto a taken id
        (
            r"import the file again with --on-conflict suffix to keep both \(the next free -2, -3\), --id to name "
            r"this one \(one file\), or --on-conflict skip to leave it out",
            "import the file again with folder_import on_conflict=suffix to keep both (the next free -2, -3), "
            "or on_conflict=skip to leave it out",
        ),
        (
            r"\(`bunzai create --id`, `bunzai duplicate REF NEW_ID`\)",
            "(the kind's create capability tool, studio.KIND.create, with id=NEW_ID)",
        ),
        # what only a shell has: standard input, the studio, granted folders, the session
        (
            r"pipe a draft in, e.g. `bunzai create \.\.\. \| bunzai apply`",
            "name a draft: draft-N from a capability tool, or a saved draft's name",
        ),
        (r"pipe a file in, e.g. `bunzai import - < card\.png`", "give folder_import a file in a granted folder"),
        (
            r"drafts come from `bunzai create`, `import`, `duplicate` or `cap run`",
            "drafts come from capability tools (capability_find reveals them) and folder_import",
        ),
        (
            r"grant the folders you search in, further down, in place of this one: "
            r"`bunzai folder grant ([^`]+)/SUBFOLDER`, then `bunzai folder revoke [^`]+`",
            r"only the person can grant a folder: ask them to grant the folders you search in, further down in "
            r"\1, in place of \1",
        ),
        (
            r"grant the folder that really holds it first: `bunzai folder grant ([^`]+)`",
            r"only the person can grant a folder: ask them to grant \1, the folder that really holds it",
        ),
        (
            r"grant the folder it is in first \(or the nearest one above it, if that folder does not exist\): "
            r"`bunzai folder grant ([^`]+)`",
            r"only the person can grant a folder: ask them to grant \1, the folder it is in (or the nearest one "
            r"above it, if that folder does not exist)",
        ),
        (
            r"no folder (.+?) exists: grant the nearest one above it first: `bunzai folder grant ([^`]+)`",
            r"only the person can grant a folder: ask them to grant \2, the nearest folder above \1 that exists",
        ),
        (
            r"or grant the folder the link leads to with `bunzai folder grant`",
            "or ask the person to grant the folder the link leads to (only they can grant a folder)",
        ),
        (
            r"read a file in it by its path \(`bunzai folder read [^`]+/NAME`\), or import it whole "
            r"\(`bunzai folder import ([^`]+)`: an import walks any number of files\)",
            r"import it whole with folder_import paths=[\1] (an import walks any number of files), or a file in "
            r"it by its path",
        ),
        (
            r"see `bunzai folder list`",
            "only the person grants folders: ask them to grant it, or search those granted with folder_search",
        ),
        (
            r"create one with `bunzai init ([^`]+)`(?:, or give --studio DIR)?",
            r"ask the person to create a studio at \1 and to serve it with bunzai's MCP server",
        ),
        (r"; set (\S+), or pass --session", r"; set \1 in the MCP server's environment"),
        (r"leave out --format to let bunzai", "let bunzai"),
        (r"without --format", "without naming its format"),
        (
            r"add --context ID \(a context preset, e\.g\. default-context\)",
            "give preset_verify context=ID (a context preset, e.g. default-context)",
        ),
        (r"give (an? \S+ preset) to --(\S+)", r"give \1 as preset_verify's \2"),
        (
            r"see `bunzai mcp` tools/list or docs/mcp\.md",
            "tools/list names the tools; docs_query action=read page=mcp-tools",
        ),
        # commands that have a tool
        (r"see `bunzai list`", LIST_HINT_MCP),
        (r"see `bunzai read` for its media", "see studio_art for its media"),
        (r"`bunzai read ([^\s`]+)`", r"studio_read ref=\1"),  # before the bare command below takes `bunzai read
        (r"`bunzai graveyard list`", "studio_graveyard"),
        (r"`bunzai art`", "studio_art"),
        (r"`?bunzai cap describe ([^\s`]+)`?", r"capability_find describe=\1"),
        (r"`?bunzai cap browse(?: ([^\s`]+))?`?", lambda m: "capability_find browse=" + (m[1] or '""')),
        (r"`?bunzai cap find(?: --kind ([^\s`]+))? ([^\s`]+)`?", _cap_find),
        (r"`?bunzai cap run ([^\s`]+) ([^\s`]+) --input \.\.\.`?", _cap_tool),
        (r"run this through `bunzai cap run`", "run this through preset_copy_blocks"),
        (r"`bunzai cap run`", "a capability tool, found with capability_find"),
        (r"`bunzai docs browse`", "docs_query action=browse"),
        (r"`bunzai docs search ([^`]+)`|bunzai docs search (.+)$", _docs_search),
        (r"`?bunzai docs outline ([^\s`]+)`?", r"docs_query action=outline page=\1"),
        (r"bunzai docs query --action (\S+) --page (\S+)", r"docs_query action=\1 page=\2"),
        (r"`bunzai schema (\w+)`", _schema),
        (
            r"list an engine's macros with `bunzai macro engines`",
            "see the engines bunzai knows with docs_query action=read page=macros section=engines",
        ),
        (r"bunzai regex-lab race ((?:'[^']*' )+)", _race),
        (r"`?bunzai regex-lab ([a-z-]+)`?", lambda m: "regex_lab action=" + m[1].replace("-", "_")),
        (
            r"`?bunzai (list|read|graveyard|changes|draft list|import|macro-lookup|formats)`?(?![\w-])",
            lambda m: RENAMED[m[1]],
        ),
        # a switch-off flag whose argument is named for what it turns off (render's and preset_verify's)
        (r"(?<![\w-])--no-sysprompt\b", "sysprompt_off=true"),
        # flags: last, so the phrases above keep theirs
        (r"(?<![\w-])--([a-z][a-z0-9-]*)(?: ('[^']*'|\"[^\"]*\"|[^\s,;)`]+))?", _flag),
    )
)


# An error message bunzai words for a shell, as a template (`{}` stands for a value the message
# quotes), and the same message in the tools' words; a message is rewritten only when the whole of it
# has a template's shape, and the values it quotes are kept as they are.
# tests/mcp/test_message_words.py reads every error message in the code and gives each one an example.
MESSAGES: tuple[tuple[str, str], ...] = (
    ("--offset may not be negative", "offset may not be negative"),
    ("--offset must be {}, not {}", "offset must be {}, not {}"),  # docs_query's bounds (docs/query.py _bounded)
    ("--limit must be {}, not {}", "limit must be {}, not {}"),
    ("--limit must be between 1 and {}", "limit must be between 1 and {}"),
    ("give at least one --match example", "give at least one match example"),
    ("--on-conflict {} is not one of {}", "on_conflict {} is not one of {}"),
    ("--action {} needs a page", "action {} needs a page"),
    ("--id {}: {}", "id {}: {}"),
    (
        "--embedded needs the character whose book to work on",
        "name the character whose book to work on: ref=character/ID#book",
    ),
    ("--layout {} is not a known layout", "the layout {} is not a known layout"),
    ("--reviewer takes an id without spaces, e.g. docs-author", "a reviewer is an id without spaces, e.g. docs-author"),
    (
        "no studio chosen (no --studio, {} or {} upward) and none at {}",
        "no studio chosen (none given to the MCP server, {} or {} upward) and none at {}",
    ),
    (
        "{} is not a session id: bunzai labels its changes with it (and `bunzai revert` undoes them by it); "
        "nothing was written",
        "{} is not a session id: bunzai labels its changes with it (and studio_revert undoes them by it); "
        "nothing was written",
    ),
    # a change record the disk left cut short (store/changelog.py _Log._cut_back); no tool runs doctor
    (
        "{}; the write was not done, but its change record {} cut short: the change log {} with a cut-short "
        "line, which readers skip and `bunzai doctor` notes as torn",
        "{}; the write was not done, but its change record {} cut short: the change log {} with a cut-short "
        "line, which readers skip and the studio's check (bunzai's doctor, run outside MCP) notes as torn",
    ),
    # a warning (a result's `warnings` are read by the same templates)
    (
        "{}: this process cannot write the studio, so the cursor of session {} was left where it was; "
        "read on with --since {}",
        "{}: this process cannot write the studio, so the cursor of session {} was left where it was; "
        "read on with since={}",
    ),
)
MESSAGE_RULES: tuple[tuple[re.Pattern, str], ...] = tuple(
    (re.compile("(.*)".join(map(re.escape, cli.split("{}"))), re.DOTALL), mcp) for cli, mcp in MESSAGES
)


def message_in_tool_words(text: str) -> str:
    """`text` (an error's message) in the tools' words when a template of MESSAGES has its shape."""
    if "--" not in text and "bunzai" not in text:  # every template holds one of the two
        return text
    for pattern, mcp in MESSAGE_RULES:
        match = pattern.fullmatch(text)
        if match is not None:
            return mcp.format(*match.groups())
    return text


def in_tool_words(text: str) -> str:
    """`text` (a hint) with every CLI form a rule knows in its MCP form."""
    if "bunzai" not in text and "--" not in text:  # every rule's pattern holds one of the two
        return text
    for pattern, replacement in RULES:
        text = pattern.sub(replacement, text)
    return text


def advice_in_tool_words(value: Any) -> Any:
    """`value` (a result or an error document) with its hints and notes, its errors' messages and
    its warnings, in the tools' words. What a piece's authors wrote (an Untrusted value) is not
    walked: it is left as it is."""
    if isinstance(value, dict):
        out = {
            key: in_tool_words(item) if key in ADVICE_KEYS and isinstance(item, str) else advice_in_tool_words(item)
            for key, item in value.items()
        }
        error = out.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):  # an error's message: bunzai's words
            out["error"] = dict(error, message=message_in_tool_words(error["message"]))
        warnings = out.get("warnings")
        if isinstance(warnings, list):  # bunzai's words too, rewritten only where a template has their shape
            out["warnings"] = [message_in_tool_words(item) if isinstance(item, str) else item for item in warnings]
        return out
    if isinstance(value, (list, tuple)):
        return [advice_in_tool_words(item) for item in value]
    return value
