"""Backyard AI archives (`.byaf`, BYAF v1): a ZIP of manifest.json, one character, scenarios, images.

    manifest.json                      {schemaVersion, createdAt, author?, characters: [1 path], scenarios: [>=1]}
    characters/<id>/character.json     the character (byaf_docs.py)
    characters/<id>/images/<file>      its images, listed in character.json with a label
    scenarios/<name>.json              a scenario: greeting, examples, samplers, chat

Read through zipsafe (bombs, oversized members, `../` and absolute names, duplicates are
refused as unsafe_archive). The images read as the portrait (the first) and icon assets;
members nothing lists are kept byte for byte in the escrow. Written JSON is
`JSON.stringify(x, null, 2)` as Backyard writes it, so an unedited member goes back byte
for byte; the archive itself is bunzai's deterministic ZIP.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from typing import Any


from bunzai.adapters.backyard import byaf_docs as docs
from bunzai.adapters.backyard.texts import (
    FALLBACK_DATE,
    disabled_entry_losses,
    double_brace_losses,
    single_brace_warning,
)
from bunzai.adapters.common.drift import as_list
from bunzai.adapters.common.jsjson import stringify
from bunzai.adapters.common.losses import LossRule, readback_losses
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.common.shapes import list_at
from bunzai.adapters.common.zipsafe import open_archive, write_archive
from bunzai.adapters.contract import Adapter, Blob, Decoded, Encoded, Loss, MediaSource, Origin
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import load_json_bytes
from bunzai.model import dump_piece
from bunzai.model.base import AssetRef
from bunzai.model.character import Character
from bunzai.model.ids import slugify

FORMAT_ID = "backyard.byaf"
MANIFEST = "manifest.json"
IMAGE_EXTS = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp", "gif": "image/gif"}
_CHARACTER_PATH = re.compile(r"^characters/([^/]+)/character\.json$")
# The only places the BYAF manifest may list a scenario (Backyard's parse-archive.ts refuses others).
_SCENARIO_PATH = re.compile(r"^scenarios/[^/]+\.json$")

CHARACTER_RULES = (
    LossRule("/name", "translated", "backyard.name.required", "a Backyard character always has a display name"),
    LossRule(
        "/body/nickname",
        "translated",
        "backyard.name.short",
        "Backyard keeps one short name; it reads back as the nickname only where it differs from the name",
    ),
    LossRule(
        "/body/rating",
        "translated",
        "backyard.rating.binary",
        "Backyard has only an NSFW flag: unrated reads back as sfw",
    ),
    LossRule(
        "/body/(?:creation|modification)_date",
        "translated",
        "backyard.dates.required",
        "Backyard requires both dates (ISO strings, to the millisecond); an unknown date is written as 2000-01-01",
    ),
    LossRule(
        r"/body/book/entries/\d+/keys",
        "flattened",
        "backyard.lore.one_key",
        "a Backyard lore item has exactly one key: the entry keeps its first key",
    ),
    LossRule(
        r"/body/book/entries/\d+/secondary_keys",
        "dropped",
        "backyard.lore.secondary_keys",
        "Backyard lore items have no secondary keys",
    ),
    LossRule(
        r"/body/book/entries/\d+/uid",
        "translated",
        "backyard.lore.renumbered",
        "Backyard lore items have no ids; they read back numbered in order",
    ),
    LossRule(
        r"/body/book/entries/\d+/[^/]+",
        "dropped",
        "backyard.lore.entry_setting",
        "a Backyard lore item is only a key and a value; this entry setting is not carried",
    ),
    LossRule(
        "/body/book(?:/(?:name|description|settings|extensions))?",
        "dropped",
        "backyard.lore.book_setting",
        "Backyard keeps lore items only: the book's name, description and settings are not carried",
    ),
    LossRule(
        "/body/example_messages",
        "flattened",
        "backyard.examples.blocks",
        "Backyard keeps example chats as separate texts; <START> lines become the boundaries between them",
    ),
    LossRule(
        "/body/(?:portrait|media)", "translated", "backyard.images.portrait", "the first Backyard image is the portrait"
    ),
    LossRule(
        "/assets",
        "translated",
        "backyard.images.listed",
        "Backyard lists the character's images (the portrait first); they read back as icon assets",
    ),
    LossRule("/body/[^/]+", "dropped", "backyard.field.not_carried", "a Backyard character has no such field"),
    LossRule("/profiles", "dropped", "backyard.profiles.dropped", "a Backyard file has no per-platform profiles"),
)
FALLBACK = LossRule("", "dropped", "backyard.not_carried", "a Backyard file does not carry this value as it is")
# What the writer names itself; the read-back rules above name the rest.
ASSET_NOT_CARRIED = LossRule(
    r"/assets/\d+",
    "dropped",
    "backyard.assets.not_carried",
    "Backyard keeps only the character's images (icons) stored in the file; this link is not written",
)
# The name a scenario's background reads as: a CCv3 card takes the background named `main` as its default.
BACKGROUND_NAME = "main"
BACKGROUND_NAMED = LossRule(
    r"/assets/\d+/name",
    "translated",
    "backyard.background.named_main",
    f"a Backyard scenario's background has no name: it reads back as {BACKGROUND_NAME!r}",
)
IMAGE_TYPE = LossRule(
    "/assets", "dropped", "backyard.images.type", "Backyard images are PNG, JPEG, WEBP or GIF; others are not written"
)
SCHEMA_UNKNOWN_KEY = LossRule(
    "/original",
    "dropped",
    "backyard.schema.unknown_key",
    "the BYAF schemas allow no other keys, so the escrow's other keys are not written",
)


# Escrow key holding the archive's member order with its directory entries, when it has
# any (the other keys are the member paths of the JSON documents the manifest lists).
LAYOUT = "#layout"


def _json(data: bytes, what: str) -> Any:
    return load_json_bytes(data, what=what)


AGAIN = "export the character again from Backyard AI"


def _corrupt(message: str) -> BunzaiError:
    return BunzaiError("corrupt_file", message, AGAIN)


def image_member(folder: str, path: str) -> str:
    """The member an image path of character.json names: joined to the character's folder and
    normalised, as Backyard's reader does (path.posix.join), so `./images/a.png` is found."""
    return posixpath.normpath(f"{folder}/{path}")


