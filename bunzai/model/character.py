"""Characters: the canonical character card (CCv1/V2/V3, CHARX, RisuAI, Agnai, Backyard ...).

The piece `name` is the character's name. The body names what the platforms carry under
neutral names (`first_message`, not `first_mes`); whatever a platform stores that the body
does not name stays in the piece's escrow, and namespaced app data travels in `extensions`
exactly as the V2 spec asks.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from bunzai.model.base import AssetRef, Json, JsonObject, Model, PieceBase, Presentation, Role, SafeId
from bunzai.model.lorebook import LorebookBody

Rating = Literal["unrated", "sfw", "nsfw"]
Visual = Literal["none", "sprites", "live2d", "generated"]


class CharacterMedia(Model):
    """The moving picture of a character: which pack, shown how, with which face first."""

    pack: SafeId | None = Field(default=None, description="Id of the pack piece holding the expressions.")
    visual: Visual = Field(
        default="none",
        description="How the character is shown: none (portrait only), sprites, live2d, generated (image generation).",
    )
    face: str = Field(
        default="", description="Expression label shown when nothing else applies; '' = the pack's default."
    )


class CharacterLinks(Model):
    """Other pieces this character brings along, by id."""

    lorebooks: list[SafeId] = Field(
        default_factory=list, description="Bound lorebooks; the first is the primary world, the rest extra books."
    )
    regex: list[SafeId] = Field(default_factory=list, description="Regex sets scoped to this character.")
    quickreplies: list[SafeId] = Field(default_factory=list, description="Quick-reply sets scoped to this character.")


class DepthPrompt(Model):
    """Character's note: text inserted at a fixed depth in the chat."""

    text: str = Field(default="", description="The note's text.")
    depth: int = Field(default=4, ge=0, description="Messages from the end of the chat.")
    role: Role = Field(default="system", description="Role of the inserted message.")


class CharacterBook(LorebookBody):
    """A lorebook embedded in the card (CCv2/V3 `character_book`)."""

    name: str = Field(default="", description="The embedded book's name.")


class CharacterSettings(Model):
    """Per-character chat settings."""

    talkativeness: float = Field(default=0.5, ge=0.0, le=1.0, description="Chance to speak unprompted in a group chat.")
    favorite: bool = Field(default=False, description="Marked as favourite in the library.")
    variables: dict[str, str] = Field(default_factory=dict, description="Chat variables set when a chat starts.")
    bias: list[tuple[str, float]] = Field(
        default_factory=list, description="Token bias: [text, weight] pairs (RisuAI `bias`)."
    )


class SealedScript(Model):
    """An embedded behaviour payload (regex script, trigger, Lua ...), kept as sealed data.

    bunzai stores and carries it verbatim and never executes it; tools that want to act on it
    read the payload in its native `format`.
    """

    format: str = Field(
        default="", description="Payload format, e.g. sillytavern.regex, risu.customscript, risu.trigger."
    )
    name: str = Field(default="", description="The script's name as its platform shows it.")
    payload: Json = Field(default=None, description="The native payload, verbatim. Never executed.")


