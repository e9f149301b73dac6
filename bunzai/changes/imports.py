"""Import: platform files in, create drafts out (one per piece, a file's pieces as a group).

Nothing is written here: the drafts carry the pieces and their media to `bunzai apply`.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import SimpleNamespace

from bunzai.adapters.common.card_doc import card_data, family_document
from bunzai.adapters.common.card_fields import world_of
from bunzai.adapters.contract import Blob, Origin
from bunzai.adapters.inspect import claim_folder, notes_warnings, read_bytes
from bunzai.adapters.registry import all_adapters
from bunzai.adapters.sillytavern import user_folder as st
from bunzai.adapters.sillytavern.sprites import mime_of
from bunzai.adapters.sillytavern.user_folder import is_user_folder
from bunzai.changes.draft import new_draft
from bunzai.changes.media import attachment_of
from bunzai.errors import BunzaiError
from bunzai.files import list_folder, read_file_bytes, read_stdin_bytes, text_name
from bunzai.jsondoc.reading import load_json_bytes, read_notes
from bunzai.limits import ASSET_MAX_BYTES, FOLDER_WALK_MAX_DEPTH
from bunzai.model import dump_piece
from bunzai.model.ids import id_problem
from bunzai.query.links import LINKED_KIND, LINKS, link_holders, named_links
from bunzai.regexlab.probe import piece_probe_warnings


def drafts_from_bytes(
    data: bytes,
    name: str,
    *,
    piece_id: str | None = None,
    format_id: str | None = None,
    source: Path | None = None,
    claimed: set[tuple[int, int]] | None = None,
) -> list[dict]:
    """Drafts for a file's bytes; with `source` (the file's absolute path), media the reader
    can place in the file are named by place instead of carried (see `changes.media`), and
    the portrait its platform shows beside it is read too (`_portrait_beside`), its
    (device, inode) added to `claimed`."""
    adapter, decoded = read_bytes(data, name, format_id)
    if source is not None:
        _record_file_name(adapter, decoded, source.name)
        image = _portrait_beside(adapter, decoded, source)
        if image is not None and claimed is not None:
            claimed.add(image)
    return _drafts(adapter, decoded, name, hashlib.sha256(data).hexdigest(), piece_id, source)


def _portrait_beside(adapter, decoded, source: Path) -> tuple[int, int] | None:
    """The image a platform shows beside a file of the adapter's format, read as the primary
    piece's portrait: the first of `Adapter.portrait_beside` found (textgen's `Example.png`
    beside `Example.yaml`). Its (device, inode) when the file is the piece's to claim, so a
    folder walk does not read it again; None when there is none, or it is not the piece's
    (a link, a damaged file, a card of its own: a warning says which)."""
    primary = decoded.pieces[0] if decoded.pieces else None
    if not adapter.portrait_beside or primary is None or "portrait" not in type(primary.body).model_fields:
        return None
    if primary.body.portrait is not None:
        return None
    for suffix in adapter.portrait_beside:
        image = source.with_name(source.stem + suffix)
        if image.name == source.name:
            continue
        try:
            info = os.lstat(image)
        except FileNotFoundError:
            continue
        except OSError:  # the folder cannot be looked into: no portrait, and nothing to say of it
            return None
        return _take_portrait(primary, decoded, image, info)
    return None


def _take_portrait(piece, decoded, image: Path, info: os.stat_result) -> tuple[int, int] | None:
    said = f"{text_name(image.name)} beside the file"
    if not stat.S_ISREG(info.st_mode):  # links are not followed: one may point anywhere
        decoded.warnings.append(f"{said} is not a regular file (a link, folder or device): not read as the portrait")
        return None
    identity = (info.st_dev, info.st_ino)
    try:
        data = read_file_bytes(image, ASSET_MAX_BYTES)
    except BunzaiError as error:
        decoded.warnings.append(f"{said} is not read as the portrait: {error.message}")
        return identity if error.code == "too_large" else None  # told here, not again by a walk
    mime = mime_of("", data)  # by its bytes: a name says nothing of what a file holds
    problem = _not_a_portrait(data, image.name) if mime else "it is not a PNG, JPEG, GIF, BMP or WebP image"
    if problem:
        decoded.warnings.append(f"{said} is not read as the portrait: {problem}")
        return None
    blob = Blob(data, _avatar_ext(image.name, mime), mime, Origin(file=os.fspath(image)))
    piece.body.portrait = blob.ref()
    decoded.blobs.append(blob)
    return identity


def _record_file_name(adapter, decoded, file_name: str) -> None:
    """The file's name as the source of the pieces it is the document of, so an export is
    named like the file it came from. One of several pieces (a backup's many personas) gets
    `<file>#<n>`, its place in the file, so an export of them all keeps their order; a
    card's book (another format) is not named by the card's file."""
    own = [
        piece for piece in decoded.pieces if piece.original is not None and piece.original.format == adapter.format_id
    ]
    file_name = text_name(file_name)
    for index, piece in enumerate(own):
        if piece.original.source is None:
            piece.original.source = file_name if len(own) == 1 else f"{file_name}#{index}"


def drafts_from_folder(path: Path, adapter, files: dict[str, bytes], *, piece_id: str | None = None) -> list[dict]:
    decoded = adapter.read(b"", str(path), files)
    digest = hashlib.sha256(
        b"".join(os.fsencode(name) + hashlib.sha256(blob).digest() for name, blob in sorted(files.items()))
    )
    return _drafts(adapter, decoded, str(path), digest.hexdigest(), piece_id, Path(os.path.abspath(path)))


@dataclass(frozen=True)
class Skipped:
    """A file a walk passed over: no format claims it (a README, a loose image), or it lies
    deeper than the walk goes (`deep`: a folder not walked, which the import names apart).
    `told`: not a file passed over but a note to say by name (a folder that looked like one
    piece but was too large to read as one, and whose files, read one by one, held no
    piece); it is not counted as skipped."""

    reason: str
    told: bool = False
    deep: bool = False


def drafts_from_path(
    path: Path, *, piece_id: str | None = None, format_id: str | None = None
) -> Iterator[tuple[Path, list[dict] | BunzaiError | Skipped]]:
    """(file, its drafts or the error reading it) for a file, or for everything in a folder.

    A folder a format claims as one piece (a sprite folder) is imported whole, at the top or
    anywhere inside a walked folder. In a walk, files no format claims are Skipped, not
    errors (a data folder holds notes and loose images); damaged and hostile files are
    errors. A single file named on the command line is always read, so its error shows.
    Folders are walked as a stream, one file in memory at a time, with no cap on the count.
    """
    if str(path) == "-" or not path.is_dir():
        yield path, _named_file(path, piece_id, format_id)
        return
    yield from _walk(path, 0, piece_id, format_id)


def _named_file(path: Path, piece_id: str | None, format_id: str | None) -> list[dict] | BunzaiError:
    """The drafts of a file named on the command line (`-`: standard input, the format sniffed
    from the bytes or given), or the error reading it: the files named after it are still read,
    as a walk reads on past a damaged file (`bunzai import *.png` with one sprite among the cards).
    A format that does not exist is the command's error, not the file's."""
    try:
        if str(path) == "-":
            return drafts_from_bytes(read_stdin_bytes(), "-", piece_id=piece_id, format_id=format_id)
        source = Path(os.path.abspath(path))
        return drafts_from_bytes(
            read_file_bytes(path), path.name, piece_id=piece_id, format_id=format_id, source=source
        )
    except BunzaiError as error:
        if error.code in ("unknown_format", "usage"):
            raise
        return error


def _is_user_folder(path: Path) -> bool:
    return is_user_folder(path)


def _walk(folder: Path, depth: int, piece_id: str | None, format_id: str | None):
    if piece_id is None and format_id is None and _is_user_folder(folder):  # anywhere in a walk
        yield from drafts_from_user_folder(folder)
        return
    unreadable: list[tuple[Path, BunzaiError]] = []  # entries that cannot be looked at: each told, the rest read
    try:
        files, folders = list_folder(folder, unreadable)
    except BunzaiError as error:  # a folder that cannot be listed: the walk goes on past it
        yield folder, error
        return
    yield from unreadable
    notes: list[str] = []
    try:
        adapter, read = claim_folder(folder, notes, files) if format_id is None else (None, {})
    except BunzaiError:  # a file of it cannot be read whole: read one by one, each says its own error
        adapter, read = None, {}
    if adapter is not None:
        try:
            yield folder, drafts_from_folder(folder, adapter, read, piece_id=piece_id)
        except BunzaiError as error:
            yield folder, error
        return
    imported = False
    claimed: set[tuple[int, int]] = set()  # images a file beside them took as its portrait
    for file in _portraits_last(files):
        if claimed and _identity(file) in claimed:
            read.pop(file.name, None)
            continue
        try:
            # Read already when its names looked like sprites (its bytes let go as they are used).
            data = read.pop(file.name) if file.name in read else read_file_bytes(file)
            source = Path(os.path.abspath(file))
            drafts = drafts_from_bytes(data, file.name, format_id=format_id, source=source, claimed=claimed)
            imported = imported or bool(drafts)
            yield file, drafts
        except BunzaiError as error:
            yield file, Skipped(error.message) if _unclaimed(error, file) else error
    if not imported:  # its files were sprites after all (a folder of cards imports, and needs no word)
        for note in notes:
            yield folder, Skipped(f"{note}; its files were read one by one, and none is a piece on its own", told=True)
    for sub in folders:
        if depth < FOLDER_WALK_MAX_DEPTH:
            yield from _walk(sub, depth + 1, None, format_id)
        else:
            yield sub, Skipped(f"deeper than {FOLDER_WALK_MAX_DEPTH} folders; import it on its own", deep=True)


def _not_a_portrait(data: bytes, name: str) -> str:
    """Why an image is not a plain picture, or '': a card is a piece of its own (both are
    imported), and a damaged file is reported as such by a walk."""
    try:
        read_bytes(data, name)
    except BunzaiError as error:
        return "" if error.code == "unrecognized_file" else error.message
    return "it is a piece of its own (a character card), imported on its own"


def _portraits_last(files: list[Path]) -> list[Path]:
    """The files with the images a file beside them may take as its portrait (`Example.png`
    beside `Example.yaml`, `Adapter.portrait_beside`) moved last, so they are read only when
    it did not. Names are compared without case: a file system may match them so."""
    adapters = [adapter for adapter in all_adapters() if adapter.portrait_beside]
    texts = {ext for adapter in adapters for ext in adapter.extensions}
    images = {suffix for adapter in adapters for suffix in adapter.portrait_beside}
    stems = {file.stem.lower() for file in files if file.suffix.lower() in texts}
    later = [file for file in files if file.suffix.lower() in images and file.stem.lower() in stems]
    if not later:
        return files
    chosen = set(later)
    return [file for file in files if file not in chosen] + later


def _identity(file: Path) -> tuple[int, int] | None:
    try:
        info = os.lstat(file)
    except OSError:
        return None
    return (info.st_dev, info.st_ino)


def _unclaimed(error: BunzaiError, file: Path) -> bool:
    """Whether a walk may pass over the file: nothing claims it, and it does not look damaged."""
    if error.code == "unrecognized_file" or error.details.get("special"):
        return True
    if error.code == "invalid_json":  # text no format reads: notes, licences, scripts
        return not any(file.name.lower().endswith(ext) for a in all_adapters() for ext in a.extensions)
    return False


def _drafts(adapter, decoded, name: str, digest: str, piece_id: str | None, source: Path | None = None) -> list[dict]:
    if not decoded.pieces:
        raise BunzaiError(
            "unrecognized_file", f"{name}: the file holds no piece", "export it again from the app that made it"
        )
    docs = [dump_piece(piece) for piece in decoded.pieces]
    if piece_id is not None:
        problem = id_problem(piece_id)
        if problem:
            raise BunzaiError(
                "invalid_id", f"--id {piece_id!r}: {problem}", "ids are lowercase slugs like ada-lovelace"
            )
        _rename(docs, piece_id)
    blobs = {blob.sha256: blob for blob in decoded.blobs}
    group = None
    size = len(docs)
    drafts = []
    for index, (piece, doc) in enumerate(zip(decoded.pieces, docs)):
        if size > 1:
            group = {"id": f"import-{digest[:16]}", "index": index, "size": size}
        operation = {
            "op": "import",
            "input": {"file": name, "format": adapter.format_id},
            "warnings": list(decoded.warnings) if index == 0 else [],
        }
        operation["warnings"] += piece_probe_warnings(doc)  # patterns that do not compile or run out of time
        drafts.append(
            new_draft(
                mode="create",
                proposed=doc,
                operations=[operation],
                attachments=_attachments(piece, blobs, name, source, decoded.stored_media),
                group=group,
            )
        )
    return drafts


def _attachments(piece, blobs: dict, name: str, source: Path | None, stored: bool = False) -> dict:
    """The draft's attachments; `stored` (a bare canonical piece): a medium the file does not carry
    is named by the piece alone, and apply refuses the draft where the studio lacks it."""
    refs = list(piece.asset_refs())
    if piece.original is not None:
        refs += list(piece.original.files.values())
    attachments = {}
    for ref in refs:
        blob = blobs.get(ref.sha256)
        if blob is None and stored:
            continue
        if blob is None:
            raise BunzaiError(
                "internal",
                f"{name}: the reader referred to media it did not return ({ref.sha256[:12]}…)",
                "this is a bug in the format's reader; please report it",
            )
        attachments[ref.sha256] = attachment_of(blob, source) | {"ext": ref.ext, "mime": ref.mime}
    return attachments


def _rename(docs: list[dict], new: str) -> None:
    """Give the primary piece a new id; carried pieces named after it (`<old>-book`) follow,
    and every link among the file's pieces is updated to the new ids."""
    old = docs[0]["id"]
    mapping = {(docs[0]["kind"], old): new}
    for doc in docs[1:]:
        if doc["id"].startswith(old + "-") and id_problem(new + doc["id"][len(old) :]) is None:
            mapping[(doc["kind"], doc["id"])] = new + doc["id"][len(old) :]
    relink_ids(docs, mapping)


def relink_ids(
    docs: list[dict], mapping: dict[tuple[str, str], str], links: dict[tuple[str, str], str] | None = None
) -> None:
    """Give the pieces of one file new ids ((kind, old id) -> new id), in place, and update
    every link among them to the new ids. `links` ((kind, id) -> id), where given, is asked
    for a link `mapping` has no entry for: a link to a piece of another file of the same
    import (a card of a SillyTavern user folder and its world file)."""
    for doc in docs:
        doc["id"] = mapping.get((doc["kind"], doc["id"]), doc["id"])
    others = links or {}

    def follow(kind: str, value):
        key = (kind, value)
        return mapping[key] if key in mapping else others.get(key, value)

    for doc in docs:
        for path, holder in _link_holders(doc):
            value = holder.get(path[-1])
            kind = LINKED_KIND[path[-1]]
            if isinstance(value, str):
                holder[path[-1]] = follow(kind, value)
            elif isinstance(value, list):
                holder[path[-1]] = [follow(kind, item) if isinstance(item, str) else item for item in value]


def links_of(doc: dict) -> list[tuple[str, str]]:
    """(kind, id) of every piece `doc` links to, its character variants' own links included
    (query.links: one reading of where pieces link)."""
    return named_links(doc)


def bound_world(doc: dict) -> str:
    """The world a card draft's piece is bound to by name (SillyTavern's `data.extensions.world`,
    kept in the card's escrow), else ''. Its embedded book then has that world's id
    (card_doc.book_id_of)."""
    original = doc.get("original") if doc.get("kind") == "character" else None
    if not isinstance(original, dict):
        return ""
    return _world_in(SimpleNamespace(format=original.get("format"), document=original.get("document")))


def _world_in(original) -> str:
    """The world named by the card a card-family escrow holds, else ''."""
    found = family_document(original)
    return world_of(card_data(found[1])) if found is not None else ""


def _link_holders(doc: dict) -> Iterator[tuple[tuple[str, ...], dict]]:
    """(link path, the dict holding its last key) for every link place of `doc` (query.links:
    the body's, a character variant's overrides, each phase of a promptbook)."""
    paths = LINKS.get(doc.get("kind"), ())
    for holder in link_holders(doc):
        for path in paths:
            yield path, _link_holder(holder, path)


def _link_holder(body: dict, path: tuple[str, ...]) -> dict:
    holder = body
    for key in path[:-1]:
        holder = holder.get(key) if isinstance(holder.get(key), dict) else {}
    return holder


def drafts_from_user_folder(root: Path) -> Iterator[tuple[Path, list[dict] | BunzaiError | Skipped]]:
    """(file, its drafts or the error reading it) for a SillyTavern user folder, shelf by shelf.

    Each piece records where it was read (`original.source`, relative to `root`) so an export
    writes it back under the same name. Worlds come first: a card bound to a world whose file
    is in worlds/ links to that world, and its embedded copy is not drafted again (the card
    keeps it in its body). In characters/, the sprite folders come before the cards: a card
    links to the pack of the folder SillyTavern shows it (`_Sprites`, `media.pack`), so a
    library export writes the sprites under the character's current name. Personas and global
    regex scripts are read from settings.json, each persona with its image from User Avatars/.
    Folders SillyTavern keeps no pieces in (chats, backgrounds ...) are passed over; folders
    and files the layout does not know are walked as any folder.
    """
    unreadable: list[tuple[Path, BunzaiError]] = []  # entries that cannot be looked at: each told, the rest read
    files, folders = list_folder(root, unreadable)
    yield from unreadable
    worlds: set[str] = set()
    shelves = [st.shelf_for_folder("worlds")] + [s for s in st.SHELVES if s.folder != "worlds"]
    for shelf in shelves:
        folder = root / shelf.folder
        if not folder.is_dir():
            continue
        unreadable = []
        try:
            shelf_files, shelf_folders = list_folder(folder, unreadable)
        except BunzaiError as error:  # a shelf that cannot be listed: the rest of the library goes on
            yield folder, error
            continue
        yield from unreadable
        sprites = _Sprites(_expression_overrides(root) if shelf_folders and shelf.folder == st.CHARACTERS else {})
        for sub in shelf_folders if shelf.folder == st.CHARACTERS else ():  # before the cards that show them
            unreadable = []
            result = _sprite_folder(root, sub, unreadable)
            yield from unreadable  # sprites that cannot be looked at: the pack is read without them, and says so here
            if isinstance(result, list) and result:
                sprites.packs[sub.name] = result[0]["target"]["id"]
            yield sub, result
        for file in shelf_files:
            kept_here = shelf.lists(file.name)  # a file SillyTavern lists among this shelf's pieces
            forced = shelf.format_id if kept_here and shelf.kind != "character" else None
            result = _shelf_file(root, file, forced, worlds, sprites, kept_here)
            if isinstance(result, list) and shelf.folder == "worlds":
                worlds.update(draft["target"]["id"] for draft in result)
            yield file, result
        for sub in shelf_folders if shelf.folder != st.CHARACTERS else ():
            yield from drafts_from_path(sub)
    avatars = root / st.AVATARS
    used: set[str] = set()
    if (root / st.SETTINGS_FILE).is_file():
        yield from _settings_pieces(root, avatars, used)
    yield from _exported_personas(root, avatars, used)
    if avatars.is_dir():
        unreadable = []
        try:
            avatar_files = list_folder(avatars, unreadable)[0]
        except BunzaiError as error:
            yield avatars, error
            avatar_files = []
        yield from unreadable
        for file in avatar_files:
            if file.name not in used:
                yield file, Skipped("an avatar image no persona in settings.json (or a persona backup) uses")
    known = {shelf.folder for shelf in st.SHELVES} | {st.AVATARS}
    for sub in folders:
        if sub.name in st.NOT_PIECES:
            yield sub, Skipped("SillyTavern keeps no pieces in this folder (chats, backgrounds, UI state)")
        elif sub.name == st.IMPORT_FOLDER:
            yield from _import_folder(sub)
        elif sub.name not in known:
            yield from drafts_from_path(sub)
    for file in files:
        if file.name != st.SETTINGS_FILE:
            yield file, _walked_file(file)


def _import_folder(folder: Path):
    """`Import in SillyTavern/` but its personas/, read with their images before (`_exported_personas`)."""
    unreadable: list[tuple[Path, BunzaiError]] = []
    try:
        files, folders = list_folder(folder, unreadable)
    except BunzaiError as error:
        yield folder, error
        return
    yield from unreadable
    for sub in folders:
        if sub.name != PurePosixPath(st.PERSONAS_FOLDER).name:
            yield from drafts_from_path(sub)
    for file in files:
        yield file, _walked_file(file)


def _relative(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


@dataclass
class _Sprites:
    """The sprite folders of a user folder's characters/ read so far, for the cards there.

    SillyTavern shows a character the sprites of `characters/<its name>/` (expressions'
    getSpriteFolderName: the chat's name2), unless settings.json's
    `extension_settings.expressionOverrides` names another folder for the card's avatar file
    (`{"name": "<card file stem>", "path": "<folder>"}`)."""

    overrides: dict[str, str]  # card file stem -> sprite folder it is shown from
    packs: dict[str, str] = field(default_factory=dict)  # sprite folder name -> the id of its pack

    def pack_of(self, name: str, file: Path) -> str | None:
        return self.packs.get(self.overrides.get(file.stem, name)) if self.packs else None


def _expression_overrides(root: Path) -> dict[str, str]:
    """settings.json's sprite folder overrides (card file stem -> folder); {} where there are
    none or the file cannot be read (its own error is told when its pieces are read)."""
    path = root / st.SETTINGS_FILE
    if not path.is_file():
        return {}
    try:
        settings = load_json_bytes(read_file_bytes(path), what=st.SETTINGS_FILE)
    except BunzaiError:
        return {}
    extensions = settings.get("extension_settings") if isinstance(settings, dict) else None
    overrides = extensions.get("expressionOverrides") if isinstance(extensions, dict) else None
    return {
        item["name"]: item["path"]
        for item in (overrides if isinstance(overrides, list) else ())
        if isinstance(item, dict)
        and isinstance(item.get("name"), str)
        and isinstance(item.get("path"), str)
        and item["path"]
    }


def _shelf_file(
    root: Path, file: Path, format_id: str | None, worlds: set[str], sprites: _Sprites, kept_here: bool = False
) -> list[dict] | BunzaiError | Skipped:
    """`kept_here`: the file has the extension SillyTavern keeps the shelf's pieces under (a
    `characters/*.png`): one that reads as no piece is damaged (a half-copied card), not passed over."""
    try:
        data = read_file_bytes(file)
        adapter, decoded = read_bytes(data, file.name, format_id)
    except BunzaiError as error:
        return Skipped(error.message) if _unclaimed(error, file) and not kept_here else error
    primary = decoded.pieces[0]
    # A card bound to a world of worlds/ carries a copy of it (its book has the world's id): the card
    # links to the world file. A card's own book that only shares a world's name is no copy of it
    # (SillyTavern binds by extensions.world alone) and is drafted, to meet that id as any book would.
    if primary.kind == "character" and _world_in(primary.original):
        decoded.pieces[:] = decoded.pieces[:1] + [
            piece for piece in decoded.pieces[1:] if not (piece.kind == "lorebook" and piece.id in worlds)
        ]
    pack = sprites.pack_of(primary.name, file) if primary.kind == "character" else None
    if pack is not None and primary.body.media.pack is None:  # the character shows the sprites beside it
        primary.body.media = primary.body.media.model_copy(update={"pack": pack})
    _record_source(primary, _relative(root, file))
    try:
        return _drafts(adapter, decoded, file.name, hashlib.sha256(data).hexdigest(), None, _absolute(file))
    except BunzaiError as error:
        return error


def _absolute(path: Path) -> Path:
    return Path(os.path.abspath(path))


def _sprite_folder(
    root: Path, folder: Path, unreadable: list[tuple[Path, BunzaiError]]
) -> list[dict] | BunzaiError | Skipped:
    """`unreadable` gets the entries of `folder` that cannot be looked at (`list_folder`)."""
    try:
        notes: list[str] = []
        adapter, files = claim_folder(folder, notes, list_folder(folder, unreadable)[0])
        if adapter is None and notes:  # in characters/, a folder named for sprites is the character's sprites
            return BunzaiError("too_large", notes[0], "split the sprites, or leave out the ones not shown")
        if adapter is None:
            return Skipped("a folder in characters/ that holds no sprites")
        decoded = adapter.read(b"", str(folder), files)
        _record_source(decoded.pieces[0], _relative(root, folder))
        digest = hashlib.sha256(b"".join(n.encode() + hashlib.sha256(b).digest() for n, b in sorted(files.items())))
        return _drafts(adapter, decoded, str(folder), digest.hexdigest(), None, _absolute(folder))
    except BunzaiError as error:
        return error


def _settings_pieces(root: Path, avatars: Path, used: set[str]):
    """Personas (with their avatar images) and global regex scripts kept in settings.json."""
    path = root / st.SETTINGS_FILE
    try:
        with read_notes() as notes:
            documents = st.settings_documents(read_file_bytes(path))
    except BunzaiError as error:
        yield path, error
        return
    mended = notes_warnings(notes, st.SETTINGS_FILE)  # the pieces are read from parts taken out of it
    for name, format_id, data in documents:
        try:
            adapter, decoded = read_bytes(data, name, format_id)
            decoded.warnings[:0] = mended
            for index, piece in enumerate(decoded.pieces):
                _record_source(piece, f"{st.SETTINGS_FILE}#{index}")  # its place there: the order survives
            _attach_avatars(decoded, avatars, used)
            yield path, _drafts(adapter, decoded, name, hashlib.sha256(data).hexdigest(), None, _absolute(avatars))
        except BunzaiError as error:
            yield path, error


def _exported_personas(root: Path, avatars: Path, used: set[str]):
    """The persona backups under `Import in SillyTavern/personas/` (where a library export
    writes the personas SillyTavern keeps in settings.json), each persona with its image from
    User Avatars/ as from settings.json; any other file there is walked as any file."""
    folder = root / st.PERSONAS_FOLDER
    if not folder.is_dir():
        return
    unreadable: list[tuple[Path, BunzaiError]] = []
    try:
        files, folders = list_folder(folder, unreadable)
    except BunzaiError as error:
        yield folder, error
        return
    yield from unreadable
    for file in files:
        try:
            data = read_file_bytes(file)
            adapter, decoded = read_bytes(data, file.name)
        except BunzaiError as error:
            yield file, Skipped(error.message) if _unclaimed(error, file) else error
            continue
        if adapter.format_id != st.PERSONAS_FORMAT:
            yield file, _walked_file(file)
            continue
        try:
            _record_file_name(adapter, decoded, file.name)
            _attach_avatars(decoded, avatars, used)
            yield file, _drafts(adapter, decoded, file.name, hashlib.sha256(data).hexdigest(), None, _absolute(avatars))
        except BunzaiError as error:
            yield file, error
    for sub in folders:
        yield from drafts_from_path(sub)


def _attach_avatars(decoded, avatars: Path, used: set[str]) -> None:
    """Each persona's image from User Avatars/, by the avatar file its backup keys it by."""
    for piece in decoded.pieces:
        avatar = st.persona_avatar(piece)
        image = avatars / avatar if avatar and "/" not in avatar and "\\" not in avatar else None
        if image is not None and image.is_file() and not image.is_symlink():
            blob_data = read_file_bytes(image)
            mime = mime_of(image.name, blob_data)
            if mime:
                blob = Blob(blob_data, _avatar_ext(image.name, mime), mime, Origin(file=avatar))
                piece.body.portrait = blob.ref()
                decoded.blobs.append(blob)
                used.add(avatar)


def _avatar_ext(name: str, mime: str) -> str:
    """A persona avatar's stored extension: its type's (jpg for jpeg), else its file's own where
    the type names none an asset can carry (svg+xml, vnd.microsoft.icon), else bin."""
    for ext in (mime.split("/")[1].replace("jpeg", "jpg"), Path(name).suffix[1:].lower()):
        if ext.isascii() and ext.isalnum() and ext.lower() == ext and len(ext) <= 10:
            return ext
    return "bin"


def _record_source(piece, relative: str) -> None:
    if piece.original is not None:
        piece.original.source = text_name(relative)


def _walked_file(file: Path) -> list[dict] | BunzaiError | Skipped:
    try:
        return drafts_from_bytes(read_file_bytes(file), file.name, source=_absolute(file))
    except BunzaiError as error:
        return Skipped(error.message) if _unclaimed(error, file) else error
