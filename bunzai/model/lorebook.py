"""Lorebooks (world info): entries of text inserted into the prompt when their keys match.

The body is platform-neutral: SillyTavern world files, CCv2/CCv3 `character_book`s,
RisuAI and Agnai books all map onto it. A character card embeds the same body
(bunzai.model.character.CharacterBook), so one set of entry operations serves both.

Keys are small objects, `{"text": ..., "regex": false, "flags": ""}`: a literal key is
matched as text, a regex key holds the JavaScript pattern source (no slashes) and its
flags. Per-key regex covers SillyTavern (any key may be `/re/flags`) and the CCv3 / RisuAI
entry-wide `use_regex` (every key a regex) alike. A bare string is read as a literal key.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from bunzai.model.base import GenerationType, JsonObject, Model, PieceBase, Role

SelectiveLogic = Literal["and_any", "not_all", "not_any", "and_all"]
EntryPosition = Literal["before_char", "after_char", "an_top", "an_bottom", "at_depth", "em_top", "em_bottom", "outlet"]

_JS_FLAGS = r"^[dgimsuvy]*$"


class Key(Model):
    """One activation key: literal text, or a JavaScript regex (source and flags)."""

    text: str = Field(default="", description="The literal key, or the regex source without slashes when `regex`.")
    regex: bool = Field(default=False, description="Match `text` as a JavaScript regex instead of as text.")
    flags: str = Field(
        default="", pattern=_JS_FLAGS, description="JavaScript regex flags (e.g. 'i'); only used when `regex`."
    )

    @model_validator(mode="before")
    @classmethod
    def _plain_string_is_literal(cls, data: Any) -> Any:
        # Agents and people write ["dragon", "wyrm"]; accept that as literal keys.
        return {"text": data} if isinstance(data, str) else data


class EntryGroup(Model):
    """Inclusion-group membership: of the activated entries of one group, only one is inserted."""

    names: list[str] = Field(
        default_factory=list, description="Groups this entry belongs to (SillyTavern: comma list)."
    )
    override: bool = Field(
        default=False, description="Prioritize: this entry wins its groups by `order`, not by chance."
    )
    weight: int = Field(default=100, ge=0, description="Relative chance of winning a group draw.")
    use_group_scoring: bool | None = Field(
        default=None, description="Pick the group winner by key-match score; None = book/global setting."
    )


class CharacterFilter(Model):
    """Limits an entry to (or away from) some characters or tags."""

    exclude: bool = Field(default=False, description="True: the entry is off for the listed characters/tags.")
    names: list[str] = Field(default_factory=list, description="Platform character keys (SillyTavern avatar stems).")
    tags: list[str] = Field(default_factory=list, description="Platform tag ids.")


class LoreEntry(Model):
    """One lorebook entry."""

    uid: int | str = Field(default=0, description="Entry id, unique in the book (int on most platforms, str on CCv3).")
    title: str = Field(
        default="", description="Memo / title (SillyTavern `comment`, CCv2 `comment`/`name`). Not inserted."
    )
    keys: list[Key] = Field(default_factory=list, description="Primary keys; any one matching activates the entry.")
    secondary_keys: list[Key] = Field(
        default_factory=list, description="Secondary keys, combined per `selective_logic`."
    )
    selective: bool = Field(default=True, description="Apply the secondary-key filter when secondary keys exist.")
    selective_logic: SelectiveLogic = Field(
        default="and_any", description="How secondary keys combine: and_any, not_all, not_any, and_all."
    )
    content: str = Field(default="", description="Text inserted into the prompt when the entry activates.")
    enabled: bool = Field(default=True, description="False: the entry never activates.")
    constant: bool = Field(default=False, description="Always active, keys or not.")
    vectorized: bool = Field(default=False, description="Activated by vector similarity (SillyTavern vector storage).")
    order: int = Field(default=100, description="Insertion order: higher is placed later (closer to the end).")
    priority: int | None = Field(
        default=None, description="Budget priority (CCv2, Agnai): lower is dropped first when over budget."
    )
    position: EntryPosition = Field(default="before_char", description="Where the content is inserted.")
    depth: int = Field(default=4, ge=0, description="Messages from the end, for position at_depth.")
    role: Role = Field(default="system", description="Message role, for position at_depth.")
    outlet: str = Field(default="", description="Outlet name, for position outlet ({{outlet::name}}).")
    probability: int = Field(default=100, ge=0, le=100, description="Chance (percent) to insert once activated.")
    use_probability: bool = Field(default=True, description="Whether `probability` is applied.")
    group: EntryGroup = Field(default_factory=EntryGroup, description="Inclusion-group membership.")
    sticky: int | None = Field(default=None, ge=0, description="Stays active this many messages after activating.")
    cooldown: int | None = Field(default=None, ge=0, description="Cannot activate for this many messages after.")
    delay: int | None = Field(default=None, ge=0, description="Cannot activate before the chat has this many messages.")
    exclude_recursion: bool = Field(default=False, description="Not activated by other entries' content.")
    prevent_recursion: bool = Field(default=False, description="Its content does not activate other entries.")
    delay_until_recursion: bool | int = Field(
        default=False, description="Only activated during recursion (true) or from this recursion level on (int)."
    )
    scan_depth: int | None = Field(default=None, ge=0, description="Messages scanned for keys; None = book/global.")
    case_sensitive: bool | None = Field(default=None, description="Case-sensitive key match; None = book/global.")
    match_whole_words: bool | None = Field(default=None, description="Whole-word key match; None = book/global.")
    triggers: list[GenerationType] = Field(
        default_factory=list, description="Generation types the entry may activate on; empty = all."
    )
    ignore_budget: bool = Field(default=False, description="Inserted even when the token budget is spent.")
    match_persona_description: bool = Field(default=False, description="Also scan the persona description.")
    match_character_description: bool = Field(default=False, description="Also scan the character description.")
    match_character_personality: bool = Field(default=False, description="Also scan the character personality.")
    match_character_depth_prompt: bool = Field(default=False, description="Also scan the character's depth prompt.")
    match_scenario: bool = Field(default=False, description="Also scan the scenario.")
    match_creator_notes: bool = Field(default=False, description="Also scan the creator notes.")
    automation_id: str = Field(default="", description="Quick-reply automation id run when the entry activates.")
    character_filter: CharacterFilter | None = Field(
        default=None, description="Restrict the entry to or away from characters/tags; None = no filter."
    )
    display_index: int | None = Field(default=None, description="Position in the editor's list (not prompt order).")
    extensions: JsonObject = Field(default_factory=dict, description="Namespaced app data carried with the entry.")


class BookSettings(Model):
    """Book-wide scan settings. None everywhere means 'use the platform default'."""

    scan_depth: int | None = Field(default=None, ge=0, description="Messages scanned for keys.")
    token_budget: int | None = Field(default=None, ge=0, description="Most tokens the book may insert.")
    recursive_scanning: bool | None = Field(default=None, description="Inserted content may activate more entries.")
    max_recursion_steps: int | None = Field(default=None, ge=0, description="Recursion depth limit; 0 = unlimited.")
    min_activations: int | None = Field(
        default=None, ge=0, description="Keep scanning deeper until this many entries fire."
    )
    case_sensitive: bool | None = Field(default=None, description="Case-sensitive key match.")
    match_whole_words: bool | None = Field(default=None, description="Keys match whole words only.")
    use_group_scoring: bool | None = Field(default=None, description="Inclusion groups pick by match score.")
    include_names: bool | None = Field(default=None, description="Scan text includes speaker names.")


class LorebookBody(Model):
    """What a lorebook holds: a description, scan settings and entries."""

    description: str = Field(default="", description="What the book is about; not inserted.")
    settings: BookSettings = Field(default_factory=BookSettings, description="Book-wide scan settings.")
    entries: list[LoreEntry] = Field(default_factory=list, description="Entries, in editor order; uids are unique.")
    extensions: JsonObject = Field(default_factory=dict, description="Namespaced app data carried with the book.")

    @model_validator(mode="after")
    def _uids_are_unique(self) -> LorebookBody:
        # Capabilities address entries by uid; 1 and "1" are the same entry on every platform.
        seen: set[str] = set()
        for entry in self.entries:
            uid = str(entry.uid)
            if uid in seen:
                raise ValueError(f"two entries share uid {uid!r}; entry uids must be unique in a book")
            seen.add(uid)
        return self


class Lorebook(PieceBase):
    """A standalone lorebook (SillyTavern world, lorebook_v3, Risu/Agnai book)."""

    kind: Literal["lorebook"] = Field(default="lorebook", description="Always 'lorebook'.")
    body: LorebookBody = Field(
        default_factory=LorebookBody, description="The book's description, settings and entries."
    )
