"""regex.rules.add: new find/replace rules.

Checked as data (flags, placements) and probed, bounded, in the regex engine; never run on a chat.
"""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.common.positions import unique_key
from bunzai.capabilities.common.regex_rules import mints_rule_ids, rule_index, rule_warnings
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model
from bunzai.model.ids import slugify
from bunzai.model.regex import RegexRule


class RulesAddInput(Model):
    """Rules to add, and where (default: after the last rule; rules run in list order)."""

    rules: list[RegexRule] = Field(
        min_length=1,
        description="The new rules; an empty id is made from the name (unique in the set), "
        "except in a set read from RisuAI, whose scripts have no id.",
    )
    before: str | int | None = Field(default=None, description="Insert before this rule (id, unique name or index).")
    after: str | int | None = Field(default=None, description="Insert after this rule (id, unique name or index).")


def preview_rules_add(entity, data: RulesAddInput) -> Preview:
    if data.before is not None and data.after is not None:
        raise refuse("give at most one of before, after", "keep one of them, or leave both out to add at the end")
    doc = piece_json(entity)
    rules = doc["body"]["rules"]
    index = len(rules)
    if data.before is not None:
        index = rule_index(rules, data.before)
    elif data.after is not None:
        index = rule_index(rules, data.after) + 1
    taken = {rule["id"] for rule in rules if rule["id"]}
    mint = mints_rule_ids(doc)
    new, warnings = [], []
    for rule in data.rules:
        item = rule.model_dump(mode="json")
        if item["id"] in taken:
            raise refuse(f"the set already has a rule {item['id']!r}", "update it with regex.rules.update")
        if not item["id"] and mint:
            item["id"] = unique_key(slugify(item["name"]) or "rule", taken)
        if item["id"]:
            taken.add(item["id"])
        warnings += rule_warnings(item)
        new.append(item)
    rules[index:index] = new
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="regex.rules.add",
    kind="regex",
    area="rules",
    action="add",
    summary="Add find/replace rules to a regex set (stored, never executed).",
    aliases=("add regex", "new regex rule", "add find replace", "add regex script"),
    input_model=RulesAddInput,
    preview=preview_rules_add,
)
