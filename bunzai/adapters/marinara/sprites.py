"""A Marinara export's `sprites` <-> the piece's expression images (assets of role `emotion`).

Today's Marinara exports a character's or persona's sprite folder beside the card or row
(buildNativeCharacterEnvelope, readSpritesForId): `sprites: [{filename, data}]`, each `data`
a `data:` URL, the list left out when the folder is empty. Its import (restoreSprites) keeps
each image it would keep as an avatar (decodeImageDataUrl) and names the file by its stem made
safe: the last path part, without its extension, every character but ASCII letters, digits,
`_`, `-` and space made `_` (each UTF-16 unit: JavaScript's regex without the u flag), the
first 80 kept; a name taken already gets `-1`, `-2` ... and an empty stem a random name. That
stem is the expression Marinara shows the sprite for, so it is the asset's name here, as
CCv3's `emotion` assets and RisuAI's emotion images name theirs.
"""

from __future__ import annotations

import re
from typing import Any

from bunzai import limits
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Blob, Loss, MediaSource
from bunzai.adapters.marinara.envelope import avatar_image, avatar_url, image_ext, put_before

ROLE = "emotion"
_LAST_EXTENSION = re.compile(r"\.[^.]+\Z")
_UNSAFE = re.compile(r"[^a-zA-Z0-9_\- ]")
_STEM_UNITS = 80


def safe_stem(filename: str) -> str:
    """The stem restoreSprites makes of a sprite's file name ("" where it would make a random one)."""
    last = filename.replace("\\", "/").split("/")[-1]
    stem = _LAST_EXTENSION.sub("", last)
    # one `_` per UTF-16 unit: a character past the BMP is two
    return _UNSAFE.sub(lambda found: "_" * (2 if ord(found.group()) > 0xFFFF else 1), stem)[:_STEM_UNITS]


class _Names:
    """restoreSprites's names, given one file after another: a name taken gets `-1`, `-2` ...
    Per stem and type it keeps the suffix to try next (those before it are all taken, and taken
    names stay taken), so a list of many sprites of one name is named in linear time."""

    def __init__(self) -> None:
        self.used: set[str] = set()
        self.tried: dict[str, int] = {}

    def peek(self, stem: str, ext: str) -> tuple[str, int]:
        """(the name the next file of this stem and type would get, its suffix); "" for no stem."""
        if not stem:
            return "", 0
        key = f"{stem}.{ext}"
        suffix = self.tried.get(key, 0)
        name = stem if suffix == 0 else f"{stem}-{suffix}"
        while f"{name}.{ext}" in self.used:
            suffix += 1
            name = f"{stem}-{suffix}"
        self.tried[key] = suffix  # those before it are taken, taken or not this one
        return name, suffix

    def take(self, stem: str, ext: str) -> str:
        name, _suffix = self.peek(stem, ext)
        if name:
            self.used.add(f"{name}.{ext}")
        return name


def _filename(entry: Any) -> str:
    found = entry.get("filename") if isinstance(entry, dict) else None
    return found if isinstance(found, str) else ""


def _read_entries(raw: list, place: str, code: str) -> list[tuple[dict | None, Blob | None, str | None]]:
    """Each entry of a `sprites` list: (its emotion asset link in JSON form, its blob, None), or
    (None, None, the warning) for one Marinara's import would skip."""
    out: list[tuple[dict | None, Blob | None, str | None]] = []
    names = _Names()
    for index, entry in enumerate(raw):
        data = entry.get("data") if isinstance(entry, dict) else None
        filename = _filename(entry)
        what = f"{place}'s sprite {index}" + (f" ({filename})" if filename else "")
        blob, warning = avatar_image(data, what, code, noun="image")
        if blob is None:
            out.append((None, None, warning or f"{code}.not_image: {what} has no image; not imported"))
            continue
        name = names.take(safe_stem(filename), blob.ext)
        out.append(({"role": ROLE, "name": name, "ext": blob.ext, "asset": blob.ref_json(), "uri": None}, blob, None))
    return out


def read_sprites(raw: Any, place: str, code: str) -> tuple[list[dict], list[Blob], list[str]]:
    """The export's `sprites` as emotion asset links (JSON form), their blobs, and a warning for
    each sprite Marinara's import would skip (it stays in the escrow only)."""
    if raw is None:
        return [], [], []
    if not isinstance(raw, list):
        return [], [], [f"{code}.not_list: {place}'s sprites are not a list; not imported"]
    read = _read_entries(raw, place, code)
    links = [link for link, _blob, _warning in read if link is not None]
    blobs = [blob for _link, blob, _warning in read if blob is not None]
    warnings = [warning for _link, _blob, warning in read if warning is not None]
    cap = limits.SKIPPED_MEDIA_WARNINGS_MAX
    if len(warnings) > cap:
        more = f"{code}.skipped: {place}: {len(warnings) - cap} more sprite(s) not imported, as above"
        warnings = [*warnings[:cap], more]
    return links, blobs, warnings


def _read_back(raw: Any) -> list[tuple[str, str] | None]:
    """Each entry of an escrowed `sprites` list as (name, sha256) as read, or None where unread."""
    read = _read_entries(raw, "", "") if isinstance(raw, list) else []
    return [(link["name"], link["asset"].sha256) if link is not None else None for link, _blob, _warning in read]


def carried(assets: list, media: MediaSource) -> dict[int, str]:
    """The piece's assets Marinara's sprites can hold, index -> the image's type: emotion images
    stored in the studio, of a type Marinara keeps (each asked of `media` once here)."""
    found = {}
    for index, link in enumerate(assets):
        if link.role == ROLE and link.asset is not None and (ext := image_ext(media(link.asset))):
            found[index] = ext
    return found


