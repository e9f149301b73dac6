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
    Whole,
    bool_reader,
    float_reader,
    int_reader,
    as_json,
    str_reader,
    choice,
    omit_none,
)
from bunzai.adapters.sillytavern.presets import OWN_KEYS_CONFIDENCE, PresetAdapter
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
# SillyTavern's chat-completion sources (openai.js `chat_completion_sources`, the options of its
# #chat_completion_source select). A preset naming another one sets that select to no option, and
# its change handler then stores the text "undefined" as the source (onSettingsPresetChange, with
# bind_preset_to_connection on, the default): so no other source is written, unless the escrowed
# file had it already (an older SillyTavern's source).
CHAT_COMPLETION_SOURCES = frozenset(
    (
        "openai", "claude", "openrouter", "ai21", "makersuite", "vertexai", "mistralai", "custom", "cohere",
        "perplexity", "groq", "electronhub", "chutes", "nanogpt", "deepseek", "aimlapi", "xai", "pollinations",
        "moonshot", "fireworks", "cometapi", "azure_openai", "zai", "siliconflow", "workers_ai", "minimax",
    )
)  # fmt: skip
SOURCE_UNWRITABLE = LossRule(
    "/body/source",
    "dropped",
    "preset.source.unknown",
    "SillyTavern's chat completion has no such source",
)
LEGACY_PROMPTS = (
    ("main_prompt", "main", "Main Prompt"),
    ("nsfw_prompt", "nsfw", "Auxiliary Prompt"),
    ("jailbreak_prompt", "jailbreak", "Post-History Instructions"),
)


def _keep_or_omit(value: Any) -> Any:
    return value if value not in ("", {}) else MISSING


# Media inlining. SillyTavern had a toggle per medium (image_inlining, video_inlining,
# audio_inlining); since Nov 2025 it has one, `media_inlining`, and migrates the old keys into
# it when it loads a preset (migrateChatCompletionSettings). A file with the old keys keeps
# them, which both SillyTaverns read; a file with only `media_inlining` reads as that value for
# all three media and is written back with that one key.
LEGACY_MEDIA = ("image_inlining", "video_inlining", "audio_inlining")
_media_flag = bool_reader(None)
_image_quality = choice({q: q for q in ("auto", "low", "high")}, None)


def _one_toggle(native: dict) -> bool:
    return "media_inlining" in native and not any(key in native for key in LEGACY_MEDIA)


def _read_media(native: dict, *_nested: dict) -> dict:
    quality = _image_quality(native.get("inline_image_quality", MISSING))
    if _one_toggle(native):
        flags = dict.fromkeys(LEGACY_MEDIA, _media_flag(native["media_inlining"]))
    else:
        flags = {key: _media_flag(native.get(key, MISSING)) for key in LEGACY_MEDIA}
    return {**flags, "image_quality": quality}


MEDIA_UNREAD = LossRule(
    "/body/media",
    "translated",
    "preset.media.unread",
    "this piece was imported before bunzai read SillyTavern's one media toggle (media_inlining), so it says "
    "nothing of media; the file keeps its toggle as it was, which reads now as the setting of all three media",
)


def _media_unread(body: dict, prior: dict | None) -> list[Loss]:
    """A piece read before `media_inlining` was: its media unset over a file with a set toggle."""
    media = body["media"]
    if prior is None or not _one_toggle(prior) or _media_flag(prior["media_inlining"]) is None:
        return []
    if any(media.get(key) is not None for key in LEGACY_MEDIA):
        return []
    return [MEDIA_UNREAD.at(MEDIA_UNREAD.pattern)]


def _put_or_pop(target: dict, key: str, value: Any, read: Any) -> None:
    if read(target.get(key, MISSING)) == value:
        return  # what is there already reads as the value: kept as written
    if value is None:
        target.pop(key, None)
    else:
        target[key] = value


def _write_media(target: dict, media: dict) -> None:
    _put_or_pop(target, "inline_image_quality", media.get("image_quality"), _image_quality)
    if _one_toggle(target):
        # One toggle holds the first medium set; a medium set otherwise is named by the read-back.
        # None for all three keeps the toggle as written (see _media_unread).
        wanted = next((media.get(key) for key in LEGACY_MEDIA if media.get(key) is not None), None)
        if wanted is not None:
            _put_or_pop(target, "media_inlining", wanted, _media_flag)
        return
    for key in LEGACY_MEDIA:
        _put_or_pop(target, key, media.get(key), _media_flag)


