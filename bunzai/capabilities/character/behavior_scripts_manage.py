"""character.behavior-scripts.manage: embedded regex/trigger/Lua payloads, as sealed data.

The payloads are stored and carried verbatim; nothing here parses, compiles or runs them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.capabilities.common.partial import check_index, check_permutation
from bunzai.capabilities.contract import Capability, Preview
from bunzai.errors import BunzaiError
from bunzai.model.base import Json, Model
from bunzai.model.character import SealedScript


class ScriptOverlay(Model):
    format: str | None = Field(default=None, description="New payload format. Omit to keep.")
    name: str | None = Field(default=None, description="New name. Omit to keep.")
    payload: Json = Field(default=None, description="New payload, verbatim (replaces the old one when given).")


class ScriptsInput(Model):
    action: Literal["add", "overlay", "remove", "reorder"] = Field(
        description="add scripts; overlay (rewrite) parts of one; remove some; reorder all."
    )
    scripts: list[SealedScript] = Field(
        default_factory=list, description="Scripts to add: format, name, payload (add)."
    )
    at: int | None = Field(default=None, ge=0, description="Where added scripts go; default: the end (add).")
    index: int | None = Field(default=None, description="The script to overlay, by position (overlay).")
    set: ScriptOverlay | None = Field(default=None, description="What to change in that script (overlay).")
    indexes: list[int] = Field(default_factory=list, description="Scripts to remove, by position (remove).")
    order: list[int] = Field(default_factory=list, description="Every current position, in the new order (reorder).")


def preview(piece, inp: ScriptsInput) -> Preview:
    scripts = list(piece.body.behavior_scripts)
    warnings = []
    if inp.action == "add":
        if not inp.scripts:
            raise BunzaiError(
                "invalid_input",
                "input field 'scripts': give at least one script to add",
                "each script is {format, name, payload}",
            )
        at = len(scripts) if inp.at is None else min(inp.at, len(scripts))
        scripts[at:at] = inp.scripts
        if any(not s.format for s in inp.scripts):
            warnings.append("a script has no format; exporters cannot tell which platform runs it")
    elif inp.action == "overlay":
        if inp.index is None or inp.set is None:
            raise BunzaiError(
                "invalid_input",
                "input fields 'index' and 'set': overlay needs the script and what to change",
                'e.g. {"action": "overlay", "index": 0, "set": {"name": "Dice roller"}}',
            )
        i = check_index(inp.index, len(scripts), "input field 'index'")
        patch = {k: v for k, v in inp.set.model_dump(mode="json", exclude_unset=True).items()}
        patch = {k: v for k, v in patch.items() if v is not None or k == "payload"}
        scripts[i] = SealedScript.model_validate(scripts[i].model_dump(mode="json") | patch)
    elif inp.action == "remove":
        drop = {check_index(i, len(scripts), "input field 'indexes'") for i in inp.indexes}
        scripts = [s for i, s in enumerate(scripts) if i not in drop]
    else:
        check_permutation(inp.order, list(range(len(scripts))), "input field 'order'")
        scripts = [scripts[i] for i in inp.order]
        warnings.append("script order is run order on the platforms that run them; check the result there")
    body = piece.body.model_copy(update={"behavior_scripts": scripts})
    return Preview(piece.model_copy(update={"body": body}), warnings=warnings)


CAPABILITY = Capability(
    id="character.behavior-scripts.manage",
    kind="character",
    area="behavior-scripts",
    action="manage",
    summary=(
        "Add, overlay, remove or reorder a character's embedded behaviour scripts (regex, triggers, Lua), "
        "kept as sealed data."
    ),
    aliases=("embedded regex", "card regex", "trigger script", "lua script", "behaviour script", "custom script"),
    input_model=ScriptsInput,
    preview=preview,
)
