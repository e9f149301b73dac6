"""`bunzai cap`: find, browse, describe and run capabilities; check the catalog.

Compact form: `bunzai cap` browses, `bunzai cap ID` describes an exact id, and
`bunzai cap WORDS...` searches. Subcommands keep their names.
"""

from __future__ import annotations

from typing import Annotated

import typer

from bunzai.cli.groups import SuggestingGroup
from bunzai.cli.output import emit


class _CompactGroup(SuggestingGroup):
    """Reads `cap WORDS` as `cap lookup WORDS` and a bare `cap` as `cap browse`."""

    def parse_args(self, ctx, args):
        if not args:
            args = ["browse"]
        elif args[0] not in self.commands and not args[0].startswith("-"):
            args = ["lookup", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_CompactGroup,
    help=(
        "Capabilities: typed edits that make drafts.\n\nCapabilities: typed edits that make drafts: find, browse, "
        "describe, run (check keeps the catalog). `bunzai cap WORDS` finds, `bunzai cap ID` describes, a bare "
        "`bunzai cap` browses."
    ),
)


@app.command()
def find(
    query: Annotated[list[str], typer.Argument(help="A few words, e.g. rename character.")],
    kind: Annotated[str | None, typer.Option("--kind", "-k", help="Only capabilities of this kind.")] = None,
) -> int:
    """At most five capabilities for some words.

    At most five capabilities for the words, best first, each with why it matched.

    Example: bunzai cap find rename character
    """
    from bunzai.capabilities.discovery import visible_capabilities
    from bunzai.capabilities.search import rank

    if kind is not None:
        from bunzai.validate import check_kind

        check_kind(kind)
    text = " ".join(query)
    matches = rank(visible_capabilities(), text, kind=kind)
    emit({"query": text, "kind": kind, "count": len(matches), "items": matches})
    return 0


@app.command()
def browse(
    path: Annotated[str, typer.Argument(help="DOMAIN[/KIND[/AREA]], e.g. content/character; empty for the top.")] = "",
) -> int:
    """Walk domain -> kind -> area -> action, without schemas.

    Example: bunzai cap browse content/character
    """
    from bunzai.capabilities.browse import browse as walk
    from bunzai.capabilities.discovery import visible_capabilities

    emit(walk(visible_capabilities(), path))
    return 0


@app.command()
def describe(
    cap_id: Annotated[str, typer.Argument(metavar="ID", help="A capability id, e.g. character.identity.update.")],
) -> int:
    """One capability with its full input JSON Schema.

    Example: bunzai cap describe character.greetings.update
    """
    from bunzai.capabilities.discovery import find_capability

    emit(find_capability(cap_id, include_hidden=False).describe(schema=True))
    return 0


@app.command(hidden=True)
def lookup(
    ctx: typer.Context, words: Annotated[list[str], typer.Argument(help="An exact id, or words to search for.")]
) -> int:
    """Describe, browse or search, by what you give.

    The compact form: an exact id describes, a browse path (`content/character`) browses,
    anything else searches."""
    from bunzai.capabilities.discovery import visible_capabilities

    capabilities = visible_capabilities()
    if len(words) == 1 and any(cap.id == words[0] for cap in capabilities):
        return describe(words[0])
    if len(words) == 1 and _is_browse_path(words[0], capabilities):
        return browse(words[0])
    if len(words) == 1 and not _any_match(words[0]):
        _refuse_mistyped_subcommand(ctx, words[0])
    return find(words)


def _any_match(word: str) -> bool:
    from bunzai.capabilities.discovery import visible_capabilities
    from bunzai.capabilities.search import rank

    return bool(rank(visible_capabilities(), word))


def _refuse_mistyped_subcommand(ctx: typer.Context, word: str) -> None:
    """`cap lst`: a word that finds nothing and is spelled like a subcommand is a usage error."""
    from bunzai.cli.groups import unknown_command
    from bunzai.errors import suggestions

    parent = ctx.parent  # the `cap` group's context
    if parent is None:
        return
    group = parent.command
    names = [name for name in group.list_commands(parent) if not group.get_command(parent, name).hidden]
    spellings = {**_FAMILIAR, **{name: name for name in names}}
    meant = list(dict.fromkeys(spellings[close] for close in suggestions(word, spellings)))
    if meant:
        raise unknown_command(parent, group, word, close=meant)


