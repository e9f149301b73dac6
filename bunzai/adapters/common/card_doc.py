"""A whole card document <-> pieces: the character, its embedded book, its links, and the losses.

A card with a `character_book` reads as two linked pieces: pieces[0] the character (the
book travels in `body.book`), pieces[1] a lorebook with the same content, whose id is the
character's first `links.lorebooks` entry when the card binds no other world. What a card
shape cannot carry is named by `card_losses`, one Loss per field, with stable codes.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

from bunzai.adapters.common import card_assets, card_book, card_fields
from bunzai.adapters.common.book_losses import BOOK_SETTING_NOT_CARRIED
from bunzai.adapters.common.drift import as_str
from bunzai.adapters.common.fieldmap import put
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.naming import linked_id, piece_id_for
from bunzai.adapters.contract import Blob, Decoded, Loss, MediaSource
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.model.base import assembled
from bunzai.model.built import built
from bunzai.model.character import Character, CharacterBody
from bunzai.model.lorebook import Lorebook, LorebookBody

LOREBOOK_V3_FORMAT = "lorebook_v3.json"
# The card family: formats whose file holds one V2/V3 card document (`spec`, `data`). A piece
# read from one of them is written to another over the source's own `data`, so every key
# the target's `data` can hold (extensions at any value, book and entry fields, unknown
# keys) travels; what it cannot hold is named pointer by pointer (`family_losses`).
CARD_FAMILY = frozenset(
    {
        "sillytavern.card.png",
        "sillytavern.card.json",
        "ccv2.json",
        "ccv3.json",
        "charx",
        "risu.charx",
        "agnai.tavern.json",
        "marinara.character",
    }
)
# `data` keys a writer builds from the piece alone: a CHARX's or V3 JSON's asset list names
# members and data: URIs of its own file.
_WRITER_OWNED = ("assets",)
# Body fields no character card format has.
NEVER_CARRIED = ("tagline", "rating", "content_warnings", "media", "variants", "presentation")


@dataclass(frozen=True)
class CardShape:
    """What one card format carries."""

    label: str
    version: str  # "v1" | "v2" | "v3": names the loss codes (card.v2.not_carried ...)
    fields: frozenset[str]  # plain body fields (see card_fields)
    extensions: bool = True  # data.extensions, book, links, scripts (not in V1)
    assets: bool = False  # data.assets
    image: bool = False  # the file is the portrait (PNG)
    flavor: str = "spec"  # "sillytavern": write book entries with ST's full extension keys

    @property
    def v3(self) -> bool:
        return self.version == "v3"


V1 = CardShape(
    "Character Card V1",
    "v1",
    frozenset({"description", "personality", "scenario", "first_message", "example_messages"}),
    extensions=False,
)


def card_data(document: Any) -> dict:
    """The object holding the card fields: `data`, or the root for V1 and old Chub hybrids."""
    if isinstance(document, dict):
        return document["data"] if isinstance(document.get("data"), dict) else document
    raise BunzaiError("unsupported", "a character card is a JSON object", "check that the file is a card")


def _book_id(char_id: str, book_name: str) -> str:
    return linked_id(char_id, "book", book_name)


def world_id(world: str) -> str:
    """The id of the world file named `world` (SillyTavern's `worlds/<world>.json`)."""
    return piece_id_for(world, "", "world")


def book_id_of(data: dict, char_id: str) -> str:
    """The id of the card's embedded book: the world it is bound to, else its own name's.

    SillyTavern writes a bound world into the card as its book on every save, so the book
    and `worlds/<world>.json` are one world and share one id.
    """
    world = card_fields.world_of(data)
    if world:
        return world_id(world)
    book = data.get("character_book")
    return _book_id(char_id, as_str(book.get("name")) if isinstance(book, dict) else "")


def links_of(data: dict, char_id: str) -> list[str]:
    """The bound world's id, else the embedded book's id, else nothing."""
    if card_fields.world_of(data) or isinstance(data.get("character_book"), dict):
        return [book_id_of(data, char_id)]
    return []


def read_card(
    document: Any,
    file_name: str,
    shape: CardShape,
    original: Any,
    portrait: dict | None = None,
    blobs: list[Blob] | None = None,
    assets: list[dict] | None = None,
) -> Decoded:
    """Card document -> Decoded (character, and its book as a lorebook piece when it has one).
    `assets`: the character's media links found beside a card with no `assets` of its own (JSON
    form; their blobs among `blobs`)."""
    data = card_data(document)
    blobs = list(blobs or [])
    warnings: list[str] = []
    name = as_str(data.get("name"))
    char_id = piece_id_for(name, file_name, "character")
    body = card_fields.read_fields(data, shape.fields)
    if not shape.extensions:
        body = {key: value for key, value in body.items() if key in shape.fields}
    book = None
    raw_book = data.get("character_book") if shape.extensions else None
    if isinstance(raw_book, dict):
        book, warnings = card_book.read_book(raw_book)
    lorebooks = links_of(data, char_id) if shape.extensions else []
    if shape.extensions:
        body["links"] = {"lorebooks": lorebooks, "regex": [], "quickreplies": []}
    body["book"] = book
    assets = assets or []
    if shape.assets:
        assets, asset_blobs = card_assets.read_assets(data.get("assets"))
        blobs += asset_blobs
        portrait = portrait or card_assets.portrait_of(assets)
    body["portrait"] = portrait
    # Every value above is of its field's type and within its bounds (card_fields, card_book,
    # card_assets mend what they read): built, not validated again (model/built.py says why).
    character = built(Character, {"id": char_id, "name": name, "body": body, "assets": assets, "original": original})
    pieces = [character]
    if book is not None:
        pieces.append(
            built(
                Lorebook,
                {
                    "id": lorebooks[0] if lorebooks else book_id_of(data, char_id),
                    "name": book["name"] or f"{name}'s Lorebook",
                    "body": _book_body(character.body.book),
                    "original": {
                        "format": LOREBOOK_V3_FORMAT,
                        "document": {"spec": "lorebook_v3", "data": raw_book},
                    },
                },
            )
        )
    return Decoded(pieces, blobs, warnings)


_BOOK_FIELDS = tuple(LorebookBody.model_fields)  # every one, in order: as validating would set them


def _book_body(book: Any) -> Any:
    """The lorebook piece's body from the character's book (a CharacterBook is a LorebookBody
    with a name). The two pieces share the entries; pieces are values, edited by rebuilding,
    never in place."""
    return assembled(LorebookBody, {key: getattr(book, key) for key in _BOOK_FIELDS})


def family_document(original: Any) -> tuple[str, dict] | None:
    """The card document a card-family escrow holds, and where it sits under /original/document."""
    if original is None or original.format not in CARD_FAMILY or not isinstance(original.document, dict):
        return None
    document = original.document
    if original.format == "sillytavern.card.png":
        for keyword in ("ccv3", "chara"):
            if isinstance(document.get(keyword), dict):
                return f"/{keyword}", document[keyword]
        return None
    if original.format == "marinara.character":  # the card sits in the export envelope's `data`
        return ("/data", document["data"]) if isinstance(document.get("data"), dict) else None
    return "", document


def sibling_data(piece: Any, shape: CardShape) -> dict | None:
    """The `data` of the card-family file the piece was read from, cut to what `shape` names.

    Used as the base of a write to another card format: canonical fields the shape lacks
    (V3-only ones in V2) and writer-owned keys are removed; everything else stays.
    """
    found = family_document(piece.original)
    if found is None or not shape.extensions or not isinstance(found[1].get("data"), dict):
        return None
    data = copied(found[1]["data"])
    for field in card_fields.V3_FIELDS - shape.fields:
        data.pop(card_fields.data_key(field), None)
    for key in _WRITER_OWNED:
        data.pop(key, None)
    return data


def write_card_data(base: dict | None, template: dict, piece: Any, shape: CardShape, media: MediaSource) -> dict:
    """The card's `data` (or V1 root), with the piece written over it.

    Over `base` (the target format's own escrow) when there is one, so a same-format round
    trip stays identical; else over the `data` of the card-family file the piece came from
    (`sibling_data`), completed with the template's keys (every field the spec requires);
    else over the template.
    """
    body = piece.body.model_dump(mode="json")
    if isinstance(base, dict):
        data = copied(base)
    else:
        data = sibling_data(piece, shape) or {}
        for key, value in template.items():
            if key not in data:
                data[key] = copied(value)
    current_links = links_of(data, piece.id)
    put(data, "name", piece.name, as_str)
    if not shape.extensions:
        for field in shape.fields:
            put(data, _V1_KEYS[field], body[field], as_str)
        return data
    card_fields.write_fields(data, body, shape.fields)
    book_id = _book_id(piece.id, body["book"]["name"]) if body["book"] is not None else None
    book_name = body["book"]["name"] if body["book"] is not None else None
    card_fields.write_world(data, body["links"]["lorebooks"], current_links, book_id, book_name)
    if body["book"] is not None:
        own = isinstance(base, dict)  # the card written again: its entries keep their layout
        data["character_book"] = card_book.write_book(
            data.get("character_book"), body["book"], shape.flavor, shape.v3, own
        )
        if not isinstance(base, dict):
            card_book.complete_required(data["character_book"], shape.v3)
    else:
        data.pop("character_book", None)
    if shape.assets:
        links = [link.model_dump(mode="json") for link in piece.assets]
        if links or "assets" in data:
            data["assets"] = card_assets.write_assets(data.get("assets"), links, media)
    return data


def _body_fields(fields) -> str:
    return "/body/(?:" + "|".join(sorted(fields)) + ")"


# What card_losses names, one rule per code; each loss's sentence names the format written.
CARD_FIELD_NOT_CARRIED = LossRule(
    _body_fields([*NEVER_CARRIED, "settings/(?:variables|bias)"]),
    "dropped",
    "card.field.not_carried",
    "character cards have no field for this",
)
# One rule per CardShape.version: the card fields that shape has no place for (V1 has none of
# the V2 card's extension places either; V3 and Agnai's shape name the fields they lack).
CARD_SHAPE_NOT_CARRIED = {
    "v1": LossRule(
        _body_fields(
            [
                *(card_fields.V3_FIELDS - V1.fields),
                *("depth_prompt", "book", "links", "behavior_scripts", "extensions"),
                "settings/(?:talkativeness|favorite)",
            ]
        ),
        "dropped",
        "card.v1.not_carried",
        "a V1 card has no such field",
    ),
    "v2": LossRule(
        _body_fields(card_fields.V3_FIELDS - card_fields.V2_FIELDS),
        "dropped",
        "card.v2.not_carried",
        "a V2 card has no such field",
    ),
    "v3": LossRule(
        _body_fields(card_fields.V3_FIELDS), "dropped", "card.v3.not_carried", "a V3 card has no such field"
    ),
    "agnai": LossRule(
        _body_fields(card_fields.V3_FIELDS), "dropped", "card.agnai.not_carried", "an Agnai character has no such field"
    ),
}
CARD_SCRIPTS_NOT_CARRIED = LossRule(
    r"/body/behavior_scripts(?:/\d+)?",
    "dropped",
    "card.scripts.not_carried",
    "this card format carries only SillyTavern regex scripts",
)
CARD_EXTRA_LOREBOOKS = LossRule(
    r"/body/links/lorebooks(?:/\d+)?",
    "dropped",
    "card.links.extra_lorebooks",
    "this card format binds one world; extra books are app settings",
)
CARD_LINKS_NOT_CARRIED = LossRule(
    "/body/links/(?:lorebooks|regex|quickreplies)", "dropped", "card.links.not_carried", "this card links no such set"
)
CARD_ASSETS_NOT_CARRIED = LossRule(
    "/assets", "dropped", "card.assets.not_carried", "this card format does not carry the card's media list (assets)"
)
CARD_PROFILES_NOT_CARRIED = LossRule(
    "/profiles", "dropped", "card.profiles.not_carried", "this card format has no place for per-platform profiles"
)
CARD_PORTRAIT_NOT_CARRIED = LossRule(
    "/body/portrait", "dropped", "card.portrait.not_carried", "this card format carries no image"
)
# family_losses: a key of the source file's `data` (under the escrow's card document, which
# a PNG keeps under its keyword and a Marinara export under its envelope's `data`).
_FAMILY_DATA = "/original/document(?:/(?:ccv3|chara|data))?/data(?:/[^/]+)+"
CARD_KEY_NOT_CARRIED = LossRule(
    _FAMILY_DATA, "dropped", "card.key.not_carried", "the target card format has no place for this key"
)
CARD_KEY_DERIVED = LossRule(
    _FAMILY_DATA,
    "translated",
    "card.key.derived",
    "the key only repeated the card's own text, which the target carries (DERIVED_KEYS)",
)
CARD_KEY_REWRITTEN = LossRule(
    _FAMILY_DATA,
    "translated",
    "card.key.rewritten",
    "the target card format holds this key differently (written from the canonical value)",
)

_V1_KEYS = {
    "description": "description",
    "personality": "personality",
    "scenario": "scenario",
    "first_message": "first_mes",
    "example_messages": "mes_example",
}


def card_losses(piece: Any, shape: CardShape, format_id: str = "") -> list[Loss]:
    """Every canonical value `shape` cannot carry, one Loss each.

    `format_id` is the format being written: a piece that came from it already had its
    book positions flattened there, so re-writing it notes nothing new.
    """
    body = piece.body.model_dump(mode="json")
    default = _default_body(CharacterBody)
    losses: list[Loss] = []

    def lose(rule: LossRule, pointer: str, why: str) -> None:
        losses.append(rule.at(pointer, why))

    for field in NEVER_CARRIED:
        if body[field] != default[field]:
            lose(CARD_FIELD_NOT_CARRIED, f"/body/{field}", f"character cards have no field for {field}")
    for field in ("variables", "bias"):
        if body["settings"][field]:
            lose(CARD_FIELD_NOT_CARRIED, f"/body/settings/{field}", f"character cards have no field for chat {field}")
    shape_lacks = CARD_SHAPE_NOT_CARRIED[shape.version]
    for field in sorted(card_fields.V3_FIELDS - shape.fields):
        if body[field] != default[field]:
            lose(shape_lacks, f"/body/{field}", f"{shape.label} has no {field}")
    if not shape.extensions:
        v1_lacks = CARD_SHAPE_NOT_CARRIED["v1"]
        for field in ("depth_prompt", "book", "links", "behavior_scripts", "extensions"):
            if body[field] != default[field]:
                lose(v1_lacks, f"/body/{field}", f"{shape.label} has no {field}")
        for field in ("talkativeness", "favorite"):
            if body["settings"][field] != default["settings"][field]:
                lose(v1_lacks, f"/body/settings/{field}", f"{shape.label} has no {field}")
    else:
        losses += _link_losses(body, shape)
        for index, script in enumerate(body["behavior_scripts"]):
            if script["format"] != "sillytavern.regex":
                lose(
                    CARD_SCRIPTS_NOT_CARRIED,
                    f"/body/behavior_scripts/{index}",
                    f"{shape.label} carries only SillyTavern regex scripts, "
                    f"not {script['format'] or 'untyped'} payloads",
                )
        if body["book"] is not None:
            for key in card_book.settings_not_carried(body["book"]):
                lose(BOOK_SETTING_NOT_CARRIED, f"/body/book/settings/{key}", f"a card's character_book has no {key}")
            if piece.original is None or piece.original.format != format_id:
                losses += card_book.positions_flattened(body["book"], "/body/book")
    if piece.assets and not shape.assets:
        lose(CARD_ASSETS_NOT_CARRIED, "/assets", f"{shape.label} does not carry the card's media list (assets)")
    if piece.profiles:
        lose(CARD_PROFILES_NOT_CARRIED, "/profiles", f"{shape.label} has no place for per-platform profiles")
    if not shape.image and body["portrait"] is not None:
        links = [link.model_dump(mode="json") for link in piece.assets] if shape.assets else []
        if card_assets.portrait_of(links) != body["portrait"]:
            lose(
                CARD_PORTRAIT_NOT_CARRIED,
                "/body/portrait",
                f"{shape.label} is JSON and carries no image; export as PNG to keep the portrait",
            )
    return losses


def _link_losses(body: dict, shape: CardShape) -> list[Loss]:
    losses = []
    for index, _link in enumerate(body["links"]["lorebooks"][1:], start=1):
        why = f"{shape.label} binds one world (extensions.world); extra books are app settings"
        losses.append(CARD_EXTRA_LOREBOOKS.at(f"/body/links/lorebooks/{index}", why))
    for kind in ("regex", "quickreplies"):
        if body["links"][kind]:
            losses.append(CARD_LINKS_NOT_CARRIED.at(f"/body/links/{kind}", f"{shape.label} does not link {kind} sets"))
    return losses


_DEFAULT: dict = {}


def _default_body(cls: Any) -> dict:
    if not _DEFAULT:
        _DEFAULT.update(cls().model_dump(mode="json"))
    return _DEFAULT


# Per source format: the pointers under `data` its own writer derives from the card's text
# (Agnai's persona mark, repeating description and personality), each with why: a target
# without one carries what it said, and the loss says so (card.key.derived), not that the
# target has no place for it. Filled in by the adapters that write such keys.
DERIVED_KEYS: dict[str, Callable[[dict], dict[str, str]]] = {}


def family_losses(source: Any, written: Any, label: str) -> list[Loss]:
    """What the card-family file `source` came from held in `data` and the file written for
    `written` (its read-back) does not: one Loss per pointer, under /original/document.

    A key the target has no place for is `dropped`; a value it holds differently (an asset
    list naming the target's own members) is `translated`. Same-format writes report nothing.
    """
    before, after = family_document(source.original), family_document(written.original)
    if before is None or after is None or source.original.format == written.original.format:
        return []
    old, new = before[1].get("data"), after[1].get("data")
    if not isinstance(old, dict):
        return []
    losses: list[Loss] = []
    at = f"/original/document{before[0]}/data"
    derive = DERIVED_KEYS.get(source.original.format)
    derived = {at + pointer: why for pointer, why in derive(old).items()} if derive else {}
    _compare(old, new if isinstance(new, dict) else {}, at, label, losses, derived)
    return losses


def _segment(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _compare(old: Any, new: Any, pointer: str, label: str, losses: list[Loss], derived: dict[str, str]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in old.items():
            here = f"{pointer}/{_segment(key)}"
            if key not in new and here in derived:
                losses.append(
                    CARD_KEY_DERIVED.at(here, f"{label} does not keep {here.split('/data', 1)[1]}: {derived[here]}")
                )
            elif key not in new:
                losses.append(CARD_KEY_NOT_CARRIED.at(here, f"{label} has no place for {here.split('/data', 1)[1]}"))
            else:
                _compare(value, new[key], here, label, losses, derived)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (value, other) in enumerate(zip(old, new)):
            _compare(value, other, f"{pointer}/{index}", label, losses, derived)
    elif old != new or type(old) is not type(new):
        why = f"{label} holds {pointer.split('/data', 1)[1]} differently (written from the canonical value)"
        losses.append(CARD_KEY_REWRITTEN.at(pointer, why))
