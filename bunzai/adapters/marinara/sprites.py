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
from bunzai.adapters.marinara.envelope import avatar_image, avatar_url, image_ext

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


def _named(stem: str, ext: str, used: set[str], tried: dict[str, int]) -> str:
    """The stem of the file restoreSprites writes: suffixed `-1`, `-2` ... while its name is taken.
    `tried` keeps, per stem and type, the suffix to try next: the ones before it were all taken
    (`used` only grows), so a list of many sprites of one name is named in linear time."""
    key = f"{stem}.{ext}"
    suffix = tried.get(key, 0)
    name = stem if suffix == 0 else f"{stem}-{suffix}"
    while f"{name}.{ext}" in used:
        suffix += 1
        name = f"{stem}-{suffix}"
    tried[key] = suffix
    used.add(f"{name}.{ext}")
    return name


def _read_entries(raw: list, place: str, code: str) -> list[tuple[dict | None, Blob | None, str | None]]:
    """Each entry of a `sprites` list: (its emotion asset link in JSON form, its blob, None), or
    (None, None, the warning) for one Marinara's import would skip."""
    out: list[tuple[dict | None, Blob | None, str | None]] = []
    used: set[str] = set()
    tried: dict[str, int] = {}
    for index, entry in enumerate(raw):
        data = entry.get("data") if isinstance(entry, dict) else None
        filename = entry.get("filename") if isinstance(entry, dict) else None
        filename = filename if isinstance(filename, str) else ""
        what = f"{place}'s sprite {index}" + (f" ({filename})" if filename else "")
        blob, warning = avatar_image(data, what, code, noun="image")
        if blob is None:
            out.append((None, None, warning or f"{code}.not_image: {what} has no image; not imported"))
            continue
        stem = safe_stem(filename)
        name = _named(stem, blob.ext, used, tried) if stem else ""
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
        more = f"{code}.not_image: {place} has {len(warnings) - cap} more sprites not imported"
        warnings = [*warnings[:cap], more]
    return links, blobs, warnings


def _read_back(raw: Any) -> list[tuple[str, str] | None]:
    """Each entry of an escrowed `sprites` list as (name, sha256) as read, or None where unread."""
    read = _read_entries(raw, "", "") if isinstance(raw, list) else []
    return [(link["name"], link["asset"].sha256) if link is not None else None for link, _blob, _warning in read]


def carried(assets: list, media: MediaSource) -> list[int]:
    """The indexes of the piece's assets Marinara's sprites can hold: emotion images stored in the
    studio, of a type Marinara keeps."""
    found = []
    for index, link in enumerate(assets):
        if link.role == ROLE and link.asset is not None and image_ext(media(link.asset)):
            found.append(index)
    return found


def put_sprites(holder: dict, assets: list, media: MediaSource) -> tuple[list[int], dict[int, str]]:
    """The piece's emotion images as the export's `sprites`, before its gallery and metadata, as
    Marinara writes them: the list kept as the file had it where it still reads as those images;
    else each entry that reads as one of them kept as written, the others written anew
    (`{name}.{ext}`), and an entry never read as an image left after them.

    (the indexes of the assets carried, and the name Marinara's import gives each of them whose own
    name it does not keep, by index)."""
    indexes = carried(assets, media)
    wanted = [(assets[i].name, assets[i].asset.sha256) for i in indexes]
    old = holder.get("sprites")
    old_list = old if isinstance(old, list) else []
    read = _read_back(old_list)
    if [item for item in read if item is not None] == wanted:  # the names read are the assets': none renamed
        return indexes, {}
    entries: list = []
    kept: set[int] = set()  # the places of the entries kept as written
    spare: dict[tuple[str, str], list[int]] = {}  # (name, sha256) -> the places reading so, last first
    for position in reversed(range(len(read))):
        if read[position] is not None:
            spare.setdefault(read[position], []).append(position)
    for index, key in zip(indexes, wanted, strict=True):
        places = spare.get(key)
        if places:
            kept.add(len(entries))
            entries.append(old_list[places.pop()])
        else:
            entries.append(_entry(assets[index], media))
    # a kept entry its neighbours now name otherwise (its `-1` suffix gone with a sprite before it)
    # is written anew under its own name, until every kept one reads as it did
    while True:
        renamed = _renamed(assets, indexes, entries, made_up=False)
        stale = [k for k in sorted(kept) if indexes[k] in renamed]
        if not stale:
            break
        for k in stale:
            kept.discard(k)
            entries[k] = _entry(assets[indexes[k]], media)
    entries += [entry for entry, item in zip(old_list, read, strict=True) if item is None]
    _place(holder, entries)
    return indexes, _renamed(assets, indexes, entries)


def _entry(link: Any, media: MediaSource) -> dict:
    """A sprite written anew: `{name}.{ext}`, the image as a data: URL."""
    image = media(link.asset)
    return {"filename": f"{link.name}.{image_ext(image)}", "data": avatar_url(image)}


def _place(holder: dict, entries: list) -> None:
    """`sprites` set to `entries` where it stands, else before the gallery and metadata; left
    out when empty, as Marinara leaves it out."""
    if not entries:
        holder.pop("sprites", None)
        return
    if "sprites" in holder:
        holder["sprites"] = entries
        return
    keys = list(holder)
    cut = next((i for i, key in enumerate(keys) if key in ("gallery", "metadata")), len(keys))
    rest = {key: holder.pop(key) for key in keys[cut:]}
    holder["sprites"] = entries
    holder.update(rest)


def _renamed(assets: list, indexes: list[int], entries: Any, made_up: bool = True) -> dict[int, str]:
    """The names Marinara's import gives those of the carried assets whose own it does not keep
    (made safe, or suffixed where it is taken), by reading the written entries back; with
    `made_up`, an empty one too ("": nothing left once made safe, so Marinara makes one up)."""
    names = [link["name"] for link in read_sprites(entries, "", "")[0]]
    return {
        index: name
        for index, name in zip(indexes, names, strict=False)
        if assets[index].name != name or (made_up and not name)
    }


def retyped(assets: list, indexes: list[int], media: MediaSource) -> dict[int, str]:
    """The carried assets whose `ext` is not their image's type, which a sprite's file is named by
    and reads back as (a CHARX's `jpeg` is `jpg`), with that type, by index."""
    found = {index: image_ext(media(assets[index].asset)) for index in indexes}
    return {index: ext for index, ext in found.items() if assets[index].ext != ext}


def sprite_losses(
    assets: list,
    indexes: list[int],
    renamed: dict[int, str],
    rules: tuple[LossRule, LossRule, LossRule],
    who: str,
    exts: dict[int, str],
) -> list[Loss]:
    """A loss for each asset `who` ("a Marinara character") does not carry as a sprite, and for
    each sprite Marinara's import names otherwise or reads back with another `ext` (`exts`, from
    `retyped`). `rules`: not carried, renamed (name or ext), and listed (the list reads back
    shorter before a sprite, so its later assets stand at other places)."""
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
            losses.append(not_carried.at(f"/assets/{index}", _not_sprite_why(link, who)))
    return losses


def _not_sprite_why(link: Any, who: str) -> str:
    if link.role != ROLE:
        kept = " (the portrait goes as the avatar)" if link.role == "icon" else ""
        return f"{who} carries expression images (emotion) as sprites, not {link.role or 'untyped'} media{kept}"
    if link.asset is None:
        return "a Marinara sprite is an image in the file; this expression is only a link"
    return "Marinara keeps a PNG, JPEG, GIF, WebP or AVIF sprite only"
