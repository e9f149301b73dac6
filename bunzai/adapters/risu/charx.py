"""RisuAI's CHARX (`.charx`, or a JPEG with the ZIP appended), as RisuAI writes and reads it.

RisuAI writes assets to `assets/<type>/<image|audio|...>/<name>.<ext>` (`image` singular,
`x-risu-asset` under `other`), an `x_meta/<name>.json` beside each, then `module.risum`,
then `card.json` (4-space JSON). Its regex scripts and triggers live only in the module,
and the lorebook is in both places: on import the module's copy wins. bunzai reads the
card as any CHARX (common.charx_card), then, when a RisuAI checkout gives the RPack
table, the module: its lorebook replaces the card's book, its scripts and triggers
become sealed behaviour scripts (`risu.customscript`, `risu.trigger`). Without a table
the module is kept byte for byte and a `not_decoded` warning says so.
Writing keeps RisuAI's member order and layout (card.json goes first only when another member's
name ends in card.json, which SillyTavern would read as the card); an asset the file did not have gets the
`x_meta/<name>.json` note RisuAI writes beside each asset (xmeta). The module is written back as it was
while the book and scripts are those it holds; when they changed, it is re-encoded with
the table (or, with none, the change is a declared loss).
The generic `charx` adapter keeps plain CHARX: this one claims an archive only when it is
laid out as RisuAI writes (no member outside card.json, module.risum, x_meta/ and
assets/<type>/<RisuAI folder>/) and shows a RisuAI mark (module.risum, x_meta/, an
`image` folder, or extensions.risuai in card.json).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import count
from typing import Any

from bunzai import limits

from bunzai.adapters.common.card_book import read_book
from bunzai.adapters.common.card_doc import CARD_SCRIPTS_NOT_CARRIED, card_data
from bunzai.adapters.common.charx_card import read_charx, write_charx
from bunzai.adapters.common.charx_v2_assets import risu_v2_assets
from bunzai.adapters.common.charx_members import (
    CARD_MEMBER,
    LOADABLE_SUFFIX,
    RISU_FOLDER_NAMES,
    embedded_path,
    risu_asset_member,
)
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.common.st_regex_losses import st_regex_not_run, st_regex_rule
from bunzai.adapters.common.zipsafe import open_archive
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.registry import register
from bunzai.adapters.risu import rpack
from bunzai.adapters.risu.lorebook import read_entries, write_entries
from bunzai.adapters.risu.module import MODULE_MEMBER, decode_module, encode_module
from bunzai.adapters.risu.xmeta import x_meta
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.model.lorebook import LoreEntry

FORMAT_ID = "risu.charx"
SCRIPT = "risu.customscript"
TRIGGER = "risu.trigger"
MODULE_NOT_WRITTEN = LossRule(
    "/body/behavior_scripts",
    "dropped",
    "risu.module.not_written",
    "RisuAI keeps regex scripts and triggers in module.risum, which needs the RPack table",
)
# What RisuAI's own import (characterCards.ts importCharacterCardSpec) leaves out of a card it
# reads: noted on crossings into this format (a piece read from it was already such a file).
IMPORT_DEPTH_PROMPT = LossRule(
    "/body/depth_prompt",
    "dropped",
    "risu.import.depth_prompt",
    "RisuAI's card import deletes extensions.depth_prompt (card.json keeps it for other apps): set the depth "
    "prompt again in RisuAI's character settings",
)
IMPORT_NOT_READ = LossRule(
    "/body/creator_notes_multilingual",
    "dropped",
    "risu.import.not_read",
    "RisuAI's card import never reads this V3 field (card.json keeps it for other apps)",
)
IMPORT_ASSET_SKIPPED = LossRule(
    r"/assets/\d+",
    "dropped",
    "risu.import.asset_skipped",
    "RisuAI's card import takes an asset only from an embeded://, data:, __asset: or ccdefault: uri and skips "
    "any other (card.json keeps it for other apps)",
)
IMPORT_V2_ASSETS = LossRule(
    "/body/extensions/risuai",
    "dropped",
    "risu.import.v2_assets",
    "RisuAI reads extensions.risuai voices (vits), and emotions and additionalAssets left there, only from a V2 "
    "card, and a CHARX is V3: its import takes none of them (card.json keeps them for other apps). RisuAI's own "
    "CHARX export drops the voices too; emotions and additional assets whose file was found are written as assets",
)
IMPORT_ASSET_MISSING = LossRule(
    r"/assets/\d+",
    "dropped",
    "risu.import.asset_missing",
    "RisuAI's card import stops the whole card with 'asset not found' on an embeded:// or __asset: uri that "
    "names no file of the archive, so the uri is written empty (RisuAI skips the asset)",
)
_IMPORT_ST_REGEX = (
    "RisuAI never runs {script} (extensions.regex_scripts, which card.json keeps for other apps): it runs only "
    "its own scripts (extensions.risuai.customScripts or module.risum); make the rule again in RisuAI's regex "
    "scripts"
)
IMPORT_ST_REGEX = st_regex_rule("risu.import.st_regex_not_run", _IMPORT_ST_REGEX)
# The uris RisuAI's import reads an asset from (any other is skipped).
_RISU_ASSET_URIS = ("embeded://", "data:", "__asset:", "ccdefault:")
_RISU_FILE_URIS = ("embeded://", "__asset:")  # looked up among the archive's files: a miss fails the import
SCRIPTS_ORDER = LossRule(
    "/body/behavior_scripts",
    "translated",
    "risu.scripts.order",
    "a RisuAI CHARX reads SillyTavern scripts (card.json) before RisuAI's (module.risum), without the ones it "
    "cannot carry",
)


def import_losses(piece: Any) -> list[Loss]:
    """What RisuAI's import drops from the card written for `piece` (when it crosses in)."""
    if piece.original is not None and piece.original.format == FORMAT_ID:
        return []
    body = piece.body
    losses = []
    if body.depth_prompt != type(body.depth_prompt)():
        losses.append(IMPORT_DEPTH_PROMPT.at("/body/depth_prompt"))
    if body.creator_notes_multilingual:
        losses.append(IMPORT_NOT_READ.at("/body/creator_notes_multilingual"))
    risu = body.extensions.get("risuai")
    for key in ("emotions", "additionalAssets", "vits") if isinstance(risu, dict) else ():
        if risu.get(key):  # what risu_v2_assets could not write as assets (no file found), and the voices
            losses.append(IMPORT_V2_ASSETS.at(f"/body/extensions/risuai/{key}"))
    losses += st_regex_not_run(piece, IMPORT_ST_REGEX, _IMPORT_ST_REGEX)  # src/ts never reads regex_scripts
    for index, link in enumerate(piece.assets):
        if link.asset is None and not (link.uri or "").startswith(_RISU_ASSET_URIS):
            why = f"asset {index} ({link.name or link.role}) is named by {link.uri!r}: {IMPORT_ASSET_SKIPPED.why}"
            losses.append(IMPORT_ASSET_SKIPPED.at(f"/assets/{index}", why))
    return losses


