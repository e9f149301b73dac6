"""Quick-reply sets: buttons that send a message or run a script (SillyTavern Quick Replies).

Messages may be STscript; bunzai stores them and never runs them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from bunzai.model.base import JsonObject, Model, PieceBase, SafeId

AutoExecute = Literal["startup", "user", "ai", "chat_change", "group_member_draft", "new_chat", "before_generation"]


class ContextLink(Model):
    """A set offered in an item's context menu."""

    set: SafeId = Field(description="Id of the quick-reply set offered.")
    chained: bool = Field(default=False, description="Run the item's message first, then the chosen reply.")


class QuickReply(Model):
    """One button."""

    id: int = Field(default=0, ge=0, description="Item id, unique in the set.")
    label: str = Field(default="", description="Button text.")
    icon: str = Field(default="", description="Icon name (a Font Awesome class on SillyTavern).")
    show_label: bool = Field(default=False, description="Show the label next to the icon.")
    title: str = Field(default="", description="Tooltip.")
    message: str = Field(default="", description="Text sent or STscript run. Stored, never run by bunzai.")
    hidden: bool = Field(default=False, description="Not shown as a button (still callable).")
    auto_execute: list[AutoExecute] = Field(default_factory=list, description="Events that run the item by themselves.")
    prevent_auto_execute: bool = Field(default=True, description="Another reply cannot trigger this one automatically.")
    context_list: list[ContextLink] = Field(default_factory=list, description="Sets offered in the context menu.")
    automation_id: str = Field(default="", description="Run when a lorebook entry with this automation id fires.")


class QuickReplySettings(Model):
    """How the set's buttons behave."""

    disable_send: bool = Field(default=False, description="Put the message in the input box instead of sending it.")
    place_before_input: bool = Field(default=False, description="Put the message before the input's text.")
    inject_input: bool = Field(default=False, description="Inject the input's text into the message.")
    color: str = Field(default="", description="Button colour (CSS); '' = theme default.")
    only_border_color: bool = Field(default=False, description="Colour only the border.")

    @field_validator("color")
    @classmethod
    def _transparent_is_no_color(cls, value: str) -> str:
        # SillyTavern's own "no colour" (QuickReplySet.updateColor): one spelling, '', in the model
        return "" if value == "transparent" else value


class QuickReplySetBody(Model):
    """A set of quick replies."""

    description: str = Field(default="", description="What the set is for.")
    settings: QuickReplySettings = Field(default_factory=QuickReplySettings, description="Button behaviour.")
    items: list[QuickReply] = Field(default_factory=list, description="Buttons in order; ids are unique.")
    extensions: JsonObject = Field(default_factory=dict, description="Namespaced app data carried with the set.")

    @model_validator(mode="after")
    def _ids_are_unique(self) -> QuickReplySetBody:
        ids = [item.id for item in self.items]
        if len(set(ids)) != len(ids):
            raise ValueError("two quick replies share an id; item ids must be unique in a set")
        return self


class QuickReplySet(PieceBase):
    """A quick-reply set."""

    kind: Literal["quickreply"] = Field(default="quickreply", description="Always 'quickreply'.")
    body: QuickReplySetBody = Field(default_factory=QuickReplySetBody, description="Settings and items.")