# Words people reach for that `cap` spells otherwise (`cap lst` means browse).
_FAMILIAR = {"list": "browse", "ls": "browse", "search": "find", "show": "describe", "info": "describe"}


def _is_browse_path(word: str, capabilities: list) -> bool:
    """`content`, `studio`, `content/character`, `content/character/identity` are paths to browse."""
    parts = word.strip("/").split("/")
    domains = {cap.domain for cap in capabilities}
    return bool(parts) and parts[0] in domains and (len(parts) == 1 or "/" in word)


@app.command()
def run(
    ctx: typer.Context,
    cap_id: Annotated[str, typer.Argument(metavar="ID", help="The capability id.")],
    ref: Annotated[
        str | None,
        typer.Argument(
            metavar="REF",
            help=(
                "kind/id of the piece (not for create capabilities; optional with --draft); character/ID#book names "
                "a character's embedded book."
            ),
        ),
    ] = None,
    input: Annotated[str, typer.Option("--input", "-i", help="The input: JSON object, @FILE or - for stdin.")] = "{}",
    draft: Annotated[
        str | None, typer.Option("--draft", "-d", help="Compose onto this draft: FILE or - for stdin.")
    ] = None,
    id: Annotated[str | None, typer.Option("--id", help="Id of the new piece (create capabilities).")] = None,
    save: Annotated[
        bool, typer.Option("--save", help="Also save the draft in the studio's draft area (see `bunzai draft list`).")
    ] = False,
    name: Annotated[
        str | None, typer.Option("--name", help="Name of the saved draft (with --save); default kind-id-time.")
    ] = None,
    embedded: Annotated[
        bool,
        typer.Option(
            "--embedded",
            help="Lorebook capabilities: work on REF's embedded book (REF is a character), as character/ID#book does.",
        ),
    ] = False,
) -> int:
    """Run a capability: print the draft it proposes.

    Run a capability: print the draft it proposes (pipe it to `bunzai apply`). Writes no piece.

    Example: bunzai cap run character.identity.update character/seraphina --input '{"nickname": "Sera"}'
    | bunzai apply --yes
    """
    from bunzai.capabilities.discovery import find_capability
    from bunzai.capabilities.studio_run import run_on_studio
    from bunzai.cli.context import studio_of
    from bunzai.cli.inputs import read_json_option
    from bunzai.errors import BunzaiError

    if draft == "-" and input == "-":
        raise BunzaiError("usage", "--input and --draft cannot both read stdin", "put one of them in a file (@FILE)")
    cap = find_capability(cap_id)
    raw = read_json_option(input)
    studio = studio_of(ctx, writes=save)
    if draft is not None:
        result = _compose(studio, cap, draft, ref, raw, embedded)
        if result is None or "error" in result:
            from bunzai.cli.output import pass_error_on

            return pass_error_on(result)
    else:
        result = run_on_studio(studio, cap, ref, raw, piece_id=id, embedded=embedded)
    if save and result.get("type") == "bunzai.draft":
        from bunzai.changes.saved import save_draft

        result = dict(result, saved=save_draft(studio, result, name))
    emit(result)
    return 0


def _compose(studio, cap, source: str, ref: str | None, raw, embedded: bool = False) -> dict | None:
    from bunzai.capabilities.studio_run import compose_on_studio
    from bunzai.cli.inputs import read_documents
    from bunzai.errors import BunzaiError

    docs, single = read_documents(source)
    if not single or not isinstance(docs[0], dict):
        raise BunzaiError("invalid_draft", "--draft takes one draft", "compose onto one piece's draft at a time")
    doc = docs[0]
    if "error" in doc:
        return doc
    return compose_on_studio(studio, cap, doc, ref, raw, embedded=embedded)


@app.command()
def check(
    write: Annotated[
        bool,
        typer.Option(
            "--write",
            help="Regenerate bunzai/generated/capabilities.json and docs/capabilities.md instead of refusing.",
        ),
    ] = False,
) -> int:
    """Regenerate the capability catalog, or check it.

    Regenerate the capability catalog from the folders; fail with a diff when the committed one differs.

    Example: bunzai cap check
    """
    from bunzai.capabilities.catalog import check_catalog
    from bunzai.capabilities.docs_page import check_docs_page

    summary = check_catalog(write=write)
    summary["docs"] = check_docs_page(write=write)
    emit(summary)
    return 0
