"""The adapter contract: what every spoke declares and does.

An adapter reads one platform-native file into canonical pieces (`read`) and writes one
canonical piece back into that format (`write`), naming every loss. It never knows about
another adapter: every crossing goes through the canonical model (the hub).

    class MyFormat(Adapter):
        format_id = "sillytavern.world"
        label = "SillyTavern world info"
        kinds = ("lorebook",)
        extensions = (".json",)
        container = "text"

        def sniff(self, data, name, parsed): ...   # 0.0 .. 1.0
        def read(self, data, name, parsed): ...    # -> Decoded
        def write(self, piece, media): ...         # -> Encoded

    register(MyFormat())   # at the bottom of the module (bunzai.adapters.registry)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from bunzai.errors import BunzaiError
from bunzai.model.base import AssetRef, LazyAssetRef

if TYPE_CHECKING:
    from bunzai.model.base import PieceBase

LossAction = Literal["dropped", "flattened", "translated", "kept_in_escrow"]
LOSS_ACTIONS: tuple[str, ...] = ("dropped", "flattened", "translated", "kept_in_escrow")
Container = Literal["image", "archive", "text", "folder"]


@dataclass(frozen=True)
class Loss:
    """One thing a crossing does not carry as it is.

    pointer: RFC 6901 pointer into the canonical piece ("/body/book/entries/3/position").
    action:  dropped | flattened | translated | kept_in_escrow.
    why:     a sentence a person can act on.
    code:    a stable dotted code, e.g. "book.position.collapsed", listed in the format's docs.
    """

    pointer: str
    action: LossAction
    why: str
    code: str

    def __post_init__(self) -> None:
        if self.action not in LOSS_ACTIONS:
            raise ValueError(f"unknown loss action {self.action!r}")

    def to_json(self) -> dict:
        return {"pointer": self.pointer, "action": self.action, "why": self.why, "code": self.code}


class Origin(NamedTuple):
    """Where a blob's bytes sit in what the adapter read, so an import draft can name the
    place instead of carrying the bytes (`bunzai apply` reads them from there).

    One of: `spans`, byte ranges [start, end) of the file read, concatenated (a PNG's
    portrait is the file without its card chunks); `member`, a member of the ZIP archive
    read; `file`, a file of the folder read (folder-shaped pieces), or the absolute path of
    a file beside the file read (`Adapter.portrait_beside`).
    """

    spans: tuple[tuple[int, int], ...] = ()
    member: str = ""
    file: str = ""


_tuple_new = tuple.__new__


@dataclass(frozen=True, eq=False)
class Blob:
    """Media bytes read from a file, to be stored as a studio asset on apply."""

    data: bytes
    ext: str
    mime: str = ""
    origin: Origin | None = None  # where `data` is in the file read; None: only in memory

    def _key(self) -> tuple:
        return (self.data, self.ext, self.mime, self.origin)

    def __eq__(self, other: object) -> bool:  # a SpanBlob equals the Blob of the same bytes
        return self._key() == other._key() if isinstance(other, Blob) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def size(self) -> int:
        return len(self.data)

    @cached_property  # a blob is named by its hash several times while a file is imported
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def ref(self) -> AssetRef:
        """The AssetRef naming this blob, hashed only when something asks for its sha256
        (a draft, a store, a convert): reading a file never hashes its media."""
        if "sha256" in self.__dict__:
            return AssetRef.model_construct(sha256=self.sha256, ext=self.ext, mime=self.mime)
        return LazyAssetRef.of(lambda: self.sha256, self.ext, self.mime)

    def ref_json(self) -> AssetRef:
        """`ref()`, for a piece about to be validated (which takes the ref as it is)."""
        return self.ref()


class SpanBlob(Blob):
    """A blob made of byte spans of the file read (a PNG's portrait is the file without its
    card chunks): hashed over the spans in place, its bytes joined only when asked for.

    An import names such a blob by its spans and its hash, so reading a card never copies
    the image; `data` is built the first time something needs the bytes themselves.
    `check`, when given, runs once before the bytes are first hashed or joined: a reader
    that left part of the file unchecked (a PNG's image-data CRCs) refuses damage there,
    before anything is stored.
    """

    def __init__(
        self,
        source: bytes,
        spans: tuple[tuple[int, int], ...],
        ext: str,
        mime: str = "",
        check: Callable[[], None] | None = None,
    ) -> None:
        # Frozen: set through __dict__ (a card read makes two of these; the Origin is built as the
        # tuple it is, since a NamedTuple's keyword constructor is a Python function).
        fields = self.__dict__
        fields["source"], fields["ext"], fields["mime"], fields["check"] = source, ext, mime, check
        fields["origin"] = _tuple_new(Origin, (spans, "", ""))

    def _checked(self) -> None:
        if self.check is not None:
            self.check()
            object.__setattr__(self, "check", None)

    @cached_property
    def data(self) -> bytes:  # type: ignore[override]
        self._checked()
        spans = self.origin.spans
        if spans == ((0, len(self.source)),) and isinstance(self.source, bytes):
            return self.source  # the whole file: no copy
        view = memoryview(self.source)
        return b"".join(view[start:end] for start, end in spans)

    @property
    def size(self) -> int:
        return sum(end - start for start, end in self.origin.spans)

    @cached_property
    def sha256(self) -> str:
        self._checked()
        digest = hashlib.sha256()
        view = memoryview(self.source)
        for start, end in self.origin.spans:
            digest.update(view[start:end])
        return digest.hexdigest()


@dataclass
class Decoded:
    """What `read` returns: the pieces a file carries and the media they refer to.

    pieces[0] is the primary piece (the card, the world, the preset); further pieces are
    carried with it (a card's embedded book as a lorebook) and are referenced from it.
    Every AssetRef in the pieces must have its bytes in `blobs`, unless `stored_media`: the
    file is a bare canonical piece, whose media a studio holds and the file does not carry
    (import leaves them to apply, which refuses what the studio lacks; a convert refuses them).
    """

    pieces: list[PieceBase]
    blobs: list[Blob] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    stored_media: bool = False


@dataclass
class Encoded:
    """What `write` returns: the file's bytes and every loss of the crossing.

    A folder-shaped format (container "folder") returns its files instead: `files` holds
    (plain file name, bytes) in order, `name` the folder's name, and `data` is empty.
    """

    data: bytes
    losses: list[Loss] = field(default_factory=list)
    files: list[tuple[str, bytes]] | None = None
    name: str = ""


MediaSource = Callable[["AssetRef"], bytes]
"""Gives the bytes of a stored asset (from the studio, or from the blobs of a one-off convert)."""

LINKED_NAMES: ContextVar[Mapping[tuple[str, str], str]] = ContextVar("linked_names", default=MappingProxyType({}))
"""The name each piece a written piece links to goes by, keyed by (kind, id), where the file
links it by name, not by bunzai's id (which an import may have suffixed): the lorebook a card
(`extensions.world`) or a persona backup (`lorebook`) binds as its world, the quick-reply sets
a set's context menus offer (`contextList[].set`). Set by the convert layer around a write from
the studio (convert.linked_names); empty for a one-off convert, whose links are the file's own."""


def linked_name(kind: str, piece_id: str) -> str | None:
    """The name the linked piece `kind`/`piece_id` goes by (LINKED_NAMES), or None when not told."""
    return LINKED_NAMES.get().get((kind, piece_id))


def linked_names_of(kind: str) -> dict[str, str]:
    """Id -> name of the linked pieces of `kind` (LINKED_NAMES)."""
    return {piece_id: name for (of, piece_id), name in LINKED_NAMES.get().items() if of == kind}


OWN_BOOKS_BOUND: ContextVar[frozenset[str]] = ContextVar("own_books_bound", default=frozenset())
"""Ids of lorebooks a card written now binds as its world (`extensions.world`, by the name
LINKED_NAMES gives) though the card was bound to no world and holds the lorebook as its own book:
a user-folder export that writes the book's world file beside the card binds the card to it, as
SillyTavern's Import Card Lore does (world-info.js importEmbeddedWorldInfo). Set by the convert
layer around such a write (convert_stored_piece); empty otherwise."""


def own_book_bound(piece_id: str) -> bool:
    """Whether a card written now binds its own book `piece_id` as its world (OWN_BOOKS_BOUND)."""
    return piece_id in OWN_BOOKS_BOUND.get()


@dataclass(frozen=True)
class EngineSettings:
    """The engine checkouts adapters may need, from the studio's bunzai.toml `[engines]`.

    `risu` names a RisuAI checkout (its RPack table decodes and encodes .risum and .risup;
    BUNZAI_RISU_ROOT is the fallback). A setting left None changes nothing: what the
    environment, or an earlier call, named still holds. `risu_verify_hash=False` is for tests
    only, which build a table of their own that cannot match RisuAI's hash.
    """

    risu: Path | None = None
    risu_verify_hash: bool = True

    @classmethod
    def from_engines(cls, engines: Any, root: Path) -> EngineSettings:
        """The settings of a bunzai.toml `[engines]` table; relative paths are under `root`."""
        risu = engines.get("risu") if isinstance(engines, dict) else None
        if not (isinstance(risu, str) and risu):
            return cls()
        path = Path(risu).expanduser()
        return cls(risu=path if path.is_absolute() else root / path)


class Adapter:
    """Base class of every adapter. Subclasses set the attributes and implement the methods."""

    format_id: str = ""
    label: str = ""
    kinds: tuple[str, ...] = ()
    extensions: tuple[str, ...] = ()  # lowercase, with the dot; the first is used on export
    container: Container = "text"
    can_read: bool = True  # sniffed for files of its container (a refusing adapter is too)
    can_write: bool = True
    # Recognises its files only to refuse them with the reason (an encrypted card, a chat
    # preset bound to one install): `bunzai formats` says it does not read them.
    refuses_reading: bool = False
    # The images a platform shows beside a file of this format as its piece's portrait, as
    # suffixes after the file's stem, in the order the platform looks (text-generation-webui:
    # `Example.png`, `.jpg`, `.jpeg` beside `Example.yaml`). An import of the file from a path
    # reads the first found into the primary piece's portrait (changes/imports.py).
    portrait_beside: tuple[str, ...] = ()
    carries_escrow: bool = False  # True when the file keeps a piece's escrow whole (bunzai.native)
    engine: str | None = None  # the macro engine that reads this format's text (a catalog id), if one does

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        """How sure this adapter is that it reads the file: 0.0 (no) to 1.0 (certain).

        `parsed` is the JSON/YAML document for text files (parsed once, within limits), the
        walk of its chunk headers for a PNG (`png.PngHeaders`, walked once; `png.headers_of`
        walks it when `parsed` is None, as when a format is named) and None for other images
        and archives. `read` gets the same `parsed`. Sniffing raises only a BunzaiError, and only when the
        container is damaged or hostile (corrupt_file, unsafe_archive): inspect then reports
        that error instead of "unrecognized" when no other adapter claims the file.
        """
        return 0.0

    def sniff_names(self, names: list[str]) -> float:
        """Folder adapters: how likely a folder holding these file names is one piece, judged
        before any file is read (a folder of thousands of cards must not be read to say no).
        `sniff` then decides on the bytes. 1.0 means "the names alone cannot tell"."""
        return 1.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        """Native file -> canonical pieces; raise BunzaiError (a coded error) on bad input.

        The read owns `parsed`: its caller parsed the file for this one read (sniffers only
        look), so a reader keeps it as the escrow as it is, without a copy (which for a big
        lorebook took longer than the parse), and never changes it in place.
        """
        raise _cannot("read", self)

    def write(self, piece: PieceBase, media: MediaSource) -> Encoded:
        """Canonical piece -> native file bytes and the losses of the crossing."""
        raise _cannot("write", self)

    def configure(self, settings: EngineSettings) -> None:
        """Take the engine settings (`registry.configure` hands them to every adapter); most
        adapters need none."""

    def why_unavailable(self) -> str:
        """'' when the adapter can write now; else why not, a sentence (an engine checkout it
        needs is not configured)."""
        return ""

    def describe(self) -> dict:
        return {
            "format": self.format_id,
            "label": self.label,
            "kinds": list(self.kinds),
            "extensions": list(self.extensions),
            "container": self.container,
            "read": self.can_read and not self.refuses_reading,
            "write": self.can_write,
            "engine": self.engine,
        }


def _cannot(what: str, adapter: Adapter) -> Exception:
    return BunzaiError("unsupported", f"{adapter.format_id} cannot {what} files", "see `bunzai formats`")