def _without_missing_files(piece: Any) -> tuple[Any, list[Loss]]:
    """The piece with each asset uri that names a file the archive will not hold (no stored
    bytes behind an embeded:// or __asset: uri) written empty, and a loss for each."""
    losses, links = [], []
    for index, link in enumerate(piece.assets):
        if link.asset is None and (link.uri or "").startswith(_RISU_FILE_URIS):
            why = f"asset {index} ({link.name or link.role}) is named by {link.uri!r}: {IMPORT_ASSET_MISSING.why}"
            losses.append(IMPORT_ASSET_MISSING.at(f"/assets/{index}", why))
            link = link.model_copy(update={"uri": ""})
        links.append(link)
    return (piece.model_copy(update={"assets": links}) if losses else piece), losses


def _risu_layout(names: list[str]) -> bool:
    # RisuAI keeps a `/` in an asset's name (its writer sanitizes every other path character),
    # so `happy/1` is written as assets/emotion/image/happy/1.png beside x_meta/happy/1.json.
    for name in names:
        parts = name.split("/")
        if name in (CARD_MEMBER, MODULE_MEMBER) or (len(parts) >= 2 and parts[0] == "x_meta"):
            continue
        if len(parts) >= 4 and parts[0] == "assets" and parts[2] in RISU_FOLDER_NAMES:
            continue
        return False
    return True


def _risu_marks(names: list[str], card: bytes) -> bool:
    if MODULE_MEMBER in names or any(n.startswith("x_meta/") for n in names):
        return True
    if any(len(p := n.split("/")) >= 4 and p[0] == "assets" and p[2] == "image" for n in names):
        return True
    return b'"risuai"' in card


