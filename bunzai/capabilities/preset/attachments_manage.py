"""preset.attachments.manage: files travelling with the preset added, replaced and removed."""

from __future__ import annotations

from bunzai.capabilities.common.attachments import AttachmentsInput, preview_attachments
from bunzai.capabilities.contract import Capability

CAPABILITY = Capability(
    id="preset.attachments.manage",
    kind="preset",
    area="attachments",
    action="manage",
    summary="Add, replace or remove files travelling with a preset (images, PDFs, text) from local files, "
    "with name, MIME type and enabled flag.",
    aliases=("attach file", "add attachment", "attach pdf", "remove attachment", "replace attachment", "preset files"),
    input_model=AttachmentsInput,
    preview=preview_attachments,
)
