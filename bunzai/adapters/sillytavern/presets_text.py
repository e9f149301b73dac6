"""SillyTavern text-completion sampler presets: TextGen, KoboldAI and NovelAI, one format each.

They share the canonical sampler fields under different native names. Every other key
of the file is a sampler setting under its native name (`samplers.extra`), so a crossing
between these families carries what the target also knows (rep_pen_slope, mirostat_tau
...) and names the rest as dropped. Values are copied as written: `dry_sequence_breakers`
stays the JSON string SillyTavern stores.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.registry import register
from bunzai.adapters.common.drift import as_object
from bunzai.adapters.common.fieldmap import MISSING, Field, as_json, float_reader, int_reader, omit_none
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Loss
from bunzai.adapters.sillytavern.presets import OWN_KEYS_CONFIDENCE, PresetAdapter


def _names(value: Any) -> Any:
    return value if isinstance(value, list) and all(isinstance(item, str) for item in value) else None


def _nonempty(value: Any) -> Any:
    return value or MISSING


_FLOAT, _POSITIVE, _INT, _COUNT = float_reader(), float_reader(None, lo=0), int_reader(), int_reader(None, lo=0)

TEXTGEN_SAMPLERS = (
    ("temp", "temperature", _POSITIVE),
    ("top_p", "top_p", _FLOAT),
    ("top_k", "top_k", _INT),
    ("top_a", "top_a", _FLOAT),
    ("min_p", "min_p", _FLOAT),
    ("typical_p", "typical_p", _FLOAT),
    ("tfs", "tfs", _FLOAT),
    ("rep_pen", "repetition_penalty", _FLOAT),
    ("rep_pen_range", "repetition_penalty_range", _INT),
    ("freq_pen", "frequency_penalty", _FLOAT),
    ("presence_pen", "presence_penalty", _FLOAT),
    ("seed", "seed", _INT),
    ("genamt", "max_tokens", _COUNT),
    ("max_length", "max_context", _COUNT),
    ("min_length", "min_tokens", _COUNT),
    ("sampler_priority", "sampler_order", _names),
)
TEXTGEN_EXTRA = frozenset(
    """
    temperature_last dynatemp min_temp max_temp dynatemp_exponent rep_pen_decay rep_pen_slope no_repeat_ngram_size
    encoder_rep_pen epsilon_cutoff eta_cutoff penalty_alpha num_beams length_penalty smoothing_factor
    smoothing_curve dry_allowed_length dry_multiplier dry_base dry_sequence_breakers dry_penalty_last_n
    xtc_threshold xtc_probability mirostat_mode mirostat_tau mirostat_eta guidance_scale negative_prompt
    grammar_string json_schema banned_tokens logit_bias add_bos_token ban_eos_token ignore_eos_token
    skip_special_tokens spaces_between_special_tokens skew do_sample early_stopping speculative_ngram n
    sampler_order samplers rep_pen_size
""".split()
)

KOBOLD_SAMPLERS = (
    ("temp", "temperature", _POSITIVE),
    ("rep_pen", "repetition_penalty", _FLOAT),
    ("rep_pen_range", "repetition_penalty_range", _INT),
    ("top_p", "top_p", _FLOAT),
    ("min_p", "min_p", _FLOAT),
    ("top_a", "top_a", _FLOAT),
    ("top_k", "top_k", _INT),
    ("typical", "typical_p", _FLOAT),
    ("tfs", "tfs", _FLOAT),
    ("genamt", "max_tokens", _COUNT),
    ("max_length", "max_context", _COUNT),
)
KOBOLD_EXTRA = frozenset("rep_pen_slope sampler_order mirostat mirostat_tau mirostat_eta grammar".split())

NOVEL_SAMPLERS = (
    ("temperature", "temperature", _POSITIVE),
    ("max_context", "max_context", _COUNT),
    ("max_length", "max_tokens", _COUNT),
    ("min_length", "min_tokens", _COUNT),
    ("top_k", "top_k", _INT),
    ("top_p", "top_p", _FLOAT),
    ("top_a", "top_a", _FLOAT),
    ("typical_p", "typical_p", _FLOAT),
    ("tail_free_sampling", "tfs", _FLOAT),
    ("repetition_penalty", "repetition_penalty", _FLOAT),
    ("repetition_penalty_range", "repetition_penalty_range", _INT),
    ("repetition_penalty_frequency", "frequency_penalty", _FLOAT),
    ("repetition_penalty_presence", "presence_penalty", _FLOAT),
    ("min_p", "min_p", _FLOAT),
)
# A NovelAI preset SillyTavern saved itself (PresetManager.getPresetSettings) says `genamt`
# for the reply and `max_length` for the context, as the other families do; loadNovelPreset
# then reads those two and ignores `max_context`. A file without `genamt` (SillyTavern's
# shipped presets, NovelAI's own) says `max_length` for the reply and `max_context`.
NOVEL_SAVED_SAMPLERS = tuple(row for row in NOVEL_SAMPLERS if row[0] not in ("max_context", "max_length")) + (
    ("genamt", "max_tokens", _COUNT),
    ("max_length", "max_context", _COUNT),
)
NOVEL_EXTRA = frozenset(
    """
    repetition_penalty_slope phrase_rep_pen mirostat_lr mirostat_tau math1_temp math1_quad
    math1_quad_entropy_scale order cfg_scale banned_tokens
