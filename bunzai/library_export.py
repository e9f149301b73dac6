"""Export a whole library into a platform's own folder layout (SillyTavern's user folder).

Every piece goes through the one crossing (`convert_stored_piece`) to the format its
folder holds, and is written where the platform looks for it, under the file name the
platform uses: the file it was imported from when it came from such a folder
(`Escrow.source`), else its name as the platform sanitizes it; a piece the platform names
by its file (a world, a nameless preset) that was renamed since goes under its name now.
Writes are create-only (a temp file hard-linked to the final name, as `store.atomic.write_new`
does): an existing file is left alone and reported (`differs` where it is not what the export
would write). A file nobody had is not synced on its own: one sync of the file system at
the end (`store.batch.Batch`) makes all of them durable, so thousands of files cost one
sync, not one each. Temp files a killed export left in the folders written into are removed.
Paths are built from the layout's folder names and checked file stems only, so no piece
name can reach outside the folder. A piece whose file
cannot be written (a file where a folder belongs, a disk that refuses it) is reported and the
others go on. The result is one report: written, skipped (existing), not written, and every
loss.

The `textgen` layout is text-generation-webui's `characters/` folder: each character as
`<name>.yaml` (textgen lists a character by its file stem) with its portrait beside it, by
the same writes, names and report; textgen has no file for other kinds (`_export_textgen`).
A file textgen would show in place of the one written (a `<name>.yml`, a `<name>.png` beside
a `.jpg`) is a clash, reported; a portrait is not written beside another character's YAML.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from bunzai.adapters.sillytavern import user_folder as st
from bunzai.adapters.sillytavern.sprites import mime_of
from bunzai.adapters.textgen.character_losses import PORTRAIT_BESIDE, PORTRAIT_NOT_CARRIED
from bunzai.adapters.textgen.yaml_character import FORMAT_ID as TEXTGEN_FORMAT
from bunzai.convert import NAMED_BY_FILE, convert_stored_piece, own_book_linked, plain_stem
from bunzai.errors import BunzaiError
from bunzai.store.assets import read_asset
from bunzai.store import atomic
from bunzai.store.batch import Batch
from bunzai.store.pieces import list_stored, read_stored, resolve_ref
from bunzai.validate import validate_piece

LAYOUTS = ("sillytavern", "textgen")
WORLDS = next(shelf.folder for shelf in st.SHELVES if shelf.kind == "lorebook")
TEXTGEN_CHARACTERS = "characters"


@dataclass
class LibraryReport:
    into: Path
    layout: str = "sillytavern"
    written: list[dict] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)  # an existing file, left alone
    not_written: list[dict] = field(default_factory=list)  # no place in the layout, or a refusal
    notes: list[str] = field(default_factory=list)
    shown_by: dict[str, list[str]] | None = None  # pack id -> folders of the characters showing it
    # path (as `_name_key` compares it) -> SHA-256 of the file this export put there
    claimed: dict[str, bytes] = field(default_factory=dict)
    # (name key of a wanted path, of its first numbered one) -> [the first number not yet found
    # taken, SHA-256 -> the first number found taken with those bytes]: `_claimed` goes on from there
    numbering: dict[tuple[str, str], list] = field(default_factory=dict)
    folds_case: bool = False  # the file system under `into` matches names without case (macOS's default)
    packs: frozenset[str] = frozenset()  # ids of the packs this export writes
    batch: Batch | None = None  # the one sync of every file written, at the end
    folders: set[Path] = field(default_factory=set)  # the folders written into
    # lorebook id -> the file stem its world is written (or found) under: the name a card of this
    # export binds it by, `Eldoria1` where another world took `Eldoria`
    world_stems: dict[str, str] = field(default_factory=dict)
    # lorebook id -> the cards of this export holding it as their own book, which it is written in only
    books_inside: dict[str, list[str]] = field(default_factory=dict)
    # the disk failed the one sync at the end: what is written is there, not confirmed durable
    unconfirmed: BunzaiError | None = None

    def to_json(self) -> dict:
        said = {}
        if self.unconfirmed is not None:
            said = {"durable": False, "warning": self.unconfirmed.to_json()["error"]}
        return {
            "into": str(self.into),
            "layout": self.layout,
            "counts": {
                "written": len(self.written),
                "skipped_existing": len(self.skipped),
                "not_written": len(self.not_written),
            },
            "written": self.written,
            "skipped_existing": self.skipped,
            "not_written": self.not_written,
            "notes": self.notes,
            **said,
        }

    @property
    def failed(self) -> bool:
        return self.unconfirmed is not None or any("error" in item for item in self.not_written)


def export_library(studio, into: Path, layout: str, refs: list[str] | None = None) -> LibraryReport:
    """Write the pieces named by `refs` (every piece when none) into `into` laid out as `layout`."""
    if layout not in LAYOUTS:
        raise BunzaiError("usage", f"--layout {layout!r} is not a known layout", "layouts: " + ", ".join(LAYOUTS))
    _outside_studio(studio, into)
    _make_into(into)
    # A piece named twice (`ada` and `persona/ada`) is written once.
    targets = list(dict.fromkeys(resolve_ref(studio, ref) for ref in refs)) if refs else list_stored(studio)
    packs = frozenset(piece_id for kind, piece_id in targets if kind == "pack")
    report = LibraryReport(into, layout, folds_case=_folds_case(into), packs=packs)
    if layout == "sillytavern":
        report.notes.append(
            f"{st.SETTINGS_FILE} is never written: personas and global regex scripts, which SillyTavern "
            f"keeps there, are written under {st.IMPORT_FOLDER}/ as the files its import buttons read"
        )
    report.batch = Batch(into)
    try:
        (_export_all if layout == "sillytavern" else _export_textgen)(studio, targets, report)
    finally:
        try:
            _commit(report)  # before the report says written
        finally:
            report.batch.close()
    swept = sum(atomic.sweep_stale_temps(folder) for folder in sorted(report.folders))
    if swept:
        report.notes.append(f"removed {swept} temp file(s) an earlier export left behind when it was stopped")
    return report


def _commit(report: LibraryReport) -> None:
    """The export's one sync. A disk that fails it leaves the report whole, saying so: each file
    under `written` is there under its name, but not confirmed durable (`durable: false`, a
    `warning`; the export fails), not a bare fault that loses the report."""
    try:
        report.batch.commit()
    except OSError as error:
        from bunzai.errors import from_os_error

        coded = from_os_error(error, report.into, writing=False)
        if coded is None:
            raise
        report.unconfirmed = BunzaiError(
            coded.code,
            f"{coded.message}; the {len(report.written)} file(s) under written were written there under their "
            "names, but the disk failed the sync that makes them durable: a power cut may still undo them, "
            "or leave them empty",
            f"{coded.hint}; exporting again lists a file left empty as differs",
        )


def _export_all(studio, targets: list[tuple[str, str]], report: LibraryReport) -> None:
    backups: dict[str, list[tuple[int, str, object]]] = {}  # personas read from one file, by that file
    # The worlds first, in their own order (so the same worlds get the same names), so that a card
    # is bound to the file its world was written under.
    targets = [t for t in targets if t[0] == "lorebook"] + [t for t in targets if t[0] != "lorebook"]
    report.books_inside = _books_inside(studio, targets, report.notes)
    for kind, piece_id in targets:
        ref = f"{kind}/{piece_id}"
        if kind == "lorebook" and piece_id in report.books_inside:
            cards = report.books_inside[piece_id]
            report.not_written.append(
                {
                    "ref": ref,
                    "reason": "the own book of a card bound to no world: SillyTavern keeps it inside the card "
                    "(until Import Card Lore), so it is written in the card, as it is now, not to worlds/",
                    "inside": cards,
                }
            )
            continue
        try:
            piece = validate_piece(read_stored(studio, kind, piece_id).data)
            place = _backup_place(piece)
            if place is not None:
                backups.setdefault(place[0], []).append((place[1], ref, piece))
                continue
            written = _export_piece(studio, piece, ref, report)
            if piece.kind == "persona":  # the image too, even where the persona's file was there
                _write_avatar(studio, report, ref, piece, _avatar_key(written))
        except (BunzaiError, OSError) as error:  # one piece refused (or its file): the others go on
            _refused(report, [ref], error)
    for source, members in backups.items():
        _export_backup(studio, source, sorted(members, key=lambda member: member[:2]), report)  # place, ref
    _worlds_beside_characters(report)


def _worlds_beside_characters(report: LibraryReport) -> None:
    """`worlds/` beside the `characters/` written, even with no world in it: every SillyTavern user
    folder has one (src/users.js ensurePublicDirectoriesExist makes each USER_DIRECTORY_TEMPLATE
    folder), and without a second piece folder importing the export again would not read it as a
    user folder, and its cards would lose the sprites shown them (cards whose own books stay inside
    them may be all it holds)."""
    if report.into / st.CHARACTERS not in report.folders or (report.into / WORLDS).is_dir():
        return
    try:
        _folder(report, WORLDS)
    except (BunzaiError, OSError) as error:
        report.notes.append(f"{WORLDS}/ was not made beside {st.CHARACTERS}/: {error}")


def _books_inside(studio, targets: list[tuple[str, str]], notes: list[str]) -> dict[str, list[str]]:
    """lorebook id -> the cards of this export that hold it as their own book, for each lorebook
    SillyTavern would keep inside cards only: an unbound card's own book (a card's `character_book`
    lives in the card until the user imports it, which writes the world and binds the card:
    world-info.js importEmbeddedWorldInfo), read from no file of its own (`original.source`), that
    no other piece binds (a bound card, a persona, a variant, a card's further link: those keep
    its world file, which the card is then bound to: `_crossing`). Such a card carries its book as
    it is now, whether or not the book is named in this export too. The pieces linking a book are
    found by the studio index's links; a damaged piece file that may name the book could bind it
    too, so the book keeps its world file, and `notes` says which file kept it."""
    from bunzai.changes.lifecycle import unread_referrers
    from bunzai.query.index import linking_pieces
    from bunzai.query.links import LINKING_KINDS

    holders: dict[str, list[str]] = {}
    for kind, piece_id in targets:
        if kind != "character":
            continue
        try:
            piece = validate_piece(read_stored(studio, kind, piece_id).data)
        except BunzaiError:  # a damaged piece: the export reports it
            continue
        if own_book_linked(studio, piece):
            holders.setdefault(piece.body.links.lorebooks[0], []).append(f"character/{piece_id}")
    inside = {}
    for book_id, holding in holders.items():
        if _read_from_file(studio, book_id):
            continue
        linkers, damaged = linking_pieces(studio, LINKING_KINDS["lorebook"], "lorebook", book_id)
        if not all(_holds_as_own(studio, row["kind"], row["id"], book_id) for row in linkers):
            continue
        unread = [f"{row['kind']}/{row['id']}" for row in unread_referrers(studio, damaged, book_id)]
        if unread:
            cards = ", ".join(holding)
            kept = (
                f"written to {WORLDS}/, and {cards} bound to it there"
                if ("lorebook", book_id) in targets
                else f"not in this export, so it stays inside {cards} as imported"
            )
            notes.append(
                f"lorebook/{book_id} is kept as a book another piece binds ({kept}): {', '.join(unread)} cannot be "
                "read and may bind it (run `bunzai doctor`, repair or delete it, and export again)"
            )
            continue
        inside[book_id] = holding
    return inside


def _holds_as_own(studio, kind: str, piece_id: str, book_id: str) -> bool:
    """Whether the piece links `book_id` only as the card's own book: first, once, unbound."""
    from bunzai.query.links import named_links

    if kind != "character":
        return False
    try:
        data = read_stored(studio, kind, piece_id).data
        links = [linked for of, linked in named_links(data) if of == "lorebook"]
        if links[:1] != [book_id] or book_id in links[1:]:
            return False
        return own_book_linked(studio, validate_piece(data))
    except BunzaiError:
        return False


