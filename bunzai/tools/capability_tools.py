"""A capability as a tool: what `capability_find` reveals. Its arguments are the piece (`ref`),
the capability's `input`, optionally a session `draft` to compose onto, the new piece's `id`
(create capabilities), and `save` / `name` to keep the draft in the studio as a named draft."""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field

from bunzai.errors import BunzaiError
from bunzai.limits import MCP_TOOL_NAME_MAX_CHARS
from bunzai.tools import drafts
from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool, untrusted


class CapabilityArgs(ToolArgs):
    ref: str | None = Field(None, description="kind/id of the piece to work on (not for create capabilities).")
    input: dict[str, Any] = Field(default_factory=dict, description="The capability's input (see its schema).")
    draft: str | None = Field(None, description="A draft of this session to compose onto (draft-N).")
    id: str | None = Field(None, description="Id of the new piece (create capabilities).")
    save: bool = Field(False, description="Also save the draft in the studio's draft area.")
    name: str | None = Field(None, description="Name of the saved draft (with save).")


def tool_name(cap_id: str) -> str:
    return ("cap_" + cap_id.replace(".", "_").replace("-", "_"))[:MCP_TOOL_NAME_MAX_CHARS]


def capability_tool(cap) -> Tool:
    def run(ctx, args: CapabilityArgs) -> Any:
        return run_capability_tool(ctx, cap, args)

    schema = CapabilityArgs.model_json_schema()
    schema.pop("title", None)
    inner = cap.input_model.model_json_schema()
    whole = json.dumps(inner)  # nested models ($defs) too: an attachment's media is one level down
    defs = inner.pop("$defs", None)
    schema["properties"]["input"] = dict(inner, description="The capability's input.")
    if defs:
        schema["$defs"] = defs
    effect = "read" if cap.effect == "read" else "draft"
    from bunzai.capabilities.common.media_refs import LOCAL_FILE_WORDS  # lazy: as in run_capability_tool

    # a media reference or a folder of media reads local files: the studio's and the granted folders'
    reads_files = LOCAL_FILE_WORDS in whole
    kind = "makes a draft (nothing is written until change_apply)" if effect == "draft" else "reads, changes nothing"
    return Tool(
        name=tool_name(cap.id),
        description=f"{cap.summary} Capability {cap.id}; {kind}.",
        input_model=CapabilityArgs,
        effect=effect,
        run=run,
        schema=schema,
        open_world=reads_files,
    )


def run_capability_tool(ctx, cap, args: CapabilityArgs) -> Any:
    # lazy: tool discovery imports every tool before the first tools/list
    from bunzai.capabilities.studio_run import compose_on_studio, run_on_studio

    if args.name is not None and not args.save:
        raise BunzaiError(
            "invalid_input", "name names a saved draft, and save is not set", "add save: true, or leave name out"
        )
    if args.id is not None and cap.mode != "create":
        raise BunzaiError(
            "invalid_input",
            f"{cap.id} works on a stored piece; id names a new one",
            "name the piece with ref; id is for capabilities that create",
        )
    from bunzai.folders import local_files_within  # lazy: as above

    name = None
    with local_files_within(ctx.studio):  # a media reference reads only where folder_import may
        if args.draft is not None:
            doc, saved = drafts.find(ctx, args.draft)
            result = compose_on_studio(ctx.studio, cap, doc, args.ref, args.input)
            name = None if saved else args.draft
        else:
            result = run_on_studio(ctx.studio, cap, args.ref, args.input, piece_id=args.id)
    if result.get("type") != "bunzai.draft":
        return {
            "capability": cap.id,
            "target": result.get("target"),
            "result": untrusted(result.get("result")),
            "warnings": untrusted(result.get("warnings", [])),
        }
    if args.save:
        from bunzai.changes.saved import save_draft  # lazy: as above

        result = dict(result, saved=save_draft(ctx.studio, result, args.name))
    return drafts.summary(drafts.keep(ctx, result, name), result)