FIELDS = (
    *(Field(native, ("samplers", name), decode, omit_none) for native, name, decode in SAMPLERS),
    Field("n", ("samplers", "extra", "n"), as_json),
    *(Field(native, ("utility_prompts", name), str_reader(MISSING)) for native, name in UTILITY_PROMPTS.items()),
    Whole(("media",), _read_media, _write_media),
)
SOURCE = Field("chat_completion_source", ("source",), str_reader(""), _keep_or_omit)
EXTENSIONS = Field("extensions", ("extensions",), as_object, _keep_or_omit)


def _own_source(prior: dict | None) -> str:
    return str_reader("")((prior or {}).get("chat_completion_source"))


def _writable(source: str, prior: dict | None) -> bool:
    """A source SillyTavern's chat completion has, or the one the escrowed file names already."""
    return source in CHAT_COMPLETION_SOURCES or source == _own_source(prior)


def _source_unwritable(body: dict, prior: dict | None) -> list[Loss]:
    source = body["source"]
    if not source or _writable(source, prior):
        return []
    kept = _own_source(prior)
    then = f'the file keeps its own, "{kept}"' if kept else "the file names none: SillyTavern keeps the one it is on"
    why = f'SillyTavern\'s chat completion has no source "{source}" (openai.js chat_completion_sources); {then}'
    return [SOURCE_UNWRITABLE.at(SOURCE_UNWRITABLE.pattern, why)]


def model_key(source: str) -> str:
    return MODEL_KEYS.get(source, f"{source}_model")


# The keys a chat-completion preset holds as settings (its field rows, the source's model key,
# the 2023 prompts): what a file this format writes from another family's piece is made of.
OWN_KEYS = frozenset(
    (
        *(native for native, _, _ in SAMPLERS),
        "n",
        *UTILITY_PROMPTS,
        *LEGACY_MEDIA,
        "media_inlining",
        "inline_image_quality",
        "chat_completion_source",
        "extensions",
        *(model_key(source) for source in CHAT_COMPLETION_SOURCES),
        *(key for key, _, _ in LEGACY_PROMPTS),
    )
)


class SillyTavernChatPreset(PresetAdapter):
    format_id = "sillytavern.preset.chat"
    label = "SillyTavern chat-completion preset"
    family = "chat_completion"
    what = "a SillyTavern chat-completion preset"
    own_keys = OWN_KEYS
    loss_rules = (
        LossRule(
            "/body/media/(?:image|video|audio)_inlining",
            "flattened",
            "preset.media.one_toggle",
            "SillyTavern has one media toggle (media_inlining) for images, video and audio, "
            "and this file uses it: it holds the first medium's setting",
        ),
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
        # A file of chat-completion keys alone, one of them no other family has (frequency_penalty,
        # openai_max_tokens ...): what this format writes from a text-completion preset.
        return OWN_KEYS_CONFIDENCE if self.made_of_own_keys(parsed) else 0.0

    def fields(self, native: dict | None, body: dict | None) -> tuple[Field, ...]:
        if body is None:
            source = _own_source(native)
        elif _writable(body["source"], native) or not body["source"]:
            source = body["source"]
        else:
            return (*FIELDS, EXTENSIONS)  # no source row: the escrow's own source (or none) stays, and its model
        if not source:
            return (*FIELDS, SOURCE, EXTENSIONS)
        return (*FIELDS, SOURCE, EXTENSIONS, Field(model_key(source), ("model",), str_reader(""), _keep_or_omit))

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
        return prompt_losses(body["prompts"], prior) + _media_unread(body, prior) + _source_unwritable(body, prior)

    def encode_extra(self, body: dict, prior: dict | None, out: dict) -> None:
        if body["prompts"] or (prior is not None and "prompts" in prior):
            out["prompts"] = encode_prompts(body["prompts"], prior)
        if body["orders"] or (prior is not None and "prompt_order" in prior):
            out["prompt_order"] = encode_orders(body["orders"], prior)
        elif body["prompts"] and prior is None:
            out["prompt_order"] = global_order_for(body["prompts"])


register(SillyTavernChatPreset())
