"""Presets: generation settings and prompt layouts (chat/text completion, instruct, context ...).

One kind covers every preset family; `family` says which parts are meaningful. Sampler
values are typed where the platforms agree on a meaning (None = unset: the platform
default applies) and the long tail goes to `samplers.extra` under its native name.

Templates (instruct, context, sysprompt, reasoning) are `templates.sequences`, named
strings such as `input_sequence`, `output_sequence`, `stop_sequence`, `story_string`,
`content`, `post_history`, `prefix`, `suffix`, `separator` (SillyTavern's names, which the
other frontends' templates map onto), plus `templates.options` for their non-text settings
(`wrap`, `macro`, `names_behavior`, `story_string_depth` ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import Field, model_validator

from bunzai.model.base import AssetRef, GenerationType, JsonObject, Model, PieceBase, Role

Family = Literal["chat_completion", "text_completion", "instruct", "context", "sysprompt", "reasoning"]


class Samplers(Model):
    """Sampling settings. None = unset (the platform default applies)."""

    temperature: float | None = Field(default=None, ge=0, description="Randomness of sampling.")
    top_p: float | None = Field(default=None, description="Nucleus sampling cut-off.")
    top_k: int | None = Field(default=None, description="Keep only the k likeliest tokens; 0 = off.")
    top_a: float | None = Field(default=None, description="Top-A sampling.")
    min_p: float | None = Field(default=None, description="Drop tokens below this fraction of the top probability.")
    typical_p: float | None = Field(default=None, description="Typical sampling.")
    tfs: float | None = Field(default=None, description="Tail-free sampling.")
    repetition_penalty: float | None = Field(default=None, description="Multiplicative repetition penalty.")
    repetition_penalty_range: int | None = Field(default=None, description="Tokens the repetition penalty looks back.")
    frequency_penalty: float | None = Field(default=None, description="Additive penalty by token frequency.")
    presence_penalty: float | None = Field(default=None, description="Additive penalty for tokens already present.")
    max_context: int | None = Field(default=None, ge=0, description="Context size in tokens.")
    max_tokens: int | None = Field(default=None, ge=0, description="Most tokens generated per reply.")
    min_tokens: int | None = Field(default=None, ge=0, description="Fewest tokens generated per reply.")
    seed: int | None = Field(default=None, description="Sampling seed; -1 = random.")
    stop_sequences: list[str] | None = Field(default=None, description="Strings that end generation.")
    sampler_order: list[str] | None = Field(default=None, description="Order the samplers run in, by name.")
    extra: JsonObject = Field(
        default_factory=dict, description="Other samplers under their native names (mirostat_tau, dry_base ...)."
    )


class PromptBlock(Model):
    """One block of a prompt layout (SillyTavern prompt-manager prompt, RisuAI prompt item ...)."""

    identifier: str = Field(default="", description="Block id, unique in the preset (e.g. main, chatHistory, a uuid).")
    name: str = Field(default="", description="Name shown to people.")
    role: Role = Field(default="system", description="Role of the message the block becomes.")
    content: str = Field(default="", description="The block's text (macros kept verbatim); '' on markers.")
    enabled: bool = Field(default=True, description="On, where no `orders` entry says otherwise.")
    marker: bool = Field(
        default=False, description="A placeholder the frontend fills (chat history, descriptions ...)."
    )
    system_prompt: bool = Field(default=False, description="A built-in block of the frontend rather than a user block.")
    position: Literal["relative", "absolute"] = Field(
        default="relative", description="relative: in layout order; absolute: injected into the chat at `depth`."
    )
    depth: int = Field(default=4, ge=0, description="Messages from the end, for position absolute.")
    injection_order: int = Field(default=100, description="Order among blocks injected at the same depth.")
    triggers: list[GenerationType] = Field(
        default_factory=list, description="Generation types it applies to; empty = all."
    )
    forbid_overrides: bool = Field(default=False, description="A character card may not replace this block.")


class OrderItem(Model):
    """One block in a prompt order."""

    identifier: str = Field(default="", description="Identifier of a prompt block.")
    enabled: bool = Field(default=True, description="Whether the block is on in this order.")


class PromptOrder(Model):
    """The order blocks are assembled in, for everyone or for one character."""

    target: str = Field(
        default="global",
        description=(
            "'global' (the order sent for every character; SillyTavern's character_id 100001), or the platform "
            "key of another order (a character's, SillyTavern's unused '100000')."
        ),
    )
    items: list[OrderItem] = Field(default_factory=list, description="Blocks, first to last.")


GLOBAL_ORDER = "global"  # the order the frontend uses for everyone (SillyTavern: character_id 100001)
# The one rule for presets read from SillyTavern before bunzai mapped its orders right. bunzai
# used to read character_id 100000 as `global` and 100001 as the order "100001"; but since Aug
# 2023 (openai.js `promptOrder: {strategy: 'global', dummyId: 100001}`) SillyTavern uses the
# 100001 list and ignores 100000. Now 100001 reads as `global` and 100000 as "100000", so no
# read makes an order "100001" any more: a preset holding one was read under the old mapping,
# and there `global` is the stale 100000 list and "100001" is the order SillyTavern uses.
OLD_MAPPING_ACTIVE_ORDER = "100001"


def old_sillytavern_mapping(targets: Iterable[str]) -> bool:
    """Whether orders with these targets were read under the old SillyTavern mapping (above):
    their `global` order is SillyTavern's unused 100000 list, and "100001" the one it uses."""
    return OLD_MAPPING_ACTIVE_ORDER in targets


