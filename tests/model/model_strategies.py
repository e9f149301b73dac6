"""Hypothesis strategies that fill every field of every kind with random, valid data.

Strategies are derived from the pydantic field annotations, so a field added to a model is
exercised without touching the tests. Cross-field rules (unique ids, variant inheritance,
pack references, promptbook decoder rules) get hand-made strategies. Strategies produce
plain JSON-like documents; `pieces(kind)` validates them into pieces.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal

import annotated_types
from hypothesis import strategies as st
from pydantic import BaseModel, JsonValue

from bunzai.model import parse_piece, piece_class
from bunzai.model.base import AssetRef, SafeId
from bunzai.model.character import CharacterBody, CharacterVariant, VariantField, VariantOverrides
from bunzai.model.htmldoc import HtmlDocBody
from bunzai.model.ids import is_safe_id
from bunzai.model.lorebook import LorebookBody
from bunzai.model.pack import PackBody
from bunzai.model.preset import PresetBody
from bunzai.model.promptbook import PromptbookBody
from bunzai.model.promptbook_library import DICE_NOTATION, Dice, PromptbookLibrary, Tool, Tracker
from bunzai.model.quickreply import QuickReplySetBody

_SAFE_ID_MARKS = SafeId.__metadata__  # the validator that makes a str a SafeId
texts = st.text(max_size=12)
safe_ids = st.from_regex(r"[a-z0-9][a-z0-9._-]{0,15}", fullmatch=True).filter(is_safe_id)
json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | texts
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
)
json_objects = st.dictionaries(texts, json_values, max_size=3)
asset_refs = st.fixed_dictionaries(
    {
        "sha256": st.from_regex(r"[0-9a-f]{64}", fullmatch=True),
        "ext": st.from_regex(r"[a-z0-9]{1,10}", fullmatch=True),
        "mime": texts,
    }
)

# Lists whose items carry an id the model wants unique: (model, field) -> item key.
_UNIQUE_BY = {
    (LorebookBody, "entries"): lambda entry: str(entry["uid"]),
    (CharacterBody, "variants"): lambda variant: variant["id"],
    (PresetBody, "prompts"): lambda block: block["identifier"],
    (QuickReplySetBody, "items"): lambda item: item["id"],
    (HtmlDocBody, "slots"): lambda slot: slot["name"],
    **{(PromptbookLibrary, kind): (lambda item: item["id"]) for kind in PromptbookLibrary.model_fields},
    (Tracker, "fields"): lambda field: field["name"],
}


def model_documents(model: type[BaseModel]) -> st.SearchStrategy[dict]:
    """Random documents for `model`, every field present."""
    if model in _CUSTOM:
        return _CUSTOM[model]()
    fields = {}
    for name, info in model.model_fields.items():
        strategy = _annotation(info.annotation, info.metadata)
        unique = next((_UNIQUE_BY[base, name] for base in model.__mro__ if (base, name) in _UNIQUE_BY), None)
        if unique is not None:
            item = _annotation(typing.get_args(info.annotation)[0], ())
            strategy = st.lists(item, max_size=3, unique_by=unique)
        fields[name] = strategy
    return st.fixed_dictionaries(fields)


def _annotation(annotation: Any, metadata: typing.Sequence[Any]) -> st.SearchStrategy:
    if annotation is JsonValue or annotation is Any:  # Any: the escrowed document (always JSON)
        return json_values
    if annotation is type(None):
        return st.none()
    if any(m in _SAFE_ID_MARKS for m in metadata):
        return safe_ids
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _annotation(args[0], list(metadata) + list(annotation.__metadata__))
    if origin is Literal:
        return st.sampled_from(args)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([_annotation(arg, metadata) for arg in args])
    if origin is list:
        return st.lists(_annotation(args[0], ()), max_size=3)
    if origin is dict:
        return st.dictionaries(texts, _annotation(args[1], ()), max_size=3)
    if origin is tuple:
        return st.tuples(*(_annotation(arg, ()) for arg in args))
    if annotation is AssetRef:
        return asset_refs
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return model_documents(annotation)
    return _scalar(annotation, metadata)


def _scalar(annotation: Any, metadata: typing.Sequence[Any]) -> st.SearchStrategy:
    bounds = {}
    for m in metadata:
        if isinstance(m, annotated_types.Ge):
            bounds["min_value"] = m.ge
        elif isinstance(m, annotated_types.Le):
            bounds["max_value"] = m.le
        elif isinstance(m, annotated_types.MinLen):
            bounds["min_size"] = m.min_length
        elif getattr(m, "pattern", None):
            return st.from_regex(m.pattern, fullmatch=True)
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        return st.integers(bounds.get("min_value", -(10**9)), bounds.get("max_value", 10**9))
    if annotation is float:
        return st.floats(allow_nan=False, allow_infinity=False, **bounds)
    if annotation is str:
        return st.text(max_size=12, min_size=bounds.get("min_size", 0))
    raise TypeError(f"no strategy for {annotation!r}")


@st.composite
def _variants(draw) -> dict:
    overrides = draw(model_documents(VariantOverrides))
    for field in list(overrides):
        if draw(st.booleans()):
            overrides[field] = None
    mode = draw(st.sampled_from(["overlay", "standalone"]))
    free = [field for field in typing.get_args(VariantField) if overrides.get(field) is None]
    inherit = draw(st.lists(st.sampled_from(free), unique=True, max_size=4)) if mode == "standalone" and free else []
    return {"id": draw(safe_ids), "name": draw(texts), "mode": mode, "inherit": inherit, "overrides": overrides}


@st.composite
def _packs(draw) -> dict:
    items = draw(st.lists(_plain(PackBody, "items"), max_size=4, unique_by=lambda item: item["id"]))
    ids = [item["id"] for item in items]
    labels = [item["label"] for item in items]
    groups = [
        {"name": draw(texts), "items": draw(st.lists(st.sampled_from(ids), max_size=3)) if ids else []}
        for _ in range(draw(st.integers(0, 2)))
    ]
    return {
        "description": draw(texts),
        "items": items,
        "default_face": draw(st.sampled_from(["", *labels])),
        "groups": groups,
        "extensions": draw(json_objects),
    }


def _plain(model: type[BaseModel], field: str) -> st.SearchStrategy:
    """The generic strategy of one item of a list field."""
    return _annotation(typing.get_args(model.model_fields[field].annotation)[0], ())


@st.composite
def valid_phase_lists(draw) -> list[dict]:
    """Phases that keep every decoder rule: privates, one reply (+ disabled alternates), afters."""
    phase = _plain(PromptbookBody, "phases")
    ids = draw(st.lists(safe_ids, min_size=1, max_size=7, unique=True))
    n_private = draw(st.integers(0, len(ids) - 1))
    n_alternates = draw(st.integers(0, len(ids) - 1 - n_private))
    stages = ["private"] * n_private + ["reply"] * (1 + n_alternates)
    stages += ["after"] * (len(ids) - len(stages))
    reply_at = n_private + draw(st.integers(0, n_alternates))
    # Together groups: optionally the first two privates, and the first two afters.
    together = [None] * len(ids)
    if n_private >= 2 and draw(st.booleans()):
        together[0] = together[1] = "thinking"
    first_after = n_private + 1 + n_alternates
    if len(ids) - first_after >= 2 and draw(st.booleans()):
        together[first_after] = together[first_after + 1] = "cleanup"
    phases = []
    for index, (phase_id, stage) in enumerate(zip(ids, stages)):
        document = draw(phase)
        start = index
        while start > 0 and together[index] is not None and together[start - 1] == together[index]:
            start -= 1  # members of a together group read only phases before the group
        earlier = ids[:start]
        document.update(
            id=phase_id,
            stage=stage,
            together=together[index],
            reads=draw(st.lists(st.sampled_from(earlier), unique=True, max_size=3)) if earlier else [],
        )
        if stage == "reply":
            document.update(enabled=index == reply_at)
            if index == reply_at:
                document.update(condition=None)
        phases.append(document)
    return phases


def _tools() -> st.SearchStrategy[dict]:
    # A tool's parameters are an object schema; the rest of the schema is free JSON.
    schema = st.fixed_dictionaries(
        {"type": st.just("object"), "properties": json_objects},
        optional={"required": st.lists(texts, max_size=2), "description": texts},
    )
    return st.fixed_dictionaries({"id": safe_ids, "name": texts, "description": texts, "parameters": schema})


def _dice() -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries(
        {"id": safe_ids, "name": texts, "notation": st.from_regex(DICE_NOTATION, fullmatch=True)}
    )


_CUSTOM = {
    CharacterVariant: _variants,
    PackBody: _packs,
    Tool: _tools,
    Dice: _dice,
    PromptbookBody: lambda: st.fixed_dictionaries(
        {"description": texts, "phases": valid_phase_lists(), "library": model_documents(PromptbookLibrary)}
    ),
}


def documents(kind: str) -> st.SearchStrategy[dict]:
    """Random canonical documents of one kind."""
    return model_documents(piece_class(kind))


def pieces(kind: str) -> st.SearchStrategy:
    """Random valid pieces of one kind."""
    return documents(kind).map(parse_piece)
