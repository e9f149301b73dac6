"""Inputs and previews of the `studio.<kind>.create` capabilities.

A create input is flat and friendly: `name`, an optional `id`, and the kind's body fields
at the top level (typed and described exactly as the canonical model types and describes
them), plus `profiles`. `{"name": ..., "body": {...}}`, the nested form `bunzai create`
also reads, is accepted and flattened. Only the fields given are set; the model's
defaults fill the rest.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import Field, create_model, model_validator

from bunzai.errors import BunzaiError
from bunzai.model import piece_class
from bunzai.model.base import JsonObject, Model
from bunzai.model.ids import id_problem, slugify

_PIECE_FIELDS = ("name", "id", "profiles")


class CreateInput(Model):
    """Base of create inputs: the nested `body` form is flattened before validation."""

    name: str = Field(min_length=1, pattern=r"\S", description="Display name of the new piece.")
    id: str | None = Field(
        default=None,
        description="Id of the new piece (a lowercase slug like ada-lovelace); default: the name as a slug.",
    )
    profiles: dict[str, JsonObject] | None = Field(
        default=None, description="Per-platform settings the canonical model names, keyed by platform id."
    )

    @model_validator(mode="before")
    @classmethod
    def _flatten_body(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("body"), dict):
            flat = [key for key in data if key not in (*_PIECE_FIELDS, "body", "kind")]
            if flat:
                raise ValueError(
                    'give body fields either flat or under "body", not both (flat: ' + ", ".join(sorted(flat)) + ")"
                )
            rest = {key: value for key, value in data.items() if key not in ("body", "kind")}
            return rest | data["body"]
        if isinstance(data, dict) and "kind" in data:
            return {key: value for key, value in data.items() if key != "kind"}
        return data


def create_input_model(
    kind: str, model_name: str, doc: str, *, replace: dict[str, tuple[Any, Any]] | None = None
) -> type:
    """A CreateInput subclass with every body field of `kind` at the top level.

    `replace` swaps a body field's (annotation, Field) for a friendlier input form (pack
    items with media refs). Every field keeps the model's description and default.
    """
    body_class = piece_class(kind).model_fields["body"].annotation
    fields: dict[str, tuple[Any, Any]] = {}
    for name, info in body_class.model_fields.items():
        fields[name] = (info.annotation, copy.copy(info))
    fields.update(replace or {})
    return create_model(model_name, __base__=CreateInput, __doc__=doc, **fields)


def body_given(data: CreateInput, *, exclude: tuple[str, ...] = ()) -> dict:
    """The body fields the caller gave, as JSON."""
    return data.model_dump(mode="json", exclude_unset=True, exclude={*_PIECE_FIELDS, *exclude})


def new_piece_json(kind: str, data: CreateInput, body: dict) -> dict:
    """The canonical JSON of the new piece (not yet validated): kind, id, name, body, profiles."""
    doc = {"kind": kind, "id": chosen_id(data.name, data.id, kind), "name": data.name, "body": body}
    if data.profiles is not None:
        doc["profiles"] = data.profiles
    return doc


def chosen_id(name: str, given_id: str | None, kind: str) -> str:
    """`given_id` when it is a safe id, else the name as a slug; invalid_id when neither works."""
    if given_id is not None:
        problem = id_problem(given_id)
        if problem:
            raise BunzaiError("invalid_id", f"id {given_id!r}: {problem}", "ids are lowercase slugs like ada-lovelace")
        return given_id
    slug = slugify(name)
    if not slug:
        raise BunzaiError(
            "invalid_id",
            f"no id can be made from the name {name!r}",
            f'give one in the input, e.g. {{"name": {name!r}, "id": "my-{kind}"}}',
        )
    return slug
