"""studio.regex.create: a new regex set with its rules (stored, never executed)."""

from __future__ import annotations

from bunzai.capabilities.common.create_inputs import create_input_model
from bunzai.capabilities.common.create_preview import create_preview
from bunzai.capabilities.common.positions import unique_key
from bunzai.capabilities.common.regex_rules import rule_warnings
from bunzai.capabilities.contract import Capability
from bunzai.model.ids import slugify
from bunzai.model.regex import RegexRule

RegexCreateInput = create_input_model(
    "regex",
    "RegexCreateInput",
    "A new regex set: `name`, an optional `id`, a description and rules in running order (JavaScript patterns, "
    "stored, never executed; a rule without an id gets one from its name).",
)


def complete_rules(body: dict) -> list[str]:
    rules = [RegexRule.model_validate(rule).model_dump(mode="json") for rule in body.get("rules", [])]
    taken = {rule["id"] for rule in rules if rule["id"]}
    warnings = []
    for rule in rules:
        if not rule["id"]:
            rule["id"] = unique_key(slugify(rule["name"]) or "rule", taken)
            taken.add(rule["id"])
        warnings += rule_warnings(rule)
    if "rules" in body:
        body["rules"] = rules
    return warnings


CAPABILITY = Capability(
    id="studio.regex.create",
    kind="regex",
    domain="studio",
    mode="create",
    area="regex",
    action="create",
    summary="Create a regex set with find/replace rules (patterns, flags, placements; stored, never executed).",
    aliases=("new regex set", "create regex", "new regex script", "new find replace"),
    input_model=RegexCreateInput,
    preview=create_preview("regex", complete_rules),
)