""".split()
)

_NOT_SAMPLERS = ("extensions",)
_CORE_TEXT_KEYS = ("temp", "top_k", "top_p", "rep_pen")


def _own_keys(samplers: tuple[tuple[str, str, Any], ...], extra: frozenset[str]) -> frozenset[str]:
    """A family's keys: its typed samplers, the other settings it knows, `extensions`."""
    return frozenset(key for key, _, _ in samplers) | extra | frozenset(_NOT_SAMPLERS)


class TextPresetAdapter(PresetAdapter):
    """A sampler-only preset family: typed samplers, the rest under `samplers.extra`."""

    family = "text_completion"
    samplers: tuple[tuple[str, str, Any], ...] = ()
    known_extra: frozenset[str] = frozenset()

    def samplers_for(self, native: dict | None, body: dict | None) -> tuple[tuple[str, str, Any], ...]:
        """The typed sampler rows of this document's layout (read: `native`; write: also `body`)."""
        return self.samplers

    def fields(self, native: dict | None, body: dict | None) -> tuple[Field, ...]:
        samplers = self.samplers_for(native, body)
        typed = [Field(key, ("samplers", name), decode, omit_none) for key, name, decode in samplers]
        named = {key for key, _, _ in samplers} | set(_NOT_SAMPLERS)
        extra = [key for key in (native or {}) if key not in named]
        if body is not None:  # writing: also what the piece holds that this family knows
            extra += [key for key in body["samplers"]["extra"] if key in self.known_extra and key not in extra]
        return (
            *typed,
            *(Field(key, ("samplers", "extra", key), as_json) for key in extra),
            Field("extensions", ("extensions",), as_object, _nonempty),
        )


class TextGenPreset(TextPresetAdapter):
    format_id = "sillytavern.preset.textgen"
    label = "SillyTavern TextGen preset"
    source = "textgen"
    id_suffix = "textgen"
    what = "a SillyTavern TextGen (text-completion) preset"
    samplers = TEXTGEN_SAMPLERS
    known_extra = TEXTGEN_EXTRA
    own_keys = _own_keys(TEXTGEN_SAMPLERS, TEXTGEN_EXTRA)
    # TextGen keys alone are not a KoboldAI preset, as the rule above has it: every KoboldAI preset
    # says `typical` (SillyTavern saves all of kai_settings; bunzai writes it, see TYPICAL_MARKER).
    shared_keys_over = frozenset(("sillytavern.preset.kobold",))

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if _has_core_text_keys(parsed) and not _kobold_shaped(parsed):
            return 0.85
        # TextGen keys alone, not all of them a chat or NovelAI preset's too (`temp`, `freq_pen` ...).
        return OWN_KEYS_CONFIDENCE if self.made_of_own_keys(parsed) else 0.0


class KoboldPreset(TextPresetAdapter):
    format_id = "sillytavern.preset.kobold"
    label = "SillyTavern KoboldAI preset"
    source = "kobold"
    id_suffix = "kobold"
    what = "a SillyTavern KoboldAI preset"
    samplers = KOBOLD_SAMPLERS
    known_extra = KOBOLD_EXTRA
    own_keys = _own_keys(KOBOLD_SAMPLERS, KOBOLD_EXTRA)

    def samplers_for(self, native: dict | None, body: dict | None) -> tuple[tuple[str, str, Any], ...]:
        if _min_p_as_extra(native, body):
            return tuple(row for row in KOBOLD_SAMPLERS if row[0] != "min_p")
        return KOBOLD_SAMPLERS

    def declared_losses(self, body: dict, prior: dict | None) -> list[Loss]:
        losses = [TYPICAL_MARKER.at(TYPICAL_MARKER.pattern)] if self._marks_typical(body, prior) else []
        if not _min_p_as_extra(prior, body):
            return losses
        return losses + [
            STALE_KOBOLD_MIN_P.at(pointer) for pointer in ("/body/samplers/min_p", "/body/samplers/extra/min_p")
        ]

    def encode_extra(self, body: dict, prior: dict | None, out: dict) -> None:
        # A new file with settings but no `typical` says it: see TYPICAL_MARKER.
        if prior is None and out and "typical" not in out:
            items = list(out.items())
            at = next((i for i, (key, _) in enumerate(items) if key not in _BEFORE_TYPICAL), len(items))
            items.insert(at, ("typical", KOBOLD_TYPICAL_DEFAULT))
            out.clear()
            out.update(items)

    def _marks_typical(self, body: dict, prior: dict | None) -> bool:
        return prior is None and body["samplers"]["typical_p"] is None and self._keeps_any(body)

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if _has_core_text_keys(parsed) and _kobold_shaped(parsed):
            return 0.85
        # KoboldAI keys alone, one of them TextGen's files lack (typical, mirostat, grammar).
        return OWN_KEYS_CONFIDENCE if self.made_of_own_keys(parsed) else 0.0


