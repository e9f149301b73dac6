"""character.greetings.update: the first message, alternate greetings and group-only greetings."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.character.target import VariantTarget, edit_character
from bunzai.capabilities.common.partial import check_index
from bunzai.capabilities.contract import Capability, Preview
from bunzai.errors import BunzaiError
from bunzai.model.base import Model


class Replace(Model):
    index: int = Field(description="Position in the list before this edit (0 = first, -1 = last).")
    text: str = Field(min_length=1, description="The new text of that greeting.")


class GreetingListEdit(Model):
    """Edits of one greeting list, applied in this order: set, replace, remove, add."""

    set: list[str] | None = Field(default=None, description="Replace the whole list with these greetings.")
    replace: list[Replace] = Field(default_factory=list, description="Rewrite greetings in place, by index.")
    remove: list[int] = Field(
        default_factory=list, description="Remove greetings by index (indexes of the list before the removal)."
    )
    add: list[str] = Field(default_factory=list, description="Greetings to add.")
    at: int | None = Field(default=None, ge=0, description="Where `add` inserts (0 = first); default: the end.")


class GreetingsInput(VariantTarget):
    first_message: str | None = Field(default=None, description="The character's first message. Omit to keep.")
    alternate: GreetingListEdit | None = Field(
        default=None, description="Edits of the alternate greetings (swipes on the first message)."
    )
    group_only: GreetingListEdit | None = Field(
        default=None, description="Edits of the greetings used only in group chats."
    )


def edit_list(items: list[str], edit: GreetingListEdit, what: str) -> list[str]:
    # a blank greeting is a swipe that opens the chat with nothing, so none is written in
    for given, verb in ((edit.set or [], "set"), ([row.text for row in edit.replace], "replace"), (edit.add, "add")):
        if any(not text.strip() for text in given):
            raise BunzaiError(
                "invalid_input", f"{what}: a greeting to {verb} is empty", "remove a greeting with `remove`"
            )
    items = list(edit.set) if edit.set is not None else list(items)
    for row in edit.replace:
        items[check_index(row.index, len(items), what)] = row.text
    drop = {check_index(i, len(items), what) for i in edit.remove}
    items = [text for i, text in enumerate(items) if i not in drop]
    at = len(items) if edit.at is None else min(edit.at, len(items))
    return items[:at] + list(edit.add) + items[at:]


def preview(piece, inp: GreetingsInput) -> Preview:
    warnings: list[str] = []

    def edit(name, body):
        update = {}
        if inp.first_message is not None:
            update["first_message"] = inp.first_message
        if inp.alternate is not None:
            update["alternate_greetings"] = edit_list(
                body.alternate_greetings, inp.alternate, "input field 'alternate'"
            )
        if inp.group_only is not None:
            update["group_only_greetings"] = edit_list(
                body.group_only_greetings, inp.group_only, "input field 'group_only'"
            )
        body = body.model_copy(update=update)
        first = body.first_message
        for field in ("alternate_greetings", "group_only_greetings"):
            texts = getattr(body, field)
            repeats = [t for i, t in enumerate(texts) if t in texts[:i] or (t == first and first)]
            if repeats and field in update:
                warnings.append(f"{field} holds {len(repeats)} greeting(s) that repeat another greeting word for word")
        if "first_message" in update and not first.strip():
            warnings.append("the first message is now empty: chats open with no greeting")
        return name, body

    return Preview(edit_character(piece, inp.variant, edit), warnings=warnings)


CAPABILITY = Capability(
    id="character.greetings.update",
    kind="character",
    area="greetings",
    action="update",
    summary="Change the first message, or add, rewrite, remove and reorder alternate and group-only greetings.",
    aliases=(
        "first message",
        "greeting",
        "alternate greeting",
        "add greeting",
        "swipe",
        "group greeting",
        "opening message",
    ),
    input_model=GreetingsInput,
    preview=preview,
)
