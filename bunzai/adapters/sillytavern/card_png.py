"""SillyTavern PNG character cards: the card JSON in base64 `tEXt` chunks of the portrait.

Read: `ccv3` wins over `chara` (as SillyTavern reads them); zTXt and iTXt chunks are read
too. The escrow keeps both chunk documents and the original PNG bytes; the portrait is the
image without its card chunks, so rewriting the chunks never changes it.
Assets: a V3 card's `data.assets` read as the piece's asset links. RisuAI's V3 PNG export
stores each asset's bytes in a `chara-ext-asset_:N` chunk (base64) and names it `__asset:N`:
such a uri reads as the stored file, and its chunk is no part of the portrait. Nor are the
chunks a RisuAI V2 card's `extensions.risuai` names (emotions, additional assets, voices:
`__asset:N`), which RisuAI's import drops from the image too: they stay in the escrowed file,
and a card written on another image takes them from it. A card without an asset list pays
nothing for this (a few dict lookups); the chunks are found and decoded only when a uri names one.
Write: `chara` (V2 with the V1 copies) then `ccv3` (the same object relabelled, plus any
V3-only field the card has), inserted before IEND; every other chunk and the image data
stay byte for byte. A card whose fields are unchanged is written back as the original file.
A card not read as V3 whose `extensions.risuai` holds emotions, additional assets or voices
gets `chara` alone, as RisuAI's V2 PNG export writes it: RisuAI reads `ccv3` first and those
lists only from a V2 card, and SillyTavern reads `chara` when there is no `ccv3`.
RisuAI's V2 import reads no `data.assets`, so each stored emotion and x-risu-asset of such a
card is also listed there, in the shape RisuAI's V2 import reads (`[name, "__asset:N"(, ext)]`, its
chunk); read back, those mirrors are left out of `extensions.risuai` (the asset links hold them).
Both chunks carry the same `data.assets` (SillyTavern writes `ccv3` as `chara` relabelled).
Asset chunks the card was read with are written back (before `chara`) while an asset still
holds their bytes, and every other stored asset gets a chunk of its own, as RisuAI's V3 PNG
export writes them (RisuAI imports them; SillyTavern ignores them and keeps them when it
saves the card): not `data:` uris, which SillyTavern would load and hold with the card's
JSON, twice. The main icon that is the card's own image becomes `ccdefault:`.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
from typing import Any


from bunzai import limits
from bunzai.adapters.common import card_assets, card_fields, png
from bunzai.adapters.common.book_losses import book_folders_off
from bunzai.adapters.common.card_book import book_decorators_ignored
from bunzai.adapters.common.card_doc import (
    CARD_SHAPE_NOT_CARRIED,
    NEVER_CARRIED,
    card_data,
    card_losses,
    family_document,
    read_card,
    sibling_data,
    world_id,
    write_card_data,
)
from bunzai.adapters.common.charx_members import file_type
from bunzai.adapters.common.drift import as_object, as_str
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import (
    Adapter,
    Blob,
    Decoded,
    Encoded,
    Loss,
    MediaSource,
    SpanBlob,
    linked_name,
    own_book_bound,
)
from bunzai.adapters.registry import register
from bunzai.adapters.sillytavern.card_doc_st import ST_V3, data_template, relabel_v3, st_document, sync_mirrors
from bunzai.adapters.sillytavern.card_twins import top_level, twin_document, twin_in_base64
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import check_parsed_bounds, json_decoder, json_text, load_json_bytes
from bunzai.jsondoc.values import copied
from bunzai.model.base import AssetRef

FORMAT_ID = "sillytavern.card.png"
CARD_FILE = "card.png"
CARD_KEYWORDS = ("chara", "ccv3")
_CARD_CHUNKS = frozenset(CARD_KEYWORDS)
_TWIN_CHUNK, _NONE = frozenset({"chara"}), frozenset()
PORTRAIT_DEFAULT_IMAGE = LossRule(
    "/body/portrait",
    "translated",
    "card.portrait.default_image",
    "the card has no portrait; a plain default image carries it",
)
PORTRAIT_NOT_PNG = LossRule(
    "/body/portrait",
    "dropped",
    "card.portrait.not_png",
    "the portrait is not a PNG (a PNG card cannot hold it); a plain default image carries the card",
)
ASSET_NOT_WRITTEN = LossRule(
    r"/assets/\d+",
    "dropped",
    "card.png.asset_not_written",
    "a PNG card carries a stored asset in a chara-ext-asset_ chunk, and this one would take the PNG past its size "
    "limit: the entry keeps its type and name with an empty uri (export as CHARX to keep the file)",
)
ASSET_TYPE_INFERRED = LossRule(
    r"/assets/\d+",
    "translated",
    "card.png.asset_type_inferred",
    "an asset chunk holds the file's bytes alone, so its type (extension, MIME type) is read back from the entry's ext",
)
ICON_AS_DEFAULT = LossRule(
    r"/assets/\d+",
    "translated",
    "card.png.icon_as_default",
    "the main icon is the card's own image, so it is written as `ccdefault:` (the PNG itself), read back as that uri",
)
RISU_V2_NOT_SHOWN = LossRule(
    r"/assets/\d+",
    "dropped",
    "card.png.risu_v2_asset_not_shown",
    "RisuAI's V2 import shows a card's emotions and additional assets (from extensions.risuai) and its image as "
    "the icon, no other asset: this one stays in data.assets, where bunzai reads it back, but RisuAI drops it",
)
RISU_V2_LIST_FILLED = LossRule(
    "/body/extensions/risuai/(?:emotions|additionalAssets)",
    "translated",
    "card.png.risu_v2_list_filled",
    "the empty list now lists the added assets RisuAI reads there; bunzai reads those back as the asset links "
    "and the list as absent",
)
ASSET_CHUNK = png.ASSET_CHUNK  # RisuAI's V3 PNG export: one text chunk per asset
ASSET_URIS = ("__asset:", "asset:")
RISU_LISTS = ("emotions", "additionalAssets")  # extensions.risuai lists of [name, uri, ...]
_RISU_LIST_OF = {"emotion": RISU_LISTS[0], "x-risu-asset": RISU_LISTS[1]}  # as RisuAI's V3 import sorts them
_SHAPE_WITH_ASSETS = dataclasses.replace(ST_V3, assets=True)  # for card_losses: the assets are this module's


def decode_chunk_json(text: bytes, keyword: str, what: str) -> dict:
    """base64 -> UTF-8 -> JSON object, each step refused with a coded error."""
    if not text or text.isspace():  # stops at the first byte of a card's text
        raise BunzaiError("corrupt_file", f"the {keyword!r} chunk of {what} is empty", "export the card again")
    raw = png.card_base64(text, f"the {keyword!r} chunk of {what}")
    try:
        document = load_json_bytes(raw, what=f"the {keyword!r} chunk of {what}")
    except BunzaiError:
        # Checked only on failure: the JSON reader decodes the text once. Text that is not
        # base64 at all decodes (as Node decodes it) to bytes that are no card: say so first.
        if not png.looks_like_base64(text):
            raise BunzaiError(
                "corrupt_file",
                f"the {keyword!r} chunk of {what} is not valid base64, and what can be read of it is no card JSON",
                "export the card again",
            ) from None
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as error:
            # The chunk is ASCII text (the base64 alphabet); what it decodes to is no text: a word
            # such as "Removed" in place of the card, or base64 damaged past reading.
            raise BunzaiError(
                "corrupt_file",
                f"the {keyword!r} chunk of {what} holds {_shown(text)}, not a card: read as base64, it gives no "
                f"UTF-8 text (bad byte at offset {error.start})",
                "export the card again",
            ) from None
        raise
    if not isinstance(document, dict):
        raise BunzaiError(
            "corrupt_file",
            f"the {keyword!r} chunk of {what} holds a JSON {type(document).__name__}, not a card object",
            "export the card again",
        )
    return document


def _shown(text: bytes) -> str:
    """A card chunk's text, known to be of the base64 alphabet, quoted when it is a word or two."""
    words = b" ".join(text.split())
    if len(words) <= limits.PNG_CARD_TEXT_QUOTED_CHARS:
        return f"the text {words.decode('ascii')!r}"
    return f"{len(words)} characters of text"