def put_sprites(holder: dict, assets: list, media: MediaSource) -> tuple[dict[int, str], dict[int, str]]:
    """The piece's emotion images as the export's `sprites`, before its gallery and metadata, as
    Marinara writes them: the list kept as the file had it where it still reads as those images;
    else each entry that reads as one of them kept as written, the others written anew
    (`{name}.{ext}`), and an entry never read as an image left after them.

    (the assets carried, index -> their image's type, as `carried` gives them; and the name
    Marinara's import gives each of them whose own name it does not keep, by index)."""
    found = carried(assets, media)
    indexes = list(found)
    wanted = [(assets[i].name, assets[i].asset.sha256) for i in indexes]
    old = holder.get("sprites")
    old_list = old if isinstance(old, list) else []
    read = _read_back(old_list)
    if [item for item in read if item is not None] == wanted:  # the names read are the assets': none renamed
        return found, {}
    spare: dict[tuple[str, str], list[int]] = {}  # (name, sha256) -> the places reading so, last first
    for position in reversed(range(len(read))):
        if read[position] is not None:
            spare.setdefault(read[position], []).append(position)
    # One walk in file order: a name depends only on the files before it. An entry kept as written
    # that would now be named otherwise (its `-1` gone with a sprite before it) is written anew.
    entries: list = []
    renamed: dict[int, str] = {}
    names = _Names()
    for index, key in zip(indexes, wanted, strict=True):
        link: Any = assets[index]
        places = spare.get(key)
        if places:
            entry = old_list[places.pop()]
            stem, ext = safe_stem(_filename(entry)), found[index]
            if names.peek(stem, ext)[0] == link.name:
                names.take(stem, ext)
                entries.append(entry)
                continue
        entry = _entry(link, media, found[index])
        name = names.take(safe_stem(entry["filename"]), found[index])
        if name != link.name or not name:  # "": Marinara makes one up
            renamed[index] = name
        entries.append(entry)
    entries += [entry for entry, item in zip(old_list, read, strict=True) if item is None]
    _place(holder, entries)
    return found, renamed


def _entry(link: Any, media: MediaSource, ext: str) -> dict:
    """A sprite written anew: `{name}.{ext}`, the image as a data: URL."""
    return {"filename": f"{link.name}.{ext}", "data": avatar_url(media(link.asset))}


def _place(holder: dict, entries: list) -> None:
    """`sprites` set to `entries` where it stands, else before the gallery and metadata; left
    out when empty, as Marinara leaves it out."""
    if not entries:
        holder.pop("sprites", None)
        return
    if "sprites" in holder:
        holder["sprites"] = entries
        return
    put_before(holder, "sprites", entries, ("gallery", "metadata"))


def retyped(assets: list, found: dict[int, str]) -> dict[int, str]:
    """Of the carried assets (`found`, from put_sprites), those whose `ext` is not their image's
    type, which a sprite's file is named by and reads back as (a CHARX's `jpeg` is `jpg`), with
    that type, by index."""
    return {index: ext for index, ext in found.items() if assets[index].ext != ext}


def sprite_losses(
    assets: list,
    indexes: list[int],
    renamed: dict[int, str],
    rules: tuple[LossRule, LossRule, LossRule],
    who: str,
    exts: dict[int, str],
    portrait: Any = None,
) -> list[Loss]:
    """A loss for each asset `who` ("a Marinara character") does not carry as a sprite, and for
    each sprite Marinara's import names otherwise or reads back with another `ext` (`exts`, from
    `retyped`). `rules`: not carried, renamed (name or ext), and listed (the list reads back
    shorter before a sprite, so its later assets stand at other places). `portrait`: the piece's,
    which the avatar carries (an icon of it is lost only as an entry of the list)."""
    not_carried, renamed_rule, listed = rules
    losses = []
    for index, ext in exts.items():
        why = f"a Marinara sprite's file is named by its image's type: ext {assets[index].ext!r} reads back as {ext!r}"
        losses.append(renamed_rule.at(f"/assets/{index}/ext", why))
    if indexes and indexes[-1] >= len(indexes):
        why = f"{who}'s media list reads back as its sprites alone, in their order"
        losses.append(listed.at("/assets", why))
    held = set(indexes)
    for index, link in enumerate(assets):
        if index in renamed:
            why = (
                "Marinara names a sprite by its file's stem, only letters, digits, _, - and space, at most 80, "
                f"each name once: {link.name!r} is imported as "
                + (repr(renamed[index]) if renamed[index] else "a name it makes up (sprite-<time>-<random>)")
            )
            losses.append(renamed_rule.at(f"/assets/{index}/name", why))
        elif index not in held:
            losses.append(not_carried.at(f"/assets/{index}", _not_sprite_why(link, who, portrait)))
    return losses


def _not_sprite_why(link: Any, who: str, portrait: Any) -> str:
    if link.role != ROLE:
        the_portrait = portrait is not None and link.asset is not None and link.asset.sha256 == portrait.sha256
        kept = " (the portrait goes as the avatar)" if the_portrait else ""
        return f"{who} carries expression images (emotion) as sprites, not {link.role or 'untyped'} media{kept}"
    if link.asset is None:
        return "a Marinara sprite is an image in the file; this expression is only a link"
    return "Marinara keeps a PNG, JPEG, GIF, WebP or AVIF sprite only"
