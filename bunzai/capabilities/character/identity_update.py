"""character.identity.update: the name, nickname ({{char}}) and tagline."""

from __future__ import annotations

from pydantic import Field

from bunzai.capabilities.character.target import VariantTarget, edit_character, mentions
from bunzai.capabilities.common.partial import merge_partial
from bunzai.capabilities.common.patching import given
from bunzai.capabilities.contract import Capability, Preview


class IdentityInput(VariantTarget):
    name: str | None = Field(
        default=None,
        min_length=1,
        pattern=r"\S",
        description="The character's display name (the card's `name`; not blank). Omit to keep.",
    )
    nickname: str | None = Field(
        default=None, description="Name used for {{char}} in prompts when set; '' uses the name. Omit to keep."
    )
    tagline: str | None = Field(
        default=None, description="One-line hook shown on shelves; never sent to the model. Omit to keep."
    )


_GREETING_FIELDS = ("first_message", "alternate_greetings", "group_only_greetings")


def preview(piece, inp: IdentityInput) -> Preview:
    patch = given(inp, exclude=("variant", "name"))
    warnings: list[str] = []

    def edit(name, body):
        new_name = inp.name if inp.name is not None else name
        if new_name != name:
            warnings.extend(_stale_mentions(name, body))
        return new_name, merge_partial(body, patch)

    return Preview(edit_character(piece, inp.variant, edit), warnings=warnings)


def _stale_mentions(old: str, body) -> list[str]:
    """Greetings and prose that spell the old name out (they do not follow a rename; {{char}} does)."""
    where = []
    for field in ("description", "personality", "scenario", "example_messages") + _GREETING_FIELDS:
        value = getattr(body, field)
        texts = value if isinstance(value, list) else [value]
        hits = sum(1 for text in texts if mentions(text, old))
        if hits:
            where.append(field if not isinstance(value, list) else f"{field} ({hits} of {len(texts)})")
    if not where:
        return []
    return [
        f"the old name {old!r} is written out in {', '.join(where)}; those texts keep it "
        "(write {{char}} where the name should follow the card)"
    ]


CAPABILITY = Capability(
    id="character.identity.update",
    kind="character",
    area="identity",
    action="update",
    summary="Rename a character or change its nickname ({{char}}) or tagline.",
    aliases=("rename character", "rename", "change name", "nickname", "tagline", "casting name"),
    input_model=IdentityInput,
    preview=preview,
)