def active_order_index(targets: Sequence[str]) -> int | None:
    """Where, among orders with these targets, the order a frontend sends for everyone is:
    `global` (or, in a preset read under the old SillyTavern mapping, "100001"); None when
    there is none (SillyTavern then uses its default order)."""
    wanted = OLD_MAPPING_ACTIVE_ORDER if old_sillytavern_mapping(targets) else GLOBAL_ORDER
    return targets.index(wanted) if wanted in targets else None


def order_index(targets: Sequence[str], target: str) -> int | None:
    """Where the order a person names is: `global` names the active order (active_order_index),
    another target its first order; None when the preset has no such order."""
    if target == GLOBAL_ORDER:
        return active_order_index(targets)
    return targets.index(target) if target in targets else None


class PromptGroup(Model):
    """A named group of blocks, toggled or shown together (Marinara groups, RisuAI folders)."""

    id: str = Field(default="", description="Group id, unique in the preset.")
    name: str = Field(default="", description="Name shown to people.")
    blocks: list[str] = Field(default_factory=list, description="Identifiers of the blocks in the group, in order.")
    enabled: bool = Field(default=True, description="Whether the group's blocks are on.")


class MediaInlining(Model):
    """Which media a chat-completion preset sends inline to the model. None = platform default."""

    image_inlining: bool | None = Field(default=None, description="Send chat images to the model.")
    image_quality: Literal["auto", "low", "high"] | None = Field(default=None, description="Quality of inlined images.")
    video_inlining: bool | None = Field(default=None, description="Send chat videos to the model.")
    audio_inlining: bool | None = Field(default=None, description="Send chat audio to the model.")


class Attachment(Model):
    """A file that travels with the preset (a reference image, a document)."""

    name: str = Field(default="", description="File name shown to people.")
    mime: str = Field(default="", description="MIME type.")
    asset: AssetRef | None = Field(default=None, description="The stored file; None when only named.")
    enabled: bool = Field(default=True, description="Whether it is sent.")


class Templates(Model):
    """Instruct, context, sysprompt and reasoning templates: named strings plus their options."""

    sequences: dict[str, str] = Field(
        default_factory=dict,
        description="Named template strings: input_sequence, output_sequence, story_string, content, prefix ...",
    )
    options: JsonObject = Field(
        default_factory=dict, description="Non-text template settings: wrap, macro, names_behavior ..."
    )


class PresetBody(Model):
    """A preset of any family."""

    family: Family = Field(default="chat_completion", description="Which kind of preset this is.")
    description: str = Field(default="", description="What the preset is for; not sent.")
    source: str = Field(default="", description="API or backend it targets (openai, claude, textgen, kobold ...).")
    model: str = Field(default="", description="Model name it was tuned for.")
    samplers: Samplers = Field(default_factory=Samplers, description="Sampling settings.")
    prompts: list[PromptBlock] = Field(default_factory=list, description="Prompt blocks; identifiers are unique.")
    orders: list[PromptOrder] = Field(default_factory=list, description="Block orders, global or per character.")
    groups: list[PromptGroup] = Field(default_factory=list, description="Named groups of blocks.")
    utility_prompts: dict[str, str] = Field(
        default_factory=dict, description="Named helper prompts: impersonation, new_chat, continue_nudge, wi_format ..."
    )
    media: MediaInlining = Field(default_factory=MediaInlining, description="Media sent inline to the model.")
    attachments: list[Attachment] = Field(default_factory=list, description="Files travelling with the preset.")
    templates: Templates = Field(default_factory=Templates, description="Instruct/context/sysprompt/reasoning strings.")
    extensions: JsonObject = Field(default_factory=dict, description="Namespaced app data carried with the preset.")

    @model_validator(mode="after")
    def _identifiers_are_unique(self) -> PresetBody:
        # Orders and groups name blocks by identifier, so two blocks may not share one.
        identifiers = [block.identifier for block in self.prompts]
        if len(set(identifiers)) != len(identifiers):
            raise ValueError("two prompt blocks share an identifier; identifiers must be unique in a preset")
        return self


class Preset(PieceBase):
    """A preset: samplers, prompt layout or template, per `body.family`."""

    kind: Literal["preset"] = Field(default="preset", description="Always 'preset'.")
    body: PresetBody = Field(default_factory=PresetBody, description="The preset's settings.")
