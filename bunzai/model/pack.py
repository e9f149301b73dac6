"""Packs: a character's expression images (sprites), one per label, with named groups."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from bunzai.model.base import AssetRef, JsonObject, Model, PieceBase, SafeId


class PackItem(Model):
    """One expression image."""

    id: SafeId = Field(description="Item id, unique in the pack.")
    label: str = Field(default="", description="Expression label, e.g. joy, neutral (several items may share one).")
    asset: AssetRef | None = Field(default=None, description="The stored image; None when not (yet) stored.")
    mime: str = Field(default="", description="MIME type of the image.")


class PackGroup(Model):
    """A named group of items (an outfit, a pose set)."""

    name: str = Field(default="", description="Group name.")
    items: list[SafeId] = Field(default_factory=list, description="Ids of the items in the group.")


class PackBody(Model):
    """The items of a pack, its default face and its groups."""

    description: str = Field(default="", description="What the pack shows.")
    items: list[PackItem] = Field(default_factory=list, description="Images, in order; ids are unique.")
    default_face: str = Field(default="", description="Label shown when no expression applies; '' = none chosen.")
    groups: list[PackGroup] = Field(default_factory=list, description="Named groups of items.")
    extensions: JsonObject = Field(default_factory=dict, description="Namespaced app data carried with the pack.")

    @model_validator(mode="after")
    def _references_resolve(self) -> PackBody:
        ids = [item.id for item in self.items]
        if len(set(ids)) != len(ids):
            raise ValueError("two pack items share an id; item ids must be unique in a pack")
        labels = {item.label for item in self.items}
        if self.default_face and self.default_face not in labels:
            raise ValueError(f"default_face {self.default_face!r} is not the label of any item")
        for group in self.groups:
            unknown = [item for item in group.items if item not in ids]
            if unknown:
                raise ValueError(f"group {group.name!r} names unknown items: {', '.join(unknown)}")
        return self


class Pack(PieceBase):
    """An expression pack (sprites)."""

    kind: Literal["pack"] = Field(default="pack", description="Always 'pack'.")
    body: PackBody = Field(default_factory=PackBody, description="Items, default face and groups.")
