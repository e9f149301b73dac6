"""character.links.update: the world, extra lorebooks, and the regex and quick-reply sets it brings."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.character.target import VariantTarget, edit_character
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model, SafeId


class IdListEdit(Model):
    """Edits of one list of piece ids, applied in this order: set, remove, add."""

    set: list[SafeId] | None = Field(default=None, description="Replace the whole list.")
    remove: list[SafeId] = Field(default_factory=list, description="Ids to unlink.")
    add: list[SafeId] = Field(default_factory=list, description="Ids to link (appended, each once).")


class LinksInput(VariantTarget):
    world: SafeId | None = Field(
        default=None, description="Lorebook id to make the primary world (first of the bound lorebooks)."
    )
    lorebooks: IdListEdit | None = Field(
        default=None, description="Edits of the bound lorebooks (the first is the world)."
    )
    regex: IdListEdit | None = Field(default=None, description="Edits of the regex sets scoped to this character.")
    quickreplies: IdListEdit | None = Field(
        default=None, description="Edits of the quick-reply sets scoped to this character."
    )


def _edit(ids: list[str], edit: IdListEdit | None) -> list[str]:
    if edit is None:
        return list(ids)
    ids = list(edit.set) if edit.set is not None else list(ids)
    ids = [i for i in ids if i not in set(edit.remove)]
    return list(dict.fromkeys(ids + list(edit.add)))


def preview(piece, inp: LinksInput) -> Preview:
    warnings: list[str] = []

    def edit(name, body):
        links = body.links
        lorebooks = _edit(links.lorebooks, inp.lorebooks)
        if inp.world is not None:
            lorebooks = [inp.world] + [i for i in lorebooks if i != inp.world]
        new = links.model_copy(
            update={
                "lorebooks": lorebooks,
                "regex": _edit(links.regex, inp.regex),
                "quickreplies": _edit(links.quickreplies, inp.quickreplies),
            }
        )
        for field, edit_ in (("lorebooks", inp.lorebooks), ("regex", inp.regex), ("quickreplies", inp.quickreplies)):
            absent = [i for i in (edit_.remove if edit_ else []) if i not in getattr(links, field)]
            if absent:
                warnings.append(f"{field}: {', '.join(absent)} was not linked; nothing to remove")
        return name, body.model_copy(update={"links": new})

    return Preview(edit_character(piece, inp.variant, edit), warnings=warnings)


CAPABILITY = Capability(
    id="character.links.update",
    kind="character",
    area="links",
    action="update",
    summary="Bind a character to its world and extra lorebooks, and to regex and quick-reply sets, by id.",
    aliases=("link lorebook", "attach world", "bind lorebook", "world info", "link regex", "quick replies"),
    input_model=LinksInput,
    preview=preview,
)
