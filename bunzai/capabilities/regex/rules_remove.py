"""regex.rules.remove: rules taken out of a regex set."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose
from bunzai.capabilities.common.regex_rules import RULE_REF_DESCRIPTION, rule_index
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class RulesRemoveInput(Model):
    """The rules to remove."""

    rules: list[str | int] = Field(min_length=1, description="The rules to remove. " + RULE_REF_DESCRIPTION)


def preview_rules_remove(entity, data: RulesRemoveInput) -> Preview:
    doc = piece_json(entity)
    rules = doc["body"]["rules"]
    gone = {rule_index(rules, ref) for ref in data.rules}
    doc["body"]["rules"] = [rule for index, rule in enumerate(rules) if index not in gone]
    return Preview(entity=propose(doc))


CAPABILITY = Capability(
    id="regex.rules.remove",
    kind="regex",
    area="rules",
    action="remove",
    summary="Remove rules from a regex set.",
    aliases=("delete regex", "remove regex rule", "delete regex script"),
    input_model=RulesRemoveInput,
    preview=preview_rules_remove,
)
