"""SillyTavern expression sprites: a flat ZIP (what `/upload-zip` takes) or a sprite folder.

Every image file is one item; its label is the lowercased file stem, where `joy-1.png`
and `joy.alt.png` are more sprites of `joy` (ST's multi-sprite naming). Other files
(`_emotions.json`, `_animator.json`) are kept byte-for-byte in the escrow and written
back. The default face is `neutral` when present, else the first label: ST has no
per-pack default, so it is not written. A pack is written as a deterministic ZIP or as the
files of a sprite folder (the same files, named the same way).
"""

from __future__ import annotations

import re
from pathlib import PurePath, PurePosixPath
from typing import Any

from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.zipsafe import open_archive, write_archive
from bunzai.adapters.contract import Adapter, Blob, Decoded, Encoded, Loss, MediaSource, Origin
from bunzai.adapters.common.naming import piece_id_for
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError
from bunzai.files import text_name
from bunzai.model.base import Escrow
from bunzai.model.ids import slugify
from bunzai.model.pack import Pack, PackBody, PackItem

ZIP_FORMAT = "sillytavern.sprites"
FOLDER_FORMAT = "sillytavern.sprites.folder"

# DEFAULT_EXPRESSIONS of the expressions extension (talkinghead is its Talking Head image).
DEFAULT_LABELS = (
    "talkinghead",
    "admiration",
    "amusement",
    "anger",
    "annoyance",
    "approval",
    "caring",
    "confusion",
    "curiosity",
    "desire",
    "disappointment",
    "disapproval",
    "disgust",
    "embarrassment",
    "excitement",
    "fear",
    "gratitude",
    "grief",
    "joy",
    "love",
    "nervousness",
    "optimism",
    "pride",
    "realization",
    "relief",
    "remorse",
    "sadness",
    "surprise",
    "neutral",
)
_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"BM", "image/bmp"),
)
_BYTES_EXT = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/bmp": "bmp", "image/webp": "webp"}
# Extension -> type for what SillyTavern's mime-types 3.0.2 (mime-db 1.54.0) looks up as image/*
# ("ext:subtype"): a fixed table, not the machine's /etc/mime.types, so a pack reads and writes alike
# everywhere.
_IMAGE_TYPES = {
    ext: f"image/{subtype}"
    for ext, subtype in (
        pair.split(":")
        for pair in (
            "3ds:x-3ds apng:apng avci:avci avcs:avcs avif:avif azv:vnd.airzip.accelerator.azv b16:vnd.pco.b16 "
            "bmp:bmp btf:prs.btif btif:prs.btif cgm:cgm cmx:x-cmx dds:vnd.ms-dds dib:bmp djv:vnd.djvu "
            "djvu:vnd.djvu dng:x-adobe-dng dpx:dpx drle:dicom-rle dwg:vnd.dwg dxf:vnd.dxf emf:emf exr:aces "
            "fbs:vnd.fastbidsheet fh:x-freehand fh4:x-freehand fh5:x-freehand fh7:x-freehand fhc:x-freehand "
            "fits:fits fpx:vnd.fpx fst:vnd.fst g3:g3fax gif:gif heic:heic heics:heic-sequence heif:heif "
            "heifs:heif-sequence hej2:hej2k ico:vnd.microsoft.icon ief:ief jaii:jaii jais:jais jfif:pjpeg "
            "jhc:jphc jls:jls jng:x-jng jp2:jp2 jpe:jpeg jpeg:jpeg jpf:jpx jpg:jpeg jpg2:jp2 jpgm:jpm jph:jph "
            "jpm:jpm jpx:jpx jxl:jxl jxr:jxr jxra:jxra jxrs:jxrs jxs:jxs jxsc:jxsc jxsi:jxsi jxss:jxss ktx:ktx "
            "ktx2:ktx2 mdi:vnd.ms-modi mmr:vnd.fujixerox.edmics-mmr npx:vnd.net-fpx pbm:x-portable-bitmap "
            "pct:x-pict pcx:vnd.zbrush.pcx pgm:x-portable-graymap pic:x-pict png:png pnm:x-portable-anymap "
            "ppm:x-portable-pixmap psd:vnd.adobe.photoshop pti:prs.pti ras:x-cmu-raster rgb:x-rgb "
            "rlc:vnd.fujixerox.edmics-rlc sgi:sgi sid:x-mrsid-image svg:svg+xml svgz:svg+xml t38:t38 "
            "tap:vnd.tencent.tap tfx:tiff-fx tga:x-tga tif:tiff tiff:tiff uvg:vnd.dece.graphic "
            "uvi:vnd.dece.graphic uvvg:vnd.dece.graphic uvvi:vnd.dece.graphic vtf:vnd.valve.source.texture "
            "wbmp:vnd.wap.wbmp wdp:vnd.ms-photo webp:webp wmf:wmf xbm:x-xbitmap xif:vnd.xiff xpm:x-xpixmap "
            "xwd:x-xwindowdump"
        ).split()
    )
}


