"""preset.samplers.update: temperature, top_p, penalties, context size ... (only those given change)."""

from __future__ import annotations

from bunzai.capabilities.common.patching import given, merge_patch, nothing_given, piece_json, propose
from bunzai.capabilities.contract import Capability, Preview
from bunzai.model.preset import Samplers


class SamplersInput(Samplers):
    """Sampler values to set. Only the fields given change; null unsets one (the platform default
    applies); `extra` merges by native name (null removes one). `extra` itself cannot be null:
    name each native sampler to remove, so one slip never removes them all."""


def preview_samplers(entity, data: SamplersInput) -> Preview:
    patch = given(data)
    doc = piece_json(entity)
    doc["body"]["samplers"] = merge_patch(doc["body"]["samplers"], patch)
    warnings = nothing_given(patch, "sampler")
    if entity.body.family in ("instruct", "context", "sysprompt", "reasoning") and patch:
        warnings.append(
            f"a {entity.body.family} template carries no samplers on SillyTavern; "
            "these values are kept but not exported there"
        )
    return Preview(entity=propose(doc), warnings=warnings)


CAPABILITY = Capability(
    id="preset.samplers.update",
    kind="preset",
    area="samplers",
    action="update",
    summary="Set a preset's samplers: temperature, top_p, top_k, min_p, penalties, context and reply size, seed.",
    aliases=(
        "temperature",
        "set temperature",
        "top p",
        "min p",
        "repetition penalty",
        "context size",
        "max tokens",
        "sampler settings",
        "generation settings",
    ),
    input_model=SamplersInput,
    preview=preview_samplers,
)
