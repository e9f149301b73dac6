"""What every SillyTavern preset format shares: reading, writing over the escrow, losses.

One format per preset family (presets_chat.py, presets_text.py, presets_templates.py).
A family adapter names its native keys as field rows (common/fieldmap.py) and may migrate
a legacy layout on read; this base does the rest:

- read: the document, migrated to the current layout, decoded into a canonical preset;
  the document exactly as read is the escrow.
- write: the canonical fields written over the (migrated) escrow when it is this format's,
  else a new document; an unedited legacy document is written back as it was.
- losses: the written file is read back and every canonical difference is named by the
  family's rules, then by the shared ones below.
"""

from __future__ import annotations

from typing import Any


from bunzai.adapters.common.naming import piece_id_for, typed_id
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.common.fieldmap import Field, decode_fields, encode_fields, same
from bunzai.adapters.common.losses import LossRule, readback_losses
from bunzai.adapters.common.preset_family import nothing_kept
from bunzai.adapters.registry import all_adapters
from bunzai.adapters.sillytavern.st_json import file_stem, native_json_bytes, native_object
from bunzai.model import dump_piece
from bunzai.model.preset import Preset

SHARED_LOSS_RULES = (
    LossRule(
        "/body/family",
        "translated",
        "preset.family.changed",
        "the file is another preset family, so the preset reads back as that family",
    ),
    LossRule(
        "/body/source",
        "translated",
        "preset.source.retargeted",
        "the file targets its own backend, so the preset reads back with that source",
    ),
    LossRule("/body/model", "dropped", "preset.model.dropped", "this preset file does not name a model"),
    LossRule("/body/description", "dropped", "preset.description.dropped", "SillyTavern presets have no description"),
    LossRule(
        "/body/samplers/(?:extra/)?[^/]+",
        "dropped",
        "preset.sampler.dropped",
        "this preset family has no setting for this sampler",
    ),
    LossRule(
        r"/body/prompts(?:/\d+/[^/]+)?",
        "dropped",
        "preset.prompts.dropped",
        "this preset family has no prompt blocks (or not this part of one)",
    ),
    LossRule("/body/orders", "dropped", "preset.orders.dropped", "this preset family has no prompt orders"),
    LossRule("/body/groups", "dropped", "preset.groups.dropped", "SillyTavern presets have no block groups"),
    LossRule(
        "/body/utility_prompts/[^/]+",
        "dropped",
        "preset.utility_prompt.dropped",
        "this preset family has no such helper prompt",
    ),
    LossRule("/body/media/[^/]+", "dropped", "preset.media.dropped", "this preset family sends no media inline"),
    LossRule(
        "/body/attachments", "dropped", "preset.attachments.dropped", "SillyTavern presets carry no attached files"
    ),
    LossRule(
        "/body/templates/sequences/[^/]+",
        "dropped",
        "preset.template.sequence.dropped",
        "this template family has no such string",
    ),
    LossRule(
        "/body/templates/options/[^/]+",
        "dropped",
        "preset.template.option.dropped",
        "this template family has no such option",
    ),
    LossRule("/body/extensions", "dropped", "preset.extensions.dropped", "this preset file keeps no extensions"),
)
# How sure a sampler-preset format is of a file made only of its own keys (`made_of_own_keys`):
# below every rule that names a family by a key of its own (0.8 and up), and below no other
# format's claim on such a file, since no other format claims a file of these keys alone.
OWN_KEYS_CONFIDENCE = 0.5

# Named by the writer itself when it writes an edited legacy file in the current layout.
LEGACY_MIGRATED = LossRule(
    "/original",
    "translated",
    "preset.legacy.migrated",
    "an edited legacy preset is written in SillyTavern's current layout, which it reads the same way",
)


