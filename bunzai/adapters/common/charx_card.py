"""Reading and writing CHARX archives, for the CHARX spokes (generic `charx`, `risu.charx`).

A Character Card V3 as a ZIP, `card.json` at the root, media as members.

Read: the card reads as the other card spokes read it (card_doc: the character, and its
embedded book as a linked lorebook); `embeded://` assets become stored assets. Every
member but card.json (assets, `module.risum`, `x_meta/*`, app JSON at the root, members
nothing names) is kept byte for byte in the escrow under its member name. A JPEG with the
ZIP appended (RisuAI's polyglot) reads like the ZIP; hostile archives are refused by
zipsafe before anything is decompressed past its limits.
Write: card.json (4-space JSON, as RisuAI writes it) over the escrowed card, the stored
assets once each, and, when the piece came from a CHARX, every escrowed member back under
its name; names are UTF-8 (as RisuAI writes them), nothing is encrypted, the same piece gives
the same bytes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from typing import Any


from bunzai.adapters.common import card_assets, card_fields
from bunzai.adapters.common.charx_assets import link_entries, plan_assets
from bunzai.adapters.common.charx_members import (
    CARD_MEMBER,
    LOADABLE_SUFFIX,
    asset_member,
    file_type,
    nested_card,
    sillytavern_card,
)
from bunzai.adapters.common.card_doc import (
    CARD_PORTRAIT_NOT_CARRIED,
    CardShape,
    card_data,
    card_losses,
    read_card,
    write_card_data,
)
from bunzai.adapters.common.losses import ESCROW_OTHER_FORMAT, LossRule, escrow_why
from bunzai.adapters.common.zipsafe import ZIP_LOCAL_MAGIC, open_archive, write_archive
from bunzai.adapters.contract import Blob, Decoded, Encoded, Loss, MediaSource, Origin
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import load_json_bytes
from bunzai.jsondoc.values import copied
from bunzai.model.base import AssetRef

RISU_MODULE = "module.risum"
# Escrow file key of the image a JPEG+ZIP polyglot's archive is appended to: never a member's
# name, as open_archive refuses an absolute one. Escrows read before held it under LEGACY_COVER,
# a name a member may have; an archive with such a member escrows an empty cover, so it is not
# taken for one.
COVER = "/cover.jpg"
LEGACY_COVER = "#cover.jpg"
# The card fields CHARX carries: all of V3, its assets as members, the portrait as the main icon.
CHARX = CardShape("CHARX (Character Card V3 archive)", "v3", card_fields.V3_FIELDS, assets=True, image=True)
# card_doc writes assets as data: URIs; here they are members, so the card is read and written without them.
_CARD_ONLY = dataclasses.replace(CHARX, assets=False)

PORTRAIT_AS_ICON = LossRule(
    r"/assets(?:/\d+)?",
    "translated",
    "charx.portrait.as_icon",
    "a CHARX keeps the portrait as its main icon asset, so the portrait is added as that icon",
)
MEMBER_RENAMED = LossRule(
    "/original/files/[^/]+",
    "translated",
    "charx.member.renamed",
    "the member is an asset's and its name ends in .json (which RisuAI's import skips, refusing the card), or "
    "that name is taken by another member's new name; it is written under another name, and the asset uris "
    "naming it follow",
)
ICON_NAMED_MAIN = LossRule(
    r"/assets/\d+",
    "translated",
    "charx.icon.named_main",
    "the portrait's icon is written under the name `main`: a CHARX with icons names one `main`, and RisuAI "
    "takes only the icon named `main` as the character's image",
)
ASSET_RESOLVED = LossRule(
    r"/assets(?:/\d+)?",
    "translated",
    "charx.asset.resolved",
    "the uri names a member of the written archive, so it reads back as that stored file",
)
ASSET_TYPE_INFERRED = LossRule(
    r"/assets/\d+",
    "translated",
    "charx.asset.type_inferred",
    "a CHARX stores the file; its type is read back from its extension",
)
PORTRAIT_FROM_ICON = LossRule(
    "/body/portrait",
    "translated",
    "charx.portrait.from_icon",
    "a CHARX card's portrait is its main icon, which reads back as a different stored file (or none)",
)


def card_json_bytes(document: Any) -> bytes:
    return json.dumps(document, indent=4, ensure_ascii=False, allow_nan=False).encode("utf-8")


def read_charx(data: bytes, name: str, format_id: str, *, module_warning: bool = True) -> Decoded:
    """A CHARX's bytes -> the character (and its book), escrowed under `format_id`."""
    what = name or "the CHARX"
    archive = open_archive(data)
    if not archive.has(CARD_MEMBER):
        raise no_root_card(archive.names(), what)
    document = _card_document(archive.read(CARD_MEMBER), what)
    names = [member for member in archive.names() if member != CARD_MEMBER]
    contents = {member: archive.read(member) for member in names}
    kept = {member: Blob(contents[member], *file_type(None, member), Origin(member=member)) for member in names}
    raw_assets = card_data(document).get("assets")
    links, resolved, uri_blobs = link_entries(raw_assets, names, lambda member: kept[member].sha256)
    blobs = {(b.sha256, b.ext, b.mime): b for b in kept.values()}
    for link, member in zip(links, resolved):
        if member is not None:
            blob = Blob(contents[member], link["asset"]["ext"], link["asset"]["mime"], Origin(member=member))
            blobs.setdefault((blob.sha256, blob.ext, blob.mime), blob)
    for blob in uri_blobs:
        blobs.setdefault((blob.sha256, blob.ext, blob.mime), blob)
    escrow = {
        "format": format_id,
        "document": document,
        "files": {member: blob.ref().model_dump(mode="json") for member, blob in kept.items()},
    }
    cover_length = archive.prefix_length() if not data.startswith(ZIP_LOCAL_MAGIC) else 0
    if cover_length or LEGACY_COVER in kept:
        cover = Blob(data[:cover_length], "jpg", "image/jpeg", Origin(spans=((0, cover_length),)))
        blobs.setdefault((cover.sha256, cover.ext, cover.mime), cover)
        escrow["files"][COVER] = cover.ref().model_dump(mode="json")
    decoded = read_card(document, name, _CARD_ONLY, escrow, card_assets.portrait_of(links), list(blobs.values()))
    decoded.pieces[0] = card_assets.with_assets(decoded.pieces[0], links, what)
    decoded.warnings += _read_warnings(archive.names(), raw_assets, resolved, names, module_warning)
    return decoded


