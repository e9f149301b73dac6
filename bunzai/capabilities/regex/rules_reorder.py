"""regex.rules.reorder: the order rules run in."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import piece_json, propose, refuse
from bunzai.capabilities.common.regex_rules import RULE_REF_DESCRIPTION, rule_index
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model


class RulesReorderInput(Model):
    """Either every rule in its new order, or one rule moved before/after another or to an index."""

    order: list[str | int] | None = Field(
        default=None,
        description="Every rule (ids, unique names or indexes), in the new running order.",
    )
    move: str | int | None = Field(default=None, description="The rule to move. " + RULE_REF_DESCRIPTION)
    before: str | int | None = Field(default=None, description="Move it just before this rule.")
    after: str | int | None = Field(default=None, description="Move it just after this rule.")
    to: int | None = Field(default=None, ge=0, description="Move it to this 0-based index.")


def preview_rules_reorder(entity, data: RulesReorderInput) -> Preview:
    doc = piece_json(entity)
    rules = doc["body"]["rules"]
    if data.order is not None:
        if data.move is not None:
            raise refuse(
                "give either `order` or `move`, not both",
                "leave out `order` to move one rule, or `move` to give the whole order",
            )
        indexes = [rule_index(rules, ref) for ref in data.order]
        if sorted(indexes) != list(range(len(rules))):
            raise refuse(
                f"`order` must name each of the {len(rules)} rule{'' if len(rules) == 1 else 's'} once",
                "list every rule exactly once, by id, unique name or 0-based index",
            )
        doc["body"]["rules"] = [rules[i] for i in indexes]
        return Preview(entity=propose(doc))
    if data.move is None or sum(x is not None for x in (data.before, data.after, data.to)) != 1:
        raise refuse(
            "give `order`, or `move` with exactly one of before, after, to",
            'e.g. {"move": 2, "to": 0} moves the third rule to the top',
        )
    moving = rule_index(rules, data.move)
    anchor = None if data.to is not None else rule_index(rules, data.before if data.before is not None else data.after)
    item = rules[moving]
    rest = rules[:moving] + rules[moving + 1 :]
    if data.to is not None:
        at = min(data.to, len(rest))
    else:
        at = rest.index(rules[anchor]) + (0 if data.before is not None else 1)
    rest.insert(at, item)
    doc["body"]["rules"] = rest
    return Preview(entity=propose(doc))


CAPABILITY = Capability(
    id="regex.rules.reorder",
    kind="regex",
    area="rules",
    action="reorder",
    summary="Change the order the rules of a regex set run in.",
    aliases=("reorder regex", "move regex rule", "regex order", "sort regex"),
    input_model=RulesReorderInput,
    preview=preview_rules_reorder,
)