def _read_from_file(studio, book_id: str) -> bool:
    """Whether the lorebook was read from a file of its own (a world file), not out of a card."""
    try:
        original = read_stored(studio, "lorebook", book_id).data.get("original")
    except BunzaiError:
        return True  # damaged: left to the export, which reports it
    return isinstance(original, dict) and bool(original.get("source"))


def _export_textgen(studio, targets: list[tuple[str, str]], report: LibraryReport) -> None:
    """Every character as textgen's `characters/<name>.yaml` and its portrait; other kinds not written."""
    for kind, piece_id in targets:
        ref = f"{kind}/{piece_id}"
        if kind != "character":
            report.not_written.append({"ref": ref, "reason": f"text-generation-webui has no file for a {kind} piece"})
            continue
        try:
            _export_textgen_character(studio, validate_piece(read_stored(studio, kind, piece_id).data), ref, report)
        except (BunzaiError, OSError) as error:  # one piece refused (or its file): the others go on
            _refused(report, [ref], error)


def _export_textgen_character(studio, piece, ref: str, report: LibraryReport) -> None:
    """`characters/<name>.yaml`, then its portrait as `<the same stem><suffix>`, where textgen
    shows it; a second character of one name gets textgen's next name, `<name>_001`."""
    import hashlib

    crossing = convert_stored_piece(studio, piece, TEXTGEN_FORMAT)
    image, suffix = _textgen_portrait(studio, piece)
    wanted = st.Place(TEXTGEN_CHARACTERS, plain_stem(piece.name, piece.id), TEXTGEN_FORMAT, ".yaml")
    # Two characters of one text but other portraits are two files, not one written twice.
    claim = crossing.data + (hashlib.sha256(image).digest() if image is not None else b"")
    place, duplicate = _claimed(report, wanted, claim, numbered=lambda stem, number: f"{stem}_{number:03d}")
    if duplicate:  # a piece of this export wrote this very character and portrait there
        report.skipped.append(_skipped(report, ref, place.path, crossing.data))
        return
    folder = _folder(report, TEXTGEN_CHARACTERS)
    picture = f"{TEXTGEN_CHARACTERS}/{place.stem}{suffix}" if image is not None else None
    # textgen loads the first of `<name>.yml`, `.yaml`, `.json` (modules/chat.py load_character):
    # an existing `.yml` would be the character shown, whatever `.yaml` holds.
    if os.path.lexists(folder / f"{place.stem}.yml"):
        entry = {
            "ref": ref,
            "path": place.path,
            "reason": f"{TEXTGEN_CHARACTERS}/{place.stem}.yml is there, and text-generation-webui loads it "
            f"before {place.stem}.yaml",
        }
        report.not_written.append(_portrait_held(entry, picture))
        return
    hidden = _hidden_portrait(folder, place.stem, suffix) if image is not None else None
    losses = [
        loss.to_json()
        for loss in crossing.losses
        if image is None or hidden is not None or loss.code != PORTRAIT_NOT_CARRIED.code  # written beside
    ]
    renamed_from = wanted.path if place != wanted else None
    entry = _write(report, ref, folder / f"{place.stem}{place.extension}", crossing.data, place, losses, renamed_from)
    if image is not None:
        _write_textgen_portrait(report, ref, entry, folder / f"{place.stem}{suffix}", image, hidden)


