"""Validate a canonical piece, turning pydantic's errors into one coded error (used by every layer above the model)."""

from __future__ import annotations

from bunzai.errors import BunzaiError, unknown_name
from bunzai.model import KIND_NAMES, parse_piece

TYPE_CHECKING = False  # typing costs 3 ms to import; list, search and read never need it
if TYPE_CHECKING:
    from typing import Any


def check_kind(kind: object) -> str:
    """`kind` when it is a kind bunzai has; BunzaiError unknown_kind otherwise."""
    if not isinstance(kind, str) or kind not in KIND_NAMES:
        raise unknown_name(
            "unknown_kind", f"{kind!r} is not a kind bunzai knows", kind, KIND_NAMES, "kinds: " + ", ".join(KIND_NAMES)
        )
    return kind


def validate_piece(data: Any):
    """The validated piece for `data`, or BunzaiError invalid_input / invalid_promptbook."""
    from pydantic import ValidationError

    if not isinstance(data, dict):
        raise BunzaiError(
            "invalid_input", "a piece is a JSON object", "see `bunzai schema KIND` for the fields a piece may have"
        )
    check_kind(data.get("kind"))
    try:
        return parse_piece(data)
    except ValidationError as error:
        raise coded_validation_error(error) from None


def coded_validation_error(error) -> BunzaiError:
    """A pydantic ValidationError as the coded error a caller renders: invalid_promptbook when a
    promptbook rule failed, else invalid_input, every problem listed with its path."""
    problems = []
    rule = None
    for item in error.errors(include_url=False):
        where = "/" + "/".join(str(part) for part in item["loc"]) if item["loc"] else "/"
        problems.append({"path": where, "problem": item["msg"]})
        if item["type"] == "promptbook_rule" and rule is None:
            rule = (item.get("ctx") or {}).get("rule")
    first = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    if rule is not None:
        return BunzaiError(
            "invalid_promptbook",
            first["problem"] if first["problem"].startswith(f"{rule}:") else f"{rule}: {first['problem']}",
            "fix the phases so every decoder rule holds; see `bunzai schema promptbook`",
            rule=rule,
            problems=problems,
        )
    return BunzaiError(
        "invalid_input",
        f"{first['path']}: {first['problem']}{more}",
        "see `bunzai schema KIND` for the fields a piece may have",
        problems=problems,
    )
