"""htmldoc.document.update: the markup of a wireframe, drawing or page, and its name, summary, tags, notes, slots.

The markup is sealed: stored verbatim, never executed, rendered or parsed beyond a glance
at its size for the warnings.
"""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.base import Model
from bunzai.model.htmldoc import Slot


class DocumentInput(Model):
    """Only the fields given change; null resets one to empty."""

    markup: str | None = Field(
        default=None, description="The whole HTML, sealed: stored verbatim, never executed or rendered."
    )
    name: str | None = Field(
        default=None, min_length=1, pattern=r"\S", description="Display name of the document (not blank)."
    )
    summary: str | None = Field(default=None, description="What the document shows, in a sentence.")
    tags: list[str] | None = Field(default=None, description="Tags for shelves and search (replaces the list).")
    notes: str | None = Field(default=None, description="Notes for people.")
    slots: list[Slot] | None = Field(default=None, description="Declared slots, names unique (replaces the list).")


def preview_document(entity, data: DocumentInput) -> Preview:
    patch = given(data)
    doc = piece_json(entity)
    if "name" in patch:
        doc["name"] = patch.pop("name")
    doc["body"] = merge_patch(doc["body"], patch)
    warnings = nothing_given(given(data), "document")
    if data.tags is not None and len(set(data.tags)) != len(data.tags):
        warnings.append("a tag is listed twice")
    if data.markup is not None and "<script" in data.markup.lower():
        warnings.append(
            "the markup holds <script>; bunzai stores it sealed and never runs it, but a frontend showing it may"
        )
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="htmldoc.document.update",
    kind="htmldoc",
    area="document",
    action="update",
    summary=(
        "Edit an HTML document (wireframe, drawing, mockup, status panel, page): "
        "its markup, name, summary, tags, notes."
    ),
    aliases=(
        "edit the wireframe",
        "wireframe",
        "drawing",
        "mockup",
        "html page",
        "layout",
        "edit html",
        "status panel",
        "markup",
        "edit page",
    ),
    input_model=DocumentInput,
    preview=preview_document,
)
