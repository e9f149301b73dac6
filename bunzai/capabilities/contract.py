"""The capability contract: a pure, typed operation on one canonical piece.

A capability has a stable dotted id (`lorebook.entries.update`), the kind it targets, an
area and an action, a one-line summary, aliases for finding it, the platforms it applies
to, a pydantic input model (field descriptions and defaults land in its JSON Schema), an
effect (`read` or `draft`), an exposure (`direct`, `deferred`, `hidden`), a concurrency
key, and `preview(entity, input) -> Preview`.

    CAPABILITY = Capability(
        id="character.identity.update", kind="character", area="identity", action="update",
        summary="Rename a character or change its nickname, tagline or casting identity.",
        aliases=("rename character", "nickname"), input_model=IdentityInput,
        preview=preview_identity,
    )

Each capability lives in its own module in its kind's folder (`capabilities/character/`),
as a module-level `CAPABILITY`; discovery walks the folders, so a new module appears with
no other edit.

Rules the runner (not the capability) enforces:
- preview never writes; it returns the complete proposed entity (a new object);
- a draft capability may not change the target's kind or id, nor its escrow (`original`);
- a read capability must return an identical entity and no changes;
- nothing executes regex or trigger payloads: they are data.
The runner computes the exact changes (a JSON diff), so a capability cannot misreport them.

Two small extensions carry what a pure preview cannot do itself:
- `needs`: a capability that reads ANOTHER stored piece (`preset.blocks.copy` reads the
  source preset) declares it as `Need(ref=<input field holding an id or kind/id>, kind=...,
  into=<input field>)`; before preview the runner resolves the ref and puts the stored
  piece's canonical JSON into the `into` field (left as given when the caller filled it).
- `Preview.attachments`: media a preview decoded (a pack item given as a data: URI) and the
  proposed entity refers to by sha256, as {sha256: {ext, mime, base64}}, the shape of a
  draft's `attachments`; the runner copies them into the draft, and apply stores them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pydantic import BaseModel

    from bunzai.model.base import PieceBase

Effect = Literal["read", "draft"]
Exposure = Literal["direct", "deferred", "hidden"]
Mode = Literal["update", "create"]


@dataclass
class Preview:
    """What a capability proposes: the whole entity, with warnings and platform impact.

    For a read capability, `result` carries what it found (the entity stays as it was).
    """

    entity: PieceBase
    warnings: list[str] = field(default_factory=list)
    impact: list[dict] = field(default_factory=list)  # [{"platform": ..., "note": ...}]
    result: Any = None
    attachments: dict[str, dict] = field(default_factory=dict)  # {sha256: {ext, mime, base64}}, new media


@dataclass(frozen=True)
class Need:
    """Another stored piece a capability reads: input field `ref` names it (id or kind/id), the
    runner loads it (of `kind`) and puts its canonical JSON in input field `into`."""

    ref: str
    kind: str
    into: str


@dataclass(frozen=True)
class Capability:
    id: str
    kind: str
    area: str
    action: str
    summary: str
    input_model: type[BaseModel]
    preview: Callable[[PieceBase | None, BaseModel], Preview]
    aliases: tuple[str, ...] = ()
    platforms: tuple[str, ...] = ("all",)
    effect: Effect = "draft"
    exposure: Exposure = "direct"
    mode: Mode = "update"  # "create": preview gets entity=None and returns a new piece
    concurrency_key: str = "piece"  # what two drafts must not both change at once
    domain: str = "content"  # "content" for pieces of a kind, "studio" for lifecycle (create)
    needs: tuple[Need, ...] = ()  # other stored pieces the runner loads into the input first

    def describe(self, *, schema: bool = False) -> dict:
        doc = {
            "id": self.id,
            "kind": self.kind,
            "domain": self.domain,
            "area": self.area,
            "action": self.action,
            "summary": self.summary,
            "aliases": list(self.aliases),
            "platforms": list(self.platforms),
            "effect": self.effect,
            "exposure": self.exposure,
            "mode": self.mode,
            "concurrency_key": self.concurrency_key,
        }
        if self.needs:
            doc["needs"] = [{"ref": need.ref, "kind": need.kind, "into": need.into} for need in self.needs]
        if schema:
            doc["input_schema"] = self.input_model.model_json_schema()
        return doc