def no_root_card(names: list[str], what: str) -> BunzaiError:
    """The refusal of an archive without a root card.json, naming a card.json in a folder when
    there is one (the code stays unrecognized_file: RisuAI and the spec read only the root's)."""
    nested = nested_card(names)
    if nested is None:
        return BunzaiError(
            "unrecognized_file",
            f"{what} is a ZIP archive without a card.json at its root",
            "a CHARX holds its card in card.json; this archive is something else",
        )
    return BunzaiError(
        "unrecognized_file",
        f"{what}: card.json is at {nested!r}, not at the archive's root, where a CHARX holds it (RisuAI and the "
        "CHARX spec read only the root's card.json; SillyTavern finds it in a folder)",
        f"zip the contents of {nested.rsplit('/', 1)[0]!r} rather than the folder itself, so card.json and "
        "assets/ are at the archive's root",
    )


def card_first(members: list[tuple[str, bytes]], card: bytes) -> list[tuple[str, bytes]]:
    """The generic order: card.json, then the kept members, then the new ones."""
    return [(CARD_MEMBER, card)] + members


def write_charx(
    piece: Any,
    media: MediaSource,
    format_id: str,
    order: Callable[[list[tuple[str, bytes]], bytes], list[tuple[str, bytes]]] = card_first,
    member_for: Callable[[str, str, str, str, int], str] = asset_member,
) -> Encoded:
    """A character -> CHARX bytes and the losses; `order` places card.json among the members,
    `member_for` names a new asset's member (the spec's layout, or RisuAI's)."""
    original = piece.original
    own = original is not None and original.format == format_id and isinstance(original.document, dict)
    base = original.document if own else None
    files = {member: ref.model_dump(mode="json") for member, ref in original.files.items()} if own else {}
    cover = files.pop(COVER) if COVER in files else files.pop(LEGACY_COVER, None)
    if base is not None and not isinstance(base.get("data"), dict):  # fields at the top level (a hybrid)
        document = data = write_card_data(base, card_fields.v3_data_template(), piece, _CARD_ONLY, media)
    else:
        document = copied(base) if base is not None else {"spec": "chara_card_v3", "spec_version": "3.0"}
        document["data"] = data = write_card_data(
            document.get("data"), card_fields.v3_data_template(), piece, _CARD_ONLY, media
        )
    links, losses = _links_with_portrait(piece, crossing=not own)
    plan = plan_assets(data.get("assets"), links, files, media, member_for)
    if links or isinstance(data.get("assets"), list):
        data["assets"] = plan.entries
    members = [(written, media(AssetRef.model_validate(files[member]))) for member, written in plan.kept.items()]
    members += list(plan.members.items())
    members = _card_read_first(order(members, card_json_bytes(document)))
    losses = card_losses(piece, CHARX, format_id) + losses + _rename_losses(plan.kept)
    losses += _reread_losses(piece, data.get("assets"), members, files, plan.kept, losses)
    if original is not None and not own:
        why = escrow_why(original.format, "a CHARX", " (its escrowed document and files)")
        losses.append(ESCROW_OTHER_FORMAT.at("/original", why))
    # The JPEG+ZIP polyglot it was: the cover image, then the archive.
    lead = media(AssetRef.model_validate(cover)) if cover is not None else b""
    return Encoded(write_archive(members, lead), losses)