def _module_of(files: dict[str, bytes], what: str) -> tuple[dict | None, str]:
    """The decoded module, or None and why not ('' when there is no module)."""
    raw = files.get(MODULE_MEMBER)
    if raw is None:
        return None, ""
    table, why = rpack.current_table()
    if table is None:
        return None, why
    document, assets = decode_module(raw, table, f"module.risum in {what}")
    module = document["module"]
    module["\0assets"] = assets  # the asset blocks, carried to a re-encoding; never a JSON key of RisuAI's
    return module, ""


def _sealed(module: dict) -> list[dict]:
    scripts = []
    for key, fmt in (("regex", SCRIPT), ("trigger", TRIGGER)):
        for item in module.get(key) if isinstance(module.get(key), list) else []:
            name = item.get("comment") if isinstance(item, dict) and isinstance(item.get("comment"), str) else ""
            scripts.append({"format": fmt, "name": name, "payload": copied(item)})
    return scripts


def _apply_module(decoded: Decoded, module: dict) -> None:
    """The module's copy of the book wins; its scripts and triggers become sealed scripts."""
    character = decoded.pieces[0]
    body = character.body.model_dump(mode="json")
    body["behavior_scripts"] = body["behavior_scripts"] + _sealed(module)
    if isinstance(module.get("lorebook"), list) and (module["lorebook"] or body["book"] is not None):
        entries = _entries(module["lorebook"])
        book = body["book"] or {"name": ""}
        body["book"] = book | {"entries": entries}
        if len(decoded.pieces) > 1 and decoded.pieces[1].kind == "lorebook":
            lore = decoded.pieces[1]
            decoded.pieces[1] = lore.model_validate(
                lore.model_dump(mode="json") | {"body": lore.body.model_dump(mode="json") | {"entries": entries}}
            )
    decoded.pieces[0] = character.model_validate(character.model_dump(mode="json") | {"body": body})


def _entries(raw: list) -> list[dict]:
    """Module lore entries as canonical entries, every default filled (as a stored book holds them)."""
    return [LoreEntry.model_validate(entry).model_dump(mode="json") for entry in read_entries(raw)]


def _meta_names(asset: str, ext: str = "") -> Iterator[str]:
    """The x_meta notes RisuAI may have written for an asset member, in the order it tries them:
    x_meta/<name>.json, then <name>_1, <name>_2 ... (its writer numbers a name already taken).
    <name> is the asset's name (characterCards.ts metaPath): the member's path under
    assets/<type>/<folder>/ without its extension, nor the `.bin` bunzai adds to a json one (`ext`
    is the card entry's)."""
    parts = asset.split("/")
    rest = "/".join(parts[3:]) if len(parts) >= 4 and parts[0] == "assets" else parts[-1]
    if ext == "json" and rest.endswith(".json" + LOADABLE_SUFFIX):
        rest = rest.removesuffix(LOADABLE_SUFFIX)
    stem = rest.rsplit(".", 1)[0] if "." in rest.rsplit("/", 1)[-1] else rest
    yield f"x_meta/{stem}.json"
    yield from (f"x_meta/{stem}_{number}.json" for number in count(1))


def _card_assets(card: bytes) -> list[tuple[str | None, str]]:
    """Each entry of card.json's assets: the member its uri names (None for another uri), its ext."""
    data = json.loads(card).get("data")
    entries = data.get("assets") if isinstance(data, dict) else None
    return [
        (embedded_path(entry.get("uri")), entry.get("ext") if isinstance(entry.get("ext"), str) else "")
        if isinstance(entry, dict)
        else (None, "")
        for entry in (entries if isinstance(entries, list) else [])
    ]


def _asset_rank(assets: list[tuple[str | None, str]]) -> dict[str, int]:
    """Each member an entry of card.json's assets names, by the entry's index (RisuAI writes them so)."""
    rank: dict[str, int] = {}
    for index, (path, _ext) in enumerate(assets):
        if path is not None:
            rank.setdefault(path, index)
    return rank