class VariantOverrides(Model):
    """The fields a variant may set. None = not set by this variant."""

    name: str | None = Field(default=None, description="Character name in this variant.")
    nickname: str | None = Field(default=None, description="Nickname in this variant.")
    tagline: str | None = Field(default=None, description="Tagline in this variant.")
    description: str | None = Field(default=None, description="Description in this variant.")
    personality: str | None = Field(default=None, description="Personality in this variant.")
    scenario: str | None = Field(default=None, description="Scenario in this variant.")
    first_message: str | None = Field(default=None, description="First message in this variant.")
    alternate_greetings: list[str] | None = Field(default=None, description="Alternate greetings in this variant.")
    group_only_greetings: list[str] | None = Field(default=None, description="Group-only greetings in this variant.")
    example_messages: str | None = Field(default=None, description="Example messages in this variant.")
    system_prompt: str | None = Field(default=None, description="System prompt in this variant.")
    post_history_instructions: str | None = Field(
        default=None, description="Post-history instructions in this variant."
    )
    creator_notes: str | None = Field(default=None, description="Creator notes in this variant.")
    tags: list[str] | None = Field(default=None, description="Tags in this variant.")
    portrait: AssetRef | None = Field(default=None, description="Portrait in this variant.")
    media: CharacterMedia | None = Field(default=None, description="Media in this variant.")
    depth_prompt: DepthPrompt | None = Field(default=None, description="Depth prompt in this variant.")
    links: CharacterLinks | None = Field(default=None, description="Linked pieces in this variant.")

    def fields_set(self) -> set[str]:
        """Names of the fields this variant sets (not None)."""
        return {field for field in type(self).model_fields if getattr(self, field) is not None}


VariantField = Literal[
    "nickname",
    "tagline",
    "description",
    "personality",
    "scenario",
    "first_message",
    "alternate_greetings",
    "group_only_greetings",
    "example_messages",
    "system_prompt",
    "post_history_instructions",
    "creator_notes",
    "tags",
    "portrait",
    "media",
    "depth_prompt",
    "links",
]


class CharacterVariant(Model):
    """A named variant of the character (an outfit, an age, an AU), with explicit inheritance.

    Resolving a variant against the base card:
    - mode `overlay`: start from the base; every field set in `overrides` replaces the base's.
      `inherit` must be empty: everything not overridden is inherited.
    - mode `standalone`: start from empty fields; copy the fields named in `inherit` from the
      base, then apply `overrides`. A field neither inherited nor overridden is empty.
    A field may not be both inherited and overridden. Only the fields of VariantOverrides vary.
    The character name is always the base's unless `overrides.name` sets it: a character
    without a name is not a character. An override cannot clear a field (null = not set);
    a standalone variant clears a field by neither inheriting nor overriding it.
    """

    id: SafeId = Field(description="Variant id, unique within the character.")
    name: str = Field(default="", description="Variant label shown to people, e.g. 'Winter outfit'.")
    mode: Literal["overlay", "standalone"] = Field(
        default="overlay", description="overlay: base + overrides; standalone: only `inherit` fields + overrides."
    )
    inherit: list[VariantField] = Field(
        default_factory=list, description="Fields taken from the base (standalone mode only)."
    )
    overrides: VariantOverrides = Field(
        default_factory=VariantOverrides, description="Fields this variant sets; null = not set."
    )

    @model_validator(mode="after")
    def _inheritance_is_explicit(self) -> CharacterVariant:
        if self.mode == "overlay" and self.inherit:
            raise ValueError("an overlay variant inherits every field it does not override; leave `inherit` empty")
        both = set(self.inherit) & self.overrides.fields_set()
        if both:
            raise ValueError(f"fields both inherited and overridden: {', '.join(sorted(both))}")
        if len(set(self.inherit)) != len(self.inherit):
            raise ValueError("a field is listed twice in `inherit`")
        return self

    def resolve(self, name: str, base: CharacterBody) -> tuple[str, CharacterBody]:
        """The character name and body this variant stands for, given the base card's."""
        values = self.overrides.model_dump(exclude_none=True)
        resolved_name = values.pop("name", name)
        if self.mode == "overlay":
            # A resolved variant has no variants of its own.
            start = base.model_dump(exclude={"variants"})
        else:
            start = {field: getattr(base, field) for field in self.inherit}
        return resolved_name, CharacterBody.model_validate(start | values)


