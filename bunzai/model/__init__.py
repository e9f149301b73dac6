"""The canonical model: one module per kind, one entry point to parse and dump any piece.

This package imports nothing else of bunzai. Kind modules are imported on first use, so
commands that never touch a model (`--version`, `list`) do not pay for pydantic.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs 3 ms to import; list, search and read never need it
if TYPE_CHECKING:
    from typing import Any

    from bunzai.model.base import PieceBase

# kind name -> (module, class). The order is the order kinds are listed to people.
_KINDS: dict[str, tuple[str, str]] = {
    "character": ("bunzai.model.character", "Character"),
    "lorebook": ("bunzai.model.lorebook", "Lorebook"),
    "persona": ("bunzai.model.persona", "Persona"),
    "preset": ("bunzai.model.preset", "Preset"),
    "regex": ("bunzai.model.regex", "RegexSet"),
    "quickreply": ("bunzai.model.quickreply", "QuickReplySet"),
    "pack": ("bunzai.model.pack", "Pack"),
    "htmldoc": ("bunzai.model.htmldoc", "HtmlDoc"),
    "promptbook": ("bunzai.model.promptbook", "Promptbook"),
}

KIND_NAMES: tuple[str, ...] = tuple(_KINDS)


def piece_class(kind: str) -> type[PieceBase]:
    """The pydantic class of a kind. Raises KeyError for an unknown kind."""
    import importlib  # here: it imports warnings, and `list` and `search` import this package for KIND_NAMES

    module_name, class_name = _KINDS[kind]
    return getattr(importlib.import_module(module_name), class_name)


def parse_piece(data: Any) -> PieceBase:
    """Validate a canonical piece document (a dict with `kind`).

    Raises KeyError for a missing or unknown kind and pydantic.ValidationError for
    anything else that does not validate.
    """
    if not isinstance(data, dict):
        raise TypeError("a piece is a JSON object")
    return piece_class(data["kind"]).model_validate(data)


def dump_piece(piece: PieceBase) -> dict:
    """The canonical JSON form of a piece: every field, defaults included.

    A piece just read names its media by LazyAssetRefs, hashed here; when hashing one fails
    (a damaged image, found only now), that error is raised as it is, not wrapped by pydantic.
    """
    from pydantic_core import PydanticSerializationError

    try:
        return piece.model_dump(mode="json")
    except PydanticSerializationError:
        piece.asset_refs()  # hashes every lazy ref directly: raises the error it met
        raise


def json_schema(kind: str) -> dict:
    """The JSON Schema of a kind's canonical document."""
    return piece_class(kind).model_json_schema()