def _write_textgen_portrait(
    report: LibraryReport, ref: str, yaml_entry: dict, path: Path, image: bytes, hidden: str | None
):
    """The portrait beside its YAML, unless that YAML is another character's (`differs`: the
    picture would become that one's) or a file textgen shows first is there (`hidden`, why)."""
    picture = path.relative_to(report.into).as_posix()
    if yaml_entry.get("differs"):
        _portrait_held(yaml_entry, picture)
    elif hidden is not None:
        report.not_written.append({"ref": ref, "path": picture, "reason": hidden})
    else:
        try:
            _write(report, ref, path, image, None, [])
        except (BunzaiError, OSError) as error:
            _refused(report, [ref], error)


def _portrait_held(entry: dict, picture: str | None) -> dict:
    """`entry` (its character file's, not written) naming the portrait not written with it."""
    if picture is not None:
        entry["portrait_not_written"] = {
            "path": picture,
            "reason": "its character file is not written: the picture would be shown with the character there",
        }
    return entry


def _hidden_portrait(folder: Path, stem: str, suffix: str) -> str | None:
    """Why `<stem><suffix>` would not be shown: textgen shows the first of PORTRAIT_BESIDE there
    (modules/chat.py generate_pfp_cache), so an existing earlier one hides it; else None."""
    for earlier in PORTRAIT_BESIDE[: PORTRAIT_BESIDE.index(suffix)]:
        if os.path.lexists(folder / f"{stem}{earlier}"):
            return (
                f"{TEXTGEN_CHARACTERS}/{stem}{earlier} is there, and text-generation-webui shows it "
                f"before {stem}{suffix}"
            )
    return None