def _image_blob(data: bytes, member: str) -> Blob:
    ext = posixpath.splitext(member)[1][1:].lower()
    return Blob(data, ext if ext in IMAGE_EXTS else "bin", IMAGE_EXTS.get(ext, ""), Origin(member=member))


def _link(role: str, name: str, blob: Blob) -> dict:
    return {"role": role, "name": name, "ext": blob.ext, "asset": blob.ref().model_dump(mode="json")}


class ByafArchive(Adapter):
    format_id = FORMAT_ID
    label = "Backyard AI archive (BYAF)"
    kinds = ("character",)
    extensions = (".byaf",)
    container = "archive"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        archive = open_archive(data)
        if not archive.has(MANIFEST):
            return 0.0
        return 0.95 if any(_CHARACTER_PATH.match(n) for n in archive.names()) else 0.3

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        archive = open_archive(data)
        if not archive.has(MANIFEST):
            raise _corrupt(f"{name or 'the archive'} has no manifest.json, so it is not a BYAF archive")
        manifest = _json(archive.read(MANIFEST), MANIFEST)
        if not isinstance(manifest, dict):
            raise _corrupt("manifest.json is not a JSON object")
        characters = [p for p in list_at(manifest, "characters", "manifest.json /", AGAIN) if isinstance(p, str)]
        if len(characters) != 1 or not archive.has(characters[0]):
            raise _corrupt(
                f"a BYAF archive holds exactly one character listed in manifest.json; this one lists "
                f"{len(characters)} (or its file is missing)"
            )
        _check_paths(characters[0], list_at(manifest, "scenarios", "manifest.json /", AGAIN))
        documents: dict[str, Any] = {MANIFEST: manifest}
        character = _json(archive.read(characters[0]), characters[0])
        if not isinstance(character, dict):
            raise _corrupt(f"{characters[0]} is not a JSON object")
        documents[characters[0]] = character
        # A scenario the manifest lists twice is one member, read once (Backyard reads it twice).
        scenario_paths = list(
            dict.fromkeys(p for p in list_at(manifest, "scenarios", "manifest.json /", AGAIN) if archive.has(p))
        )
        for path in scenario_paths:
            documents[path] = _json(archive.read(path), path)
        first = (
            documents[scenario_paths[0]] if scenario_paths and isinstance(documents[scenario_paths[0]], dict) else {}
        )
        title, fields = docs.character_fields(character, first, scenario_paths[0] if first else "")
        folder = posixpath.dirname(characters[0])
        assets, blobs, files, warnings = [], [], {}, []
        for image in list_at(character, "images", f"{characters[0]} /", AGAIN):
            path = image.get("path") if isinstance(image, dict) else None
            member = image_member(folder, path) if isinstance(path, str) else ""
            if not member or not archive.has(member):
                warnings.append(f"backyard.images.missing: character.json lists {path!r}, which the archive lacks")
                continue
            blob = _image_blob(archive.read(member), member)
            blobs.append(blob)
            files[member] = blob.ref()
            assets.append(_link("icon", str(image.get("label") or ""), blob))
        portrait = assets[0]["asset"] if assets else None
        background = first.get("backgroundImage")
        if isinstance(background, str) and background:
            if archive.has(background):  # Backyard looks the path up as written, not joined to a folder
                blob = _image_blob(archive.read(background), background)
                blobs.append(blob)
                files[background] = blob.ref()
                assets.append(_link("background", BACKGROUND_NAME, blob))
            else:
                warnings.append(
                    f"backyard.background.missing: {scenario_paths[0]} names the background {background!r}, "
                    "which the archive lacks (Backyard refuses such a file)"
                )
        for member in archive.names():
            if member not in documents and member not in files:
                blob = Blob(archive.read(member), "bin", origin=Origin(member=member))
                blobs.append(blob)
                files[member] = blob.ref()
        if any(entry.endswith("/") for entry in archive.entries()):
            documents[LAYOUT] = archive.entries()  # directory entries and member order, written back
        fields["portrait"] = portrait
        warnings += single_brace_warning(fields)
        files_json = {k: v.model_dump(mode="json") for k, v in files.items()}
        original = {"format": FORMAT_ID, "document": documents, "files": files_json}
        piece = read_piece(Character, title, name, "character", fields, original, AGAIN, assets=assets)
        return Decoded([piece], blobs, warnings)

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        own = (
            piece.original is not None
            and piece.original.format == FORMAT_ID
            and isinstance(piece.original.document, dict)
        )
        prior: dict = piece.original.document if own else {}
        files: dict[str, AssetRef] = dict(piece.original.files) if own else {}
        body = piece.body.model_dump(mode="json")
        manifest = prior.get(MANIFEST) if isinstance(prior.get(MANIFEST), dict) else None
        old_chars = [p for p in as_list((manifest or {}).get("characters")) if isinstance(p, str) and p in prior]
        char_path = old_chars[0] if old_chars else f"characters/{piece.id}/character.json"
        char_id = _CHARACTER_PATH.match(char_path).group(1) if _CHARACTER_PATH.match(char_path) else piece.id
        folder = posixpath.dirname(char_path)
        losses: list[Loss] = []
        # The images character.json listed are the piece's assets, written below as they are now;
        # a member in images/ that it did not list is kept like any other member nothing lists.
        was_listed = _listed_images(prior.get(char_path) if old_chars else None, folder)
        kept = {m for m in files if m.startswith(folder + "/images/") and m not in was_listed}
        backdrop = _background_index(piece)
        images, image_members = _images(piece, files, folder, media, losses, kept, was_listed, backdrop)
        character = docs.write_character(prior.get(char_path) if old_chars else None, char_id, piece.name, body, images)
        listed_scenarios = [p for p in as_list((manifest or {}).get("scenarios")) if isinstance(p, str) and p in prior]
        scenario_paths = list(dict.fromkeys(listed_scenarios)) or ["scenarios/scenario1.json"]
        first_prior = prior.get(scenario_paths[0]) if isinstance(prior.get(scenario_paths[0]), dict) else None
        later = {doc.get("backgroundImage") for p in scenario_paths[1:] if isinstance(doc := prior.get(p), dict)}
        old_background = _read_background(first_prior, files)
        taken = set(files) - ({old_background} - later) | {member for member, _ in image_members}
        background, background_members = _background(piece, backdrop, files, old_background, taken, media, losses)
        scenarios = [docs.write_scenario(first_prior, char_id, body, background)]
        scenarios += [
            docs.only(prior[p], docs.SCENARIO_KEYS) if isinstance(prior[p], dict) else prior[p]
            for p in scenario_paths[1:]
        ]
        created = character["createdAt"] if character["createdAt"] != FALLBACK_DATE else FALLBACK_DATE
        manifest_out = docs.write_manifest(manifest, char_path, listed_scenarios or scenario_paths, created)
        members = [(MANIFEST, js_json(manifest_out)), (char_path, js_json(character))]
        members += image_members + [item for item in background_members if item not in image_members]  # one file
        members += [(path, js_json(doc)) for path, doc in zip(scenario_paths, scenarios)]
        written = {name for name, _ in members}
        gone = was_listed.keys() | ({old_background} - later)  # read as assets: written above as they are now
        members += [
            (member, media(ref)) for member, ref in files.items() if member not in written and member not in gone
        ]
        members = _laid_out(members, prior.get(LAYOUT))
        losses += _stripped_keys(prior, manifest, char_path, scenario_paths)
        if piece.original is None or not piece.original.format.startswith("backyard."):
            losses += double_brace_losses(body)  # a note for crossings into Backyard, not within it
        data = write_archive(members)
        back = self.read(data, piece.id + ".byaf", None).pieces[0]
        # Read-back pointers count only the written (enabled) entries: compare without the
        # disabled ones, then point the losses back at the piece's own entries.
        found = readback_losses(
            _without_disabled(dump_piece(piece)),
            dump_piece(back),
            CHARACTER_RULES,
            FALLBACK,
            [loss for loss in losses if not loss.pointer.startswith("/body/book/entries/")],
        )
        disabled = disabled_entry_losses(piece.body.book.model_dump(mode="json") if piece.body.book else None)
        return Encoded(data, losses + disabled + _renumbered(found, piece))


