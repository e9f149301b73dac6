"""SillyTavern chat-completion presets (`OpenAI Settings/*.json`) <-> a chat_completion preset.

Samplers, helper prompts, media inlining, the source and its model, `extensions{}` and the
prompt manager (presets_chat_prompts.py) are canonical; connection and UI keys (proxy,
custom URLs, streaming, names_behavior ...) stay in the escrow.

A 2023 preset keeps its prompts in `main_prompt` / `nsfw_prompt` / `jailbreak_prompt`;
it reads as the blocks `main`, `nsfw` and `jailbreak` (as SillyTavern migrates it). An
unedited legacy preset is written back as it came; an edited one in the current layout,
with the loss `preset.legacy.migrated`.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.registry import register
from bunzai.adapters.common.drift import as_object
from bunzai.adapters.common.fieldmap import (
    MISSING,
    Field,
    bool_reader,
    float_reader,
    int_reader,
    as_json,
    str_reader,
    choice,
    omit_none,
)
from bunzai.adapters.sillytavern.presets import PresetAdapter
from bunzai.adapters.sillytavern.presets_chat_prompts import (
    decode_orders,
    decode_prompts,
    encode_orders,
    encode_prompts,
    global_order_for,
    prompt_losses,
)
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss

SAMPLERS = (
    ("temperature", "temperature", float_reader(None, lo=0)),
    ("frequency_penalty", "frequency_penalty", float_reader()),
    ("presence_penalty", "presence_penalty", float_reader()),
    ("top_p", "top_p", float_reader()),
    ("top_k", "top_k", int_reader()),
    ("top_a", "top_a", float_reader()),
    ("min_p", "min_p", float_reader()),
    ("repetition_penalty", "repetition_penalty", float_reader()),
    ("openai_max_context", "max_context", int_reader(None, lo=0)),
    ("openai_max_tokens", "max_tokens", int_reader(None, lo=0)),
    ("seed", "seed", int_reader()),
)
UTILITY_PROMPTS = {
    "impersonation_prompt": "impersonation",
    "new_chat_prompt": "new_chat",
    "new_group_chat_prompt": "new_group_chat",
    "new_example_chat_prompt": "new_example_chat",
    "continue_nudge_prompt": "continue_nudge",
    "group_nudge_prompt": "group_nudge",
    "wi_format": "wi_format",
    "scenario_format": "scenario_format",
    "personality_format": "personality_format",
    "send_if_empty": "send_if_empty",
    "assistant_prefill": "assistant_prefill",
    "assistant_impersonation": "assistant_impersonation",
    "human_sysprompt_message": "human_sysprompt_message",
}
# Sources whose model key is not `<source>_model`.
MODEL_KEYS = {"makersuite": "google_model"}
LEGACY_PROMPTS = (
    ("main_prompt", "main", "Main Prompt"),
    ("nsfw_prompt", "nsfw", "Auxiliary Prompt"),
    ("jailbreak_prompt", "jailbreak", "Post-History Instructions"),
)


def _keep_or_omit(value: Any) -> Any:
    return value if value not in ("", {}) else MISSING


FIELDS = (
    *(Field(native, ("samplers", name), decode, omit_none) for native, name, decode in SAMPLERS),
    Field("n", ("samplers", "extra", "n"), as_json),
    *(Field(native, ("utility_prompts", name), str_reader(MISSING)) for native, name in UTILITY_PROMPTS.items()),
    Field("image_inlining", ("media", "image_inlining"), bool_reader(None), omit_none),
    Field(
        "inline_image_quality",
        ("media", "image_quality"),
        choice({q: q for q in ("auto", "low", "high")}, None),
        omit_none,
    ),
    Field("video_inlining", ("media", "video_inlining"), bool_reader(None), omit_none),
    Field("audio_inlining", ("media", "audio_inlining"), bool_reader(None), omit_none),
    Field("chat_completion_source", ("source",), str_reader(""), _keep_or_omit),
    Field("extensions", ("extensions",), as_object, _keep_or_omit),
)


def model_key(source: str) -> str:
    return MODEL_KEYS.get(source, f"{source}_model")


class SillyTavernChatPreset(PresetAdapter):
    format_id = "sillytavern.preset.chat"
    label = "SillyTavern chat-completion preset"
    family = "chat_completion"
    what = "a SillyTavern chat-completion preset"
    loss_rules = (
        LossRule(
            "/body/orders",
            "translated",
            "preset.orders.synthesized",
            "SillyTavern turns blocks on and off in prompt_order: the file gets one global order of all blocks",
        ),
    )

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not isinstance(parsed, dict):
            return 0.0
        if isinstance(parsed.get("prompts"), list) or isinstance(parsed.get("prompt_order"), list):
            return 0.9 if "entries" not in parsed and "data" not in parsed else 0.0
        if "chat_completion_source" in parsed or "temperature" in parsed and "openai_max_context" in parsed:
            return 0.85
        if "main_prompt" in parsed and ("jailbreak_prompt" in parsed or "openai_max_tokens" in parsed):
            return 0.8
        return 0.0

    def fields(self, native: dict | None, body: dict | None) -> tuple[Field, ...]:
        if body is not None:
            source = body["source"]
        else:
            source = str_reader("")((native or {}).get("chat_completion_source"))
        if not source:
            return FIELDS
        return (*FIELDS, Field(model_key(source), ("model",), str_reader(""), _keep_or_omit))

    def migrate(self, document: dict) -> dict:
        if "prompts" in document or not any(isinstance(document.get(key), str) for key, _, _ in LEGACY_PROMPTS):
            return document
        current = {key: value for key, value in document.items() if key not in {k for k, _, _ in LEGACY_PROMPTS}}
        current["prompts"] = [
            {"name": name, "system_prompt": True, "role": "system", "content": document[key], "identifier": identifier}
            for key, identifier, name in LEGACY_PROMPTS
            if isinstance(document.get(key), str)
        ]
        return current

    def decode_extra(self, document: dict, body: dict) -> None:
        body["prompts"] = decode_prompts(document)
        body["orders"] = decode_orders(document)

    def declared_losses(self, body: dict, prior: dict | None) -> list[Loss]:
        return prompt_losses(body["prompts"], prior)

    def encode_extra(self, body: dict, prior: dict | None, out: dict) -> None:
        if body["prompts"] or (prior is not None and "prompts" in prior):
            out["prompts"] = encode_prompts(body["prompts"], prior)
        if body["orders"] or (prior is not None and "prompt_order" in prior):
            out["prompt_order"] = encode_orders(body["orders"], prior)
        elif body["prompts"] and prior is None:
            out["prompt_order"] = global_order_for(body["prompts"])


register(SillyTavernChatPreset())