def _textgen_portrait(studio, piece) -> tuple[bytes | None, str]:
    """The portrait's bytes and the suffix textgen finds it under; (None, "") where there is
    none, or it is no image textgen opens (the loss then stays)."""
    portrait = piece.body.portrait
    if portrait is None:
        return None, ""
    image = read_asset(studio, portrait.sha256, portrait.ext)
    # textgen shows the first of `<name>.png`, `.jpg`, `.jpeg` (PORTRAIT_BESIDE) and opens it by
    # its content (Pillow), so a GIF, BMP or WebP goes under `.png`, as textgen's own save
    # copies any picture there unconverted; the types are told by the bytes, as Pillow does.
    mime = mime_of("", image)
    if not mime:
        return None, ""
    return image, PORTRAIT_BESIDE[1] if mime == "image/jpeg" else PORTRAIT_BESIDE[0]


def _outside_studio(studio, into: Path) -> None:
    """Refuse a folder that is the studio or inside it, but for a folder of its own directly under
    Export/: the layout's folders would sit among the studio's own (`Graveyard/characters/`,
    which doctor then reports; files under `.bunzai/`), where only apply and export write.
    Under Export/, one export is not written into another's: a single-piece export's kit folder,
    or a folder inside an export's folder (an earlier `--into` folder itself is taken again:
    create-only, it keeps what is there). Links are followed, so a link to the studio is the studio."""
    from bunzai.store.exports import is_kit_name

    root = Path(os.path.realpath(studio.root))
    target = Path(os.path.realpath(into))
    exports = Path(os.path.realpath(studio.export_dir))
    if target.parent == exports and not is_kit_name(target.name):
        return
    if target.is_relative_to(exports):
        raise _into_another_export(studio, into, target.relative_to(exports).parts)
    if target.is_relative_to(root):
        raise BunzaiError(
            "invalid_input",
            f"{into} is {'the studio' if target == root else 'inside the studio'} {studio.root}: nothing was written",
            f"export into a folder outside the studio, or a new folder under {studio.export_dir}",
        )


