"""folder_import: read files of granted folders into drafts of this session (`bunzai folder import`)."""

from typing import Literal

from pydantic import Field

from bunzai.errors import BunzaiError
from bunzai.limits import MCP_IMPORT_PATHS_MAX, MCP_SESSION_DRAFTS_MAX
from bunzai.tools import drafts
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class Args(ToolArgs):
    paths: list[str] = Field(
        min_length=1,
        max_length=MCP_IMPORT_PATHS_MAX,
        description=f"Files or folders inside granted folders (at most {MCP_IMPORT_PATHS_MAX}).",
    )
    on_conflict: Literal["refuse", "skip", "suffix"] = Field(
        "refuse",
        description="An id already in the studio or claimed earlier in this import: refuse (change_apply says "
        "stale), skip (no draft) or suffix (-2, -3 ...), as `bunzai import --on-conflict`.",
    )


def run(ctx, args: Args):
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.changes.conflicts import policy_for
    from bunzai.changes.imports import Skipped, drafts_from_path
    from bunzai.convert import configure_engines
    from bunzai.folders import checked_path

    configure_engines(ctx.studio)
    paths = [checked_path(ctx.studio, path, for_agent=True) for path in args.paths]
    # The CLI's policy, so a card bound to a world the import also gives links to it instead of
    # carrying a second copy that apply would refuse as occupied.
    conflicts = policy_for(ctx.studio, args.on_conflict)
    made, failed, skipped, notes, stopped = [], [], 0, [], None
    stream = conflicts.apply(result for path in paths for result in drafts_from_path(path))
    for file, result in stream:
        if isinstance(result, Skipped) and result.told:  # a note on a folder, not a file passed over
            notes.append(result.reason)
        elif isinstance(result, Skipped):
            skipped += 1
        elif isinstance(result, BunzaiError):
            failed.append({"path": str(file), "error": result.to_json()["error"]})
        elif result:
            if len(ctx.drafts) >= MCP_SESSION_DRAFTS_MAX:  # the drafts made so far are answered, not lost
                stopped = _stopped(file)
                break
            draft = result if len(result) > 1 else result[0]
            made.append(drafts.summary(drafts.keep(ctx, draft), draft))
    stream.close()
    summary = conflicts.summary(option="on_conflict={}")
    if summary:
        notes += [line.removeprefix("bunzai: ") for line in summary.split("\n")]
    return {
        "drafts": made,
        "failed": untrusted(failed),
        "skipped": skipped,
        **({"notes": untrusted(notes)} if notes else {}),
        **({"stopped": stopped} if stopped else {}),
        "hint": "apply each with change_apply (a card with its book is one draft, applied all-or-none)",
    }


def _stopped(file) -> dict:
    return {
        "at": str(file),
        "reason": f"this session holds {MCP_SESSION_DRAFTS_MAX} drafts; this file and the rest were not read",
        "hint": "apply or discard the drafts (change_apply, change_discard), then call folder_import again with "
        "on_conflict skip: the pieces applied are passed over and the rest are drafted",
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
    "walk goes), `notes` (folders too large to read as one piece, ids skipped or renamed under on_conflict, cards "
    "linked to a world the import gives), and `stopped` when the session's drafts ran out before the walk ended.",
)
