"""SillyTavern PNG character cards: the card JSON in base64 `tEXt` chunks of the portrait.

Read: `ccv3` wins over `chara` (as SillyTavern reads them); zTXt and iTXt chunks are read
too. The escrow keeps both chunk documents and the original PNG bytes; the portrait is the
image without its card chunks, so rewriting the chunks never changes it.
Write: `chara` (V2 with the V1 copies) then `ccv3` (the same object relabelled, plus any
V3-only field the card has), inserted before IEND; every other chunk and the image data
stay byte for byte. A card whose fields are unchanged is written back as the original file.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from bunzai.adapters.common import png
from bunzai.adapters.common.card_doc import card_data, card_losses, read_card, sibling_data, write_card_data
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Adapter, Blob, Decoded, Encoded, Loss, MediaSource, SpanBlob
from bunzai.adapters.registry import register
from bunzai.adapters.sillytavern.card_doc_st import ST_V3, data_template, relabel_v3, st_document, sync_mirrors
from bunzai.adapters.sillytavern.card_twins import top_level, twin_document, twin_in_base64
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import check_parsed_bounds, json_decoder, json_text, load_json_bytes
from bunzai.jsondoc.values import copied

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


def decode_chunk_json(text: bytes, keyword: str, what: str) -> dict:
    """base64 -> UTF-8 -> JSON object, each step refused with a coded error."""
    raw = png.strict_base64(text, f"the {keyword!r} chunk of {what}")
    try:
        document = load_json_bytes(raw, what=f"the {keyword!r} chunk of {what}")
    except BunzaiError:
        try:  # UTF-8 is checked only on failure: the JSON reader decodes the text once
            raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BunzaiError(
                "corrupt_file",
                f"the {keyword!r} chunk of {what} is not UTF-8 text (bad byte at offset {error.start})",
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


def _twins(chunks: dict, what: str) -> dict | None:
    """Both card documents, the `chara` one built from the `ccv3` one it mirrors (see
    card_twins); None when that cannot be shown, and each chunk is read on its own (which
    also gives any error, in the usual order)."""
    try:
        first_b64, b64 = chunks["ccv3"].text, chunks["chara"].text
        first_raw = png.strict_base64(first_b64, "ccv3")
        first_text = json_text(first_raw, what="ccv3")
        decoder = json_decoder()
        parsed = top_level(first_text, decoder) if first_text is not None else None
        if parsed is None:
            return None
        check_parsed_bounds(parsed[0], first_raw, what="ccv3")  # json_text checked the size only
        chara = twin_in_base64(parsed[0], parsed[1], first_text, first_raw, first_b64, b64, decoder)
        if chara is None:  # not shown block for block: the chara text itself is compared
            text = json_text(png.strict_base64(b64, "chara"), what="chara")
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
        # The image without its card chunks, named by its spans of the file: hashed in place, never
        # copied here; both are hashed only when a draft, a store or a convert asks (LazyAssetRef).
        portrait = SpanBlob(data, tuple(png.kept_spans(image, _CARD_CHUNKS)), "png", "image/png", check)
        escrow = {"format": FORMAT_ID, "document": documents, "files": {CARD_FILE: original.ref_json()}}
        primary = documents.get("ccv3", documents.get("chara"))
        decoded = read_card(primary, name, ST_V3, escrow, portrait.ref_json(), [original, portrait])
        return decoded

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        losses = card_losses(piece, ST_V3, self.format_id)
        escrowed = _escrowed(piece)
        source = _escrowed_image(piece, media) if escrowed is not None else None
        if source is not None and self._reads_as(source, piece):
            return Encoded(source, losses)
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
        if holder:
            ccv3["data"] = written
        else:
            ccv3 = written
        chunks = [("chara", encode_chunk_json(chara)), ("ccv3", encode_chunk_json(ccv3))]
        return Encoded(png.replace_text(png.read_png(source, "the card image"), set(CARD_KEYWORDS), chunks), losses)

    def _reads_as(self, data: bytes, piece: Any) -> bool:
        """Whether `data` already reads as `piece` (name and body): then it is the faithful output."""
        try:
            again = self.read(data, piece.id + ".png", None).pieces[0]
        except BunzaiError:
            return False
        return again.name == piece.name and again.body == piece.body


def _escrowed(piece: Any) -> dict | None:
    original = piece.original
    if original is None or original.format != FORMAT_ID or not isinstance(original.document, dict):
        return None
    return original.document


def _escrowed_image(piece: Any, media: MediaSource) -> bytes | None:
    """The original PNG, unless the portrait was changed since it was read."""
    ref = piece.original.files.get(CARD_FILE)
    if ref is None:
        return None
    data = media(ref)
    portrait = piece.body.portrait
    if portrait is not None:
        image = png.replace_text(png.read_png(data, "the escrowed card"), set(CARD_KEYWORDS), [])
        if Blob(image, "png").sha256 != portrait.sha256:
            return None
    return data


def _image_for(piece: Any, media: MediaSource) -> tuple[bytes, list[Loss]]:
    """The PNG to carry the card: the portrait when it is a PNG, else a plain default image."""
    if piece.body.portrait is None:
        return png.default_portrait(), [PORTRAIT_DEFAULT_IMAGE.at("/body/portrait")]
    image = media(piece.body.portrait)
    if image.startswith(png.PNG_SIGNATURE):
        return image, []
    return png.default_portrait(), [PORTRAIT_NOT_PNG.at("/body/portrait")]


register(SillyTavernCardPng())
