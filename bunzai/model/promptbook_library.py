"""A promptbook's library: the small typed items its phases use, and a phase's references to them.

The promptbook seed names six library kinds a phase may carry. Five live in the promptbook
itself (`body.library`): script sheets, skills, tools, dice and trackers. They are small
and belong to the turn they shape, so they travel with the promptbook rather than as studio
pieces of their own. The sixth, regex, is already a studio kind (bunzai.model.regex): a
phase names regex pieces by id.

A phase's `uses` lists ids per kind. A reference to an id that does not exist is not a
decoder rule (a library item can be removed while a phase still names it, and regex pieces
live outside the promptbook): `bunzai promptbook try-line` and `rehearse` report it as a
finding. Ids are unique within one library kind (decoder rule duplicate_library_id, in
bunzai.model.promptbook).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, JsonValue, field_validator, model_validator

from bunzai.model.base import Model, SafeId

LibraryKind = Literal["scripts", "skills", "tools", "dice", "trackers"]
UseKind = Literal["scripts", "skills", "tools", "dice", "regex", "trackers"]
LIBRARY_KINDS: tuple[str, ...] = ("scripts", "skills", "tools", "dice", "trackers")
USE_KINDS: tuple[str, ...] = ("scripts", "skills", "tools", "dice", "regex", "trackers")

# A die is NdS (N optional, 1 and up; S 1 and up); later terms add or subtract dice or whole
# numbers: 2d6+1, d20, 1d8+1d6-2. The first term is a die, so a notation always rolls.
# Spaces before an operator belong to its term and trailing spaces to the end only: two
# places that could each take a run of spaces made a failing match backtrack exponentially.
DICE_NOTATION = r"^ *([1-9][0-9]*)?[dD][1-9][0-9]*( *[+-] *(([1-9][0-9]*)?[dD][1-9][0-9]*|[0-9]+))* *$"


class ScriptSheet(Model):
    """A script sheet: text a phase follows (a beat sheet, a scene plan, house rules)."""

    id: SafeId = Field(description="Id, unique among the promptbook's script sheets.")
    name: str = Field(default="", description="Name shown to people.")
    text: str = Field(default="", description="The sheet's text, as the phase would be given it.")


class Skill(Model):
    """A skill: instructions the model may pick up when its description fits the moment."""

    id: SafeId = Field(description="Id, unique among the promptbook's skills.")
    name: str = Field(default="", description="Name shown to people and to the model.")
    description: str = Field(default="", description="When the skill applies; what the model reads to pick it.")
    instructions: str = Field(default="", description="What the model follows once it picks the skill.")


class Tool(Model):
    """A tool the model may call: a name, what it does, and its parameters as a JSON Schema."""

    id: SafeId = Field(description="Id, unique among the promptbook's tools.")
    name: str = Field(default="", description="The tool's name as the model calls it.")
    description: str = Field(default="", description="What the tool does; what the model reads to call it.")
    parameters: dict[str, JsonValue] = Field(
        default_factory=lambda: {"type": "object", "properties": {}},
        description="JSON Schema of the arguments: an object schema (`type` object, `properties` an object), "
        "as function-calling APIs and MCP tools take it.",
    )

    @field_validator("parameters")
    @classmethod
    def _object_schema(cls, value: dict) -> dict:
        # Only the outer shape is checked: it is what every tool-calling API insists on.
        if value.get("type", "object") != "object":
            raise ValueError(f"the parameters schema has type {value.get('type')!r}; a tool takes an object")
        if not isinstance(value.get("properties", {}), dict):
            raise ValueError("the parameters schema's `properties` is not an object")
        if not isinstance(value.get("required", []), list):
            raise ValueError("the parameters schema's `required` is not a list")
        return value


class Dice(Model):
    """A named dice roll in table-top notation."""

    id: SafeId = Field(description="Id, unique among the promptbook's dice.")
    name: str = Field(default="", description="Name shown to people, e.g. 'Attack roll'.")
    notation: str = Field(
        description="Dice notation: NdS terms (N dice of S sides; N defaults to 1), then + or - more dice "
        "or whole numbers, e.g. 2d6+1, d20, 1d8+1d6-2.",
        json_schema_extra={"pattern": DICE_NOTATION},
    )

    @field_validator("notation")
    @classmethod
    def _notation(cls, value: str) -> str:
        # Checked here rather than by `pattern=` so the refusal reads as dice, not as a regex.
        if not re.fullmatch(DICE_NOTATION, value):
            raise ValueError(
                f"{value!r} is not dice notation; write NdS terms joined by + or -, "
                "starting with a die: 2d6+1, d20, 1d8+1d6-2"
            )
        return value


TrackerValue = str | int | float | bool


class TrackerField(Model):
    """One value a tracker keeps."""

    name: str = Field(min_length=1, description="The field's name, unique in its tracker, e.g. 'hp'.")
    initial: TrackerValue = Field(
        default="", description="The value at the start of a chat: text, number or true/false."
    )
    description: str = Field(default="", description="What the value means.")


class Tracker(Model):
    """A tracker: named values kept across a chat (health, mood, inventory count ...)."""

    id: SafeId = Field(description="Id, unique among the promptbook's trackers.")
    name: str = Field(default="", description="Name shown to people.")
    fields: list[TrackerField] = Field(default_factory=list, description="The values it keeps, in order; names unique.")

    @model_validator(mode="after")
    def _unique_field_names(self) -> Tracker:
        names = [field.name for field in self.fields]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise ValueError(f"tracker {self.id!r} has two fields named {twice[0]!r}")
        return self


class PromptbookLibrary(Model):
    """The promptbook's own library items, per kind. Regex rules are studio regex pieces, not held here."""

    scripts: list[ScriptSheet] = Field(default_factory=list, description="Script sheets.")
    skills: list[Skill] = Field(default_factory=list, description="Skills.")
    tools: list[Tool] = Field(default_factory=list, description="Tools.")
    dice: list[Dice] = Field(default_factory=list, description="Dice.")
    trackers: list[Tracker] = Field(default_factory=list, description="Trackers.")


class PhaseUses(Model):
    """The library items a phase carries, by id per kind. An id that names nothing is reported when rendering."""

    scripts: list[SafeId] = Field(default_factory=list, description="Ids of script sheets in the promptbook's library.")
    skills: list[SafeId] = Field(default_factory=list, description="Ids of skills in the promptbook's library.")
    tools: list[SafeId] = Field(default_factory=list, description="Ids of tools in the promptbook's library.")
    dice: list[SafeId] = Field(default_factory=list, description="Ids of dice in the promptbook's library.")
    regex: list[SafeId] = Field(default_factory=list, description="Ids of regex pieces in the studio.")
    trackers: list[SafeId] = Field(default_factory=list, description="Ids of trackers in the promptbook's library.")
