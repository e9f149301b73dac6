"""RFC 6901 JSON pointers: parse, escape, resolve. A bad or missing pointer fails closed."""

from __future__ import annotations

from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import escape, join

TYPE_CHECKING = False  # typing costs 3 ms to import; list, search and read never need it
if TYPE_CHECKING:
    from typing import Any

__all__ = ["escape", "join", "parse", "resolve"]  # escape and join live in jsondoc (one escaping rule)


def parse(pointer: str) -> list[str]:
    """The reference tokens of a pointer ('' is the whole document)."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise BunzaiError(
            "bad_pointer",
            f"{pointer!r} is not a JSON pointer",
            "a pointer is '' or starts with '/', e.g. /body/description",
        )
    tokens = []
    for raw in pointer[1:].split("/"):
        if "~" in raw.replace("~0", "").replace("~1", ""):
            raise BunzaiError(
                "bad_pointer", f"{pointer!r} has a '~' not followed by 0 or 1", "escape '~' as ~0 and '/' as ~1"
            )
        tokens.append(raw.replace("~1", "/").replace("~0", "~"))
    return tokens


def resolve(document: Any, pointer: str) -> Any:
    """The value at `pointer`; BunzaiError bad_pointer when it does not exist."""
    value = document
    walked = ""
    for token in parse(pointer):
        walked = join(walked, token)
        if isinstance(value, dict):
            if token not in value:
                raise BunzaiError("bad_pointer", f"nothing at {walked}", "use --outline to see what is there")
            value = value[token]
        elif isinstance(value, list):
            if not token.isdigit() or (token != "0" and token.startswith("0")):
                raise BunzaiError(
                    "bad_pointer",
                    f"{walked}: {token!r} is not an array index",
                    "array items are numbered 0, 1, 2 ... without leading zeros",
                )
            index = int(token)
            if index >= len(value):
                raise BunzaiError(
                    "bad_pointer",
                    f"nothing at {walked}: the array has {len(value)} items",
                    "indexes count from 0; use --outline to see what is there",
                )
            value = value[index]
        else:
            raise BunzaiError(
                "bad_pointer",
                f"nothing at {walked}: {type(value).__name__} values have no children",
                "use --outline to see what is there",
            )
    return value