def _lookup_ext(name: str) -> str:
    """The extension mime-types' lookup reads from a name: `joy.PNG` -> png, and a bare `png`
    (or `.png`) is one too; '' when none."""
    base = ("x." + name).rstrip("/").rsplit("/", 1)[-1]
    stem, _, ext = base.rpartition(".")
    return ext.lower() if stem else ""


def _name_is_image(name: str) -> bool:
    """Whether SillyTavern lists and unzips a file of this name as a sprite (mime.lookup says
    image/*); a bare extension (`png`) is such a name, as it is for mime.lookup."""
    return _lookup_ext(name) in _IMAGE_TYPES


_CARD_CHUNK = re.compile(rb"tEXt(?i:chara|ccv3)\x00")
_IGNORED = ("__MACOSX/",)


def mime_of(name: str, data: bytes) -> str:
    """The image type from the bytes when known, else from the file name as SillyTavern's
    mime-types reads it (`_IMAGE_TYPES`); '' when not an image."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    for magic, mime in _MAGIC:
        if data.startswith(magic):
            return mime
    return _IMAGE_TYPES.get(_lookup_ext(name), "")


def label_of(file_name: str) -> str:
    """The expression a sprite file shows: `joy.png`, `joy-1.png`, `joy.alt.png` -> joy."""
    stem = PurePath(file_name).stem.lower()
    head = stem.split(".", 1)[0] or stem
    prefix, dash, suffix = head.partition("-")
    if dash and prefix and (suffix.isdigit() or prefix in DEFAULT_LABELS):
        return prefix
    return head


# The label SillyTavern 1.18's sprite list (/api/sprites/get) gives a file: its lowercased stem up to
# the first `-`, `.` or backslash after the first character (a stem with a line break is kept whole).
_LINE_ENDS = "\n\r\u2028\u2029"  # what a JavaScript `.` does not match
_ST_LABEL = re.compile(rf"([^{_LINE_ENDS}]+?)(?:[-.\\][^{_LINE_ENDS}]*)?")


def st_label_of(file_name: str) -> str:
    """The label SillyTavern lists a sprite file under: `very-happy.png` -> very, where bunzai
    (`label_of`) keeps very-happy."""
    stem = PurePosixPath(file_name).stem.lower()
    found = _ST_LABEL.fullmatch(stem)
    return found.group(1) if found else stem


def _layout(names: list[str]) -> dict[str, str]:
    """Image file name -> item id (slug of the stem, made unique in order)."""
    ids: dict[str, str] = {}
    taken: set[str] = set()
    for index, name in enumerate(names):
        candidate = slugify(PurePath(name).stem) or f"sprite-{index + 1}"
        chosen, number = candidate, 2
        while chosen in taken:
            chosen, number = f"{candidate[:120]}-{number}", number + 1
        taken.add(chosen)
        ids[name] = chosen
    return ids


def decode_members(
    members: list[tuple[str, bytes]], title: str, source: str, fmt: str, origins: dict[str, Origin]
) -> Decoded:
    """Files of a pack (in order) -> one Pack piece, its blobs and warnings; `origins` says
    where each file's bytes are (a zip member, a file of the folder)."""
    warnings: list[str] = []
    images = [(name, data, mime_of(name, data)) for name, data in members]
    image_names = [name for name, _, mime in images if mime]
    ids = _layout(image_names)
    items, blobs, files = [], [], {}
    for name, data, mime in images:
        blob = Blob(data, _ext(name, mime), mime, origins.get(name))
        blobs.append(blob)
        if not mime:
            files[name] = blob.ref()
            continue
        label = label_of(name)
        if label not in DEFAULT_LABELS:
            warnings.append(f"{name}: {label!r} is not one of SillyTavern's default expressions (a custom label)")
        items.append(PackItem(id=ids[name], label=label, asset=blob.ref(), mime=mime))
    labels = [item.label for item in items]
    body = PackBody(items=items, default_face="neutral" if "neutral" in labels else labels[0] if labels else "")
    piece = Pack(
        id=piece_id_for(title, source, "sprites"),
        name=title,
        body=body,
        original=Escrow(format=fmt, document={"members": [name for name, _ in members]}, files=files),
    )
    return Decoded(pieces=[piece], blobs=blobs, warnings=warnings)