class NovelPreset(TextPresetAdapter):
    format_id = "sillytavern.preset.novel"
    label = "SillyTavern NovelAI preset"
    source = "novel"
    id_suffix = "novel"
    what = "a SillyTavern NovelAI preset"
    samplers = NOVEL_SAMPLERS
    known_extra = NOVEL_EXTRA
    own_keys = _own_keys(NOVEL_SAMPLERS + NOVEL_SAVED_SAMPLERS, NOVEL_EXTRA)

    def samplers_for(self, native: dict | None, body: dict | None) -> tuple[tuple[str, str, Any], ...]:
        saved = native is not None and "genamt" in native
        return NOVEL_SAVED_SAMPLERS if saved and not _read_before_saved_layout(body) else NOVEL_SAMPLERS

    def declared_losses(self, body: dict, prior: dict | None) -> list[Loss]:
        if prior is None or "genamt" not in prior or not _read_before_saved_layout(body):
            return []
        return [STALE_NOVEL.at(STALE_NOVEL.pattern)]

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if _novel_shaped(parsed):
            return 0.8
        # NovelAI keys alone, one of them the chat preset lacks (max_context, repetition_penalty_frequency ...).
        return OWN_KEYS_CONFIDENCE if self.made_of_own_keys(parsed) else 0.0


def _novel_shaped(parsed: Any) -> bool:
    if not isinstance(parsed, dict) or "temperature" not in parsed or "openai_max_context" in parsed:
        return False
    if "prompts" in parsed or "prompt_order" in parsed:
        return False
    novel_only = ("tail_free_sampling", "phrase_rep_pen", "repetition_penalty_slope", "math1_temp")
    return any(key in parsed for key in novel_only)


def _read_before_saved_layout(body: dict | None) -> bool:
    """A piece read from a saved NovelAI preset before bunzai knew that layout: `genamt` is
    under `samplers.extra` (now it is the reply size). It is written with the mapping it was
    read with, so its file goes back as it came."""
    return body is not None and "genamt" in body["samplers"]["extra"]


STALE_NOVEL = LossRule(
    "/body/samplers",
    "translated",
    "preset.novel.saved_layout",
    "this piece was imported before bunzai read SillyTavern's saved NovelAI layout, so its max_tokens is the "
    "file's context size (max_length) and its reply size is samplers.extra.genamt; the file is written back as "
    "it was, and reads now with genamt as the reply and max_length as the context: import the file again",
)


def _min_p_as_extra(prior: dict | None, body: dict | None) -> bool:
    """A KoboldAI piece read before bunzai read its `min_p` as the sampler (it is under
    `samplers.extra`): written with the mapping it was read with, so the file goes back as it came."""
    if prior is None or body is None or "min_p" not in prior:
        return False
    return "min_p" in body["samplers"]["extra"] and body["samplers"]["min_p"] is None


# `typical` is the key that tells a KoboldAI preset from a TextGen one (TextGen says `typical_p`):
# SillyTavern writes it in every KoboldAI preset it saves (kai_settings), and loads a preset
# without it as its default, 1 (kai-settings.js loadKoboldSettings: `preset[name] ??
# defaultValues[name]`, since 1.10.1). So a new file whose piece sets no typical sampler gets
# `"typical": 1`: SillyTavern sets the same value either way, and the file reads as KoboldAI.
KOBOLD_TYPICAL_DEFAULT = 1
_BEFORE_TYPICAL = frozenset(("temp", "rep_pen", "rep_pen_range", "top_p", "min_p", "top_a", "top_k"))
TYPICAL_MARKER = LossRule(
    "/body/samplers/typical_p",
    "translated",
    "preset.kobold.typical_default",
    "the piece sets no typical sampler; the file says typical 1, the value SillyTavern loads for a KoboldAI "
    "preset without one, so that it reads as a KoboldAI preset (a TextGen preset has the same other keys)",
)

STALE_KOBOLD_MIN_P = LossRule(
    "/body/samplers",
    "translated",
    "preset.kobold.min_p_extra",
    "this piece was imported before bunzai read a KoboldAI preset's min_p as the min_p sampler, so it holds "
    "min_p under samplers.extra; the file is written as it was, and reads now with min_p as the sampler",
)


def _has_core_text_keys(parsed: Any) -> bool:
    # SillyTavern's own test for a text-completion preset (preset-manager.js master import).
    return isinstance(parsed, dict) and all(key in parsed for key in _CORE_TEXT_KEYS)


def _kobold_shaped(parsed: dict) -> bool:
    # KoboldAI presets say `typical`; TextGen says `typical_p`.
    return "typical" in parsed and "typical_p" not in parsed


TEXTGEN = register(TextGenPreset())
register(KoboldPreset())
register(NovelPreset())
