"""Quick-reply item fields shared by add and update, and the STscript warnings both give."""

from __future__ import annotations

from pydantic import Field

from bunzai.model.base import Model
from bunzai.model.quickreply import AutoExecute, ContextLink


class ItemFields(Model):
    """A button's fields; in an update, only those given change."""

    label: str | None = Field(default=None, description="Button text.")
    icon: str | None = Field(default=None, description="Icon name (a Font Awesome class on SillyTavern).")
    show_label: bool | None = Field(default=None, description="Show the label next to the icon.")
    title: str | None = Field(default=None, description="Tooltip.")
    message: str | None = Field(default=None, description="Text sent or STscript run. Stored, never run by bunzai.")
    hidden: bool | None = Field(default=None, description="Not shown as a button (still callable).")
    auto_execute: list[AutoExecute] | None = Field(default=None, description="Events that run the item by themselves.")
    prevent_auto_execute: bool | None = Field(
        default=None,
        description="Another reply cannot trigger this one automatically.",
    )
    context_list: list[ContextLink] | None = Field(default=None, description="Sets offered in the context menu.")
    automation_id: str | None = Field(
        default=None, description="Run when a lorebook entry with this automation id fires."
    )


def item_warnings(item: dict) -> list[str]:
    what = f"quick reply {item['id']} ({item['label'] or 'no label'})"
    warnings = []
    if not item["label"] and not item["icon"] and not item["hidden"]:
        warnings.append(f"{what} has neither label nor icon, so its button is blank")
    if item["auto_execute"] and item["message"].lstrip().startswith("/"):
        warnings.append(
            f"{what} runs STscript by itself on {', '.join(item['auto_execute'])}; bunzai stores it and never runs it"
        )
    return warnings