def _ext(name: str, mime: str) -> str:
    # A bare name SillyTavern takes for an image (a file named `png`) is its own extension.
    ext = PurePath(name).suffix.lower().lstrip(".") or (_lookup_ext(name) if _name_is_image(name) else "")
    if re.fullmatch(r"[a-z0-9]{1,10}", ext):
        return ext
    return _BYTES_EXT.get(mime, "bin")


def _sniff_names(names: list[str]) -> float:
    """How sure file names alone are of a sprite pack: images (by extension) named for
    expressions, no card or manifest; the bytes are checked after (`_sniff_files`)."""
    if not names or any(PurePath(name).name.lower() in ("card.json", "manifest.json") for name in names):
        return 0.0
    images = [name for name in names if mime_of(name, b"")]
    others = [name for name in names if not mime_of(name, b"") and PurePath(name).name.startswith("_")]
    if not images or len(images) + len(others) != len(names):
        return 0.0
    return 0.9 if any(label_of(name) in DEFAULT_LABELS for name in images) else 0.4


def _sniff_files(files: list[tuple[str, bytes]]) -> float:
    """How sure a set of files is a sprite pack: images only, no card, known labels."""
    names = [name for name, _ in files]
    if not files or any(PurePath(name).name.lower() in ("card.json", "manifest.json") for name in names):
        return 0.0
    images = [(name, data) for name, data in files if mime_of(name, data)]
    if not images or any(_CARD_CHUNK.search(data[: 1 << 20]) for _, data in images):
        return 0.0
    others = [name for name in names if not mime_of(name, b"") and PurePath(name).name.startswith("_")]
    if len(images) + len(others) != len(files):
        return 0.2
    return 0.9 if any(label_of(name) in DEFAULT_LABELS for name, _ in images) else 0.4


class SillyTavernSpriteZip(Adapter):
    format_id = ZIP_FORMAT
    label = "SillyTavern sprite pack (zip)"
    kinds = ("pack",)
    extensions = (".zip",)
    container = "archive"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        try:
            archive = open_archive(data)
            members = _members(archive.names())
            # A CHARX or card archive says so by name: nothing of it needs decompressing here.
            if any(PurePosixPath(member).name.lower() in ("card.json", "manifest.json") for member in members):
                return 0.0
            return _sniff_files([(member, archive.read(member)) for member in members])
        except BunzaiError:
            return 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        archive = open_archive(data)
        names = _members(archive.names())
        flat = [(PurePosixPath(member).name, archive.read(member)) for member in names]
        origins = {PurePosixPath(member).name: Origin(member=member) for member in names}
        decoded_warnings = []
        if any("/" in member for member in names):
            decoded_warnings.append(
                "SillyTavern expects a flat zip; files inside folders were read by their file names"
            )
        if len({member for member, _ in flat}) != len(flat):
            raise BunzaiError(
                "unsafe_archive",
                "two files in the zip have the same file name in different folders",
                "SillyTavern unpacks a flat zip: give each sprite a unique file name",
            )
        decoded = decode_members(flat, PurePath(name).stem or "sprites", name, ZIP_FORMAT, origins)
        decoded.warnings[:0] = decoded_warnings
        return decoded

    def write(self, piece: Pack, media: MediaSource) -> Encoded:
        members, losses = pack_files(piece, media, ZIP_FORMAT)
        return Encoded(write_archive(members), losses)


