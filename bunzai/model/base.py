"""The common shape of every canonical piece, and the small types the kinds share.

Every piece has `kind`, `id` (a safe slug), `name`, `body` (the kind's typed fields),
`profiles` (per-platform settings the canonical model names), `assets` (ordered, named
media links) and `original` (the escrow: the native document the piece came from, kept
whole, with its format id). Unknown keys are refused here: what the canonical model cannot
express lives in the escrow, never in an untyped corner of the body.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache, cache
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    PrivateAttr,
    ValidationInfo,
    field_validator,
    model_serializer,
)

from bunzai.model import key_order
from bunzai.model.ids import id_problem


def _check_id(value: str) -> str:
    problem = id_problem(value)
    if problem:
        raise ValueError(problem)
    return value


SafeId = Annotated[str, AfterValidator(_check_id)]
"""A piece id: `[a-z0-9][a-z0-9._-]{0,127}`, see bunzai.model.ids."""

Json = JsonValue
"""Any JSON value, kept as written (extensions, escrowed documents, sealed payloads)."""

JsonObject = dict[str, JsonValue]


class Model(BaseModel):
    """Base of every canonical model: unknown fields are an error, not silently kept."""

    # NaN and infinities have no JSON spelling: refusing them keeps every piece dumpable.
    model_config = ConfigDict(extra="forbid", populate_by_name=True, allow_inf_nan=False, defer_build=True)


def assembled(cls: type[Model], values: dict[str, Any], private: dict[str, Any] | None = None) -> Any:
    """A `cls` holding `values`, as they are: what `model_construct` does for values already
    of the model's types, given in its field order (the order dumps keep), each of them set,
    without its generality (aliases, defaults), which costs more than the rest of the build.
    `values` becomes the instance's own dict."""
    made = _new(cls)
    _set_dict(made, values)
    _set_fields_set(made, set(values))
    _set_extra(made, None)
    _set_private(made, private)
    return made


# No model defines __new__. BaseModel's four slots are set through their own descriptors, bound
# once: a fifth cheaper than object.__setattr__'s lookup of each (a card read makes ten models).
_new = object.__new__
_SLOTS = BaseModel.__dict__
_set_dict = _SLOTS["__dict__"].__set__
_set_fields_set = _SLOTS["__pydantic_fields_set__"].__set__
_set_extra = _SLOTS["__pydantic_extra__"].__set__
_set_private = _SLOTS["__pydantic_private__"].__set__


class AssetRef(Model):
    """A reference to a content-addressed file in the studio's `assets/` folder."""

    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256 of the file's bytes, lowercase hex.")
    ext: str = Field(pattern=r"^[a-z0-9]{1,10}$", description="File extension without the dot, lowercase.")
    mime: str = Field(default="", description="MIME type when known, e.g. image/png.")

    @model_serializer(mode="wrap")
    def _dump(self, handler):
        if "sha256" not in self.__dict__:  # a LazyAssetRef not yet hashed: hash it now
            self.sha256  # noqa: B018 - resolving fills the field in
        return handler(self)


class LazyAssetRef(AssetRef):
    """An AssetRef whose `sha256` is computed the first time it is asked for.

    Reading a file names its media this way, so a read that only looks at the text never
    hashes the image: the hash is made when a draft, a store or a convert needs it (reading
    the field, dumping the piece, comparing it). `digest` gives the lowercase hex SHA-256.
    """

    _digest: Any = PrivateAttr(default=None)

    @classmethod
    def of(cls, digest: Callable[[], str], ext: str, mime: str = "") -> LazyAssetRef:
        if not _good_ext(ext):
            raise ValueError(f"asset extension {ext!r} is not 1-10 lowercase letters or digits")
        # A card read makes two of these: model_construct's generality would cost more than
        # hashing a small image.
        return assembled(cls, {"ext": ext, "mime": mime}, {"_digest": digest})

    def __getattr__(self, name: str) -> Any:
        if name != "sha256":
            return super().__getattr__(name)
        value = self._digest()
        # In field order, as a validated AssetRef holds them (dumps keep that order).
        fields = self.__dict__
        object.__setattr__(self, "__dict__", {"sha256": value, **fields})
        self.__pydantic_fields_set__.add("sha256")
        return value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AssetRef):
            return NotImplemented
        return (self.sha256, self.ext, self.mime) == (other.sha256, other.ext, other.mime)


_EXT = re.compile(r"[a-z0-9]{1,10}")


@lru_cache(maxsize=64)  # a read names a handful of extensions (png, webp ...) over and over
def _good_ext(ext: str) -> bool:
    return _EXT.fullmatch(ext) is not None


Role = Literal["system", "user", "assistant"]
"""Who a prompt message speaks as. Platforms encode it as strings or ints 0/1/2."""

GenerationType = Literal["normal", "continue", "impersonate", "swipe", "regenerate", "quiet"]
"""The kinds of generation a trigger list may name; an empty trigger list means all."""


class PresentationLink(Model):
    """A link shown beside a piece on a shelf or card page."""

    label: str = Field(default="", description="Text shown for the link.")
    url: str = Field(default="", description="Where the link points.")