class PresetAdapter(Adapter):
    """Base of the SillyTavern preset formats; subclasses set the class attributes and `fields`."""

    engine = "sillytavern"  # SillyTavern expands the macros in this file's text

    kinds = ("preset",)
    extensions = (".json",)
    container = "text"
    family = "chat_completion"
    source = ""  # fixed backend of the family ("" when the file names it)
    what = "a SillyTavern preset"
    named = False  # True: the document has a `name` key; else the file stem names it
    # Follows the name's slug in the piece id: SillyTavern keeps each preset type in its own
    # folder, so `instruct/ChatML.json` and `context/ChatML.json` are two pieces. Chat-completion
    # presets, the common case, keep the plain slug.
    id_suffix = ""
    name_first = True  # where a new document puts `name`
    loss_rules: tuple[LossRule, ...] = ()
    field_rows: tuple[Field, ...] = ()
    # The keys this format reads and writes as settings: set by the sampler-preset families
    # (chat, TextGen, KoboldAI, NovelAI), whose files SillyTavern never sniffs (the user picks
    # the panel), so one they write from another family's piece holds only such keys.
    own_keys: frozenset[str] = frozenset()
    # Formats whose keys do not count against this one's in `made_of_own_keys`: a file made only
    # of keys both have is this format's (TextGen over KoboldAI: a KoboldAI preset says `typical`).
    shared_keys_over: frozenset[str] = frozenset()

    # --- what a family defines -----------------------------------------------------------

    def fields(self, native: dict | None, body: dict | None) -> tuple[Field, ...]:
        """The field rows for this document (read: `native`; write: `body` and the prior `native`)."""
        return self.field_rows

    def migrate(self, document: dict) -> dict:
        """The document in the current layout (a legacy layout moved over); the same object if current."""
        return document

    def decode_extra(self, document: dict, body: dict) -> None:
        """Canonical values that are not single-key rows (prompt lists ...), set into `body`."""

    def encode_extra(self, body: dict, prior: dict | None, out: dict) -> None:
        """Native values that are not single-key rows, written into `out`."""

    def declared_losses(self, body: dict, prior: dict | None) -> list[Loss]:
        """Losses the read-back cannot see (what the engine does with a value the file keeps)."""
        return []

    def legacy_loss(self) -> Loss:
        return LEGACY_MIGRATED.at("/original")

    def made_of_own_keys(self, parsed: Any) -> bool:
        """Whether `parsed` is an object made only of this format's own keys, and not only of
        another sampler-preset format's (but those of `shared_keys_over`): the file a crossing
        writes from another family's piece (`{"temperature": .., "frequency_penalty": ..}` is a
        chat preset). A file whose keys all belong to two formats (`temperature`, `top_p`: a chat
        and a NovelAI preset) is neither's."""
        if not isinstance(parsed, dict) or not parsed or not self.own_keys:
            return False
        keys = parsed.keys()
        if not keys <= self.own_keys:
            return False
        rivals = (
            adapter
            for adapter in all_adapters()
            if isinstance(adapter, PresetAdapter)
            and adapter.own_keys
            and adapter is not self
            and adapter.format_id not in self.shared_keys_over
        )
        return not any(keys <= rival.own_keys for rival in rivals)

    # --- the shared read and write -------------------------------------------------------

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        document = native_object(data, name, parsed, self.what)
        current = self.migrate(document)
        body = decode_fields(self.fields(current, None), current)
        self.decode_extra(current, body)
        body["family"] = self.family
        if self.source:
            body["source"] = self.source
        own_name = document.get("name") if self.named else None
        title = own_name if isinstance(own_name, str) and own_name.strip() else file_stem(name) or "Preset"
        piece_id = typed_id(piece_id_for(title, name, "preset"), self.id_suffix)
        original = {"format": self.format_id, "document": document}
        hint = "check that value in the file"
        return Decoded([read_piece(Preset, title, name, "preset", body, original, hint, piece_id=piece_id)])

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        native = _escrowed(piece, self.format_id)
        prior = self.migrate(native) if native is not None else None
        body = piece.body.model_dump(mode="json")
        if body["family"] != self.family and not self._keeps_any(body):
            raise nothing_kept(self.format_id, self.label, body["family"])
        out = encode_fields(self.fields(prior, body), body, prior)
        self.encode_extra(body, prior, out)
        self._write_name(piece.name, prior, out)
        losses: list[Loss] = []
        if native is not None and prior is not native:
            if same(out, prior):
                out = native  # an unedited legacy document goes back exactly as it came
            else:
                losses.append(self.legacy_loss())
        losses += self.declared_losses(body, prior)
        data = native_json_bytes(out)
        back = self.read(data, piece.id + self.extensions[0], None).pieces[0]
        fallback = LossRule("", "dropped", "preset.not_carried", f"{self.label} does not carry this value as it is")
        rules = self.loss_rules + self._name_rules() + SHARED_LOSS_RULES
        losses += readback_losses(dump_piece(piece), dump_piece(back), rules, fallback, losses)
        return Encoded(data, losses)

    def _keeps_any(self, body: dict) -> bool:
        """Whether the file keeps any of the piece's own settings: judged on a new file, since
        over an escrow the file holds the escrowed document's keys, which are not the piece's
        (a piece whose family changed since its import keeps nothing more for them)."""
        out = encode_fields(self.fields(None, body), body, None)
        self.encode_extra(body, None, out)
        return bool(out)

    def _write_name(self, name: str, prior: dict | None, out: dict) -> None:
        if not self.named:
            return
        if prior is not None:
            if isinstance(prior.get("name"), str) and prior["name"].strip() and prior["name"] != name:
                out["name"] = name
            return
        if self.name_first:
            rest = dict(out)
            out.clear()
            out["name"] = name
            out.update(rest)
        else:
            out["name"] = name

    def _name_rules(self) -> tuple[LossRule, ...]:
        if self.named:
            return (
                LossRule(
                    "/name",
                    "flattened",
                    "preset.name.file_stem",
                    "the file has no name of its own, so SillyTavern names it by the file name (<id>.json)",
                ),
            )
        return (
            LossRule(
                "/name",
                "flattened",
                "preset.name.file_stem",
                f"a {self.label} is named by its file name, and the file is written as <id>.json",
            ),
        )


def _escrowed(piece: Any, format_id: str) -> dict | None:
    original = piece.original
    if original is None or original.format != format_id or not isinstance(original.document, dict):
        return None
    return original.document
