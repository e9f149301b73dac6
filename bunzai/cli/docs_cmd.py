"""`bunzai docs`: ask bunzai's own documentation (browse, outline, search, read, query),
regenerate its catalog (index) and keep its reviewed summaries (summaries ...).

Thin: parse, call bunzai.docs, print one JSON document.
"""

from __future__ import annotations

from typing import Annotated

import typer

from bunzai.cli.groups import SuggestingGroup

from bunzai.cli.output import emit

app = typer.Typer(
    cls=SuggestingGroup,
    help=(
        "Ask bunzai's documentation.\n\nAsk bunzai's documentation: browse, outline, search, read (query: the same "
        "for scripts; index and summaries keep the catalog). Pages are named by id (commands/import)."
    ),
    no_args_is_help=True,
)
summaries_app = typer.Typer(
    cls=SuggestingGroup, help="Reviewed page summaries: scaffold, stamp, review, check.", no_args_is_help=True
)
app.add_typer(summaries_app, name="summaries")

_Limit = Annotated[
    int | None, typer.Option("--limit", "-n", help="How many rows (browse, search) or characters (read).")
]
_Offset = Annotated[int, typer.Option("--offset", help="Where to start: a row (browse) or a character (read).")]
_Section = Annotated[str | None, typer.Option("--section", "-s", help="A section slug, as outline names it.")]
_Reviewer = Annotated[str, typer.Option("--reviewer", help="Your reviewer id, e.g. docs-author.")]


@app.command()
def browse(
    collection: Annotated[str, typer.Argument(help="A collection, e.g. commands; empty for the top.")] = "",
    limit: _Limit = None,
    offset: _Offset = 0,
) -> int:
    """Collections and pages, never page text.

    Collections and pages (titles, approved summaries), never page text.

    Example: bunzai docs browse commands --limit 5
    """
    from bunzai.docs.query import browse as run

    emit(run(collection, limit=limit, offset=offset))
    return 0


@app.command()
def outline(
    page: Annotated[str, typer.Argument(help="A page id, e.g. commands/export.")], section: _Section = None
) -> int:
    """A page's summary and its section map.

    A page's summary and its H2 map with child counts; --section expands one branch.

    Example: bunzai docs outline macros
    """
    from bunzai.docs.query import outline as run

    emit(run(page, section=section))
    return 0


@app.command()
def search(
    words: Annotated[list[str], typer.Argument(help="A few words, e.g. export containment.")], limit: _Limit = None
) -> int:
    """Search the docs' sections, ranked by BM25.

    Sections ranked by BM25 over text, headings, titles, summaries and topics.

    Example: bunzai docs search export containment
    """
    from bunzai.docs.query import search as run

    emit(run(" ".join(words), limit=limit))
    return 0


@app.command()
def read(
    page: Annotated[str, typer.Argument(help="A page id, e.g. commands/export.")],
    section: _Section = None,
    offset: _Offset = 0,
    limit: _Limit = None,
) -> int:
    """Page text, a slice at a time.

    Page text, 1,000 to 12,000 characters at a time; next_offset continues.

    Example: bunzai docs read macros --section verdicts
    """
    from bunzai.docs.query import read as run

    emit(run(page, section=section, offset=offset, limit=limit))
    return 0


@app.command()
def query(
    action: Annotated[str, typer.Option("--action", "-a", help="browse, outline, search or read.")] = ...,
    page: Annotated[
        str | None, typer.Option("--page", "-p", help="A page id (outline, read) or collection (browse).")
    ] = None,
    text: Annotated[str | None, typer.Option("--query", "-q", help="The words to search for (search).")] = None,
    section: _Section = None,
    offset: _Offset = 0,
    limit: _Limit = None,
) -> int:
    """One verb for scripts over the docs.

    One verb for scripts: the same answers as browse, outline, search and read.

    Example: bunzai docs query --action search --query "stale revision"
    """
    from bunzai.docs.query import query as run

    emit(run(action, page=page, text=text, section=section, offset=offset, limit=limit))
    return 0


@app.command()
def index(
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; fail when the committed catalog differs.")
    ] = False,
) -> int:
    """Regenerate the docs catalog.

    Regenerate the docs catalog (bunzai/generated/docs.json) from docs/.

    Example: bunzai docs index --check
    """
    from bunzai.docs.catalog import index_catalog

    emit(index_catalog(check=check))
    return 0


@summaries_app.command()
def scaffold(
    page: Annotated[str, typer.Argument(help="The page id.")],
    summary: Annotated[str, typer.Option("--summary", help="The page summary: one to three lines.")] = "",
    topics: Annotated[str, typer.Option("--topics", help="Comma-separated topic words.")] = "",
) -> int:
    """Create a page's summary file.

    Create docs/summaries/PAGE.json with the summary, topics and an empty entry per section.

    Example: bunzai docs summaries scaffold commands/doctor --summary "What doctor checks." --topics doctor,health
    """
    from bunzai.docs.summaries import scaffold as run

    emit(run(page, summary=summary, topics=[topic for topic in topics.split(",") if topic.strip()]))
    return 0


@summaries_app.command()
def stamp(page: Annotated[str, typer.Argument(help="The page id.")], reviewer: _Reviewer = ...) -> int:
    """Check a summary and bind it, as its author.

    Check the summary against the page and bind it to both hashes, as its author.

    Example: bunzai docs summaries stamp commands/doctor --reviewer docs-author
    """
    from bunzai.docs.summaries import stamp as run

    emit(run(page, reviewer))
    return 0


@summaries_app.command()
def review(
    page: Annotated[str, typer.Argument(help="The page id.")],
    verdict: Annotated[str, typer.Argument(metavar="APPROVE|BLOCK", help="The verdict.")],
    notes: Annotated[str, typer.Option("--notes", help="What you checked, or what must change.")] = ...,
    reviewer: _Reviewer = ...,
) -> int:
    """Approve or block a stamped summary.

    Approve or block a stamped summary; nobody approves a summary they stamped.

    Example: bunzai docs summaries review commands/doctor APPROVE --notes "matches the page" --reviewer docs-reviewer
    """
    from bunzai.docs.summaries import review as run

    emit(run(page, verdict, notes, reviewer))
    return 0


@summaries_app.command("check")
def check_summaries() -> int:
    """Fail unless every summary is approved and current.

    Fail, naming the next command per page, unless every page's summary is approved and current.

    Example: bunzai docs summaries check
    """
    from bunzai.docs.summaries import check as run

    emit(run())
    return 0
