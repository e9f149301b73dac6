"""folder_import: read files of granted folders into drafts of this session (`bunzai folder import`)."""

from pydantic import Field

from bunzai.errors import BunzaiError
from bunzai.limits import MCP_IMPORT_PATHS_MAX
from bunzai.tools import drafts
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    paths: list[str] = Field(
        min_length=1, max_length=MCP_IMPORT_PATHS_MAX, description="Files or folders inside granted folders."
    )


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.changes.imports import Skipped, drafts_from_path
    from bunzai.convert import configure_engines
    from bunzai.folders import checked_path

    configure_engines(ctx.studio)
    made, failed, skipped, notes = [], [], 0, []
    for path in [checked_path(ctx.studio, path) for path in args.paths]:
        for file, result in drafts_from_path(path):
            if isinstance(result, Skipped) and result.told:  # a note on a folder, not a file passed over
                notes.append(result.reason)
            elif isinstance(result, Skipped):
                skipped += 1
            elif isinstance(result, BunzaiError):
                failed.append({"path": str(file), "error": result.to_json()["error"]})
            elif result:
                name = drafts.keep(ctx, result if len(result) > 1 else result[0])
                made.append(drafts.summary(name, result if len(result) > 1 else result[0]))
    return {
        "drafts": made,
        "failed": untrusted(failed),
        "skipped": skipped,
        **({"notes": untrusted(notes)} if notes else {}),
        "hint": "apply each with change_apply (a card with its book is one draft, applied all-or-none)",
    }


TOOL = Tool(
    name="folder_import",
    title="Import from granted folders",
    input_model=Args,
    effect="draft",
    run=run,
    open_world=True,
    description="Read platform files (cards, lorebooks, presets ...) from granted folders into drafts of this "
    "session; nothing is written until change_apply. Returns the drafts, the files or folders that failed with "
    "their errors, how many files and folders were passed over (nothing claims them, or they lie deeper than the "
    "walk goes), and, when there are any, `notes` on folders named like one piece (a sprite folder) that were too "
    "large to read as one and held no piece.",
)
