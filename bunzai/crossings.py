"""The crossing matrix: a rich character carried between every pair of card formats.

For each source format A and target format B (both writing characters): the rich
character is written as A and read back (a piece as it arrives from A, escrow and all),
then crossed to B (the outbound crossing, whose losses are the report) and read back
from B. Every field of the piece from A that did not arrive from B must be named by a loss
of the outbound crossing; `unreported` lists any that were not (the tests require none).

`python -m bunzai.crossings` prints the matrix as Markdown; docs/crossings.md is that
output, and a test keeps it current.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bunzai.adapters.common.book_losses import sure_chances
from bunzai.adapters.common.png import default_portrait
from bunzai.adapters.contract import Blob
from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.registry import all_adapters
from bunzai.convert import convert_piece, lost_pointers
from bunzai.model import dump_piece
from bunzai.model.character import Character


@dataclass
class Cell:
    source: str
    target: str
    losses: list[dict] = field(default_factory=list)
    unreported: list[str] = field(default_factory=list)
    error: str = ""


def card_formats() -> list[str]:
    return [
        a.format_id
        for a in all_adapters()
        if "character" in a.kinds and a.can_read and a.can_write and a.format_id != "bunzai.native"
    ]


def rich_character():
    """A character using every field a card can carry, and some no card format carries."""
    portrait = Blob(default_portrait(), "png", "image/png")
    entries = [
        {
            "uid": 0,
            "title": "Eldoria",
            "keys": [{"text": "eldoria"}, {"text": "forest"}],
            "content": "{{char}} guards Eldoria.",
            "order": 100,
            "position": "before_char",
        },
        {
            "uid": 1,
            "title": "Shadowfangs",
            "keys": [{"text": "shadow(fang)?s?", "regex": True, "flags": "i"}],
            "secondary_keys": [{"text": "wolf"}],
            "selective": True,
            "selective_logic": "not_any",
            "content": "Beasts of the dark.",
            "order": 50,
            "position": "at_depth",
            "depth": 2,
            "role": "assistant",
            "probability": 80,
            "use_probability": True,
            "sticky": 2,
            "extensions": {"x_custom": {"weight": 3}},
        },
    ]
    body = {
        "nickname": "Sera",
        "tagline": "Guardian of the glade",
        "description": "{{char}} is a forest guardian.",
        "personality": "caring, protective",
        "scenario": "{{user}} wakes in the glade.",
        "first_message": "*You wake.* Hello, {{user}}.",
        "alternate_greetings": ["Welcome back.", "You again?"],
        "group_only_greetings": ["Hello, everyone."],
        "example_messages": "<START>\n{{user}}: Hi\n{{char}}: Hello.",
        "system_prompt": "{{original}} Stay in character.",
        "post_history_instructions": "Be kind.",
        "creator_notes": "A gentle guardian.",
        "creator_notes_multilingual": {"fr": "Une gardienne."},
        "tags": ["fantasy", "guardian"],
        "creator": "bunzai tests",
        "version": "1.2",
        "rating": "sfw",
        "content_warnings": ["mild peril"],
        "source": ["https://example.org/seraphina"],
        "creation_date": 1700000000,
        "modification_date": 1700000500,
        "portrait": portrait.ref().model_dump(),
        "depth_prompt": {"text": "Remember the forest.", "depth": 3, "role": "system"},
        "book": {"name": "Eldoria", "entries": entries},
        "links": {"lorebooks": ["eldoria"]},
        "settings": {"talkativeness": 0.7, "favorite": True},
        "extensions": {"x_app": {"colour": "green"}},
    }
    piece = Character(
        id="seraphina",
        name="Seraphina",
        body=body,
        assets=[{"role": "background", "name": "glade", "ext": "png", "uri": "https://example.org/glade.png"}],
    )
    return piece, [portrait]


def crossing_cell(source: str, target: str, piece, blobs: list[Blob]) -> Cell:
    store = {blob.sha256: blob.data for blob in blobs}
    cell = Cell(source, target)
    try:
        first = convert_piece(piece, source, lambda ref: store[ref.sha256])
        _, decoded = read_bytes(first.data, first.file_name, source)
        arrived = decoded.pieces[0]
        store.update({blob.sha256: blob.data for blob in decoded.blobs})
        outbound = convert_piece(arrived, target, lambda ref: store[ref.sha256])
        _, back = read_bytes(outbound.data, outbound.file_name, target)
    except Exception as error:  # noqa: BLE001 - a pair that fails is reported, not hidden
        cell.error = f"{type(error).__name__}: {error}"
        return cell
    cell.losses = [loss.to_json() for loss in outbound.losses]
    before, after = dump_piece(arrived), dump_piece(back.pieces[0])
    same = sure_chances(before, after)  # a chance of 100 on or off, as the crossing's own check takes it
    cell.unreported = [pointer for pointer in lost_pointers(before, after, outbound.losses) if pointer not in same]
    return cell


def matrix() -> list[Cell]:
    piece, blobs = rich_character()
    formats = card_formats()
    return [crossing_cell(a, b, piece, blobs) for a in formats for b in formats]


def markdown(cells: list[Cell]) -> str:
    formats = sorted({c.source for c in cells})
    by_pair = {(c.source, c.target): c for c in cells}
    lines = [
        "# The crossing matrix",
        "",
        "A rich character (every card field, an embedded book with an at-depth entry, a portrait, an",
        "external background, app extensions) is written as the row's format and read back, then",
        "crossed to the column's format. Each cell counts the losses that outbound crossing reports;",
        "the lists below name them. Generated by `python -m bunzai.crossings` — do not edit by hand.",
        "",
        "| from \\ to | " + " | ".join(f"`{f}`" for f in formats) + " |",
        "|---|" + "---|" * len(formats),
    ]
    for source in formats:
        row = []
        for target in formats:
            cell = by_pair[(source, target)]
            row.append("error" if cell.error else str(len(cell.losses)))
        lines.append(f"| `{source}` | " + " | ".join(row) + " |")
    lines += ["", "## Losses by crossing", ""]
    for source in formats:
        for target in formats:
            cell = by_pair[(source, target)]
            if source == target and not cell.losses:
                continue
            lines.append(f"### `{source}` → `{target}`")
            lines.append("")
            if cell.error:
                lines.append(f"Fails: {cell.error}")
            elif not cell.losses:
                lines.append("Nothing lost.")
            for loss in cell.losses:
                lines.append(f"- `{loss['pointer'] or '/'}` {loss['action']} (`{loss['code']}`): {loss['why']}")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    print(markdown(matrix()), end="")