def _twins(chunks: dict, what: str) -> dict | None:
    """Both card documents, the `chara` one built from the `ccv3` one it mirrors (see
    card_twins); None when that cannot be shown, and each chunk is read on its own (which
    also gives any error, in the usual order)."""
    try:
        first_b64, b64 = chunks["ccv3"].text, chunks["chara"].text
        first_raw = png.card_base64(first_b64, "ccv3")
        first_text = json_text(first_raw, what="ccv3")
        decoder = json_decoder()
        parsed = top_level(first_text, decoder) if first_text is not None else None
        if parsed is None:
            return None
        check_parsed_bounds(parsed[0], first_raw, what="ccv3")  # json_text checked the size only
        chara = twin_in_base64(parsed[0], parsed[1], first_text, first_raw, first_b64, b64, decoder)
        if chara is None:  # not shown block for block: the chara text itself is compared
            text = json_text(png.card_base64(b64, "chara"), what="chara")
            chara = twin_document(parsed[0], parsed[1], first_text, text, decoder) if text is not None else None
    except Exception:  # noqa: BLE001 - any doubt: the chunks are read one by one, with their errors
        return None
    return None if chara is None else {"chara": chara, "ccv3": parsed[0]}


def _once(check):
    """`check`, run at most once (the original and the portrait share it); a failure runs again."""
    done = []

    def run() -> None:
        if not done:
            check()
            done.append(True)

    return run


