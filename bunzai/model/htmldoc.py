"""HTML documents: drawings, status panels and pages made of markup, with declared slots."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from bunzai.model.base import Model, PieceBase


class Slot(Model):
    """A named place in the markup that a frontend or template fills."""

    name: str = Field(min_length=1, description="Slot name, unique in the document.")
    description: str = Field(default="", description="What goes in the slot.")


class HtmlDocBody(Model):
    """An HTML document. The markup is sealed: stored and carried verbatim, never executed or rendered by bunzai."""

    summary: str = Field(default="", description="What the document shows, in a sentence.")
    tags: list[str] = Field(default_factory=list, description="Tags for shelves and search.")
    notes: str = Field(default="", description="Notes for people.")
    markup: str = Field(default="", description="The HTML, sealed: stored verbatim, never executed.")
    slots: list[Slot] = Field(default_factory=list, description="Declared slots; names are unique.")

    @model_validator(mode="after")
    def _slot_names_are_unique(self) -> HtmlDocBody:
        names = [slot.name for slot in self.slots]
        if len(set(names)) != len(names):
            raise ValueError("two slots share a name; slot names must be unique in a document")
        return self


class HtmlDoc(PieceBase):
    """An HTML document piece (sealed markup)."""

    kind: Literal["htmldoc"] = Field(default="htmldoc", description="Always 'htmldoc'.")
    body: HtmlDocBody = Field(default_factory=HtmlDocBody, description="Summary, markup and slots.")
