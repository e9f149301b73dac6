"""The one crossing: a canonical piece to a platform file, with every loss named.

`transfer` shows this result and `export` writes it, so a preview can never report other
losses than the write that follows it. The losses are the adapter's own (with their
reasons), completed by a check: the written bytes are read back through the same adapter
and every canonical field that did not survive, and that no declared loss covers, is
reported too. A crossing therefore cannot drop a field silently.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from bunzai.adapters import registry
from bunzai.adapters.common.book_losses import alike_recursion_delays, empty_folders_enabled, sure_chances
from bunzai.adapters.common.card_doc import (
    CARD_FAMILY,
    LOREBOOK_V3_FORMAT,
    card_data,
    family_document,
    family_losses,
    world_id,
)
from bunzai.adapters.common.card_fields import world_of
from bunzai.adapters.common.losses import (
    ESCROW_OTHER_FORMAT,
    MACRO_ABSENT,
    MACRO_COLLISION,
    MACRO_FLATTENED,
    MACRO_IN_KEY,
    REPLACEMENT_LOST,
    REPLACEMENT_TRANSLATED,
    UNREADABLE,
    Cover,
    covered,
    escrow_why,
    not_carried,
)
from bunzai.adapters.common.naming import piece_id_for
from bunzai.adapters.common.png import default_portrait
from bunzai.adapters.contract import (
    LINKED_NAMES,
    OWN_BOOKS_BOUND,
    Adapter,
    EngineSettings,
    Loss,
    MediaSource,
    linked_name,
    linked_names_of,
)
from bunzai.adapters.inspect import parse_text, read_bytes
from bunzai.adapters.registry import all_adapters, writer_for
from bunzai.adapters.sillytavern.st_json import file_stem
from bunzai.adapters.sillytavern.user_folder import plain_stem
from bunzai.changes.diff import aligned, all_changes, draft_changes
from bunzai.changes.entry_slice import entry_slice, fits
from bunzai.changes.receipts import receipt
from bunzai.errors import BunzaiError, unknown_name
from bunzai.jsondoc.values import equal
from bunzai.limits import IMPACT_POINTERS_SHOWN
from bunzai.macros.catalog import engine_ids
from bunzai.macros.crossing import KEYS_EXPANDED_BY, translate_piece
from bunzai.model import dump_piece
from bunzai.model.character import CharacterBook
from bunzai.query.pointer import join, parse
from bunzai.store.assets import read_asset
from bunzai.store.exports import write_export, write_export_folder
from bunzai.store.pieces import read_stored, resolve_ref, try_read
from bunzai.store.settings import read_settings
from bunzai.validate import validate_piece

# Parts of a piece compared after the read-back. `id` is the studio's, not the file's;
# `original` is the escrow, reported on its own below.
_COMPARED = ("name", "body", "assets", "profiles")


@dataclass
class Crossing:
    format: str
    label: str
    file_name: str
    data: bytes
    losses: list[Loss] = field(default_factory=list)
    macros: dict | None = None  # the macro translation report, when engines differ
    book: dict | None = None  # the linked lorebook a character's export embedded (linked_book)
    files: list[tuple[str, bytes]] | None = None  # a folder-shaped format: its files (file_name is the folder)

    def report(self) -> dict:
        doc = {
            "format": self.format,
            "label": self.label,
            "file_name": self.file_name,
            "size": len(self.data),
            "sha256": hashlib.sha256(self.data).hexdigest(),
            "losses": [loss.to_json() for loss in self.losses],
        }
        if self.files is not None:  # a folder has no bytes of its own: its files are listed instead
            del doc["sha256"]
            doc["size"] = sum(len(data) for _, data in self.files)
            doc["files"] = [
                {"name": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                for name, data in self.files
            ]
        if self.macros is not None:
            doc["macros"] = self.macros
        if self.book is not None:
            doc["book"] = self.book
        return doc


def convert_piece(
    piece,
    target_format: str,
    media: MediaSource,
    *,
    engine: str | None = None,
    source: str | None = None,
    check: bool = True,
    stem: str | None = None,
) -> Crossing:
    """Write `piece` as `target_format`; the bytes, the file name and every loss.

    When the piece's text was written for one macro engine and the target is read by
    another (the target format's engine, or `engine` where the format alone does not say,
    e.g. Lumiverse reading SillyTavern files; `source` names the engine the text was written
    for when the piece's original format does not say, e.g. a piece authored in bunzai), the
    macros are translated first and the
    verdicts join the report: absent tokens as `dropped` losses, flattened blocks as
    `flattened`, and every verdict (portable, collision ...) under `macros`.

    `check=False` leaves out the read-back check: the losses are the declared ones only.
    For a caller that reads the written file back itself (platform_impact). `stem` names
    the file (a caller that writes it under a name of its own, as a library export does).
    """
    adapter = writer_for(target_format, piece.kind)
    piece, macros, macro_losses = _translated(piece, adapter, engine, source)
    encoded = adapter.write(piece, media)
    file_name = written_name(adapter, piece, encoded, stem)
    losses = macro_losses + [
        _as_written(loss, adapter, file_name) for loss in encoded.losses if not _named_by_file(loss, piece, file_name)
    ]
    losses += _escrow_losses(piece, adapter, losses)
    if check:
        losses += _unreported_losses(piece, adapter, encoded, losses, file_name)
    return Crossing(adapter.format_id, adapter.label, file_name, encoded.data, losses, macros, files=encoded.files)


def written_name(adapter: Adapter, piece, encoded, stem: str | None = None) -> str:
    """The file name of a crossing (see export_file_name); a folder format's own folder name."""
    if encoded.files is not None:
        return stem or plain_stem(encoded.name or "", piece.id)
    return export_file_name(piece, adapter, stem)


def read_back(adapter: Adapter, data: bytes, name: str, files: list[tuple[str, bytes]] | None):
    """A written file (or folder) read again through the adapter that wrote it."""
    if files is not None:
        return adapter.read(b"", name, dict(files))
    return read_bytes(data, name, adapter.format_id)[1]


def export_file_name(piece, adapter: Adapter, stem: str | None = None) -> str:
    """The file an export writes: `stem`, else the piece's current name as a file stem
    (`plain_stem`), else its id; then the target's extension.

    SillyTavern saves a preset, a world or a card under its name, and reads the name of a
    world or a nameless preset from the file name: so a piece renamed since its import is
    written under its new name, never under the file it was read from.
    """
    return (stem or plain_stem(piece.name, piece.id)) + adapter.extensions[0]


# Losses of a name that only the file carries: the adapter cannot know the file name, so it
# declares them; the crossing, which names the file, drops the ones its file name answers.
NAMED_BY_FILE = (
    "world.name.file_stem",
    "preset.name.file_stem",
    "regex.set.name.file_name",
    "pack.name.file_name",
    "risu.name.file_name",
)


def _named_by_file(loss: Loss, piece, file_name: str) -> bool:
    """A loss of the name that the file name answers: the file is named after the piece."""
    if loss.code not in NAMED_BY_FILE:
        return False
    return file_stem(file_name) == piece.name


def _as_written(loss: Loss, adapter: Adapter, file_name: str) -> Loss:
    """A loss of the name, saying which file it is written as: the adapter, which cannot know
    the file name, says `<id>.json` or nothing."""
    if loss.code not in NAMED_BY_FILE:
        return loss
    why = loss.why.replace("<id>" + adapter.extensions[0], file_name).replace("<id>", file_stem(file_name))
    if file_name not in why:
        why += f" (written as {file_name})"
    return replace(loss, why=why)


def convert_stored_piece(
    studio,
    piece,
    target_format: str,
    *,
    engine: str | None = None,
    source: str | None = None,
    current_book: bool = True,
    stem: str | None = None,
    link_names: dict[str, str] | None = None,
    books_inside: Collection[str] = (),
    books_bound: Collection[str] = (),
) -> Crossing:
    """The crossing for a piece on the shelf: its media come from the studio's assets.

    A character embeds its linked lorebook as it is now (`linked_book`), unless
    `current_book` is False (a user-folder export, which writes the world beside it). `stem`
    names the file (see convert_piece). `link_names` gives the name a linked lorebook goes by
    where the caller knows it better than its stored name (the file a library export wrote it to).
    `books_inside` names the lorebooks a user-folder export writes inside their cards only (an
    unbound card's own book, which SillyTavern has no world file for): such a card embeds its
    book as it is now, as any export does. `books_bound` names those whose world file it writes
    beside the card all the same (another piece binds the book): such a card binds that file by
    the name `link_names` gives, as SillyTavern's Import Card Lore does, its book kept as imported
    and named as that world, as a card bound at import is written.
    """
    target_format = platform_format(piece, target_format)
    piece, book = linked_book(studio, piece) if current_book else (piece, None)
    bound: frozenset[str] = frozenset()
    if not current_book and own_book_linked(studio, piece):
        first = piece.body.links.lorebooks[0]
        if first in books_inside:  # no world file holds it: the card carries it, edits and name included
            piece, book = linked_book(studio, piece)
        if first in books_bound:
            bound = frozenset({first})
        else:
            # An unbound card's own book binds nothing, whatever file it is written to (Lore1 beside another
            # Lore) and whatever it is called on the shelf (renamed Saga): to the writer it goes by the name
            # of the book the card holds, which tells it the link is that book.
            link_names = {**(link_names or {}), first: piece.body.book.name}
    token = OWN_BOOKS_BOUND.set(bound)
    try:
        with linked_names(studio, piece, link_names or {}):
            if not current_book:
                piece = book_named_as_world(piece, bound_now=bool(bound))
            crossing = convert_piece(
                piece,
                target_format,
                studio_media(studio),
                engine=engine,
                source=source,
                stem=stem,
            )
    finally:
        OWN_BOOKS_BOUND.reset(token)
    crossing.book = book
    return crossing


def studio_media(studio) -> MediaSource:
    """The studio's assets as one crossing reads them: each read whole and checked against its
    hash once, however often the writer asks (a Marinara sprite is asked for its type, then for
    its bytes; a card's image for its escrow, then for the check of the file written)."""
    read: dict[tuple[str, str], bytes] = {}

    def media(ref) -> bytes:
        key = (ref.sha256, ref.ext)
        if key not in read:
            read[key] = read_asset(studio, *key)
        return read[key]

    return media


@contextmanager
def linked_names(studio, piece, known: dict[str, str]):
    """While a piece is written: the names of the pieces it links to by name in LINKED_NAMES: the
    lorebook a character or persona binds (`known`, else as stored on the shelf), so a card or a
    persona binds its world by the world's name, and the sets a quick-reply set's menus offer."""
    names: dict[tuple[str, str], str] = {}
    bound = []
    if piece.kind == "character":
        bound = piece.body.links.lorebooks[:1]  # a card binds one world: the first
    elif piece.kind == "persona" and piece.body.lorebook:
        bound = [piece.body.lorebook]
    for book_id in bound:
        if book_id in known:
            names["lorebook", book_id] = known[book_id]
            continue
        stored = try_read(studio, "lorebook", book_id)
        if stored is not None and isinstance(stored.data.get("name"), str):
            names["lorebook", book_id] = stored.data["name"]
    # the quick-reply sets a set's context menus offer, by the names SillyTavern finds them by
    offered = (
        [link.set for item in piece.body.items for link in item.context_list] if piece.kind == "quickreply" else []
    )
    for set_id in dict.fromkeys(offered):
        stored = try_read(studio, "quickreply", set_id)
        if stored is not None and isinstance(stored.data.get("name"), str) and stored.data["name"]:
            names["quickreply", set_id] = stored.data["name"]
    token = LINKED_NAMES.set(names)
    try:
        yield
    finally:
        LINKED_NAMES.reset(token)


def platform_format(piece, to: str) -> str:
    """`to` as a format id. A platform's name (`sillytavern`, `risuai`: a format id's first
    part, or its macro engine) stands for the format of that platform that writes the piece's
    kind: the one there is, else the format the piece came from, else the one SillyTavern's
    user folder keeps it in (a preset's family picks its folder). Where several are left the
    refusal lists them; a name that is neither a format nor a platform is left to the registry.
    """
    adapters = all_adapters()
    if any(a.format_id == to for a in adapters):
        return to
    platform = [a for a in adapters if to in (a.format_id.split(".")[0], a.engine)]
    able = [a for a in platform if a.can_write and piece.kind in a.kinds]
    writers = [a.format_id for a in able if not a.why_unavailable()]
    if not platform:
        return to  # unknown_format, with its suggestions
    if not writers and able:
        return able[0].format_id  # its writer says why it is unavailable (a RisuAI checkout to configure)
    if not writers:
        raise BunzaiError("unsupported", f"no {to} format writes a {piece.kind}", "see `bunzai formats`")
    chosen = _chosen_writer(piece, writers)
    if chosen is None:
        raise BunzaiError(
            "unknown_format",
            f"{to} has {len(writers)} formats that write a {piece.kind}: {', '.join(writers)}",
            "name one of them with --to",
            choices=writers,
        )
    return chosen


def _chosen_writer(piece, writers: list[str]) -> str | None:
    if len(writers) == 1:
        return writers[0]
    own = piece.original.format if piece.original is not None else None
    if own in writers:
        return own
    from bunzai.adapters.sillytavern.user_folder import place_of

    place = place_of(piece) if piece.kind == "preset" else None  # the family's folder
    return place.format_id if place is not None and place.format_id in writers else None


def own_book(first, piece) -> bool:
    """Whether `piece` is `first`'s own book: a card's `character_book` (Agnai's memory book ...)
    is also read as a lorebook piece, and it crosses in the character, whose write carries it or
    reports it lost; it is no piece left behind."""
    book = first.body.book if first.kind == "character" else None
    if book is None or piece.kind != "lorebook":
        return False
    return all(getattr(piece.body, key) == getattr(book, key) for key in type(piece.body).model_fields)


def linked_book(studio, piece):
    """A character with its linked lorebook piece embedded as that piece is now.

    SillyTavern re-embeds a card's bound world on every save; so does an export here: when
    the character's first linked lorebook is on the shelf, its current content replaces the
    book copied at import. Returns the piece and what was embedded ({ref, revision,
    differs_from_import}), or the piece unchanged and None.
    """
    if piece.kind != "character" or not piece.body.links.lorebooks:
        return piece, None
    book_id = piece.body.links.lorebooks[0]
    stored = try_read(studio, "lorebook", book_id)
    if stored is None:
        return piece, None
    lorebook = validate_piece(stored.data)
    before = piece.body.book
    current = lorebook.body.model_dump(mode="json") | {"name": embedded_name(piece, lorebook.name)}
    differs = before is None or before.model_dump(mode="json") != current
    report = {"ref": f"lorebook/{book_id}", "revision": stored.revision, "differs_from_import": differs}
    if not differs:
        return piece, report
    body = piece.body.model_copy(update={"book": CharacterBook.model_validate(current)})
    return piece.model_copy(update={"body": body}), report


def embedded_name(piece, world: str) -> str:
    """The name a character's embedded book goes by when it is the world called `world`: the
    world's, as SillyTavern rebuilds a bound card's book from its world on every save and names it
    so (charaFormatData: convertWorldInfoToCharacterBook(data.world, ...)); but a world that got
    its name from the card at import (`<card>'s Lorebook`, what a nameless book's world is called)
    leaves the book the name it had."""
    before = piece.body.book
    return before.name if before is not None and world == f"{piece.name}'s Lorebook" else world


def book_named_as_world(piece, bound_now: bool = False):
    """A character whose embedded book is written as imported, beside its world (a user-folder
    export), with the book named as that world now goes by (LINKED_NAMES: the file the export
    writes it to, else its name on the shelf), so the card does not name its world one way and its
    book another; else the piece unchanged. A card that was bound to no world keeps its own book's
    name: SillyTavern rebuilds only a bound card's book (its book may share a world's name alone,
    and be written to a world file of the next name beside that world), unless it is `bound_now`
    to its own book's world file (OWN_BOOKS_BOUND)."""
    if piece.kind != "character" or piece.body.book is None or not piece.body.links.lorebooks:
        return piece
    if not bound_now and not _bound_at_import(piece):
        return piece
    world = linked_name("lorebook", piece.body.links.lorebooks[0])
    if world is None or embedded_name(piece, world) == piece.body.book.name:
        return piece
    book = piece.body.book.model_copy(update={"name": embedded_name(piece, world)})
    return piece.model_copy(update={"body": piece.body.model_copy(update={"book": book})})


def own_book_linked(studio, piece) -> bool:
    """Whether a character imported unbound links first to its own book (an import drafts it apart
    as a lorebook piece): the lorebook on the shelf that goes by the name of the book the card
    holds, or the one drafted from the card's own `character_book`, whatever it is called now."""
    if piece.kind != "character" or piece.body.book is None or not piece.body.links.lorebooks:
        return False
    if piece.original is None or _bound_at_import(piece):
        return False
    stored = try_read(studio, "lorebook", piece.body.links.lorebooks[0])
    return stored is not None and (stored.data.get("name") == piece.body.book.name or _drafted_from(stored.data, piece))


def _drafted_from(lorebook: dict, piece) -> bool:
    """Whether `lorebook` (a stored piece) is the one an import drafted from `piece`'s card book: its
    escrow is that very book, as the card's escrow holds it (`card_doc.read_card`). The escrow is
    never edited, so this holds after the lorebook is renamed or its entries edited."""
    found = family_document(piece.original)
    original = lorebook.get("original")
    if found is None or not isinstance(original, dict) or original.get("format") != LOREBOOK_V3_FORMAT:
        return False
    book = card_data(found[1]).get("character_book")
    return isinstance(book, dict) and original.get("document") == {"spec": "lorebook_v3", "data": book}


def _bound_at_import(piece) -> bool:
    """Whether a character's card, as imported, was bound to a world (`extensions.world`)."""
    found = family_document(piece.original) if piece.kind == "character" else None
    return found is not None and bool(world_of(card_data(found[1])))


def source_engine(piece) -> str | None:
    """The macro engine the piece's text was written for: its original format's engine."""
    if piece.original is None:
        return None
    for adapter in all_adapters():
        if adapter.format_id == piece.original.format:
            return adapter.engine
    return None


def _translated(piece, adapter: Adapter, engine: str | None, source: str | None = None):
    source, target = source or source_engine(piece), engine or adapter.engine
    if source is None and piece.kind == "regex":
        source = "sillytavern"  # its replacements are read as SillyTavern's (below), so its macros are too
    # A regex replacement's own syntax ({{match}}, $&, $$ ...) is respelled where {{match}}
    # is SillyTavern's: before its macros are translated from SillyTavern, after they are to it.
    from_st = source != "risuai"
    piece, losses = _replacements_carried(piece, source, target) if from_st else (piece, [])
    if source is None or target is None or source == target:
        return _line_ends_kept(piece, source, target), None, losses
    translated, report = translate_piece(piece, source, target)
    if not from_st:
        translated, losses = _replacements_carried(translated, source, target)
    translated = _line_ends_kept(translated, source, target)
    for found in report.keys:
        expander, literal = (source, target) if source in KEYS_EXPANDED_BY else (target, source)
        why = f"{found['key']}: {expander} expands the macros in a lorebook key before matching it"
        why += f", {literal} matches it as written"
        losses.append(MACRO_IN_KEY.at(found["pointer"], why))
    for verdict in report.verdicts:
        if verdict["verdict"] == "absent" and not verdict.get("kept"):
            losses.append(
                MACRO_ABSENT.at(verdict["pointer"], f"{verdict['token']}: {target} has no such macro; removed")
            )
        elif verdict["verdict"] == "collision":
            read = "text" if verdict.get("as_text") else verdict.get("target_op") or "its own macro"
            why = f"{verdict['token']}: {target} reads this as {read}, not "
            losses.append(MACRO_COLLISION.at(verdict["pointer"], why + f"{verdict.get('op')}; left as written"))
        elif verdict["verdict"] == "flatten":  # its note says what was kept: a branch, or a literal body as text
            note = verdict.get("note") or f"{target} cannot express this block; its first branch was kept"
            losses.append(MACRO_FLATTENED.at(verdict["pointer"], f"{verdict['token']}: {note}"))
    return translated, report.report(), losses


def _replacements_carried(piece, source: str | None, target: str | None) -> tuple[Any, list[Loss]]:
    """A regex set whose replacements are read by another platform's rules, respelled for it
    (bunzai.regexlab.replacement): a `translated` loss per rule respelled, a `dropped` one per
    token the target cannot express. Text with no source engine is read as SillyTavern's."""
    if piece.kind != "regex" or target is None:
        return piece, []
    from bunzai.regexlab import replacement

    was, now = replacement.convention_of(source), replacement.convention_of(target)
    if was == now:
        return piece, []
    losses: list[Loss] = []
    rules = []
    for index, rule in enumerate(piece.body.rules):
        at = f"/body/rules/{index}/replacement"
        found = replacement.captures(rule.pattern)
        carried = replacement.translate(
            rule.replacement, was, now, found, no_end_newline="no_end_nl" in _risu_tokens(rule)
        )
        respelled = [v for v in carried.verdicts if v["verdict"] == "translated"]
        if respelled:
            spelled = ", ".join(f"{v['token']} -> {v['to']!r}" for v in respelled)
            losses.append(REPLACEMENT_TRANSLATED.at(at, f"respelled for {now}: {spelled}"))
        for verdict in carried.verdicts:
            if verdict["verdict"] == "lost":
                losses.append(REPLACEMENT_LOST.at(at, f"{verdict['token']}: {verdict['note']}; removed"))
        rules.append(
            rule.model_copy(update={"replacement": carried.text}) if carried.text != rule.replacement else rule
        )
    return piece.model_copy(update={"body": piece.body.model_copy(update={"rules": rules})}), losses


def _risu_tokens(rule) -> list:
    risu = rule.extensions.get("risuai")
    tokens = risu.get("flag_tokens") if isinstance(risu, dict) else None
    return tokens if isinstance(tokens, list) else []


def _line_ends_kept(piece, source: str | None, target: str | None):
    """A SillyTavern replacement ending in ">" crossing to RisuAI gets the `no_end_nl` flag token,
    else RisuAI adds a line break after it. Judged on the final text (after macros are translated)."""
    if piece.kind != "regex" or target != "risuai" or source == "risuai":
        return piece
    rules = []
    for rule in piece.body.rules:
        tokens = _risu_tokens(rule)
        if rule.replacement.endswith(">") and "no_end_nl" not in tokens:
            risu = rule.extensions.get("risuai")
            extensions = {**rule.extensions, "risuai": {**(risu if isinstance(risu, dict) else {})}}
            extensions["risuai"]["flag_tokens"] = [*tokens, "no_end_nl"]
            rule = rule.model_copy(update={"extensions": extensions})
        rules.append(rule)
    return piece.model_copy(update={"body": piece.body.model_copy(update={"rules": rules})})


def _escrow_losses(piece, adapter: Adapter, declared: list[Loss]) -> list[Loss]:
    original = piece.original
    if (
        original is None
        or original.format == adapter.format_id
        or adapter.carries_escrow
        or covered("/original", declared)
    ):
        return []
    return [ESCROW_OTHER_FORMAT.at("/original", escrow_why(original.format, adapter.format_id))]


def _unreported_losses(piece, adapter: Adapter, encoded, declared: list[Loss], file_name: str = "") -> list[Loss]:
    if not adapter.can_read:
        return []
    data, name = encoded.data, file_name or written_name(adapter, piece, encoded)
    try:
        if encoded.files is not None:
            decoded = adapter.read(b"", name, dict(encoded.files))
        else:
            decoded = adapter.read(data, name, _parsed(adapter, data))
    except Exception as error:  # noqa: BLE001 - an unreadable result is itself the loss to report
        return [UNREADABLE.at("", f"the written file does not read back through {adapter.format_id}: {error}")]
    if not decoded.pieces:
        return [UNREADABLE.at("", "the written file reads back as no piece")]
    back = _same_kind(decoded, piece)
    before, after = dump_piece(piece), dump_piece(back)
    # a link kept by name, the `enabled` of an empty RisuAI folder, which inserts nothing either way,
    # a chance of 100 on or off, which fires as surely, and a recursion delay of true or 1, false or 0
    same = _bound_by_name(piece, back) | empty_folders_enabled(before) | sure_chances(before, after)
    same |= alike_recursion_delays(before, after)
    lost = [p for p in lost_pointers(before, after, declared) if p not in same]
    found = not_carried(lost, adapter.label)
    # an extension the writer reported itself (/body/extensions/... is the card's data.extensions/...,
    # key for key) is not reported again: it may have carried it elsewhere (RisuAI V2 emotions as assets)
    reported = {loss.pointer.removeprefix("/body") for loss in declared if loss.pointer.startswith("/body/extensions/")}
    # and a book entry it reported whole (a RisuAI folder written disabled) is the card's
    # data.character_book/entries/N: what the file holds differently under it is that loss
    entries = {
        "/character_book/entries/" + loss.pointer.rpartition("/")[2]
        for loss in declared
        if loss.pointer.startswith("/body/book/entries/") and loss.pointer.count("/") == 4
    }
    family = family_losses(piece, back, adapter.label)
    return found + [
        loss
        for loss in family
        if (rest := loss.pointer.split("/data", 1)[-1]) not in reported
        and "/".join(rest.split("/", 4)[:4]) not in entries
    ]


def _bound_by_name(piece, back) -> set[str]:
    """The link pointers a card or persona kept by name: a world bound by the name its lorebook
    goes by (LINKED_NAMES) reads back as that name's id, not the studio's (an import may
    have suffixed it), and is the same world to SillyTavern."""
    names = linked_names_of("lorebook")
    if piece.kind != back.kind or not (names or piece.kind == "quickreply"):
        return set()
    if piece.kind == "quickreply":
        return _sets_bound_by_name(piece, back)
    if piece.kind == "persona":
        book = piece.body.lorebook
        read = piece_id_for(names[book], "", "lorebook") if book in names else None  # as the backup reads it
        return {"/body/lorebook"} if read is not None and back.body.lorebook == read else set()
    if piece.kind != "character":
        return set()
    links, read = piece.body.links.lorebooks, back.body.links.lorebooks
    return {
        f"/body/links/lorebooks/{i}"
        for i, link in enumerate(links)
        if link in names and i < len(read) and read[i] == world_id(names[link])
    }


def _sets_bound_by_name(piece, back) -> set[str]:
    """The context links a quick-reply set kept by name (LINKED_NAMES): the set's name reads
    back as that name's id, not the studio's, and is the same set to SillyTavern."""
    names, bound = linked_names_of("quickreply"), set()
    for i, (item, read) in enumerate(zip(piece.body.items, back.body.items)):
        for j, (link, again) in enumerate(zip(item.context_list, read.context_list)):
            if link.set in names and again.set == piece_id_for(names[link.set], "", "set"):
                bound.add(f"/body/items/{i}/context_list/{j}/set")
    return bound


def _same_kind(decoded, piece):
    """The piece read back that stands for `piece`: the first of its kind (a regex set written as
    a .risum reads back after the module's lorebook), else the first."""
    return next((read for read in decoded.pieces if read.kind == piece.kind), decoded.pieces[0])


def lost_pointers(before: dict, after: dict, declared: list[Loss]) -> list[str]:
    """Pointers of `before` (a canonical piece) that `after` did not keep and no loss names.

    A list item the read-back gained (a reader linking the book it found) is not a loss.
    """
    cover = Cover(declared)
    return [
        path
        for part in _COMPARED
        for path in _lost_paths(before.get(part), after.get(part), f"/{part}")
        if not cover(path)
    ]


def _lost_paths(old, new, where: str):
    """The paths of the rows `old` -> `new` differs in, but for list items the read-back gained."""
    for change in _item_changes(all_changes(old, new, where)):
        if not (change["op"] == "add" and change["path"].rsplit("/", 1)[-1].isdigit()):
            yield change["path"]


def lost_along(before: dict, after: dict, pointer: str, same: frozenset[str] | set[str] = frozenset()) -> str | None:
    """The first pointer `lost_pointers(before, after, [])` lists at, above or under `pointer`,
    or None: found by walking down `pointer` alone, so a draft's impact (one entry edited in
    a book of thousands) compares the changed values, not the whole piece per format. The
    pointers in `same` (values the two sides hold apart that mean the same) are passed over."""
    part, *tokens = parse(pointer) or [""]
    if part not in _COMPARED:
        return None  # the id and the escrow are never compared
    old, new, where = before.get(part), after.get(part), join("", part)
    for token in tokens:
        if isinstance(old, dict) and isinstance(new, dict):
            if token not in old or token not in new:  # a key on one side only: its row, unless an add
                return join(where, token) if token in old or (token in new and not token.isdigit()) else None
        elif isinstance(old, list) and isinstance(new, list):
            index = int(token) if token.isdigit() and str(int(token)) == token else len(old) + len(new)
            if index >= min(len(old), len(new)):  # past the shorter list: a removed item is lost, an added one not
                return join(where, token) if index < len(old) else None
            token = index
        else:
            return None if equal(old, new) else where  # a value replaced here, so everything under it
        old, new, where = old[token], new[token], join(where, token)
    return next((path for path in _lost_paths(old, new, where) if path not in same), None)


def _item_changes(changes: list[dict]) -> list[dict]:
    """Changes with a shortened or lengthened list split into rows per item.

    all_changes reports a list whose length changed as one replace (right for drafts, where an
    insertion is not a change of every later item); a loss is declared per item ("the
    second lorebook link is not carried"), so here the list is compared item by item.
    """
    rows = []
    for change in changes:
        old, new = change.get("before"), change.get("after")
        if change["op"] == "replace" and isinstance(old, list) and isinstance(new, list):
            common = min(len(old), len(new))
            rows += _item_changes(all_changes(old[:common], new[:common], change["path"]))  # lists within, too
            rows += [{"op": "remove", "path": join(change["path"], i)} for i in range(common, len(old))]
            rows += [{"op": "add", "path": join(change["path"], i)} for i in range(common, len(new))]
        else:
            rows.append(change)
    return rows


def _parsed(adapter: Adapter, data: bytes):
    if adapter.container != "text":
        return None
    if adapter.format_id in ("risu.module", "risu.preset"):  # binary, read with no document (as inspect does)
        return None
    return parse_text(data, "x" + adapter.extensions[0])


def impact_formats(kind: str) -> list[str]:
    """The formats a draft's impact is computed for: the card family for characters (the
    formats a character is exported to), else every format that writes and reads `kind`
    (RisuAI's .risum and .risup only when the RPack table is configured)."""
    formats = [
        a.format_id
        for a in all_adapters()  # unavailable: .risum/.risup without the RPack table
        if kind in a.kinds and a.can_read and a.can_write and a.format_id != "bunzai.native" and not a.why_unavailable()
    ]
    return [f for f in formats if f in CARD_FAMILY] if kind == "character" else formats


def platform_impact(
    before: dict | None,
    proposed: dict,
    attachments: dict | None = None,
    *,
    whole: bool = False,
    rows: list[dict] | None = None,
) -> list[dict]:
    """Which formats would not carry a draft's change, computed by crossing it.

    The proposed piece (without its escrow: the change is in its canonical fields) is
    written to each format of `impact_formats` and read back; every changed pointer
    (`before` -> `proposed`; for a new piece, the whole piece) that the read-back does not
    keep is one row: {platform, pointer, note}. A change to a few entries of a book crosses
    those entries only (changes/entry_slice.py), unless `whole`: the rows are the same.
    `rows`, where the caller has them, are `draft_changes(before, proposed)` of the two whole
    (dumped) pieces, so that they are not walked twice. Media come from the draft's
    attachments; any other asset reads as a plain default image.
    """
    import base64

    if before is None:
        changed = None
    else:
        if rows is None:
            rows = draft_changes({k: before.get(k) for k in _COMPARED}, {k: proposed.get(k) for k in _COMPARED}, "")
        else:  # the compared parts' rows (a dumped piece has every part, so none is missing on one side)
            rows = [row for row in rows if row["path"][1:].partition("/")[0] in _COMPARED]
        # item by item, aligned: entries taken out of (or put into) a book of thousands are their
        # own places, not a change of every later entry; an item taken out is not a row, nor
        # is a move (every format keeps its lists' order; the moved item's own changes are rows)
        changed = [c["path"] for c in aligned(rows, whole=False, removed=False) if c["op"] != "move"]
    if changed == []:
        return []
    stored = {sha: base64.b64decode(item["base64"]) for sha, item in (attachments or {}).items() if "base64" in item}

    def media(ref):
        return stored.get(ref.sha256) or default_portrait()

    sliced = entry_slice(proposed, changed) if changed is not None and not whole else None
    part = _crossed(sliced.piece) if sliced is not None else None
    full = None  # the whole piece, validated only when a format needs it
    impact = []
    for fmt in impact_formats(proposed["kind"]):
        if part is not None:
            found = _format_impact(*part, fmt, media, sliced.pointers, changed, sliced.omitted, sliced.agree)
            if found is not None:
                impact += found
                continue  # else the whole piece's file may pass the reader's size limit: crossed whole
        full = full or _crossed(proposed)
        impact += _format_impact(*full, fmt, media, changed, changed)
    return impact


def _crossed(proposed: dict) -> tuple:
    """(the piece that crosses, its dump): the proposed piece without its escrow, since the
    change is in its canonical fields."""
    piece = validate_piece(dict(proposed, original=None))
    return piece, dump_piece(piece)


def _format_impact(
    piece,
    target: dict,
    fmt: str,
    media: MediaSource,
    changed: list[str] | None,
    shown: list[str] | None,
    omitted: int | None = None,
    agree: tuple[tuple[str, ...], ...] = (),
) -> list[dict] | None:
    """platform_impact's rows for one format, each changed pointer named as `shown` names it
    (`changed` is renumbered when a slice of the piece crosses, and `omitted` is the measure
    of what the slice left out: None when the whole piece's file may not fit its reader, or
    when the slice's entries that stand in for others (`agree`, entry_slice._stand_ins) do
    not all show the same row). A
    function of its own so that one format's file, read-back and escrow are freed before the
    next is written: a book of thousands of entries is several copies of itself in memory
    while it crosses."""
    try:
        crossing = convert_piece(piece, fmt, media, check=False)  # read back once, here
    except BunzaiError as refused:  # the writer says why (a preset of a family the format keeps nothing of)
        return [
            {"platform": fmt, "pointer": "", "note": f"refused ({refused.code}): {refused.message}; {refused.hint}"}
        ]
    except Exception:  # noqa: BLE001 - a format that cannot take the piece is named, not hidden
        return [{"platform": fmt, "pointer": "", "note": f"{fmt} cannot write this piece"}]
    try:
        archive = registry.get_adapter(fmt).container == "archive"
        if omitted is not None and not fits(crossing.data, omitted, archive=archive):
            return None
        decoded = read_back(writer_for(fmt, piece.kind), crossing.data, crossing.file_name, crossing.files)
        arrived = dump_piece(_same_kind(decoded, piece))
    except Exception:  # noqa: BLE001 - a file that does not read back is named, not hidden
        return [{"platform": fmt, "pointer": "", "note": f"{fmt} cannot write this piece"}]
    label, losses = crossing.label, crossing.losses
    del crossing, decoded  # the file and the read-back's escrow: only `arrived` is compared
    same = sure_chances(target, arrived)  # a chance of 100 on or off (see _unreported_losses)
    if changed is None:
        lost = [pointer for pointer in lost_pointers(target, arrived, []) if pointer not in same]
        if not lost:
            return []
        more = f" and {len(lost) - IMPACT_POINTERS_SHOWN} more" if len(lost) > IMPACT_POINTERS_SHOWN else ""
        return [
            {
                "platform": fmt,
                "pointer": "",
                "note": f"{label} does not carry {', '.join(lost[:IMPACT_POINTERS_SHOWN])}{more}",
            }
        ]
    declared = Cover(losses)
    notes: dict[str, str | None] = {}  # by pointer: several stand for one kept entry's (entry_slice)

    def note(pointer: str) -> str | None:
        if pointer not in notes:
            notes[pointer] = _note(lost_along(target, arrived, pointer, same), declared, label)
        return notes[pointer]

    if any(len({note(pointer) for pointer in kept}) > 1 for kept in agree):
        return None
    rows = []
    for pointer, named in zip(changed, shown):
        found = note(pointer)
        if found is not None:
            rows.append({"platform": fmt, "pointer": named, "note": found})
    return _folded(rows)


def _note(hit: str | None, declared: Cover, label: str) -> str | None:
    """The note of a row for a change lost at `hit`: the declared loss that covers it, else the
    read-back check's own (as convert_piece reports); None where nothing was lost."""
    if hit is None:
        return None
    why = (declared.first(hit) or not_carried([hit], label)[0]).why
    return f"{label} does not carry this change" + (f": {why}" if why else "")


def _folded(rows: list[dict]) -> list[dict]:
    """One format's rows with each note past IMPACT_POINTERS_SHOWN pointers folded into one
    row that counts the rest (`more`): a move in a book of thousands renumbers every entry's
    display_index, which a format without one would otherwise name thousands of times."""
    seen: dict[str, int] = {}
    kept, folded = [], {}
    for row in rows:
        seen[row["note"]] = seen.get(row["note"], 0) + 1
        if seen[row["note"]] <= IMPACT_POINTERS_SHOWN:
            kept.append(row)
        else:
            folded.setdefault(row["note"], dict(row, pointer="", more=0))["more"] += 1
    for row in folded.values():
        row["note"] += f" (and {row['more']} more pointers with this note)"
    return kept + list(folded.values())


# --- the crossing of a stored piece, as `transfer` and `export` (CLI and MCP) run it -------


def check_engine(engine: str | None) -> str | None:
    """A target engine named by a caller must be one bunzai has a macro catalog for."""
    if engine is None:
        return None
    if engine not in engine_ids():
        known = engine_ids()
        raise unknown_name("not_found", f"no macro engine {engine!r}", engine, known, "engines: " + ", ".join(known))
    return engine


def stored_piece(studio, ref: str):
    """(validated piece, Stored) for a kind/id or bare id."""
    kind, piece_id = resolve_ref(studio, ref)
    stored = read_stored(studio, kind, piece_id)
    return validate_piece(stored.data), stored


def configure_engines(studio) -> None:
    """Hand the studio's engine checkouts (bunzai.toml `[engines]`) to the adapters that need them.

    `risu` names a RisuAI checkout: its RPack table decodes and encodes .risum modules and
    .risup presets (bunzai does not ship it; BUNZAI_RISU_ROOT is the fallback).
    """
    registry.configure(EngineSettings.from_engines(read_settings(studio).get("engines"), studio.root))


def transfer_report(studio, ref: str, to: str, *, engine: str | None = None, source: str | None = None) -> dict:
    """What crossing a stored piece into `to` costs: target, file name, size, every loss. Writes nothing."""
    configure_engines(studio)  # .risum/.risup and a re-encoded RisuAI module need the RPack table
    piece, stored = stored_piece(studio, ref)
    crossing = convert_stored_piece(studio, piece, to, engine=check_engine(engine), source=check_engine(source))
    return {"ref": f"{stored.kind}/{stored.id}", "revision": stored.revision} | crossing.report()


def export_piece(studio, ref: str, to: str, *, engine: str | None = None, source: str | None = None) -> dict:
    """Write the crossing into a fresh Export/<UTC> Kit <id>/ folder; the receipt."""
    configure_engines(studio)  # .risum/.risup and a re-encoded RisuAI module need the RPack table
    piece, stored = stored_piece(studio, ref)
    crossing = convert_stored_piece(studio, piece, to, engine=check_engine(engine), source=check_engine(source))
    if crossing.files is not None:  # a folder-shaped format (a sprite folder)
        path = write_export_folder(studio, piece.id, crossing.file_name, crossing.files)
    else:
        path = write_export(studio, piece.id, crossing.file_name, crossing.data)
    report = crossing.report()
    return receipt(
        "applied",
        op="export",
        target={"kind": stored.kind, "id": stored.id},
        revision=stored.revision,
        path=path.relative_to(studio.root).as_posix(),
        **{k: v for k, v in report.items() if k != "file_name"},
    )