def encode_chunk_json(document: dict) -> bytes:
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return base64.b64encode(text.encode("utf-8"))


def asset_key(uri: object) -> str | None:
    """The chunk key an asset uri names (`__asset:3` -> "3"), or None for any other uri."""
    if isinstance(uri, str):
        for prefix in ASSET_URIS:
            if uri.startswith(prefix):
                return uri[len(prefix) :]
    return None


def referenced_chunks(image: png.PngFile, raw_assets: object) -> dict[str, png.Chunk]:
    """The asset chunks an asset list's uris name, by key; nothing is decoded. Empty at once
    for a card without an asset list (the common case: no walk of the chunks)."""
    if not isinstance(raw_assets, list) or not raw_assets:
        return {}
    keys = {key for item in raw_assets if isinstance(item, dict) and (key := asset_key(item.get("uri"))) is not None}
    return _chunks_keyed(image, keys)


def _chunks_keyed(image: png.PngFile, keys: set[str]) -> dict[str, png.Chunk]:
    """key -> the asset chunk so keyed, for each of `keys` the image has; no walk for no keys."""
    if not keys:
        return {}
    return {key: chunk for key, chunk in png.asset_chunks(image).items() if key in keys}  # in file order


def risu_keys(risu: object) -> set[str]:
    """The chunk keys a RisuAI V2 card's `extensions.risuai` names (`__asset:N`): its emotions and
    additional assets (`[name, uri, ...]`) and its voices (`{name: uri}`), as RisuAI's V2 import
    looks them up (`__asset:` only)."""
    if not isinstance(risu, dict):
        return set()
    uris = []
    for key in RISU_LISTS:
        items = risu.get(key)
        if isinstance(items, list):
            uris += [item[1] for item in items if isinstance(item, list) and len(item) > 1]
    if isinstance(risu.get("vits"), dict):
        uris += risu["vits"].values()
    prefix = ASSET_URIS[0]
    return {uri[len(prefix) :] for uri in uris if isinstance(uri, str) and uri.startswith(prefix)}


def risu_v2_card(piece: Any) -> bool:
    """Whether the card is written as RisuAI's V2 PNG export writes it, `chara` alone: a card not
    read as V3 whose `extensions.risuai` holds emotions, additional assets or voices. RisuAI reads
    `ccv3` before `chara` and those lists only from a V2 card (importCharacterCardSpec)."""
    risu = piece.body.extensions.get("risuai")
    if not isinstance(risu, dict) or not any(risu.get(key) for key in (*RISU_LISTS, "vits")):
        return False
    found = family_document(piece.original)
    return found is None or found[1].get("spec") != "chara_card_v3"


def risu_mirror(entry: object) -> tuple[str, list] | None:
    """The `extensions.risuai` item, as RisuAI's V2 import reads it, for a `data.assets` entry held in an
    asset chunk: an emotion `[name, "__asset:N"]`, an additional asset `[name, "__asset:N", ext]`."""
    if not isinstance(entry, dict) or (kind := _RISU_LIST_OF.get(entry.get("type"))) is None:
        return None
    key, name, ext = asset_key(entry.get("uri")), entry.get("name"), entry.get("ext")
    if key is None or not isinstance(name, str) or not isinstance(ext, str):
        return None
    item = [name, ASSET_URIS[0] + key]
    return kind, item + [ext] if kind == RISU_LISTS[1] else item


def _risu_v2_lists(chara: dict, piece: Any, entries: list) -> list[Loss]:
    """Lists each stored emotion and x-risu-asset in `chara`'s extensions.risuai (its `data.assets`
    entry mirrored, see risu_mirror), where RisuAI's V2 import reads them; names the assets it drops."""
    extensions = chara["data"].setdefault("extensions", {})
    risu = extensions["risuai"] = copied(as_object(extensions.get("risuai")))
    losses: list[Loss] = []
    for index, (link, entry) in enumerate(zip(piece.assets, entries, strict=True)):
        mirror = risu_mirror(entry) if link.asset is not None else None
        current = risu.get(mirror[0]) if mirror is not None else None
        if mirror is None or (current and not isinstance(current, list)):
            if link.asset is not None and entry["uri"] == "":
                continue  # not written at all: ASSET_NOT_WRITTEN names it
            if (link.role, link.name, entry["uri"]) != ("icon", "main", "ccdefault:"):  # the image is the icon
                losses.append(RISU_V2_NOT_SHOWN.at(f"/assets/{index}"))
            continue
        kind, item = mirror
        if not current:  # absent, or an empty list (or null) that reads back absent once emptied
            if kind in risu:
                losses.append(RISU_V2_LIST_FILLED.at(f"/body/extensions/risuai/{kind}"))
            risu[kind] = current = []
        current.append(item)
    return losses


