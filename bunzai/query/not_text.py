"""The fields of each kind that hold settings, not text: what search leaves out.

A lorebook entry's `position` and `selective_logic`, a prompt's `role`, a character's
`rating: unrated` are values from a closed set that most pieces of the kind hold: searched,
`and_any` would match nearly every lorebook and `unrated` most characters, each with a
snippet of that one word. So would the kind itself, and a stored file's hash, extension and
MIME type (`png`, every portrait and sprite).

The canonical model says which fields those are: a field typed by a `Literal`, a reference to
a stored file (`AssetRef`), and a field named `mime`. Reading the model means importing
pydantic and every kind, several times the cost of the search that needs the answer, so
`bunzai/generated/not_text.json` keeps it: for each kind, the pointers of those fields, with
`*` for any item of a list or any key of a map. `make hot` writes it; `make checks` fails
while it differs from the model.

    .venv/bin/python -m bunzai.query.not_text [--check]
"""

from __future__ import annotations

import functools
import json
import os
import sys

TYPE_CHECKING = False  # typing costs 3 ms to import: indexing a piece only loads the table
if TYPE_CHECKING:
    from typing import Any

    Tree = dict[str, Any]  # key (or "*") -> True (not text) or the tree below it

TABLE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "generated", "not_text.json")


def tree(kind: str) -> Tree | None:
    """The fields of `kind` that are not text, as a tree of keys (see `text_fields`); None for
    a kind the table does not know (every field is then text)."""
    return _trees().get(kind)


@functools.cache
def _trees() -> dict[str, Tree]:
    with open(TABLE, encoding="utf-8") as handle:
        return {name: _tree(pointers) for name, pointers in json.load(handle).items()}


def _tree(pointers: list[str]) -> Tree:
    root: Tree = {}
    for pointer in pointers:
        node = root
        *parents, last = pointer.split("/")[1:]
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = True
    return root


# --- building the table from the model ----------------------------------------------------


def build_table() -> dict[str, list[str]]:
    """For each kind, the pointers of its fields that are not text, in the model's order."""
    from bunzai.model import KIND_NAMES, piece_class

    return {kind: _not_text(piece_class(kind), "", ()) for kind in KIND_NAMES}


def _not_text(annotation: Any, pointer: str, within: tuple[type, ...]) -> list[str]:
    import types
    import typing

    from pydantic import BaseModel

    from bunzai.model.base import AssetRef

    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _not_text(arguments[0], pointer, within)
    if origin is typing.Literal:
        return [pointer]
    if origin in (typing.Union, types.UnionType, list, tuple, set, frozenset, dict):
        below = pointer if origin in (typing.Union, types.UnionType) else pointer + "/*"
        items = arguments[1:] if origin is dict else arguments
        found: list[str] = []
        for argument in items:
            if argument is not Ellipsis and argument is not type(None):
                found += [p for p in _not_text(argument, below, within) if p not in found]
        if any(_is_str(argument) for argument in items) and below in found:  # `Literal[...] | str` is text
            found.remove(below)
        return found
    if isinstance(annotation, type) and issubclass(annotation, AssetRef):
        return [pointer]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel) and annotation not in within:
        found = []
        for name, field in annotation.model_fields.items():
            key = field.alias or name
            if key == "mime" and field.annotation is str:
                found.append(f"{pointer}/{key}")
            else:
                found += _not_text(field.annotation, f"{pointer}/{key}", (*within, annotation))
        return found
    return []


def _is_str(annotation: Any) -> bool:
    import typing

    if typing.get_origin(annotation) is typing.Annotated:
        return _is_str(typing.get_args(annotation)[0])
    return annotation is str


def table_text(table: dict[str, list[str]]) -> str:
    return json.dumps(table, indent=1) + "\n"


def main(args: list[str]) -> int:
    from bunzai.files import write_or_check_table

    text = table_text(build_table())
    stale = "bunzai/generated/not_text.json differs from the model: run `make hot`"
    return write_or_check_table(TABLE, text, check=args == ["--check"], stale=stale)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
