"""regex_lab: users' JavaScript regexes run as SillyTavern and RisuAI run them (`bunzai regex-lab`).

Every action runs in the one embedded engine of this process; the server runs tools on one thread.
"""

from typing import Literal

from pydantic import Field

from bunzai.errors import BunzaiError
from bunzai.query.reading import piece_text, stored_data
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    action: Literal["try", "race", "explain", "lint", "recipes", "from_examples"] = Field(
        description="try (matches and replacement), race (candidates side by side), explain, lint (a studio regex "
        "set), recipes (common rules), from_examples (a pattern from examples)."
    )
    pattern: str | None = Field(None, description="try/explain: the find-regex, /pattern/flags or bare with flags.")
    patterns: list[str] = Field(default_factory=list, description="race: two or more candidate patterns.")
    text: str | None = Field(None, description="try/race: the text to run over (or give ref).")
    ref: str | None = Field(None, description="try: a piece whose text to run over; lint: the regex set (kind/id).")
    pointer: str = Field("/body", description="try with ref: the JSON pointer of the text.")
    replace: str | None = Field(None, description="try/race: also show the text after this replacement.")
    platform: Literal["javascript", "sillytavern", "risuai"] = Field(
        "javascript", description="How pattern and replacement are read."
    )
    flags: str | None = Field(
        None,
        description="Flags; the pattern is then bare (no /.../). With platform risuai, read as RisuAI's custom-flag "
        "field: letters it drops dropped, <no_end_nl> applied, <cbs> expands the pattern's macros in try (race and "
        "explain note that they take it as written), other <...> tokens noted.",
    )
    macros: dict[str, str] = Field(
        default_factory=dict, description='try: macro values, e.g. {"user": "Ann"} (the CLI\'s --macro).'
    )
    substitute: Literal["none", "raw", "escaped"] = Field(
        "none",
        description="try: macros in the pattern, expanded raw or regex-escaped (SillyTavern's substitute regex).",
    )
    name: str | None = Field(None, description="recipes: one recipe by name.")
    match: list[str] = Field(default_factory=list, description="from_examples: strings the pattern must match.")
    no_match: list[str] = Field(default_factory=list, description="from_examples: strings it must not match.")


def run(ctx, args: Args):
    if args.action == "try":
        # lazy: tool discovery imports every tool before the first tools/list
        from bunzai.regexlab.lab import try_pattern, with_notes

        if args.pattern is None or (args.text is None) == (args.ref is None):
            raise BunzaiError(
                "invalid_input",
                "try takes a pattern and the text one way: text or ref",
                'e.g. {"action": "try", "pattern": "/a+/g", "text": "aaa"}',
            )
        text = args.text if args.text is not None else _piece_text(ctx, args)
        typed = _typed(args)
        substitute = "raw" if typed["cbs"] and args.substitute == "none" else args.substitute  # RisuAI's <cbs>
        found = try_pattern(
            args.pattern,
            text,
            replace=args.replace,
            platform=args.platform,
            flags=typed["flags"],
            macros=args.macros,
            substitute=substitute,
            no_end_newline=typed["no_end_newline"],
            actions=typed["actions"],
        )
        return untrusted(with_notes(found, typed["notes"]))
    if args.action == "race":
        from bunzai.regexlab.lab import CBS_AS_WRITTEN, race_patterns, with_notes  # lazy: as above

        typed = _typed(args)
        raced = race_patterns(
            args.patterns,
            args.text or "",
            replace=args.replace,
            platform=args.platform,
            flags=typed["flags"],
            no_end_newline=typed["no_end_newline"],
            actions=typed["actions"],
        )
        return untrusted(with_notes(raced, typed["notes"] + [CBS_AS_WRITTEN] * typed["cbs"]))
    if args.action == "explain":
        from bunzai.regexlab.explain import explain_pattern  # lazy: as above
        from bunzai.regexlab.lab import CBS_AS_WRITTEN, with_notes

        if args.pattern is None:
            raise BunzaiError(
                "invalid_input", "explain takes a pattern", 'e.g. {"action": "explain", "pattern": "/a+/g"}'
            )
        typed = _typed(args)
        explained = explain_pattern(args.pattern, platform=args.platform, flags=typed["flags"])
        return untrusted(with_notes(explained, typed["notes"] + [CBS_AS_WRITTEN] * typed["cbs"]))
    if args.action == "lint":
        from bunzai.macros.catalog import names_macro
        from bunzai.regexlab.lint import lint_set  # lazy: as above

        if args.ref is None:
            raise BunzaiError(
                "invalid_input",
                "lint takes the regex set as ref (kind/id)",
                'e.g. {"action": "lint", "ref": "regex/ID"}',
            )
        return untrusted(lint_set(stored_data(ctx.studio, args.ref, "regex"), names_macro))
    if args.action == "recipes":
        from bunzai.regexlab.recipes import recipes  # lazy: as above

        return recipes(args.name)
    from bunzai.regexlab.examples import from_examples  # lazy: as above

    return untrusted(from_examples(args.match, args.no_match))


def _typed(args: Args) -> dict:
    """`flags` as RisuAI reads a script's custom-flag field (regex_scripts.typed_flags) for the OUT
    `replace`, for the risuai platform; as given otherwise."""
    if args.platform != "risuai" or args.flags is None:
        return {"flags": args.flags, "cbs": False, "no_end_newline": False, "actions": [], "notes": []}
    from bunzai.adapters.risu.regex_scripts import typed_flags

    return typed_flags(args.flags, args.replace or "")


def _piece_text(ctx, args: Args) -> str:
    return piece_text(ctx.studio, args.ref, args.pointer)


TOOL = Tool(
    name="regex_lab",
    title="Regex lab",
    input_model=Args,
    effect="read",
    run=run,
    description="Run JavaScript regexes as SillyTavern and RisuAI do: try one on a text or a piece, race "
    "candidates, explain a pattern, lint a stored regex set, list recipes, build one from examples.",
)
