"""Personas: who the user plays. SillyTavern personas, Agnai/Marinara user profiles, CCv3 user_icon."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from bunzai.model.base import AssetRef, JsonObject, Model, PieceBase, Presentation, Role, SafeId

PersonaPosition = Literal["in_prompt", "top_an", "bottom_an", "at_depth", "none"]


class PersonaBody(Model):
    """What a persona says about the user, and where it goes in the prompt.

    `profile` is structured but free-form: an ordered map of label -> text ("age": "34",
    "pronouns": "she/her"), for shelves and for tools that render a description from it.
    It is never injected by itself; `description` is what the model reads.
    """

    description: str = Field(default="", description="First-person text injected into the prompt ({{persona}}).")
    brief: str = Field(default="", description="One-line summary for shelves; never injected.")
    profile: dict[str, str] = Field(
        default_factory=dict, description="Structured facts, label -> text, in display order; never injected."
    )
    position: PersonaPosition = Field(
        default="in_prompt", description="Where the description goes: in_prompt, top_an, bottom_an, at_depth, none."
    )
    depth: int = Field(default=2, ge=0, description="Messages from the end, for position at_depth.")
    role: Role = Field(default="system", description="Message role, for position at_depth.")
    portrait: AssetRef | None = Field(default=None, description="The persona's avatar image.")
    lorebook: SafeId | None = Field(default=None, description="Id of a lorebook bound to this persona.")
    presentation: Presentation = Field(default_factory=Presentation, description="How the persona is shown to people.")
    extensions: JsonObject = Field(default_factory=dict, description="Namespaced app data carried with the persona.")


class Persona(PieceBase):
    """A user persona. The piece `name` is the name {{user}} stands for."""

    kind: Literal["persona"] = Field(default="persona", description="Always 'persona'.")
    body: PersonaBody = Field(default_factory=PersonaBody, description="The persona's text and placement.")
