"""One loss path: every loss a crossing reports is a declared LossRule applied at a pointer.

A spoke declares what its format cannot carry as LossRule constants (code, action, sentence)
and builds each loss with `RULE.at(pointer)` (or `.at(pointer, why)` for a sentence naming
the case), whether the loss is found by reading the written file back or by the writer
itself. So a loss code always means one action, and a spoke's codes are listed in one place.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import bunzai.adapters
from bunzai.adapters.common.losses import LossRule

PACKAGE = Path(__file__).resolve().parents[2] / "bunzai"
# Where a Loss may be constructed: the rule's own `at`, and the type's definition.
MAKERS = {"adapters/common/losses.py", "adapters/contract.py"}
CODE = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")


def _loss_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "Loss")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "Loss")
        )
    ]


def loss_calls(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if where not in MAKERS:
            found += [f"{where}:{line}" for line in _loss_calls(path)]
    return found


def _rules_in(value) -> list[LossRule]:
    if isinstance(value, LossRule):
        return [value]
    if isinstance(value, (list, tuple, frozenset, set)):
        return [rule for item in value for rule in _rules_in(item)]
    if isinstance(value, dict):
        return [rule for item in value.values() for rule in _rules_in(item)]
    return []


def declared_rules() -> list[tuple[str, LossRule]]:
    rules = []
    for module in pkgutil.walk_packages(bunzai.adapters.__path__, "bunzai.adapters."):
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            for rule in _rules_in(value):
                rules.append((f"{module.name}.{name}", rule))
    return rules


def test_no_loss_is_written_by_hand():
    calls = loss_calls(PACKAGE)
    assert not calls, "build losses with a declared LossRule's .at(pointer): " + ", ".join(calls)


def test_a_code_means_one_action_and_is_dotted():
    actions: dict[str, set[str]] = {}
    for where, rule in declared_rules():
        assert CODE.match(rule.code), f"{where}: loss code {rule.code!r} is not dotted lower case"
        assert rule.why.strip(), f"{where}: rule {rule.code} has no sentence"
        actions.setdefault(rule.code, set()).add(rule.action)
    mixed = {code: sorted(found) for code, found in actions.items() if len(found) > 1}
    assert not mixed, f"codes declared with more than one action: {mixed}"


def test_the_finder_sees_a_hand_written_loss(tmp_path):
    (tmp_path / "spoke.py").write_text(
        "from x import Loss, contract\n"
        "a = Loss('/body', 'dropped', 'why', 'x.y')\n"
        "b = contract.Loss('/body', 'dropped', 'why', 'x.y')\n"
        "c = RULE.at('/body')\n"
    )
    assert loss_calls(tmp_path) == ["spoke.py:2", "spoke.py:3"]


def _rule_places(pointer: str, rules: list[LossRule]) -> bool:
    return any(re.match(rule.pattern + r"(?=/|$)", pointer) for rule in rules)


def test_every_card_crossing_loss_comes_from_a_declared_rule_that_names_its_place():
    from bunzai.crossings import card_formats, crossing_cell, rich_character

    by_code: dict[str, list[LossRule]] = {}
    for _where, rule in declared_rules():
        by_code.setdefault(rule.code, []).append(rule)
    from bunzai.adapters.common.losses import NOT_CARRIED, UNREADABLE

    rich = rich_character()
    strays = []
    for source in card_formats():
        for target in card_formats():
            for loss in crossing_cell(source, target, *rich).losses:
                rules = by_code.get(loss["code"], [])
                if loss["code"] in (NOT_CARRIED.code, UNREADABLE.code):
                    continue
                if not rules or not _rule_places(loss["pointer"], rules):
                    strays.append(f"{source}->{target} {loss['code']} at {loss['pointer']}")
    assert not strays, "losses with no declared rule whose pattern matches: " + "; ".join(
        sorted({s.split(" ", 1)[1] for s in strays})
    )