def _without_mirrors(piece: Any, raw_assets: list, named: dict[str, png.Chunk]) -> Any:
    """`piece` without the `extensions.risuai` items that mirror its `data.assets` entries (written
    by _risu_v2_lists): those read as the asset links; a list left empty is removed."""
    risu = piece.body.extensions.get("risuai")
    mirrors = [found for entry in raw_assets if (found := risu_mirror(entry)) and asset_key(entry["uri"]) in named]
    if not mirrors or not isinstance(risu, dict):
        return piece
    left = copied(risu)
    for kind, item in mirrors:
        items = left.get(kind)
        if isinstance(items, list) and item in items:
            del items[len(items) - 1 - items[::-1].index(item)]  # the mirrors follow the card's own items
            if not items:
                del left[kind]
    extensions = dict(piece.body.extensions) | {"risuai": left}
    return piece.model_copy(update={"body": piece.body.model_copy(update={"extensions": extensions})})


def _v3_only_losses(piece: Any, chara: dict) -> list[Loss]:
    """The V3-only fields (nickname, dates ...) the `chara` chunk does not read back as the card's."""
    body = piece.body.model_dump(mode="json")
    kept = card_fields.read_fields(card_data(chara), frozenset(card_fields.V3_ONLY))
    why = "the card is written as a V2 card alone (no ccv3 chunk), so RisuAI reads its emotions; V2 has no {}"
    rule = CARD_SHAPE_NOT_CARRIED["v2"]
    return [rule.at(f"/body/{field}", why.format(field)) for field in card_fields.V3_ONLY if body[field] != kept[field]]


def portrait_cut(image: png.PngFile, named: dict[str, png.Chunk], documents: dict) -> frozenset[str]:
    """The keywords the portrait leaves out of the card's image: the card chunks, the asset
    chunks `named` (those `data.assets` names) and those any document's `extensions.risuai`
    names (RisuAI's own import drops every text chunk from the image it keeps)."""
    keys: set[str] = set()
    for document in documents.values():  # inline: every card is read here, and most name no chunk
        data = document.get("data")  # card_data's reading: `data`, else the root
        extensions = (data if isinstance(data, dict) else document).get("extensions")
        if isinstance(extensions, dict) and extensions.get("risuai"):
            keys |= risu_keys(extensions["risuai"])
    if not named and not keys:
        return _CARD_CHUNKS
    chunks = [*named.values(), *_chunks_keyed(image, keys).values()]
    return _CARD_CHUNKS.union(chunk.keyword for chunk in chunks) if chunks else _CARD_CHUNKS


def asset_bytes(image: png.PngFile, chunk: png.Chunk, what: str) -> bytes:
    """An asset chunk's bytes: its base64 text decoded as RisuAI decodes it (Node's decoder)."""
    found = png.text_of(image.data, chunk)
    label = f"the {found.keyword!r} chunk of {what}"
    if len(found.text) > limits.CARD_DATA_URI_MAX_BYTES * 4 // 3 + 4:
        raise BunzaiError(
            "too_large",
            f"{label} holds over {limits.CARD_DATA_URI_MAX_BYTES} bytes",
            "store large media as separate files",
        )
    return png.card_base64(found.text, label)