def _laid_out(members: list[tuple[str, bytes]], card: bytes, store: dict[str, bytes]) -> list[tuple[str, bytes]]:
    """RisuAI's layout: each asset after its x_meta note, in card.json's asset order, then
    module.risum, then card.json. An asset the file did not have (not in `store`) gets the note
    RisuAI writes beside it, under the name RisuAI gives it (a note left by an asset now gone
    is written anew for it)."""
    metas = {name: data for name, data in members if name.startswith("x_meta/")}
    module = [(name, data) for name, data in members if name == MODULE_MEMBER]
    assets = _card_assets(card)
    rank = _asset_rank(assets)
    exts = {path: ext for path, ext in reversed(assets) if path is not None}  # the first entry's, as rank
    others = [(name, data) for name, data in members if name != MODULE_MEMBER and name not in metas]
    others.sort(key=lambda item: rank.get(item[0], len(rank)))  # stable: unnamed members keep their order
    paired: dict[str, str] = {}  # asset member -> its note
    taken: set[str] = set()
    for name, _data in others:  # the notes of the assets the file had, as RisuAI numbered them
        if name in store and (note := _note_for(name, exts.get(name, ""), metas, taken, new=False)):
            paired[name] = note
            taken.add(note)
    held = len(metas)
    for name, data in others:
        if name.startswith("assets/") and name not in store:
            paired[name] = _note_for(name, exts.get(name, ""), metas, taken, new=True)
            taken.add(paired[name])
            metas[paired[name]] = x_meta(data)
    _check_count(len(others) + len(metas) + len(module) + 1, len(metas) - held)
    ordered: list[tuple[str, bytes]] = []
    for name, data in others:
        if name in paired:
            ordered.append((paired[name], metas.pop(paired[name])))
        ordered.append((name, data))
    return ordered + list(metas.items()) + module + [(CARD_MEMBER, card)]


def _note_for(asset: str, ext: str, metas: dict[str, bytes], taken: set[str], new: bool) -> str:
    """The first note name no earlier asset took: one the file holds, or (for a new asset) one
    it does not; '' when the file holds no note for a kept asset."""
    for name in _meta_names(asset, ext):
        if name in taken:
            continue
        return name if name in metas or new else ""
    return ""


def _check_count(members: int, notes: int) -> None:
    """Refuse, saying why, a layout whose x_meta notes pass the member count bunzai opens."""
    if members > limits.ARCHIVE_MAX_MEMBERS >= members - notes:
        raise BunzaiError(
            "too_large",
            f"cannot write the archive: RisuAI's layout puts an x_meta/<name>.json note beside each asset, "
            f"and with {notes} new notes it would hold {members} members; bunzai opens at most "
            f"{limits.ARCHIVE_MAX_MEMBERS} (ARCHIVE_MAX_MEMBERS)",
            "cross the card to the generic charx format, which writes no notes, or keep fewer assets in it",
        )