# What pack_files names, for the zip and the folder alike (items at /body/items/<n>/...).
FOLDER_AS_ZIP = LossRule(
    "/original",
    "translated",
    "pack.folder_as_zip",
    "the sprite folder is written as the flat zip SillyTavern's upload takes; its other files go along",
)
ITEM_NO_IMAGE = LossRule("/body/items", "dropped", "pack.item.no_image", "items without a stored image are left out")
ITEM_NOT_IMAGE = LossRule(
    "/body/items",
    "dropped",
    "pack.item.not_image",
    "SillyTavern shows only image sprites (its sprite list and zip upload skip videos and other files)",
)
ITEM_ORDER_BY_FILE_NAME = LossRule(
    r"/body/items/\d+",
    "translated",
    "pack.item.order.by_file_name",
    "a sprite folder is read in file-name order, so the item moves",
)
ITEM_ID_FROM_FILE_NAME = LossRule(
    r"/body/items/\d+/id",
    "translated",
    "pack.item.id.from_file_name",
    "SillyTavern names sprites by file; the item is read back with the id its file name gives",
)
ITEM_LABEL_RENAMED = LossRule(
    r"/body/items/\d+/label",
    "translated",
    "pack.item.label.renamed",
    "the label is not a file-name label; it is written as one",
)
ITEM_LABEL_CUT = LossRule(
    r"/body/items/\d+/label",
    "translated",
    "pack.item.label.cut",
    "SillyTavern 1.18 cuts a sprite's label at the first '-' or '.' of its file name, and shows a sprite only "
    "for an expression of that label: the expression with the whole label gets no sprite there",
)
ITEM_MIME_DETECTED = LossRule(
    r"/body/items/\d+/(?:asset/)?mime",
    "translated",
    "pack.item.mime.detected",
    "SillyTavern takes the type from the file itself",
)
ITEM_EXT_FROM_BYTES = LossRule(
    r"/body/items/\d+/asset/ext",
    "translated",
    "pack.item.ext.from_bytes",
    "SillyTavern lists sprites by their file name's type: an image stored under another extension is written "
    "under its bytes' one",
)
DEFAULT_FACE_DROPPED = LossRule(
    "/body/default_face",
    "dropped",
    "pack.default_face.dropped",
    "SillyTavern has no per-pack default face (its fallback expression is a global setting)",
)
# The pack's own fields a sprite pack has no place for, by field.
FIELD_DROPPED = {
    field: LossRule(f"/body/{field}", "dropped", f"pack.{field}.dropped", f"a SillyTavern sprite pack has no {field}")
    for field in ("groups", "description", "extensions")
}
ASSETS_DROPPED = LossRule("/assets", "dropped", "pack.assets.dropped", "a sprite pack carries only its sprites")
PROFILES_DROPPED = LossRule(
    "/profiles", "dropped", "pack.profiles.dropped", "a sprite pack carries no per-platform profiles"
)
NAME_FILE_NAME = LossRule(
    "/name",
    "translated",
    "pack.name.file_name",
    "a sprite zip has no name inside; it is named by its file (and "
    "SillyTavern's sprite folder by the character's name)",
)
NAME_FOLDER_NAME = LossRule(
    "/name",
    "translated",
    "pack.name.folder_name",
    "a sprite folder is named by its folder, and the name holds characters a folder name cannot (or is empty)",
)


def pack_files(piece: Pack, media: MediaSource, target: str) -> tuple[list[tuple[str, bytes]], list[Loss]]:
    """The files a pack is written as (sprites named as SillyTavern names them, then the
    escrow's other files) and the losses, for the zip and for the folder alike."""
    losses: list[Loss] = []
    original = piece.original if piece.original and piece.original.format in (ZIP_FORMAT, FOLDER_FORMAT) else None
    if original and original.format == FOLDER_FORMAT and target == ZIP_FORMAT:
        losses.append(FOLDER_AS_ZIP.at("/original"))
    kept = original.files if original else {}
    images = [name for name in _escrow_members(original) if name not in kept]
    known = {item_id: name for name, item_id in _layout(images).items()}
    # The escrow's names are taken first, so a new sprite placed before an escrowed one of
    # the same label is not given that sprite's file name.
    names = {item.id: _escrow_name(known.get(item.id), item) for item in piece.body.items if item.asset is not None}
    used = {name.lower() for name in names.values() if name} | {name.lower() for name in kept}
    written, not_images = [], []
    for index, item in enumerate(piece.body.items):
        if item.asset is None:
            continue
        data = media(item.asset)
        # SillyTavern lists and unzips by the file name's type (mime.lookup), images only: an image
        # stored under another extension (.bin) is written under its bytes' one; a video is left out.
        ext = _image_ext(item.asset.ext, data)
        if ext is None:
            not_images.append(item.id)
        else:
            written.append((item, data, ext, f"/body/items/{index}"))
    chosen = _sprite_names([(item, ext) for item, _, ext, _ in written], names, used)
    members = [(chosen[item.id], data, item, at) for item, data, _, at in written]
    sprites = {name.lower() for name, _, _, _ in members}
    for name, ref in kept.items():
        if name.lower() not in sprites:
            sprites.add(name.lower())
            members.append((name, media(ref), None, ""))
    imageless = [item.id for item in piece.body.items if item.asset is None]
    if imageless:
        losses.append(ITEM_NO_IMAGE.at("/body/items", f"{ITEM_NO_IMAGE.why}: {', '.join(imageless)}"))
    if not_images:  # at the list, as above: the items after one left out move up
        losses.append(ITEM_NOT_IMAGE.at("/body/items", f"{ITEM_NOT_IMAGE.why}: {', '.join(not_images)}"))
    fresh = {name for item_id, name in chosen.items() if name != names[item_id]}  # not the escrow's own names
    losses += _read_back_losses(piece, members, target, fresh)
    return [(name, data) for name, data, _, _ in members], losses