def _read_assets(
    raw_assets: object, image: png.PngFile, chunks: dict[str, png.Chunk], what: str
) -> tuple[list[dict], list[Blob], list[str]]:
    """`data.assets` -> link dicts, the blobs they store and the warnings: a uri naming an asset
    chunk reads as that chunk's bytes, every other uri as the card spokes read it."""
    links: list[dict] = []
    blobs: list[Blob] = []
    warnings: list[str] = []
    decoded: dict[str, bytes] = {}
    made: dict[tuple[str, str], Blob] = {}
    for index, item in enumerate(raw_assets if isinstance(raw_assets, list) else []):
        entry = as_object(item)
        uri = entry.get("uri")
        key = asset_key(uri)
        chunk = chunks.get(key) if key is not None else None
        if chunk is None:
            if key is not None and uri.startswith(ASSET_URIS[0]):
                warnings.append(
                    f"card.asset.missing: asset {index} names {uri!r}, but {what} has no "
                    f"{ASSET_CHUNK}:{key} chunk; its uri is kept as written"
                )
            read, found = card_assets.read_assets([entry])
            links += read
            blobs += found
            continue
        if key not in decoded:
            decoded[key] = asset_bytes(image, chunk, what)
        ext, mime = file_type(entry.get("ext"), "")
        blob = made.get((key, ext))
        if blob is None:
            made[(key, ext)] = blob = Blob(decoded[key], ext, mime)
            blobs.append(blob)
        links.append(
            {
                "role": as_str(entry.get("type")),
                "name": as_str(entry.get("name")),
                "ext": as_str(entry.get("ext")),
                "asset": blob.ref_json(),
                "uri": None,
            }
        )
    return links, blobs, warnings