class CharacterBody(Model):
    """Everything a character card says, under platform-neutral names."""

    nickname: str = Field(default="", description="Name used for {{char}} when set (CCv3 `nickname`).")
    tagline: str = Field(default="", description="One-line hook shown on shelves; not sent to the model.")
    description: str = Field(default="", description="The character's description, sent to the model.")
    personality: str = Field(default="", description="Personality summary, sent to the model.")
    scenario: str = Field(default="", description="The situation the chat starts in.")
    first_message: str = Field(default="", description="The character's first message.")
    alternate_greetings: list[str] = Field(default_factory=list, description="Other first messages (swipes).")
    group_only_greetings: list[str] = Field(
        default_factory=list, description="First messages used only in group chats."
    )
    example_messages: str = Field(default="", description="Example dialogue, blocks separated by <START>.")
    system_prompt: str = Field(
        default="", description="Replaces the user's system prompt; '' = keep it. {{original}} kept."
    )
    post_history_instructions: str = Field(default="", description="Instructions placed after the chat history.")
    creator_notes: str = Field(default="", description="Notes for people; never sent to the model.")
    creator_notes_multilingual: dict[str, str] = Field(
        default_factory=dict, description="Creator notes by ISO 639-1 language code (CCv3)."
    )
    tags: list[str] = Field(default_factory=list, description="Tags for shelves and search.")
    creator: str = Field(default="", description="Who made the card.")
    version: str = Field(default="", description="The card's version string (`character_version`).")
    rating: Rating = Field(default="unrated", description="Content rating: unrated, sfw, nsfw.")
    content_warnings: list[str] = Field(default_factory=list, description="Content warnings shown before use.")
    source: list[str] = Field(
        default_factory=list, description="Where the card came from: ids or URLs (CCv3); append only."
    )
    creation_date: int | None = Field(
        default=None, ge=0, description="Creation time, unix seconds UTC; None = unknown."
    )
    modification_date: int | None = Field(
        default=None, ge=0, description="Last change, unix seconds UTC; None = unknown."
    )
    portrait: AssetRef | None = Field(default=None, description="The main portrait (CCv3 icon 'main', the PNG image).")
    media: CharacterMedia = Field(default_factory=CharacterMedia, description="Expression pack and how it is shown.")
    links: CharacterLinks = Field(default_factory=CharacterLinks, description="Lorebooks and behaviour sets by id.")
    depth_prompt: DepthPrompt = Field(default_factory=DepthPrompt, description="Character's note at a depth.")
    book: CharacterBook | None = Field(default=None, description="The embedded lorebook; None = the card has none.")
    variants: list[CharacterVariant] = Field(default_factory=list, description="Named variants; ids are unique.")
    settings: CharacterSettings = Field(
        default_factory=CharacterSettings, description="Talkativeness, favourite flag, chat variables and token bias."
    )
    behavior_scripts: list[SealedScript] = Field(
        default_factory=list, description="Embedded regex/trigger payloads, sealed: stored, never executed."
    )
    presentation: Presentation = Field(default_factory=Presentation, description="How the card is shown to people.")
    extensions: JsonObject = Field(
        default_factory=dict, description="Namespaced app data that travels with the card across platforms."
    )

    # On the field, not the model: a card without variants (the default) makes no call back into Python.
    @field_validator("variants")
    @classmethod
    def _variant_ids_are_unique(cls, variants: list[CharacterVariant]) -> list[CharacterVariant]:
        ids = [variant.id for variant in variants]
        if len(set(ids)) != len(ids):
            raise ValueError("two variants share an id; variant ids must be unique in a character")
        return variants


class Character(PieceBase):
    """A character card. The piece `name` is the character's name."""

    kind: Literal["character"] = Field(default="character", description="Always 'character'.")
    body: CharacterBody = Field(default_factory=CharacterBody, description="The card's fields.")

    def variant(self, variant_id: str) -> tuple[str, CharacterBody]:
        """The name and body of one variant, resolved against this card. KeyError if unknown."""
        for candidate in self.body.variants:
            if candidate.id == variant_id:
                return candidate.resolve(self.name, self.body)
        raise KeyError(variant_id)
