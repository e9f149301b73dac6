"""Phase lookups and id lists shared by the promptbook capabilities."""

from __future__ import annotations

from typing import Literal

from bunzai.capabilities.common.patching import refuse
from bunzai.capabilities.common.positions import index_of
from bunzai.model.ids import id_problem

ListAction = Literal["set", "add", "remove"]
LIST_ACTION_DESCRIPTION = (
    "set: replace the list; add: append those not there yet (or insert at `at`); remove: take them out."
)


def phase_of(doc: dict, phase_id: str) -> dict:
    phases = doc["body"]["phases"]
    return phases[index_of(phases, "id", phase_id, "phase")]


def checked_ids(values: list[str], what: str) -> list[str]:
    for value in values:
        problem = id_problem(value)
        if problem:
            raise refuse(f"{what} {value!r}: {problem}", "ids are lowercase slugs like reply or plan")
    return values


def edited_list(
    current: list[str], action: ListAction, values: list[str], at: int | None, what: str
) -> tuple[list[str], list[str]]:
    """The list after `action`, and the warnings (ids added twice, removed but absent)."""
    warnings = []
    if action == "set":
        if len(set(values)) != len(values):
            raise refuse(f"{what}: an id is listed twice", "list each id once")
        return list(values), warnings
    if action == "add":
        fresh = [value for value in dict.fromkeys(values) if value not in current]
        warnings += [f"{what}: {value!r} is already listed" for value in values if value in current]
        index = len(current) if at is None else min(at, len(current))
        return current[:index] + fresh + current[index:], warnings
    warnings += [f"{what}: {value!r} was not listed" for value in values if value not in current]
    return [value for value in current if value not in values], warnings
