"""Marinara Engine's profile backup (`marinara-profile.json`, type `marinara_profile`) -> many pieces.

Settings -> Export Profile (backup.routes.ts buildProfileExportEnvelope; also inside its backup
ZIP) saves every row of an install: `data: {characters, personas, lorebooks, presets, agents,
themes}`. Each row is turned into the single-piece export Marinara makes of it (the same
routes' envelopes) and read by that export's adapter, so a piece from a profile is the piece
its own export gives, escrow included:

    characters[i]  {id, data (the V2 card as a JSON string), comment, avatarPath, dates,
                   avatarBase64}  -> marinara_character (buildNativeCharacterEnvelope)
    personas[i]    the personas row + avatarBase64 -> marinara_persona (buildNativePersonaEnvelope)
    lorebooks[i]   {...lorebook, folders, entries} -> marinara_lorebook ({lorebook, entries, folders})
    presets[i]     {...preset, groups, sections, choices} -> marinara_preset ({preset, sections,
                   groups, choiceBlocks})

Marinara binds a lorebook to a character or persona on the lorebook row (`characterId`,
`personaId`); those become the character's `links.lorebooks` and the persona's `lorebook`.
A character whose card keeps an embedded `character_book` that Marinara also made a lorebook
row of (its import does, with characterId set) links to the row's piece, and the embedded copy
is not made a piece twice (the card keeps it in its body). Avatars (base64) become portraits.

A row that cannot be read is passed over with a warning naming its place; agents and themes
(no canonical kind holds them) are named in a warning too. Ids are made distinct per kind
within the file (`-2`, `-3` ...), so two characters of one name are two pieces.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from bunzai import limits
from bunzai.adapters.contract import Adapter, Blob, Decoded
from bunzai.adapters.marinara.character import MarinaraCharacter
from bunzai.adapters.marinara.envelope import (
    ENVELOPE_VERSION,
    avatar_image,
    decode_nested,
    envelope_of,
    envelope_type,
)
from bunzai.adapters.marinara.lorebook import MarinaraLorebook
from bunzai.adapters.marinara.persona import MarinaraPersona
from bunzai.adapters.marinara.preset import MarinaraPreset
from bunzai.adapters.registry import register
from bunzai.errors import BunzaiError
from bunzai.model.ids import ID_MAX_LENGTH

FORMAT_ID = "marinara.profile"
TYPE = "marinara_profile"
NOT_CARRIED = {
    "agents": "agent settings (bunzai has no piece for Marinara's agents)",
    "themes": "custom themes (bunzai has no piece for a UI theme)",
}
# The row keys the profile adds to a persona row, or that its own export leaves out.
_PERSONA_NOT_EXPORTED = ("id", "createdAt", "updatedAt", "avatarPath", "isActive", "avatarBase64")


def _dated(row: dict, keys: tuple[str, ...]) -> dict:
    """The keys of `row` that are present (JSON.stringify leaves out an undefined one)."""
    return {key: row[key] for key in keys if key in row}


def _character_envelope(row: dict, stamp: Any) -> dict:
    card = decode_nested(row.get("data"), None)
    if not isinstance(card, dict):
        raise BunzaiError("corrupt_file", "its `data` is not a character card", "export the profile again")
    comment = row.get("comment")
    metadata = _dated(row, ("createdAt", "updatedAt")) | {"comment": comment if isinstance(comment, str) else ""}
    data = {"spec": "chara_card_v2", "spec_version": "2.0", "data": card, "metadata": metadata}
    return _envelope("marinara_character", data, stamp)


def _persona_envelope(row: dict, stamp: Any) -> dict:
    data = {key: value for key, value in row.items() if key not in _PERSONA_NOT_EXPORTED}
    return _envelope("marinara_persona", data | {"metadata": _dated(row, ("createdAt", "updatedAt"))}, stamp)


def _lorebook_envelope(row: dict, stamp: Any) -> dict:
    book = {key: value for key, value in row.items() if key not in ("entries", "folders")}
    data = {"lorebook": book, "entries": row.get("entries") or [], "folders": row.get("folders") or []}
    return _envelope("marinara_lorebook", data, stamp)


def _preset_envelope(row: dict, stamp: Any) -> dict:
    preset = {key: value for key, value in row.items() if key not in ("groups", "sections", "choices")}
    data = {
        "preset": preset,
        "sections": row.get("sections") or [],
        "groups": row.get("groups") or [],
        "choiceBlocks": row.get("choices") or [],
    }
    return _envelope("marinara_preset", data, stamp)


def _envelope(kind: str, data: dict, stamp: Any) -> dict:
    return {"type": kind, "version": ENVELOPE_VERSION, "exportedAt": stamp, "data": data}


# section -> (its single-piece reader, the envelope its rows become, the singular in names)
READERS = {
    "characters": (MarinaraCharacter(), _character_envelope, "character"),
    "personas": (MarinaraPersona(), _persona_envelope, "persona"),
    "lorebooks": (MarinaraLorebook(), _lorebook_envelope, "lorebook"),
    "presets": (MarinaraPreset(), _preset_envelope, "preset"),
}


class _Read:
    """What the rows gave so far: pieces in order, media, warnings, and the pieces by row id."""

    def __init__(self) -> None:
        self.pieces: list[Any] = []
        self.blobs: list[Blob] = []
        self.warnings: list[str] = []
        self.taken: dict[str, set[str]] = defaultdict(set)
        self.by_row: dict[str, dict[str, Any]] = defaultdict(dict)  # section -> Marinara row id -> piece
        self.characters: list[tuple[Any, list[Any]]] = []  # each character piece and its embedded books
        self.books: list[tuple[Any, dict]] = []  # each lorebook piece and its row

    def unique(self, kind: str, wanted: str) -> str:
        chosen, number = wanted, 2
        while chosen in self.taken[kind]:
            suffix = f"-{number}"
            chosen, number = wanted[: ID_MAX_LENGTH - len(suffix)].rstrip("-._") + suffix, number + 1
        self.taken[kind].add(chosen)
        return chosen


class MarinaraProfile(Adapter):
    format_id = FORMAT_ID
    label = "Marinara Engine profile (a whole install: characters, personas, lorebooks, presets)"
    kinds = ("character", "persona", "lorebook", "preset")
    extensions = (".json",)
    container = "text"
    can_write = False
    engine = "marinara"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 1.0 if envelope_type(parsed) == TYPE else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        what = name or "the profile"
        document = envelope_of(data, name, parsed, TYPE)
        if document.get("version") != ENVELOPE_VERSION:  # backup.routes.ts import-profile refuses it too
            raise BunzaiError(
                "unsupported",
                f"{what} is a Marinara Engine profile of version {document.get('version')!r}; bunzai reads version 1",
                "export the profile again from a current Marinara Engine",
            )
        sections = {section: _rows(document["data"], section, what) for section in READERS}
        total = sum(len(rows) for rows in sections.values())
        if total > limits.DRAFT_GROUP_MAX:
            raise _too_many(what, total)
        read = _Read()
        for section, rows in sections.items():
            for index, row in enumerate(rows):
                _read_row(read, section, index, row, document.get("exportedAt"))
        _link(read)
        _note_not_carried(read, document["data"], what)
        if not read.pieces:
            raise BunzaiError(
                "unrecognized_file",
                f"{what} is a Marinara Engine profile holding no character, persona, lorebook or preset bunzai can "
                "read" + (f" ({read.warnings[0]})" if read.warnings else ""),
                "export the profile again, or export the pieces one by one",
            )
        if len(read.pieces) > limits.DRAFT_GROUP_MAX:
            raise _too_many(what, len(read.pieces))
        return Decoded(read.pieces, read.blobs, read.warnings)


def _rows(data: dict, section: str, what: str) -> list:
    rows = data.get(section)
    if rows is None:
        return []
    if not isinstance(rows, list):
        raise BunzaiError(
            "corrupt_file",
            f"{what}: its `{section}` is not a list of rows",
            "export the profile again from Marinara Engine",
        )
    return rows


def _too_many(what: str, count: int) -> BunzaiError:
    return BunzaiError(
        "too_large",
        f"{what} holds {count} pieces; one import applies at most {limits.DRAFT_GROUP_MAX} together",
        "export the pieces from Marinara in parts (bulk export, unzipped) and import those",
    )


def _read_row(read: _Read, section: str, index: int, row: Any, stamp: Any) -> None:
    """The row's pieces added to `read`, or a warning naming the row when it cannot be read."""
    reader, envelope_for, singular = READERS[section]
    place = f"{section}[{index}]"
    try:
        if not isinstance(row, dict):
            raise BunzaiError("corrupt_file", "it is no object", "export the profile again from Marinara Engine")
        decoded = reader.read(b"", f"{singular}-{index + 1}.json", envelope_for(row, stamp))
    except BunzaiError as error:
        read.warnings.append(f"marinara.profile.row.skipped: {place} is not imported: {error.message}")
        return
    own, carried = decoded.pieces[0], decoded.pieces[1:]
    own.id = read.unique(own.kind, own.id)
    read.pieces.append(own)
    read.pieces.extend(carried)  # a card's embedded book: its id is settled when links are (_link)
    read.blobs.extend(decoded.blobs)
    read.warnings.extend(f"{place}: {warning}" for warning in decoded.warnings)
    _portrait(read, own, row, place)
    row_id = row.get("id")
    if isinstance(row_id, str) and row_id:
        if row_id in read.by_row[section]:
            read.warnings.append(
                f"marinara.profile.row.duplicate_id: {place} has the id {row_id!r} of an earlier row; both are "
                "imported"
                + ("" if section in ("lorebooks", "presets") else ", and books bound to that id link the first")
            )
        else:
            read.by_row[section][row_id] = own
    if own.kind == "character":
        read.characters.append((own, carried))
    elif own.kind == "lorebook":
        read.books.append((own, row))