class SillyTavernCardPng(Adapter):
    engine = "sillytavern"  # SillyTavern expands the macros in this file's text
    format_id = FORMAT_ID
    label = "SillyTavern PNG character card"
    kinds = ("character",)
    extensions = (".png",)
    container = "image"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not data.startswith(png.PNG_SIGNATURE):
            return 0.0
        return 0.95 if png.headers_of(data, parsed).has_text(CARD_KEYWORDS) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        what = name or "the PNG"
        walked = png.headers_of(data, parsed)
        # The sniffers' walk, checked; image-data CRCs are checked before the image is hashed,
        # and so is the `chara` chunk's when it is shown to be the `ccv3` chunk's twin (its text
        # is then never decoded); read on its own, it is checked first.
        lazy = _TWIN_CHUNK if "ccv3" in walked.keywords and "chara" in walked.keywords else _NONE
        image = png.read_png(data, what, defer=True, walked=walked, lazy_text=lazy)
        chunks = png.find_texts(image, CARD_KEYWORDS)
        documents = _twins(chunks, what) if len(chunks) == 2 else None
        if documents is None:
            if lazy and "chara" in chunks:
                image = png.check_chunk(image, chunks["chara"].chunk, what)
            documents = {
                keyword: decode_chunk_json(chunks[keyword].text, keyword, what)
                for keyword in CARD_KEYWORDS
                if keyword in chunks
            }
        if not documents:
            raise BunzaiError(
                "unrecognized_file",
                f"{what} is a PNG without a chara or ccv3 chunk",
                "this image holds no character card",
            )
        check = _once(lambda: png.check_crcs(image, what)) if image.unchecked else None
        original = SpanBlob(data, ((0, len(data)),), "png", "image/png", check)
        primary = documents.get("ccv3", documents.get("chara"))
        try:  # card_data, inline (every card is read here): `data`, else the top level
            raw_assets = primary.get("data", primary).get("assets")
        except AttributeError:  # a `data` that is not an object
            raw_assets = primary.get("assets")
        # The image without its card chunks (and the asset chunks the card names), named by its
        # spans of the file: hashed in place, never copied here; both are hashed only when a
        # draft, a store or a convert asks (LazyAssetRef).
        named = referenced_chunks(image, raw_assets) if raw_assets else {}  # no assets: no chunk walk
        cut = portrait_cut(image, named, documents)
        portrait = SpanBlob(data, tuple(png.kept_spans(image, cut)), "png", "image/png", check)
        escrow = {"format": FORMAT_ID, "document": documents, "files": {CARD_FILE: original.ref_json()}}
        decoded = read_card(primary, name, ST_V3, escrow, portrait.ref_json(), [original, portrait])
        if raw_assets and isinstance(raw_assets, list):
            links, blobs, warnings = _read_assets(raw_assets, image, named, what)
            decoded.pieces[0] = card_assets.with_assets(decoded.pieces[0], links, what)
            if "ccv3" not in documents and documents["chara"].get("spec") != "chara_card_v3":  # as written V2
                decoded.pieces[0] = _without_mirrors(decoded.pieces[0], raw_assets, named)
            decoded.blobs += blobs
            decoded.warnings += warnings
        return decoded

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        escrowed = _escrowed(piece)
        folders: list[Loss] = []
        if escrowed is None:  # a book written for RisuAI may hold folders: off, as SillyTavern has none
            piece, folders = book_folders_off(piece, "a SillyTavern card's book")
        losses = card_losses(piece, _SHAPE_WITH_ASSETS, self.format_id) + folders
        if escrowed is None:  # text written for another platform may hold decorators
            losses += book_decorators_ignored(piece)
        source = _escrowed_image(piece, media) if escrowed is not None else None
        if source is not None and self._reads_as(source, piece):
            return Encoded(source, losses)
        from_escrow = source is not None
        if source is None:
            source, image_losses = _image_for(piece, media)
            losses += image_losses
        documents = escrowed or {}
        chara = st_document(documents.get("chara"), piece, media)
        own_ccv3 = isinstance(documents.get("ccv3"), dict)
        if own_ccv3:
            ccv3 = copied(documents["ccv3"])
            sync_mirrors(ccv3, piece, add_missing=False)
        else:
            ccv3 = relabel_v3(chara)
        holder = "data" if isinstance(ccv3.get("data"), dict) else None
        # A card from another format of the family: the ccv3 chunk is written over that card's
        # own data (its V3 fields kept), not over the V2 chunk cut to V2.
        base = card_data(ccv3) if own_ccv3 or escrowed is not None or sibling_data(piece, ST_V3) is None else None
        written = write_card_data(base, data_template(), piece, ST_V3, media)
        image = png.read_png(source, "the card image")
        # The asset chunks the escrowed card's assets name come out of its image; those an asset
        # still holds go back in (AssetChunks), before the card chunks, as RisuAI writes them.
        # Those extensions.risuai names stay in the escrowed image; another image gets them from it.
        cut = set(CARD_KEYWORDS)
        carried = {} if from_escrow else _risu_chunks(piece, media)
        if from_escrow:
            cut.update(chunk.keyword for chunk in referenced_chunks(image, _escrowed_assets(piece)).values())
        cut.update(keyword for keyword, _text in carried.values())  # the image's own would shadow them
        added = list(carried.values())
        if piece.assets or "assets" in written:
            portrait = piece.body.portrait
            is_image = portrait is not None and not any(loss.pointer == "/body/portrait" for loss in losses)
            plan = AssetChunks(piece, media, image, cut, portrait.sha256 if is_image else None)
            plan.taken.update(carried)
            written["assets"] = plan.entries(written.get("assets"))
            losses += plan.losses
            added += plan.chunks
        if holder:
            ccv3["data"] = written
        else:
            ccv3 = written
        # One card in both chunks: a reader of `chara` alone sees the asset list `ccv3` has.
        if "assets" in written:
            chara["data"]["assets"] = copied(written["assets"])
        else:
            chara["data"].pop("assets", None)
        v2_alone = risu_v2_card(piece)  # RisuAI reads ccv3 first, and these lists only from a V2 card
        if v2_alone:
            losses += _v3_only_losses(piece, chara)
            if "assets" in written:
                losses += _risu_v2_lists(chara, piece, chara["data"]["assets"])
        added.append(("chara", encode_chunk_json(chara)))
        if not v2_alone:
            added.append(("ccv3", encode_chunk_json(ccv3)))
        data = png.replace_text(image, cut, added)
        if len(data) > limits.PNG_MAX_BYTES:
            raise BunzaiError(
                "too_large",
                f"the PNG card would be {len(data)} bytes; bunzai reads PNG cards up to {limits.PNG_MAX_BYTES}",
                "export as CHARX, which keeps large assets as separate members",
            )
        return Encoded(data, losses)

    def _reads_as(self, data: bytes, piece: Any) -> bool:
        """Whether `data` already reads as `piece` (name, body and assets): then it is the faithful output."""
        try:
            again = self.read(data, piece.id + ".png", None).pieces[0]
        except BunzaiError:
            return False
        if again.name != piece.name or _read_as_written(piece, again) != piece.body or _world_renamed(piece, again):
            return False
        if not _binds_world(again) and own_book_bound((piece.body.links.lorebooks or [""])[0]):
            return False  # bound now to its own book's world file, which the file it was read from is not
        return [link.model_dump(mode="json") for link in again.assets] == [
            link.model_dump(mode="json") for link in piece.assets
        ]