class Presentation(Model):
    """How a piece is shown to people. Never sent to a model."""

    palette: dict[str, str] = Field(
        default_factory=dict,
        description="Named colours, e.g. {'name': '#c0392b', 'dialogue': '#eeeeee', 'box': '#222222'}.",
    )
    background: AssetRef | None = Field(default=None, description="Background image shown behind the piece.")
    field_order: list[str] = Field(
        default_factory=list, description="Body field names in the order a page shows them; unlisted fields follow."
    )
    spoilers: list[str] = Field(
        default_factory=list, description="Body field names a page hides behind a spoiler toggle."
    )
    links: list[PresentationLink] = Field(default_factory=list, description="Links shown with the piece.")


class AssetLink(Model):
    """One named media entry of a piece, in order (CCv3 `data.assets`, CHARX members ...)."""

    role: str = Field(
        description="What the media is for: icon, background, emotion, user_icon, or an app type (x_...)."
    )
    name: str = Field(default="", description="The name the platform gives it (main, joy ...).")
    ext: str = Field(default="", description="Declared extension, lowercase, no dot; 'unknown' when unknown.")
    asset: AssetRef | None = Field(default=None, description="The stored file, when the media was embedded.")
    uri: str | None = Field(
        default=None, description="Where the media lives when not stored: http(s), data:, ccdefault: ..."
    )


class KeyOrder(Model):
    """Each distinct key order once, and which objects of the document have it (see key_order)."""

    orders: list[list[str]] = Field(description="Key orders, each a list of keys.")
    objects: dict[str, int] = Field(description="JSON pointer of an object -> index of its order in `orders`.")


class Escrow(Model):
    """The native document a piece was imported from, kept whole.

    Exporting back to the same format starts from this document and applies the canonical
    edits, so nothing the canonical model does not name is ever lost.
    """

    format: str = Field(description="Adapter format id, e.g. sillytavern.card.v2.")
    document: Any = Field(default=None, description="The native JSON document, exactly as read.")
    files: dict[str, AssetRef] = Field(
        default_factory=dict,
        description="Binary members kept byte-for-byte (archive members, image chunks), by their native name.",
    )
    source: str | None = Field(
        default=None,
        description="Where the document was read, relative to the folder imported, '/'-separated "
        "(`worlds/Eldoria.json` in a SillyTavern user folder), so an export writes it back under that name.",
    )
    key_order: KeyOrder | None = Field(
        default=None,
        exclude=True,
        description="Written by the store, never by hand: the order of the keys of each object of "
        "`document` that were not sorted as read (a piece file sorts its keys). Reading the piece puts "
        "them back, so an export writes the document in the order it was read; dumps leave it out.",
    )

    # A field validator, not a model one: it runs only when a piece file gives `key_order` (a
    # default is not validated), so a file read from a platform makes no call back into Python.
    @field_validator("key_order")
    @classmethod
    def _keys_in_their_order(cls, value: KeyOrder | None, info: ValidationInfo) -> None:
        if value is not None and "document" in info.data:
            key_order.restore(info.data["document"], {"orders": value.orders, "objects": value.objects})
        return None  # the document holds the order now; the store records it again


class PieceBase(Model):
    """Fields shared by all nine kinds. Each kind narrows `kind` and types `body`."""

    kind: str
    id: SafeId = Field(description="Safe slug, unique within the kind.")
    name: str = Field(description="Display name.")
    profiles: dict[str, JsonObject] = Field(
        default_factory=dict,
        description="Per-platform settings the canonical model names, keyed by platform id.",
    )
    assets: list[AssetLink] = Field(default_factory=list, description="Ordered, named media of this piece.")
    original: Escrow | None = Field(default=None, description="The escrowed native document, when imported.")

    def asset_refs(self) -> list[AssetRef]:
        """Every stored asset this piece refers to, in document order, without repeats."""
        seen: dict[str, AssetRef] = {}
        _collect_refs(self, seen)
        return list(seen.values())


def _collect_refs(
    value: Any, seen: dict[str, AssetRef], fields_of: Callable[[type], tuple[str, ...]] | None = None
) -> None:
    """Every AssetRef under `value`, depth first in field order (a stack, not recursion).

    A model is entered only by the fields `fields_of` names, by default those whose type can
    hold an AssetRef (`_ref_fields`): a piece is walked once per import and once per apply,
    and most of its nodes are text and JSON values (the escrowed native document above all),
    which never hold one."""
    fields_of = fields_of or _ref_fields
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, AssetRef):
            seen.setdefault(item.sha256, item)
        elif isinstance(item, BaseModel):
            values = item.__dict__
            stack.extend([values[name] for name in reversed(fields_of(item.__class__))])
        elif isinstance(item, dict):
            stack.extend(reversed(item.values()))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))


@cache
def _ref_fields(cls: type[BaseModel]) -> tuple[str, ...]:
    """The fields of `cls`, in order, whose type names a model that is or holds an AssetRef
    (alone, in a list or dict, or in a union). A field typed as a JSON value or `Any` holds
    plain JSON once validated, never a model."""
    return tuple(name for name, field in cls.model_fields.items() if _may_hold_ref(field.annotation, set()))


def _may_hold_ref(annotation: Any, seen: set[type]) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if issubclass(annotation, AssetRef):
            return True
        if annotation in seen:  # a model that holds itself
            return False
        seen.add(annotation)
        return any(_may_hold_ref(field.annotation, seen) for field in annotation.model_fields.values())
    return any(_may_hold_ref(arg, seen) for arg in get_args(annotation))