def _into_another_export(studio, into: Path, parts: tuple[str, ...]) -> BunzaiError:
    """The refusal of a folder under Export/ that is not one of its own (`_outside_studio`)."""
    from bunzai.store.exports import is_kit_name

    own = f"a new folder directly under {studio.export_dir}, or a folder outside the studio"
    if not parts:
        message = f"{into} is the studio's Export/ folder, where each export goes in a folder of its own"
        return BunzaiError("invalid_input", f"{message}: nothing was written", f"export into {own}")
    top = studio.export_dir / parts[0]
    if is_kit_name(parts[0]):
        message = f"{into} is {'' if len(parts) == 1 else 'inside '}{top}, the folder of a single-piece export"
        return BunzaiError("invalid_input", f"{message}: nothing was written", f"export into {own}")
    if not top.is_dir():  # no earlier export there: the folder is only too deep
        return BunzaiError(
            "invalid_input",
            f"{into} is not directly under {studio.export_dir}: an export goes in a folder of its own directly "
            "under it: nothing was written",
            f"export into {top}, {own}",
        )
    return BunzaiError(
        "invalid_input",
        f"{into} is inside {top}: under the studio's Export/, an export goes in a folder of its own directly "
        "under it, not inside another's: nothing was written",
        f"export into {top} itself (create-only: what is there is kept), {own}",
    )


def _make_into(into: Path) -> None:
    """The folder to export into, created when missing; a refusal, not a crash, where it cannot be."""
    if into.is_symlink() and not into.exists():
        raise BunzaiError("invalid_input", f"{into} is a link to nothing", "name a folder (it is created when missing)")
    if into.exists() and not into.is_dir():
        raise BunzaiError("invalid_input", f"{into} is not a folder", "name a folder (it is created when missing)")
    try:
        into.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _os_refusal(error, into) from None


def _refused(report: LibraryReport, refs: list[str], error: BunzaiError | OSError) -> None:
    coded = error if isinstance(error, BunzaiError) else _os_refusal(error)
    report.not_written.extend({"ref": ref, "error": coded.to_json()["error"]} for ref in refs)


def _os_refusal(error: OSError, path: Path | None = None) -> BunzaiError:
    """A file the system would not write (a name too long for it, a disk without hard links,
    read-only, full): said per piece, so the report of what was written is not lost. It names
    `path`, the file or folder the export meant, when given; else the file the error names as the
    person knows it (`meant_path`): a temp file as the file it was to become, never the temp file."""
    from bunzai.errors import from_os_error
    from bunzai.store.faults import meant_path

    named = path if path is not None else meant_path(error.filename)
    where = f"{named}: " if named else ""
    return from_os_error(error, named) or BunzaiError(
        "invalid_input",
        f"{where}{error.strerror or error}; nothing was written there",
        "check the folder exported into",
    )


def _backup_place(piece) -> tuple[str, int] | None:
    """(file, place) of a persona read as one of several from a backup or settings.json."""
    source = piece.original.source if piece.original is not None else None
    if piece.kind != "persona" or not source or "#" not in source or piece.original.format != st.PERSONAS_FORMAT:
        return None
    file, _, place = source.rpartition("#")
    return (file, int(place)) if place.isdigit() else None


def _export_backup(studio, source: str, members: list, report: LibraryReport) -> None:
    """The personas read from one file, written back as one backup in the file's order.

    Personas from two files of the same name (two users' settings.json) share a source;
    SillyTavern keys a persona by its avatar file, so where two of them hold the same
    place or avatar, the second goes into a backup of its own rather than over the first.
    """
    import json

    backups: list[tuple[set[int], set[str], list]] = []  # places, avatar keys, members
    for place, ref, piece in members:
        try:
            crossing = convert_stored_piece(studio, piece, st.PERSONAS_FORMAT, current_book=False)
        except BunzaiError as error:
            _refused(report, [ref], error)
            continue
        one = json.loads(crossing.data)
        keys = set(one.get("personas") or ()) | set(one.get("persona_descriptions") or ())
        losses = [loss.to_json() for loss in crossing.losses if not _not_lost(loss, piece, None)]
        places, taken, group = next(
            (backup for backup in backups if place not in backup[0] and not keys & backup[1]), (set(), set(), [])
        )
        if not group:
            backups.append((places, taken, group))
        places.add(place)
        taken.update(keys)
        group.append((ref, piece, one, losses))
    name = PurePosixPath(source).name
    stem = st.file_stem_for(PurePosixPath(source).stem if name != st.SETTINGS_FILE else "personas", "personas")
    paths = [f"{stem}.json"] + [f"{stem}-{number}.json" for number in range(2, len(backups) + 1)]
    if len(backups) > 1:
        report.notes.append(
            f"personas recorded as read from {name} repeat a place or an avatar file name (two files of "
            "that name, or one imported twice; SillyTavern keys a persona by its avatar): they are written "
            f"as {len(backups)} backups, " + ", ".join(paths)
        )
    for (_places, _taken, group), file_name in zip(backups, paths, strict=True):
        try:
            folder = _folder(report, st.PERSONAS_FOLDER)
            _write_backup(studio, group, folder / file_name, report)
        except (BunzaiError, OSError) as error:
            _refused(report, [ref for ref, *_ in group], error)