def _check_paths(character: str, scenarios: list) -> None:
    """Refuse what Backyard's own reader refuses: a character or scenario listed outside its folder."""
    if not _CHARACTER_PATH.match(character):
        raise _corrupt(f"manifest.json lists the character as {character!r}, not characters/<id>/character.json")
    for path in scenarios:
        if not isinstance(path, str) or not _SCENARIO_PATH.match(path):
            raise _corrupt(f"manifest.json lists a scenario as {path!r}, not scenarios/<name>.json")


def _listed_images(character: Any, folder: str) -> dict[str, str]:
    """The image members an escrowed character.json lists (with the prefix of its folder), and
    the path it lists each under."""
    images = character.get("images") if isinstance(character, dict) else None
    return {
        image_member(folder, image["path"]): image["path"]
        for image in (images if isinstance(images, list) else [])
        if isinstance(image, dict) and isinstance(image.get("path"), str)
    }


def _read_background(scenario: dict | None, files: dict[str, AssetRef]) -> str | None:
    """The member the first scenario's backgroundImage named when it was read as an asset."""
    background = scenario.get("backgroundImage") if scenario else None
    return background if isinstance(background, str) and background in files else None


def _background_index(piece: Any) -> int | None:
    """The stored background the first scenario shows: the one named `main`, else the first."""
    stored = [i for i, link in enumerate(piece.assets) if link.role == "background" and link.asset is not None]
    return next((i for i in stored if piece.assets[i].name == BACKGROUND_NAME), stored[0] if stored else None)