class AssetChunks:
    """The `data.assets` entries and asset chunks a write gives the piece's asset links.

    A link with a uri is written as that uri. A stored asset is written as the asset chunk
    the escrowed card held its bytes in (`__asset:<key>`, the chunk's text copied as read),
    as the escrowed `data:` uri it was read from, for the main icon that is the image
    written as `ccdefault:`, else as a new asset chunk (`__asset:<free key>`, one per file).
    One that would take the PNG past limits.PNG_MAX_BYTES keeps its entry (its place in the
    list) with an empty uri, with a loss (ASSET_NOT_WRITTEN). An escrowed entry that still
    reads as the same link is kept as written.
    """

    def __init__(self, piece: Any, media: MediaSource, image: png.PngFile, cut: set[str], image_sha: str | None):
        self.piece, self.media, self.image_sha = piece, media, image_sha
        self.links = [link.model_dump(mode="json") for link in piece.assets]
        # Asset chunks staying in the image (not cut): their keys are not reused.
        self.taken = {key for key, chunk in png.asset_chunks(image).items() if chunk.keyword not in cut}
        self.losses: list[Loss] = []
        self.chunks: list[tuple[str, bytes]] = []
        self._held: dict[str, tuple[str, str, bytes]] | None = None
        self._written: dict[str, str] = {}  # escrowed key -> key written
        self._added: dict[str, str | None] = {}  # sha256 -> key of the new chunk holding it (None: no room)
        self._room = limits.PNG_MAX_BYTES - len(image.data)  # the card chunks are checked when written

    def entries(self, old: object) -> list:
        old = old if isinstance(old, list) else []
        out = []
        for index, link in enumerate(self.links):
            previous = old[index] if index < len(old) and isinstance(old[index], dict) else None
            uri = self._uri(index, link, previous)
            item = copied(previous) if previous is not None else {"type": "", "uri": "", "name": "", "ext": ""}
            for native, field in (("type", "role"), ("name", "name"), ("ext", "ext")):
                if previous is None or as_str(item.get(native)) != link[field]:
                    item[native] = link[field]
            if item.get("uri") != uri:
                item["uri"] = uri
            out.append(item)
        return out

    def _uri(self, index: int, link: dict, previous: dict | None) -> str:
        asset = link["asset"]
        if asset is None:
            return link["uri"] if link["uri"] is not None else ""
        uri = previous.get("uri") if previous is not None else None
        if isinstance(uri, str) and uri[:5].lower() == "data:" and self._reads_same(previous, link):
            return uri
        held = self.held().get(asset["sha256"])
        if held is not None:
            key = self._chunk(*held)
            return uri if isinstance(uri, str) and asset_key(uri) == key else ASSET_URIS[0] + key
        if link["role"] == "icon" and asset["sha256"] == self.image_sha:
            self.losses.append(ICON_AS_DEFAULT.at(f"/assets/{index}"))
            return "ccdefault:"
        key = self._new_chunk(asset)
        if key is not None:
            if file_type(link["ext"], "") != (asset["ext"], asset["mime"]):  # as _read_assets will type it
                self.losses.append(ASSET_TYPE_INFERRED.at(f"/assets/{index}"))
            return ASSET_URIS[0] + key
        why = f"asset {index} ({link['name'] or link['role']}) is a stored file: {ASSET_NOT_WRITTEN.why}"
        self.losses.append(ASSET_NOT_WRITTEN.at(f"/assets/{index}", why))
        return ""

    def _new_chunk(self, asset: dict) -> str | None:
        """The key of a new chunk holding the stored asset (once per file); None when it does not fit."""
        sha = asset["sha256"]
        if sha not in self._added:
            text = base64.b64encode(self.media(AssetRef.model_validate(asset)))
            key = self._free_key()
            keyword = f"{ASSET_CHUNK}:{key}"
            size = len(keyword) + 1 + len(text) + 12  # the tEXt chunk: length, type, keyword, NUL, text, CRC
            if size > self._room:
                self._added[sha] = None
            else:
                self._room -= size
                self.taken.add(key)
                self.chunks.append((keyword, text))
                self._added[sha] = key
        return self._added[sha]

    def _free_key(self) -> str:
        """The smallest number no chunk in the image, written or escrowed (to be written back) holds."""
        reserved = self.taken | {key for key, _keyword, _text in self.held().values()}
        number = 0
        while str(number) in reserved:
            number += 1
        return str(number)

    @staticmethod
    def _reads_same(previous: dict, link: dict) -> bool:
        try:
            return card_assets.read_assets([previous])[0] == [link]
        except BunzaiError:
            return False

    def held(self) -> dict[str, tuple[str, str, bytes]]:
        """sha256 -> (key, keyword, text) of each asset chunk the escrowed card names, decoded once."""
        if self._held is None:
            self._held = {}
            original = self.piece.original
            ref = original.files.get(CARD_FILE) if _escrowed(self.piece) is not None else None
            if ref is not None:
                image = png.read_png(self.media(ref), "the escrowed card")
                for key, chunk in referenced_chunks(image, _escrowed_assets(self.piece)).items():
                    text = png.text_of(image.data, chunk)
                    sha = hashlib.sha256(asset_bytes(image, chunk, "the escrowed card")).hexdigest()
                    self._held.setdefault(sha, (key, text.keyword, text.text))
        return self._held

    def _chunk(self, key: str, keyword: str, text: bytes) -> str:
        """The key the chunk is written under (once), kept unless a chunk left in the image has it."""
        if key not in self._written:
            written = key
            if key in self.taken:
                written = self._free_key()
                keyword = f"{ASSET_CHUNK}:{written}"
            self.taken.add(written)
            self._written[key] = written
            self._room -= len(keyword) + 1 + len(text) + 12
            self.chunks.append((keyword, text))
        return self._written[key]