def _write_backup(studio, group: list, path: Path, report: LibraryReport) -> None:
    import json

    merged: dict = {}
    for _ref, _piece, one, _losses in group:
        for key, value in one.items():
            if key in ("personas", "persona_descriptions"):
                merged.setdefault(key, {}).update(value)
            elif key == "default_persona":
                merged[key] = merged.get(key) or value
            else:
                merged.setdefault(key, value)
    data = json.dumps(merged, indent=2, ensure_ascii=False).encode("utf-8")
    wanted = st.Place(st.PERSONAS_FOLDER, path.stem, st.PERSONAS_FORMAT, path.suffix)
    place, duplicate = _claimed(report, wanted, data)  # two backups whose names differ only in case
    relative = place.path
    if not duplicate and _written_new(path.with_name(f"{place.stem}{place.extension}"), data, report.batch):
        _report_backup(report, group, relative, place, wanted)
    else:  # this export wrote these very bytes there, or a file was there already
        report.skipped.extend(_skipped(report, ref, relative, data) for ref, *_ in group)
    for ref, piece, one, _losses in group:  # an image may be missing, or another, even so
        try:
            _write_avatar(studio, report, ref, piece, _avatar_key(one))
        except (BunzaiError, OSError) as error:
            _refused(report, [ref], error)


def _written_new(path: Path, data: bytes, batch: Batch | None) -> bool:
    """Whether `data` was written as the new file `path`; False where a file is there already."""
    if os.path.lexists(path):  # taken: exporting again writes no temp file only to find it so
        return False
    try:
        _write_new_file(path, data, batch)
    except BunzaiError as error:
        if error.code != "occupied":
            raise
        return False
    except OSError as error:  # the file meant, not the hidden temp file the system refused
        raise _os_refusal(error, path) from None
    return True


def _write_new_file(path: Path, data: bytes, batch: Batch | None) -> None:
    """`store.atomic.write_new` without a sync before the link: the file is new, so no earlier
    file can be lost, and the batch's one sync at the end makes its bytes and name durable
    (a crash before it can leave the file empty, which exporting again reports as `differs`)."""
    temp = atomic.write_temp(path, data, batch)
    atomic.link_temp(temp, path)
    atomic.settle(path, batch)


def _skipped(report: LibraryReport, ref: str, relative: str, data: bytes) -> dict:
    """A `skipped_existing` entry; `differs` where the file there is not what this export
    would write (the piece was edited since it was exported there, or another file has its
    name), so an edit left unwritten is said, not silent."""
    entry = {"ref": ref, "path": relative}
    if not _holds(report.into / relative, data):
        entry["differs"] = True
    return entry


