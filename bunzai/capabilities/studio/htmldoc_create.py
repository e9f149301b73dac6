"""studio.htmldoc.create: a new HTML document (wireframe, drawing, page), markup sealed."""

from __future__ import annotations

from bunzai.capabilities.common.create_inputs import create_input_model
from bunzai.capabilities.common.create_preview import create_preview
from bunzai.capabilities.contract import Capability

HtmlDocCreateInput = create_input_model(
    "htmldoc",
    "HtmlDocCreateInput",
    "A new HTML document: `name`, an optional `id`, the markup (sealed: stored, never executed) and its descriptions.",
)

CAPABILITY = Capability(
    id="studio.htmldoc.create",
    kind="htmldoc",
    domain="studio",
    mode="create",
    area="htmldoc",
    action="create",
    summary="Create an HTML document (wireframe, drawing, mockup, page): markup, summary, tags, notes, slots.",
    aliases=("new wireframe", "new drawing", "new html page", "create mockup", "new html document"),
    input_model=HtmlDocCreateInput,
    preview=create_preview("htmldoc"),
)