def _background(
    piece: Any,
    index: int | None,
    files: dict[str, AssetRef],
    old: str | None,
    taken: set[str],
    media: MediaSource,
    losses: list[Loss],
) -> tuple[str | None, list[tuple[str, bytes]]]:
    """The first scenario's backgroundImage (None: no key) and its member. The member read keeps
    its name while it holds the same file; a new one is named as Backyard's writer names it."""
    if index is None:
        return docs.KEEP if old is None else None, []
    link = piece.assets[index]
    ref = link.asset
    ext = "jpg" if ref.ext == "jpeg" else ref.ext
    if ext not in IMAGE_EXTS:
        why = f"Backyard images are PNG, JPEG, WEBP or GIF; the .{ref.ext} background is not written"
        losses.append(IMAGE_TYPE.at(f"/assets/{index}", why))
        return docs.KEEP if old is None else None, []
    if link.name != BACKGROUND_NAME:
        why = f"a Backyard scenario's background has no name: {link.name!r} reads back as {BACKGROUND_NAME!r}"
        losses.append(BACKGROUND_NAMED.at(f"/assets/{index}/name", why))
    if old is not None and files[old].sha256 == ref.sha256:
        return old, [(old, media(ref))]
    member, n = f"scenarios/scenario1-background.{ext}", 1
    while member in taken:
        n += 1
        member = f"scenarios/scenario1-background-{n}.{ext}"
    return member, [(member, media(ref))]


