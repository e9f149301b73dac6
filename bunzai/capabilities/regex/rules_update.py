"""regex.rules.update: one rule's pattern, flags, replacement, placements or switches."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose, refuse
from bunzai.capabilities.common.regex_checks import check_flags
from bunzai.capabilities.common.regex_rules import RULE_REF_DESCRIPTION, rule_index, rule_warnings
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Json, Model
from bunzai.model.regex import Placement


class RulesUpdateInput(Model):
    """The rule and the fields to change; only those given change (null resets one)."""

    rule: str | int = Field(description=RULE_REF_DESCRIPTION)
    id: str | None = Field(default=None, description="A new id for the rule.")
    name: str | None = Field(default=None, description="Rule name; slash commands target it.")
    pattern: str | None = Field(
        default=None, description="JavaScript regex source, without slashes. Never run by bunzai."
    )
    flags: str | None = Field(default=None, description="JavaScript regex flags, letters of dgimsuvy, e.g. 'gi'.")
    replacement: str | None = Field(default=None, description="Replacement: $1, $<name>, {{match}}, macros.")
    trim_strings: list[str] | None = Field(default=None, description="Strings removed from each capture first.")
    placements: list[Placement] | None = Field(
        default=None,
        description="Which texts it runs on: user_input, ai_output, slash_command, world_info, "
        "reasoning, display, request, translation.",
    )
    disabled: bool | None = Field(default=None, description="The rule is off.")
    markdown_only: bool | None = Field(default=None, description="Only alters the displayed text.")
    prompt_only: bool | None = Field(default=None, description="Only alters the prompt sent.")
    run_on_edit: bool | None = Field(default=None, description="Also runs when a message is edited.")
    substitute_macros: Literal["none", "raw", "escaped"] | None = Field(
        default=None,
        description="Expand macros in the pattern: none, raw, or regex-escaped.",
    )
    min_depth: int | None = Field(
        default=None, ge=-1, description="Skip messages newer than this depth; null = no limit."
    )
    max_depth: int | None = Field(
        default=None, ge=0, description="Skip messages older than this depth; null = no limit."
    )
    extensions: dict[str, Json] | None = Field(default=None, description="App data to merge (null removes a key).")


def preview_rules_update(entity, data: RulesUpdateInput) -> Preview:
    doc = piece_json(entity)
    rules = doc["body"]["rules"]
    index = rule_index(rules, data.rule)
    patch = given(data, exclude={"rule"})
    if patch.get("id") and any(rule["id"] == patch["id"] for i, rule in enumerate(rules) if i != index):
        raise refuse(f"the set already has a rule {patch['id']!r}", "give the rule an id no other rule has")
    rules[index] = merge_patch(rules[index], patch)
    check_flags(rules[index].get("flags", ""), f"rule {data.rule!r}")  # before the model's cruder pattern check
    proposed = propose(doc)
    warnings = nothing_given(patch, "rule") + rule_warnings(proposed.body.rules[index].model_dump(mode="json"))
    return Preview(entity=proposed, warnings=warnings)


CAPABILITY = Capability(
    id="regex.rules.update",
    kind="regex",
    area="rules",
    action="update",
    summary="Edit one regex rule: pattern, flags, replacement, placements, depth limits or switches.",
    aliases=("edit regex", "change pattern", "edit regex rule", "disable regex rule", "regex flags"),
    input_model=RulesUpdateInput,
    preview=preview_rules_update,
)