def _portrait(read: _Read, piece: Any, row: dict, place: str) -> None:
    """The row's avatar (`avatarBase64`) as the piece's portrait; a warning when it cannot be one."""
    # bare base64, which Marinara's profile import restores whatever the image (AVIF too)
    blob, warning = avatar_image(row.get("avatarBase64"), place, "marinara.profile.avatar", any_avif=True)
    if warning:
        read.warnings.append(warning)
    if blob is not None:
        piece.body.portrait = blob.ref()
        read.blobs.append(blob)


def _link(read: _Read) -> None:
    """Lorebook rows' characterId/personaId as the character's and persona's links."""
    bound: dict[tuple[str, str], list[str]] = defaultdict(list)
    for piece, row in read.books:
        for section, key in (("characters", "characterId"), ("personas", "personaId")):
            owner = row.get(key)
            if isinstance(owner, str) and owner in read.by_row[section]:
                bound[(section, owner)].append(piece.id)
    row_of = {id(piece): row_id for row_id, piece in read.by_row["characters"].items()}
    for character, carried in read.characters:
        _link_character(read, character, carried, bound.get(("characters", row_of.get(id(character), "")), []))
    for row_id, persona in read.by_row["personas"].items():
        books = bound.get(("personas", row_id), [])
        if books:
            persona.body.lorebook = books[0]
        if len(books) > 1:
            read.warnings.append(
                f"marinara.profile.persona.lorebooks: the persona {persona.id!r} has {len(books)} lorebooks in "
                f"Marinara; a bunzai persona links one, so it links {books[0]!r} (the others are imported unlinked)"
            )


def _link_character(read: _Read, character: Any, carried: list[Any], books: list[str]) -> None:
    """A character bound to lorebook rows links them, and its embedded book, which Marinara's
    import made one of those rows, is no piece of its own (the card keeps it in its body).
    Otherwise its embedded book is a piece, with an id distinct in the file."""
    if books:
        dropped = {id(piece) for piece in carried}
        read.pieces[:] = [piece for piece in read.pieces if id(piece) not in dropped]
    else:
        renamed = {}
        for piece in carried:
            new = read.unique(piece.kind, piece.id)
            renamed[piece.id], piece.id = new, new
        books = [renamed.get(book, book) for book in character.body.links.lorebooks]
    character.body.links = character.body.links.model_copy(update={"lorebooks": books})


def _note_not_carried(read: _Read, data: dict, what: str) -> None:
    for section, label in NOT_CARRIED.items():
        rows = data.get(section)
        if isinstance(rows, list) and rows:
            read.warnings.append(
                f"marinara.profile.{section}.not_carried: {what} holds {len(rows)} {label}; they are not imported"
            )


register(MarinaraProfile())