def _escrowed(piece: Any) -> dict | None:
    original = piece.original
    if original is None or original.format != FORMAT_ID or not isinstance(original.document, dict):
        return None
    return original.document


def _world_renamed(piece: Any, again: Any) -> bool:
    """Whether the world the card is bound to goes by another name now (LINKED_NAMES),
    so the original file's binding would name a world that is no longer called so. A card
    bound to no world has no binding to follow: its link is its own book (a nameless one's
    lorebook is called `<card>'s Lorebook` on the shelf, which names no world)."""
    if not _binds_world(again):
        return False
    first = piece.body.links.lorebooks[:1]
    name = linked_name("lorebook", first[0]) if first else None
    return name is not None and again.body.links.lorebooks[:1] != [world_id(name)]


def _binds_world(card: Any) -> bool:
    """Whether the card read binds a world (`extensions.world`)."""
    found = family_document(card.original)
    return found is not None and bool(card_fields.world_of(card_data(found[1])))


def _read_as_written(piece: Any, again: Any) -> Any:
    """The body of `again` (the original file read back) as a write of `piece` would read back:
    with the fields no card carries taken from `piece` (a user folder's import gives a card the
    sprites shown it, `media.pack`, which no write could put in the file), and its first link read
    as `piece`'s where the file binds no world and `piece` links first to a lorebook of its book's
    name (LINKED_NAMES): the card's own book, whose id an import suffixed (`lore-2` beside another
    card's `lore`), which the file names as it always did."""
    body = again.body.model_copy(update={field: getattr(piece.body, field) for field in NEVER_CARRIED})
    mine, read = piece.body.links.lorebooks[:1], again.body.links.lorebooks
    book = piece.body.book
    if not mine or read[:1] == mine or book is None or linked_name("lorebook", mine[0]) != book.name:
        return body
    if _binds_world(again):
        return body
    return body.model_copy(update={"links": body.links.model_copy(update={"lorebooks": mine + read[1:]})})


def _escrowed_image(piece: Any, media: MediaSource) -> bytes | None:
    """The original PNG, unless the portrait was changed since it was read."""
    ref = piece.original.files.get(CARD_FILE)
    if ref is None:
        return None
    data = media(ref)
    portrait = piece.body.portrait
    if portrait is not None:
        image = png.read_png(data, "the escrowed card")
        cut = portrait_cut(image, referenced_chunks(image, _escrowed_assets(piece)), _escrowed(piece) or {})
        if Blob(png.replace_text(image, set(cut), []), "png").sha256 != portrait.sha256:
            return None
    return data


def _risu_chunks(piece: Any, media: MediaSource) -> dict[str, tuple[str, bytes]]:
    """key -> (keyword, text) of each escrowed asset chunk the piece's `extensions.risuai` names
    (RisuAI's V2 import fails on a missing one), for an image that is not the escrowed one."""
    keys = risu_keys(piece.body.extensions.get("risuai"))
    ref = piece.original.files.get(CARD_FILE) if keys and _escrowed(piece) is not None else None
    if ref is None:
        return {}
    image = png.read_png(media(ref), "the escrowed card")
    texts = {key: png.text_of(image.data, chunk) for key, chunk in _chunks_keyed(image, keys).items()}
    return {key: (text.keyword, text.text) for key, text in texts.items()}


def _escrowed_assets(piece: Any) -> object:
    """The escrowed card's `data.assets` (of `ccv3`, else `chara`), as read."""
    documents = _escrowed(piece) or {}
    primary = documents.get("ccv3", documents.get("chara"))
    return card_data(primary).get("assets") if isinstance(primary, dict) else None


def _image_for(piece: Any, media: MediaSource) -> tuple[bytes, list[Loss]]:
    """The PNG to carry the card: the portrait when it is a PNG, else a plain default image."""
    if piece.body.portrait is None:
        return png.default_portrait(), [PORTRAIT_DEFAULT_IMAGE.at("/body/portrait")]
    image = media(piece.body.portrait)
    if image.startswith(png.PNG_SIGNATURE):
        return image, []
    return png.default_portrait(), [PORTRAIT_NOT_PNG.at("/body/portrait")]


register(SillyTavernCardPng())