def _holds(path: Path, data: bytes) -> bool:
    """Whether `path` is a plain file holding exactly `data` (its size is checked first)."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size != len(data):
            return False
        return path.read_bytes() == data
    except OSError:
        return False


def _report_backup(report: LibraryReport, group: list, relative: str, place, wanted) -> None:
    for ref, _piece, _one, losses in group:
        entry = {
            "ref": ref,
            "losses": losses,
            "path": relative,
            "format": st.PERSONAS_FORMAT,
            "note": "SillyTavern keeps personas in settings.json: restore this backup in "
            "Persona Management (the avatar images are in User Avatars/)",
        }
        if place != wanted:
            entry["renamed_from"] = wanted.path
        report.written.append(entry)


def _export_piece(studio, piece, ref: str, report: LibraryReport) -> bytes | None:
    """Write `piece` where SillyTavern looks for it; return the bytes its file holds (None where
    SillyTavern has no file for it)."""
    place = st.place_of(piece)
    if place is None:
        report.not_written.append({"ref": ref, "reason": f"SillyTavern has no file for a {piece.kind} piece"})
        return None
    # The bound world is written beside the card as its own file: the card keeps its copy as imported.
    crossing = _crossing(studio, piece, place, report)
    if piece.kind != "pack":
        place, crossing = _named_now(studio, piece, place, crossing, report)
    wanted = place.path
    if piece.kind != "pack":
        place, duplicate = _claimed(report, place, crossing.data)
        if duplicate:  # a piece of this export wrote these very bytes there
            report.skipped.append(_skipped(report, ref, place.path, crossing.data))
            return crossing.data
        if place.path != wanted:  # renamed: its losses are those of the name it is written under
            crossing.losses = _crossed_as(studio, piece, place, report).losses
        if piece.kind == "lorebook":
            report.world_stems[piece.id] = place.stem
    losses = [
        loss.to_json()
        for loss in crossing.losses
        if not _not_lost(loss, piece, place) and not _sprites_beside(loss, piece, report)
    ]
    if piece.kind == "pack":
        for stem in _sprite_folders(studio, piece, place, report):
            folder = _folder(report, f"{place.folder}/{stem}")
            for name, data in crossing.files or []:
                if st.file_stem_for(name, "") != name:
                    raise BunzaiError(
                        "invalid_input",
                        f"sprite file name {name!r} is not a plain file name",
                        'rename the sprite: no / \\ : * ? " < > |, no trailing dot or space',
                    )
                _write(report, ref, folder / name, data, place, losses)
                losses = []  # the pack's losses are reported once, with its first file
        return None
    folder = _folder(report, place.folder)
    renamed_from = wanted if place.path != wanted else None
    _write(report, ref, folder / f"{place.stem}{place.extension}", crossing.data, place, losses, renamed_from)
    return crossing.data


def _named_now(studio, piece, place, crossing, report: LibraryReport):
    """(place, crossing) under the piece's name now where SillyTavern names it by its file (a
    world, a nameless preset) and the file it was read from no longer says it (renamed since):
    else SillyTavern would show the old name. Other files keep the name they were read under
    (chats are kept by the card's file name)."""
    if not any(loss.code in NAMED_BY_FILE for loss in crossing.losses):
        return place, crossing
    named = replace(place, stem=st.file_stem_for(piece.name, piece.id))
    if named.stem == place.stem:
        return place, crossing
    return named, _crossed_as(studio, piece, named, report)


def _crossing(studio, piece, place, report: LibraryReport):
    """The crossing of a piece written under `place`; a card binds the worlds of this export by
    the names they are written under, its own book's too where this export writes that book's world
    file (another piece binds it): as SillyTavern's Import Card Lore binds the card to the world it
    writes, so no unbound copy of the book stands beside a world of its name."""
    return convert_stored_piece(
        studio,
        piece,
        place.format_id,
        current_book=False,
        stem=place.stem,
        link_names=report.world_stems,
        books_inside=report.books_inside,
        books_bound=report.world_stems,
    )


def _crossed_as(studio, piece, place, report: LibraryReport):
    """The crossing of a piece written under `place`: a world, preset or regex set that
    SillyTavern calls by its file name loses its own name under another one (the bytes do not
    depend on the name, the losses do). A writer reads its file back as `<id>.json` to name
    that loss, so a piece named as its id is crossed as if `place.stem` were its id."""
    if piece.name == piece.id:
        piece = piece.model_copy(update={"id": place.stem})
    return _crossing(studio, piece, place, report)


def _avatar_key(backup: bytes | dict | None) -> str | None:
    """The avatar file name a written one-persona backup keys its persona by."""
    import json

    document = json.loads(backup) if isinstance(backup, bytes) else backup
    names = document.get("personas") if isinstance(document, dict) else None
    return next(iter(names)) if isinstance(names, dict) and len(names) == 1 else None


def _write_avatar(studio, report: LibraryReport, ref: str, piece, avatar: str | None) -> None:
    """A persona's image into `User Avatars/`, under the file name SillyTavern keys the persona
    by (`avatar`, the key of the backup written for it: SillyTavern's restore looks for that
    file, whatever type the image is); it cannot be renamed there, so where another persona of
    this export took that name with another image (two users' `luna.png`, or `Luna.png` on a
    disk that folds case), the second is not written, and the report says why."""
    import hashlib

    portrait = piece.body.portrait
    if portrait is None:
        return
    avatar = avatar or st.persona_avatar(piece) or f"{piece.id}.png"
    if st.file_stem_for(avatar, "") != avatar:
        return
    image = read_asset(studio, portrait.sha256, portrait.ext)
    relative = f"{st.AVATARS}/{avatar}"
    digest = hashlib.sha256(image).digest()
    taken = _take(report, relative, digest)
    if taken != digest:
        report.not_written.append(
            {
                "ref": ref,
                "path": relative,
                "reason": "another persona of this export has an avatar of this file name with another image "
                "(SillyTavern keys a persona by its avatar's file name, so it cannot be renamed)",
            }
        )
        return
    _write(report, ref, _folder(report, st.AVATARS) / avatar, image, None, [])


def _claimed(report: LibraryReport, place, data: bytes, numbered=lambda stem, number: f"{stem}{number}"):
    """(place, duplicate): `place`, unless another piece of this export took its file with
    other bytes: then the name the platform gives a second card or file of one name
    (`numbered`: SillyTavern's `Alice1.png`, `Alice2.png` ...); `duplicate` where a piece of this export took that
    place with these very bytes (a piece imported twice). The same pieces in the same order
    get the same names, so exporting again into the same folder finds every file in place."""
    import hashlib
    from dataclasses import replace

    key = hashlib.sha256(data).digest()
    first = replace(place, stem=numbered(place.stem, 1))
    # A name once taken stays taken, so a search for this name goes on where the last one stopped
    # (a library of a thousand Alices costs a step per card, not a walk from Alice.png each time);
    # a number passed with these very bytes is where they are.
    tried = report.numbering.setdefault(
        (_name_key(place.path, report.folds_case), _name_key(first.path, report.folds_case)), [0, {}]
    )
    number = tried[1].get(key, tried[0])
    while True:
        chosen = place if number == 0 else first if number == 1 else replace(place, stem=numbered(place.stem, number))
        taken = _take(report, chosen.path, key)
        if taken == key:
            return chosen, taken is not key
        tried[1].setdefault(taken, number)
        number += 1
        tried[0] = max(tried[0], number)


def _take(report: LibraryReport, path: str, digest: bytes) -> bytes:
    """The SHA-256 of the file this export put at `path` (names compared as the file system
    compares them), `digest` itself when the place was free: it is then claimed for it."""
    return report.claimed.setdefault(_name_key(path, report.folds_case), digest)


def _folds_case(folder: Path) -> bool:
    """Whether the file system under `folder` matches names without regard to case (macOS's
    and Windows's defaults): there `Luna.png` and `luna.png` are one file, so a second card
    must get SillyTavern's next name rather than find the first one's file "existing".
    Probed with a file made and removed at once."""
    import os
    import tempfile

    try:
        fd, probe = tempfile.mkstemp(prefix="bunzai-case-probe-", dir=folder)
    except OSError:  # a folder that takes no file: the export's own writes say why
        return False
    os.close(fd)
    try:
        head, name = os.path.split(probe)
        return os.path.exists(os.path.join(head, name.upper()))
    finally:
        os.unlink(probe)


def _name_key(path: str, folds_case: bool) -> str:
    """`path` as the file system tells names apart: where it folds case, also Unicode's
    composed and decomposed forms (macOS's APFS matches both)."""
    if not folds_case:
        return path
    import unicodedata

    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", path).casefold())


def _sprite_folders(studio, piece, place, report: LibraryReport) -> list[str]:
    """Where SillyTavern looks for a pack's sprites: `characters/<display name>/` of every
    character showing it (`media.pack`), else the folder it was read from, else its name."""
    if report.shown_by is None:  # read the characters once per export, on the first pack
        report.shown_by = {}
        for kind, piece_id in list_stored(studio):
            if kind == "character":
                character = validate_piece(read_stored(studio, kind, piece_id).data)
                if character.body.media.pack:
                    stems = report.shown_by.setdefault(character.body.media.pack, [])
                    stem = st.file_stem_for(character.name, character.id)
                    if stem not in stems:
                        stems.append(stem)
    return report.shown_by.get(piece.id) or [place.stem]


def _sprites_beside(loss, piece, report: LibraryReport) -> bool:
    """Whether a card's `/body/media` loss is made good by this export: its pack is written too,
    into `characters/<its name>/`, where SillyTavern shows it the sprites (a default face, or a
    visual other than sprites, has no place there and stays lost)."""
    if piece.kind != "character" or loss.pointer != "/body/media":
        return False
    media = piece.body.media
    return media.pack in report.packs and media.visual in ("none", "sprites") and not media.face


def _not_lost(loss, piece, place) -> bool:
    if loss.code == "persona.portrait.dropped":
        return True  # the image is written to User Avatars/ beside the backup
    return loss.code in NAMED_BY_FILE and place.stem == piece.name


def _write(
    report: LibraryReport,
    ref: str,
    path: Path,
    data: bytes,
    place,
    losses: list[dict],
    renamed_from: str | None = None,
) -> dict:
    """The report entry of writing `data` at `path`: written, or skipped where a file is there."""
    relative = path.relative_to(report.into).as_posix()
    if not _written_new(path, data, report.batch):
        skipped = _skipped(report, ref, relative, data)
        report.skipped.append(skipped)
        return skipped
    entry = {"ref": ref, "path": relative, "losses": losses}
    if renamed_from is not None:  # another piece of this export took the file it wanted
        entry["renamed_from"] = renamed_from
    if place is not None:
        entry["format"] = place.format_id
        if place.note:
            entry["note"] = place.note
    report.written.append(entry)
    return entry


def _folder(report: LibraryReport, relative: str) -> Path:
    """`into/relative`, created; refused when any part of it is a link (it could lead outside)."""
    path = report.into
    for part in relative.split("/"):
        if st.file_stem_for(part, "") != part:
            raise BunzaiError(
                "invalid_input",
                f"{part!r} is not a plain folder name",
                'rename what it is named after: no / \\ : * ? " < > |, no trailing dot or space',
            )
        path = path / part
        if path.is_symlink():
            raise BunzaiError(
                "invalid_input",
                f"{path} is a link; nothing is written through links",
                "export into a folder without links",
            )
        if path.exists() and not path.is_dir():
            raise BunzaiError(
                "invalid_input",
                f"{path} is a file where SillyTavern keeps a folder; nothing is written into it",
                "move the file away and export again",
            )
        path.mkdir(exist_ok=True)
    report.folders.add(path)
    return path