def _sprite_names(
    images: list[tuple[PackItem, str]], escrowed: dict[str, str | None], used: set[str]
) -> dict[str, str]:
    """Item id -> the file name it is written under: its escrowed name while it is an image's,
    else a free `<label>.<ext>`, `<label>-1.<ext>` ... The item whose id is its label is named
    first, so it gets `<label>.<ext>`: the file SillyTavern shows first for the label (as `bunzai art`).
    Two escrowed names that differ only in case (a zip made on Linux) are one file on Windows and
    macOS, where the second would overwrite the first: the second is given a free name."""
    chosen: dict[str, str] = {}
    taken: set[str] = set()
    for item, ext in sorted(images, key=lambda image: image[0].id != image[0].label):
        name = escrowed[item.id]
        if not (name and _name_is_image(name)) or name.lower() in taken:
            name = _file_name(item.label or item.id, ext, used)
        chosen[item.id] = name
        used.add(name.lower())
        taken.add(name.lower())
    return chosen


def _members(names: list[str]) -> list[str]:
    return [name for name in names if not name.startswith(_IGNORED) and not PurePosixPath(name).name.startswith(".")]


def _escrow_members(original: Escrow | None) -> list[str]:
    document = original.document if original else None
    members = document.get("members") if isinstance(document, dict) else None
    return [name for name in members if isinstance(name, str)] if isinstance(members, list) else []


def _escrow_name(name: str | None, item: PackItem) -> str | None:
    """The file name the item had, while its label and type still fit it; else None."""
    if name is None or item.asset is None:
        return None
    if label_of(name) != item.label or _lookup_ext(name) != item.asset.ext:
        return None
    return name


def _image_ext(ext: str, data: bytes) -> str | None:
    """The extension a sprite is written under so SillyTavern lists it: its own when the name
    says image, else its bytes' type; None when it is no image (a video)."""
    if _name_is_image(ext):
        return ext
    return _BYTES_EXT.get(mime_of("", data))


def _file_name(label: str, ext: str, used: set[str]) -> str:
    stem = re.sub(r"[^a-z0-9_-]+", "_", label.lower()).strip("_") or "sprite"
    name, number = f"{stem}.{ext}", 1
    while name.lower() in used:
        name, number = f"{stem}-{number}.{ext}", number + 1
    return name


