"""SillyTavern's user folder (`data/<user>/`): which folder holds which pieces, in and out.

The layout is SillyTavern's `USER_DIRECTORY_TEMPLATE` (src/constants.js). Each piece
folder ("shelf") holds one kind in one format, and a piece is named by its file stem:

    characters/<name>.png          character cards (a card's book is its bound world)
    characters/<name>/             expression sprites of the character named <name>
    worlds/<name>.json             world info
    OpenAI Settings/ TextGen Settings/ KoboldAI Settings/ NovelAI Settings/   presets
    instruct/ context/ sysprompt/ reasoning/                                  templates
    QuickReplies/<name>.json       quick-reply sets
    User Avatars/<avatar>          persona images
    settings.json                  personas (power_user) and global regex scripts
                                   (extension_settings.regex): read, never written

Pieces SillyTavern keeps only inside settings.json are written out as the files its own
import buttons read (a persona backup, a regex scripts file) under `IMPORT_FOLDER`.
Nothing here touches the disk beyond telling a user folder from another folder; the
import walk and the export live above the adapters.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from bunzai.adapters.sillytavern.personas import FORMAT_ID as PERSONAS_FORMAT
from bunzai.adapters.sillytavern.regex import FORMAT_ID as REGEX_FORMAT
from bunzai.adapters.sillytavern.sprites import FOLDER_FORMAT as SPRITES_FOLDER_FORMAT
from bunzai.adapters.sillytavern.world import FORMAT_ID as WORLD_FORMAT
from bunzai.jsondoc.reading import load_json_bytes
from bunzai.limits import EXPORT_STEM_MAX_BYTES


@dataclass(frozen=True)
class Shelf:
    """A folder of the user folder holding one kind of piece in one format."""

    folder: str
    kind: str
    format_id: str
    extension: str
    family: str = ""  # presets: the canonical family (and source) the folder holds
    source: str = ""
    any_case: bool = False  # SillyTavern lists the extension in any case (worlds/), else as written

    def lists(self, name: str) -> bool:
        """Whether SillyTavern lists a file of this name on this shelf (src/endpoints): characters/
        a name ending in `.png` as written (characters.js), worlds/ the extension `.json` in any case
        (worldinfo.js), the other shelves the extension `.json` as written (settings.js)."""
        if self.folder == CHARACTERS:
            return name.endswith(self.extension)
        extension = PurePosixPath(name).suffix
        return (extension.lower() if self.any_case else extension) == self.extension


SHELVES = (
    Shelf("characters", "character", "sillytavern.card.png", ".png"),
    Shelf("worlds", "lorebook", WORLD_FORMAT, ".json", any_case=True),
    Shelf("OpenAI Settings", "preset", "sillytavern.preset.chat", ".json", "chat_completion"),
    Shelf("TextGen Settings", "preset", "sillytavern.preset.textgen", ".json", "text_completion", "textgen"),
    Shelf("KoboldAI Settings", "preset", "sillytavern.preset.kobold", ".json", "text_completion", "kobold"),
    Shelf("NovelAI Settings", "preset", "sillytavern.preset.novel", ".json", "text_completion", "novel"),
    Shelf("instruct", "preset", "sillytavern.instruct", ".json", "instruct"),
    Shelf("context", "preset", "sillytavern.context", ".json", "context"),
    Shelf("sysprompt", "preset", "sillytavern.sysprompt", ".json", "sysprompt"),
    Shelf("reasoning", "preset", "sillytavern.reasoning", ".json", "reasoning"),
    Shelf("QuickReplies", "quickreply", "sillytavern.quickreply", ".json"),
)
CHARACTERS = "characters"
_CARDS = next(shelf for shelf in SHELVES if shelf.folder == CHARACTERS)
AVATARS = "User Avatars"
SETTINGS_FILE = "settings.json"
# Folders of the template that hold no piece bunzai keeps (chats, backgrounds, UI state).
NOT_PIECES = (
    "chats",
    "group chats",
    "groups",
    "backgrounds",
    "thumbnails",
    "themes",
    "movingUI",
    "extensions",
    "assets",
    "user",
    "vectors",
    "backups",
    "layouts",
    "layout-assets",
    "messages",
)
# Where pieces SillyTavern keeps only in settings.json are written, as import-button files.
IMPORT_FOLDER = "Import in SillyTavern"
PERSONAS_FOLDER = f"{IMPORT_FOLDER}/personas"
REGEX_FOLDER = f"{IMPORT_FOLDER}/regex"
GLOBAL_REGEX_NAME = "Global regex scripts"


def is_user_folder(path: Path) -> bool:
    """Whether `path` is laid out as a SillyTavern user folder: its settings.json beside one
    piece folder, or two piece folders (a copy without settings), or the persona backups a
    library export writes beside User Avatars/ (an export of personas alone), or `characters/`
    holding a card with nothing beside it but what a user folder holds (`_cards_alone`)."""
    if not path.is_dir():
        return False
    shelves = sum(1 for shelf in SHELVES if (path / shelf.folder).is_dir())
    exported = (path / PERSONAS_FOLDER).is_dir() and (path / AVATARS).is_dir()
    if shelves >= 2 or (shelves >= 1 and (path / SETTINGS_FILE).is_file()) or exported:
        return True
    return shelves == 1 and (path / CHARACTERS).is_dir() and _cards_alone(path)


def _cards_alone(path: Path) -> bool:
    """Whether `path` is a user folder of cards alone: `characters/` holding at least one card
    SillyTavern lists there, and beside it only names of its user folder (USER_DIRECTORY_TEMPLATE's
    folders, which it makes empty in every user folder: src/users.js ensurePublicDirectoriesExist)
    or of a library export (`Import in SillyTavern/`). A copy of a user folder's cards, or an export
    of cards whose books stay inside them, made before bunzai wrote `worlds/` beside them; a folder
    that merely holds a `characters/` of pictures, or other things beside it, is walked as any."""
    from bunzai.adapters.common.png import stream_keywords
    from bunzai.adapters.sillytavern.card_png import CARD_KEYWORDS
    from bunzai.errors import BunzaiError
    from bunzai.files import list_folder

    known = {shelf.folder for shelf in SHELVES} | {AVATARS, IMPORT_FOLDER, *NOT_PIECES}
    try:
        files, folders = list_folder(path)
        if any(file.name != SETTINGS_FILE for file in files) or any(sub.name not in known for sub in folders):
            return False
        cards = [file for file in list_folder(path / CHARACTERS)[0] if _CARDS.lists(file.name)]
    except BunzaiError:  # a folder that cannot be listed: walked as any, which says why
        return False
    for card in cards:
        if not card.is_file():  # a FIFO or a device named .png: never opened here
            continue
        try:
            with card.open("rb") as stream:
                if not stream_keywords(stream).isdisjoint(CARD_KEYWORDS):
                    return True
        except OSError:  # one that cannot be read: the walk reads the others, and says why
            continue
    return False


def shelf_for_folder(name: str) -> Shelf | None:
    return next((shelf for shelf in SHELVES if shelf.folder == name), None)


def settings_documents(data: bytes) -> list[tuple[str, str, bytes]]:
    """(name, format id, bytes) of the piece files held inside settings.json: a persona backup
    built from `power_user` and the global regex scripts of `extension_settings.regex`."""
    settings = load_json_bytes(data, what=SETTINGS_FILE)  # within the limits, repeated keys noted
    if not isinstance(settings, dict):
        return []
    found = []
    power = settings.get("power_user") if isinstance(settings.get("power_user"), dict) else {}
    if isinstance(power.get("personas"), dict) and power["personas"]:
        backup = {
            "personas": power["personas"],
            "persona_descriptions": power.get("persona_descriptions") or {},
            "default_persona": power.get("default_persona"),
        }
        found.append(("personas.json", PERSONAS_FORMAT, json.dumps(backup, ensure_ascii=False).encode("utf-8")))
    extensions = settings.get("extension_settings") if isinstance(settings.get("extension_settings"), dict) else {}
    scripts = extensions.get("regex")
    if isinstance(scripts, list) and scripts:
        found.append(
            (f"{GLOBAL_REGEX_NAME}.json", REGEX_FORMAT, json.dumps(scripts, ensure_ascii=False).encode("utf-8"))
        )
    return found


def persona_avatar(piece: Any) -> str | None:
    """The avatar file name a persona read from SillyTavern is keyed by."""
    original = piece.original
    if original is None or original.format != PERSONAS_FORMAT or not isinstance(original.document, dict):
        return None
    names = original.document.get("personas")
    return next(iter(names), None) if isinstance(names, dict) and len(names) == 1 else None


# --- where a piece goes when written into a user folder ---------------------------------


@dataclass(frozen=True)
class Place:
    """Where a piece is written: a folder, a file stem, a format; `note` when SillyTavern
    does not read it from there by itself (it keeps that kind inside settings.json)."""

    folder: str
    stem: str
    format_id: str
    extension: str
    note: str = ""

    @property
    def path(self) -> str:
        return f"{self.folder}/{self.stem}{self.extension}"


def place_of(piece: Any) -> Place | None:
    """Where SillyTavern looks for `piece`, under the file name it uses; None for kinds it has
    no file for (drawings, promptbooks)."""
    source = piece.original.source if piece.original is not None else None
    recorded = PurePosixPath(source) if source else None
    kind = piece.kind
    if kind == "pack":
        folder = _recorded_stem(recorded, CHARACTERS, "") or file_stem_for(piece.name, piece.id)
        return Place(CHARACTERS, folder, SPRITES_FOLDER_FORMAT, "/")
    if kind == "persona":
        return Place(
            PERSONAS_FOLDER,
            file_stem_for(PurePosixPath(persona_avatar(piece) or piece.id).stem, piece.id),
            PERSONAS_FORMAT,
            ".json",
            "SillyTavern keeps personas in settings.json: restore this backup in "
            "Persona Management (the avatar image is in User Avatars/)",
        )
    if kind == "regex":
        return Place(
            REGEX_FOLDER,
            file_stem_for(piece.name, piece.id),
            REGEX_FORMAT,
            ".json",
            "SillyTavern keeps global regex scripts in settings.json: import this file in the Regex panel",
        )
    shelf = _shelf_of(piece)
    if shelf is None:
        return None
    stem = _recorded_stem(recorded, shelf.folder, shelf.extension) or file_stem_for(piece.name, piece.id)
    return Place(shelf.folder, stem, shelf.format_id, shelf.extension)


def _shelf_of(piece: Any) -> Shelf | None:
    own = piece.original.format if piece.original is not None else ""
    for shelf in SHELVES:
        if shelf.kind == piece.kind and shelf.format_id == own:
            return shelf
    if piece.kind != "preset":
        return next((shelf for shelf in SHELVES if shelf.kind == piece.kind), None)
    # A preset made elsewhere: the folder of its family, of its backend where the family has
    # several (TextGen, KoboldAI, NovelAI), else the family's first (TextGen Settings).
    family, source = piece.body.family, piece.body.source
    candidates = [shelf for shelf in SHELVES if shelf.kind == "preset" and shelf.family == family]
    return next((shelf for shelf in candidates if shelf.source == source), candidates[0] if candidates else None)


def _recorded_stem(recorded: PurePosixPath | None, folder: str, extension: str) -> str:
    """The stem the piece had in `folder` when it was read from there, if it was."""
    if recorded is None or len(recorded.parts) != 2 or recorded.parts[0] != folder:
        return ""
    name = recorded.parts[1]
    if extension and not name.lower().endswith(extension):
        return ""
    stem = name[: len(name) - len(extension)] if extension else name
    return stem if file_stem_for(stem, "") == stem else ""


# Characters Windows, macOS or Linux refuse in a file name (sanitize-filename, which
# SillyTavern uses, removes the same ones).
_UNSAFE = re.compile(r'[/\\?<>:*|"\x00-\x1f\x80-\x9f]')
_RESERVED = re.compile(r"(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?", re.IGNORECASE)


def file_stem_for(name: str, fallback: str) -> str:
    """A file stem made from a display name as SillyTavern sanitizes it; `fallback` (a safe id)
    when nothing is left. Never a path: no separators, no `.` or `..`."""
    stem = _UNSAFE.sub("", unicodedata.normalize("NFC", name)).strip().rstrip(". ")
    while len(stem.encode("utf-8")) > EXPORT_STEM_MAX_BYTES:
        stem = stem[:-1]
    if not stem or stem in (".", "..") or _RESERVED.fullmatch(stem):
        return fallback
    return stem


def plain_stem(name: str, fallback: str) -> str:
    """`name` as SillyTavern cleans a file name (file_stem_for), without leading dots: an export
    is never a hidden file; `fallback` (a safe id) when nothing is left."""
    return file_stem_for(file_stem_for(name, "").lstrip(". "), fallback)