def _card_read_first(members: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """card.json moved to the front when SillyTavern, which reads the first member whose name
    ends in card.json, would otherwise read another (RisuAI's layout puts card.json last)."""
    if sillytavern_card([name for name, _data in members]) == CARD_MEMBER:
        return members
    return [item for item in members if item[0] == CARD_MEMBER] + [item for item in members if item[0] != CARD_MEMBER]


def _card_document(raw: bytes, what: str) -> dict:
    document = load_json_bytes(raw, what=f"card.json in {what}")
    if not isinstance(document, dict):
        raise BunzaiError(
            "corrupt_file",
            f"card.json in {what} holds a JSON {type(document).__name__}, not a card object",
            "export the card again",
        )
    return document


def _read_warnings(
    order: list[str], raw_assets: Any, resolved: list[str | None], names: list[str], module_warning: bool
) -> list[str]:
    """What the reader should know; `order` is every member name in archive order."""
    warnings = []
    for index, (item, member) in enumerate(zip(raw_assets if isinstance(raw_assets, list) else [], resolved)):
        uri = item.get("uri") if isinstance(item, dict) else None
        if member is None and isinstance(uri, str) and uri.startswith(("embeded://", "embedded://")):
            warnings.append(f"asset {index} names {uri!r}, which is not in the archive; its uri is kept as written")
    first = sillytavern_card(order)
    if first != CARD_MEMBER:
        warnings.append(
            f"SillyTavern's CHARX import reads the first member whose name ends in card.json, here {first!r}, "
            "not card.json; bunzai reads card.json (as RisuAI and the CHARX spec do), and writes it first"
        )
    if module_warning and RISU_MODULE in names:
        warnings.append(
            "module.risum (RisuAI's regex scripts, triggers and lorebook copy) is kept byte for byte "
            "in the escrow but not read"
        )
    return warnings


def _links_with_portrait(piece: Any, crossing: bool) -> tuple[list[dict], list[Loss]]:
    """The links to write: the portrait goes in as the main icon when no icon holds it yet;
    crossing in, the icon holding it is named `main` when no icon has that name."""
    links = [link.model_dump(mode="json") for link in piece.assets]
    portrait = piece.body.portrait.model_dump(mode="json") if piece.body.portrait is not None else None
    icons = [index for index, link in enumerate(links) if link["role"] == "icon"]
    named = next((index for index in icons if links[index]["name"] == "main"), None)
    holder = next((index for index in icons if links[index]["asset"] == portrait), None)
    if crossing and portrait is not None and named is None and holder is not None:
        links[holder] = links[holder] | {"name": "main"}
        why = f"{ICON_NAMED_MAIN.why} (it was named {piece.assets[holder].name!r})"
        return links, [ICON_NAMED_MAIN.at(f"/assets/{holder}", why)]
    if portrait is None or card_assets.portrait_of(links) == portrait:
        return links, []
    main = named if named is not None else (icons[0] if icons else None)
    if main is None:
        links.append({"role": "icon", "name": "main", "ext": portrait["ext"], "asset": portrait, "uri": None})
        return links, [PORTRAIT_AS_ICON.at("/assets")]
    if links[main]["asset"] is None and links[main]["uri"] == "ccdefault:":
        links[main] = links[main] | {"asset": portrait, "uri": None}
        return links, [PORTRAIT_AS_ICON.at(f"/assets/{main}", PORTRAIT_AS_ICON.why + " (in place of `ccdefault:`)")]
    why = "the card's main icon is another image, and a CHARX carries the portrait only as its main icon"
    return links, [CARD_PORTRAIT_NOT_CARRIED.at("/body/portrait", why)]


def _pointer_segment(text: str) -> str:
    return text.replace("~", "~0").replace("/", "~1")


def _rename_losses(kept: dict[str, str]) -> list[Loss]:
    return [
        MEMBER_RENAMED.at(f"/original/files/{_pointer_segment(member)}", _rename_why(member, written))
        for member, written in kept.items()
        if written != member
    ]


def _rename_why(member: str, written: str) -> str:
    if written.endswith(LOADABLE_SUFFIX) and not member.endswith(LOADABLE_SUFFIX):
        why = "names an asset and ends in .json, a member RisuAI's import skips (it then refuses the card)"
    else:
        why = "is taken by another member's new name"
    return f"the member name {member!r} {why}; it is written as {written!r}"


def _reread_losses(
    piece: Any,
    entries: Any,
    members: list[tuple[str, bytes]],
    files: dict[str, dict],
    kept: dict[str, str],
    declared: list[Loss],
) -> list[Loss]:
    """What the written assets will read back as differently (a stored file's type, a uri that resolves)."""
    written = {name: member for member, name in kept.items()}
    names = [name for name, _data in members]
    contents = dict(members)

    def sha_of(name: str) -> str:
        return files[written[name]]["sha256"] if name in written else hashlib.sha256(contents[name]).hexdigest()

    again, _resolved, _blobs = link_entries(entries, names, sha_of)
    before = [link.model_dump(mode="json") for link in piece.assets]
    covered = {loss.pointer for loss in declared}
    losses = []
    if len(again) != len(before) and "/assets" not in covered:
        losses.append(ASSET_RESOLVED.at("/assets", "the asset list reads back differently from a CHARX"))
    elif len(again) == len(before):
        for index, (old, new) in enumerate(zip(before, again)):
            if old == new or f"/assets/{index}" in covered:
                continue
            same_file = (
                old["asset"] is not None
                and new["asset"] is not None
                and old["asset"]["sha256"] == new["asset"]["sha256"]
            )
            losses.append((ASSET_TYPE_INFERRED if same_file else ASSET_RESOLVED).at(f"/assets/{index}"))
    portrait = piece.body.portrait.model_dump(mode="json") if piece.body.portrait is not None else None
    if card_assets.portrait_of(again) != portrait and "/body/portrait" not in covered:
        losses.append(PORTRAIT_FROM_ICON.at("/body/portrait"))
    return losses