def _read_back_losses(
    piece: Pack, members: list[tuple[str, bytes, PackItem | None, str]], target: str, fresh: set[str]
) -> list[Loss]:
    """What reading the written zip gives that differs from the piece, named up front, and the
    labels SillyTavern reads otherwise from a `fresh` name (one the sprite was not read under:
    SillyTavern lists the others as before)."""
    losses: list[Loss] = []
    names = [name for name, _, item, _ in members if item is not None]
    if target == FOLDER_FORMAT:  # a folder has no order: it is read by file name
        by_name = sorted(names)
        losses += [
            ITEM_ORDER_BY_FILE_NAME.at(
                at, f"a sprite folder is read in file-name order; {name!r} moves to place {by_name.index(name)}"
            )
            for index, (name, at) in enumerate((name, at) for name, _, item, at in members if item is not None)
            if by_name[index] != name
        ]
        names = by_name
    ids = _layout(names)
    for name, data, item, at in members:
        if item is None:
            continue
        if ids[name] != item.id:
            why = f"SillyTavern names sprites by file; the item is read back as {ids[name]!r} from {name!r}"
            losses.append(ITEM_ID_FROM_FILE_NAME.at(f"{at}/id", why))
        if label_of(name) != item.label:
            why = f"the label {item.label!r} is not a file-name label; it is written as {label_of(name)!r}"
            losses.append(ITEM_LABEL_RENAMED.at(f"{at}/label", why))
        if name in fresh and st_label_of(name) != label_of(name):
            why = f"SillyTavern lists {name!r} under the label {st_label_of(name)!r}, not {label_of(name)!r}"
            losses.append(ITEM_LABEL_CUT.at(f"{at}/label", f"{why}: {ITEM_LABEL_CUT.why}"))
        if not _name_is_image(item.asset.ext):
            losses.append(ITEM_EXT_FROM_BYTES.at(f"{at}/asset/ext"))
        for pointer, mime in ((f"{at}/mime", item.mime), (f"{at}/asset/mime", item.asset.mime)):
            if mime_of(name, data) != mime:
                losses.append(ITEM_MIME_DETECTED.at(pointer))
    labels = [label_of(name) for name in names]  # in the order the written pack is read back
    face = "neutral" if "neutral" in labels else labels[0] if labels else ""
    body = piece.body
    if body.default_face != face:
        losses.append(DEFAULT_FACE_DROPPED.at("/body/default_face"))
    for field, rule in FIELD_DROPPED.items():
        if getattr(body, field):
            losses.append(rule.at(f"/body/{field}"))
    if piece.assets:
        losses.append(ASSETS_DROPPED.at("/assets"))
    if piece.profiles:
        losses.append(PROFILES_DROPPED.at("/profiles"))
    if target == ZIP_FORMAT:  # the crossing drops this when the zip is named after the pack
        losses.append(NAME_FILE_NAME.at("/name"))
    elif target == FOLDER_FORMAT:
        from bunzai.adapters.sillytavern.user_folder import plain_stem  # lazy: breaks the cycle with user_folder

        if plain_stem(piece.name, piece.id) != piece.name:  # the folder the crossing names it
            losses.append(NAME_FOLDER_NAME.at("/name"))
    return losses


class SillyTavernSpriteFolder(Adapter):
    format_id = FOLDER_FORMAT
    label = "SillyTavern sprite folder"
    kinds = ("pack",)
    extensions = ()
    container = "folder"

    def sniff_names(self, names: list[str]) -> float:
        return _sniff_names(names)

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not isinstance(parsed, dict):
            return 0.0
        return _sniff_files(sorted(parsed.items()))

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if not isinstance(parsed, dict):
            raise BunzaiError("invalid_input", f"{name} was not read as a folder", "give the sprite folder's path")
        # A name that is not UTF-8 is kept as text with U+FFFD (labels, the escrowed member
        # list); the file is still read by its own name (Origin).
        kept = [file_name for file_name in parsed if not file_name.startswith(".") and "/" not in file_name]
        origins = {text_name(file_name): Origin(file=file_name) for file_name in kept}
        if len(origins) < len(kept):
            raise BunzaiError(
                "invalid_input",
                f"{text_name(name)}: two file names differ only in bytes that are not UTF-8",
                "rename those sprites to UTF-8 names",
            )
        files = sorted((label, parsed[origin.file]) for label, origin in origins.items())
        folder = PurePath(name).name or "sprites"
        title = text_name(folder)
        decoded = decode_members(files, title, title, FOLDER_FORMAT, origins)
        mended = sum(1 for label, origin in origins.items() if label != origin.file)
        if mended or title != folder:
            which = f"{mended} file name(s) are" if mended else "the folder's name is"
            decoded.warnings.append(
                f"{title}: {which} not UTF-8; the undecodable bytes are kept as U+FFFD in the names, "
                "labels and escrow (the files are read by their own names)"
            )
        return decoded

    def write(self, piece: Pack, media: MediaSource) -> Encoded:
        from bunzai.adapters.sillytavern.user_folder import plain_stem  # lazy: breaks the cycle with user_folder

        files, losses = pack_files(piece, media, FOLDER_FORMAT)
        return Encoded(b"", losses, files=files, name=plain_stem(piece.name, piece.id))


register(SillyTavernSpriteZip())
register(SillyTavernSpriteFolder())