class RisuCharx(rpack.NeedsTable, Adapter):
    format_id = FORMAT_ID
    label = "RisuAI CHARX character card"
    kinds = ("character",)
    extensions = (".charx", ".jpg")
    container = "archive"
    engine = "risuai"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if parsed is not None:
            return 0.0
        archive = open_archive(data)
        names = archive.names()
        if not archive.has(CARD_MEMBER) or not _risu_layout(names):
            return 0.0
        return 0.95 if _risu_marks(names, archive.read(CARD_MEMBER)) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        decoded = read_charx(data, name, FORMAT_ID, module_warning=False)
        files = self._files(decoded)
        module, why = _module_of(files, name or "the CHARX")
        if module is not None:
            _apply_module(decoded, module)
        elif why:
            decoded.warnings.append(
                f"not_decoded: module.risum in {name or 'the CHARX'} (RisuAI's regex scripts, "
                f"triggers and lorebook copy) is kept byte for byte but not read: {why}. "
                f"Hint: {rpack.NOT_DECODED_HINT}"
            )
        return decoded

    @staticmethod
    def _files(decoded: Decoded) -> dict[str, bytes]:
        blobs = {blob.sha256: blob.data for blob in decoded.blobs}
        original = decoded.pieces[0].original
        return {member: blobs[ref.sha256] for member, ref in original.files.items()} if original else {}

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        v2 = risu_v2_assets(piece, media, FORMAT_ID)  # a V2 card's emotions as assets, as RisuAI's export
        piece, media = v2.piece, v2.media
        original = piece.original
        own = original is not None and original.format == FORMAT_ID
        files = {member: media(ref) for member, ref in original.files.items()} if own else {}
        module, _why = _module_of(files, "the escrowed CHARX") if own else (None, "")
        body = piece.body.model_dump(mode="json")
        risu = [s for s in body["behavior_scripts"] if s["format"] in (SCRIPT, TRIGGER)]
        others = [s for s in body["behavior_scripts"] if s["format"] not in (SCRIPT, TRIGGER)]
        losses: list[Loss] = []
        card_body = body | {"behavior_scripts": others}
        table, why = rpack.current_table()
        if module is not None:
            held = _sealed(module)
            book = body["book"]
            module_entries = _entries(module["lorebook"]) if isinstance(module.get("lorebook"), list) else None
            same_book = module_entries is not None and book is not None and book["entries"] == module_entries
            if same_book:  # card.json keeps its own copy of the book as written
                card_body["book"] = self._card_book(original)
            if risu != held or not same_book:
                files[MODULE_MEMBER] = self._rebuilt(module, risu, book, table)
        elif risu:
            if table is not None:
                files[MODULE_MEMBER] = self._rebuilt(
                    {"name": f"{piece.name} Module", "description": f"Module for {piece.name}", "id": piece.id},
                    risu,
                    body["book"],
                    table,
                )
            else:
                losses.append(MODULE_NOT_WRITTEN.at("/body/behavior_scripts", f"{MODULE_NOT_WRITTEN.why} ({why})"))
        card_piece = piece.model_copy(update={"body": piece.body.model_validate(card_body)})
        if own:
            card_piece = card_piece.model_copy(
                update={
                    "original": original.model_copy(
                        update={"files": {k: v for k, v in original.files.items() if k != MODULE_MEMBER}}
                    )
                }
            )
        if not own:
            card_piece, missing = _without_missing_files(card_piece)
            losses += missing
        store = dict(files)
        encoded = write_charx(card_piece, media, FORMAT_ID, self._order(store), risu_asset_member)
        encoded.losses = [loss for loss in encoded.losses if loss.code != "card.scripts.not_carried"] + losses
        encoded.losses += v2.losses + import_losses(piece)
        for index, script in enumerate(body["behavior_scripts"]):
            if script["format"] not in ("sillytavern.regex", SCRIPT, TRIGGER):
                why = (
                    "a RisuAI CHARX carries "
                    "RisuAI scripts and triggers (in module.risum) and SillyTavern regex "
                    f"scripts, not {script['format'] or 'untyped'} payloads"
                )
                encoded.losses.append(CARD_SCRIPTS_NOT_CARRIED.at(f"/body/behavior_scripts/{index}", why))
        carried = [s for s in body["behavior_scripts"] if s["format"] == "sillytavern.regex"] + (
            risu if MODULE_MEMBER in files else []
        )
        if carried != body["behavior_scripts"] and not any(
            loss.pointer == "/body/behavior_scripts" for loss in encoded.losses
        ):
            encoded.losses.append(SCRIPTS_ORDER.at("/body/behavior_scripts"))
        return encoded

    @staticmethod
    def _order(store: dict[str, bytes]):
        def order(members: list[tuple[str, bytes]], card: bytes) -> list[tuple[str, bytes]]:
            if MODULE_MEMBER in store:
                members = members + [(MODULE_MEMBER, store[MODULE_MEMBER])]
            return _laid_out(members, card, store)

        return order

    @staticmethod
    def _card_book(original: Any) -> dict | None:
        raw = card_data(original.document).get("character_book")
        return read_book(raw)[0] if isinstance(raw, dict) else None

    @staticmethod
    def _rebuilt(module: dict, scripts: list[dict], book: dict | None, table: rpack.Table | None) -> bytes:
        if table is None:
            raise BunzaiError(
                "unsupported",
                "the card's RisuAI module must be re-encoded and no RPack table is configured",
                rpack.NOT_DECODED_HINT,
            )
        module = copied(module)
        module["regex"] = [s["payload"] for s in scripts if s["format"] == SCRIPT]
        module["trigger"] = [s["payload"] for s in scripts if s["format"] == TRIGGER]
        module["lorebook"] = write_entries(module.get("lorebook"), book["entries"] if book else [])
        return encode_module(module, module.pop("\0assets", []), table)


register(RisuCharx())
