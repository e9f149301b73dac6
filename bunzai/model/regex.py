"""Regex sets: find/replace rules frontends run over chat text (SillyTavern regex scripts,
RisuAI custom scripts, Marinara rules).

bunzai stores these rules and reasons about them (bunzai.regexlab); it never executes a
rule against a chat. Patterns are JavaScript regex source, as every platform runs them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.model.base import JsonObject, Model, PieceBase

Placement = Literal[
    "user_input", "ai_output", "slash_command", "world_info", "reasoning", "display", "request", "translation"
]


class RegexRule(Model):
    """One find/replace rule. Stored, never executed by bunzai."""

    id: str = Field(default="", description="Rule id from its platform (a uuid on SillyTavern).")
    name: str = Field(default="", description="Rule name; slash commands target it.")
    pattern: str = Field(default="", description="JavaScript regex source, without slashes.")
    flags: str = Field(default="", pattern=r"^[dgimsuvy]*$", description="JavaScript regex flags, e.g. 'gi'.")
    replacement: str = Field(default="", description="Replacement: $1, $<name>, {{match}}, macros.")
    trim_strings: list[str] = Field(default_factory=list, description="Strings removed from each capture first.")
    placements: list[Placement] = Field(default_factory=list, description="Which texts the rule runs on.")
    disabled: bool = Field(default=False, description="The rule is off.")
    markdown_only: bool = Field(default=False, description="Only alters the displayed text, not the stored chat.")
    prompt_only: bool = Field(default=False, description="Only alters the prompt sent, not the stored chat.")
    run_on_edit: bool = Field(default=False, description="Also runs when a message is edited.")
    substitute_macros: Literal["none", "raw", "escaped"] = Field(
        default="none", description="Expand macros in the pattern: none, raw, or regex-escaped."
    )
    min_depth: int | None = Field(
        default=None, ge=-1, description="Skip messages newer than this depth; None = no limit."
    )
    max_depth: int | None = Field(
        default=None, ge=0, description="Skip messages older than this depth; None = no limit."
    )
    extensions: JsonObject = Field(default_factory=dict, description="Namespaced app data carried with the rule.")


class RegexSetBody(Model):
    """An ordered set of rules; they run in list order."""

    description: str = Field(default="", description="What the set is for.")
    rules: list[RegexRule] = Field(default_factory=list, description="Rules, in the order they run.")
    extensions: JsonObject = Field(default_factory=dict, description="Namespaced app data carried with the set.")


class RegexSet(PieceBase):
    """A set of regex rules: stored data, never executed by bunzai."""

    kind: Literal["regex"] = Field(default="regex", description="Always 'regex'.")
    body: RegexSetBody = Field(default_factory=RegexSetBody, description="The rules.")