def _laid_out(members: list[tuple[str, bytes]], layout: Any) -> list[tuple[str, bytes]]:
    """The members with the escrowed archive's directory entries, in its member order
    (members it did not have come after, in the order they are written)."""
    if not isinstance(layout, list):
        return members
    names = {name for name, _ in members}
    rank = {name: index for index, name in enumerate(layout) if isinstance(name, str)}
    entries = members + [(name, b"") for name in rank if name.endswith("/") and name not in names]
    return sorted(entries, key=lambda item: rank.get(item[0], len(rank)))


def js_json(document: Any) -> bytes:
    """A member as Backyard writes it: JSON.stringify(document, null, 2), no newline at the end."""
    return stringify(document, 2).encode("utf-8")


def _images(
    piece: Any,
    files: dict[str, AssetRef],
    folder: str,
    media: MediaSource,
    losses: list[Loss],
    kept: set[str],
    listed: dict[str, str],
    backdrop: int | None,
) -> tuple[list[dict], list[tuple[str, bytes]]]:
    """The images character.json lists and their members; `kept` (members in images/ it did not
    list, written back as they are) are names no new image may take; `listed` gives the path
    an image the file listed was listed under; `backdrop` is the asset written as the background."""
    by_sha: dict[str, list[str]] = {}  # two images may hold the same bytes under two names
    for member, ref in files.items():
        if member.startswith(folder + "/images/"):
            by_sha.setdefault(ref.sha256, []).append(member)
    wanted: list[tuple[str, AssetRef]] = []
    for index, link in enumerate(piece.assets):
        if index == backdrop:
            continue
        if link.role != "icon" or link.asset is None:
            why = (
                "Backyard keeps the character's images (icons) and one background stored in the file; "
                f"this {link.role} {'link' if link.asset is None else 'image'} is not written"
            )
            losses.append(ASSET_NOT_CARRIED.at(f"/assets/{index}", why))
            continue
        wanted.append((link.name, link.asset))
    if piece.body.portrait is not None and all(ref.sha256 != piece.body.portrait.sha256 for _, ref in wanted):
        wanted.insert(0, ("avatar", piece.body.portrait))
    images, members, used = [], [], set(kept)
    for label, ref in wanted:
        ext = "jpg" if ref.ext == "jpeg" and ref.sha256 not in by_sha else ref.ext
        if ext not in IMAGE_EXTS:
            why = f"Backyard images are PNG, JPEG, WEBP or GIF; a .{ref.ext} file is not written"
            losses.append(IMAGE_TYPE.at("/assets", why))
            continue
        member = next((m for m in by_sha.get(ref.sha256, []) if m not in used), None)
        if member is None:
            stem = slugify(label) or "image"
            member, n = f"{folder}/images/{stem}.{ext}", 1
            while member in used:
                n += 1
                member = f"{folder}/images/{stem}-{n}.{ext}"
        used.add(member)
        images.append({"path": listed.get(member, member[len(folder) + 1 :]), "label": label})
        members.append((member, media(ref)))
    return images, members


def _stripped_keys(prior: dict, manifest: dict | None, char_path: str, scenario_paths: list[str]) -> list[Loss]:
    extra = []
    for path, keys in [(MANIFEST, docs.MANIFEST_KEYS), (char_path, docs.CHARACTER_KEYS)] + [
        (p, docs.SCENARIO_KEYS) for p in scenario_paths
    ]:
        doc = prior.get(path)
        if isinstance(doc, dict):
            extra += [f"{path}: {key}" for key in doc if key not in keys]
    if not extra:
        return []
    return [
        SCHEMA_UNKNOWN_KEY.at(
            "/original", "the BYAF schemas allow no other keys, so these are not written: " + ", ".join(extra[:10])
        )
    ]


def _without_disabled(dumped: dict) -> dict:
    book = dumped["body"].get("book")
    if book:
        book["entries"] = [entry for entry in book["entries"] if entry["enabled"]]
    return dumped


def _renumbered(losses: list[Loss], piece: Any) -> list[Loss]:
    """Read-back pointers count only the written (enabled) entries; point them at the piece's own."""
    book = piece.body.book
    if book is None or all(entry.enabled for entry in book.entries):
        return losses
    kept = [index for index, entry in enumerate(book.entries) if entry.enabled]
    out = []
    for loss in losses:
        found = re.match(r"^/body/book/entries/(\d+)(?=/|$)", loss.pointer)
        if found and int(found.group(1)) < len(kept):
            pointer = f"/body/book/entries/{kept[int(found.group(1))]}" + loss.pointer[found.end() :]
            loss = dataclasses.replace(loss, pointer=pointer)
        out.append(loss)
    return out


register(ByafArchive())
