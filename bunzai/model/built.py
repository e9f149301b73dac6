"""A model built from values already of its types, without validating them: `built(cls, values)`.

A file is read by a field mapping whose readers mend every value to its field's type and bounds
(`adapters/common/drift.py`, `fieldmap.py`): validating what they give again cost a tenth of a
card's read in CPU time, more than its instructions say, likely as its many-model schema crowds
the caches a read runs in (docs/benchmarks.md, *Built, not validated again*). So a reader builds
its pieces here, from the same JSON-form dict it would give `model_validate`: each field from
`values`, or its default where absent; a nested model, a list or a dict of them from their dicts
(a model instance given as it is). Nothing is checked: what the mapping gives must already be
valid, and the tests hold every reader to that (the piece validated again equals the one built,
for the corpus and for generated hostile input). Pieces are validated where they are stored
(`apply`), as before; a piece from anywhere else (an agent, a piece file) is validated as ever.

Each class's builder is generated once, as fieldmap compiles a field table: one function that
lays the values over the class's defaults in one dict merge (which keeps the field order dumps
keep), then makes afresh each default that is a list, a dict or a model, and builds each nested
model. A model with private attributes, or a model nested in a way other than M, M | None,
list[M] or dict[str, M], is refused when its builder is made (TypeError).
"""

from __future__ import annotations

import copy
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

from pydantic import BaseModel

from bunzai.model.base import assembled


def built(cls: type[BaseModel], values: dict) -> Any:
    """A `cls` holding `values` (JSON form: nested models as dicts, or as instances), every field
    absent from them at its default. `values` must be valid for `cls`: nothing is checked."""
    return _builder(cls)(values)


def _model_of(annotation: Any) -> type[BaseModel] | None:
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


def _shape(annotation: Any) -> tuple[str, type[BaseModel] | None]:
    """How a field's value is built: ("model", M) for M or M | None, ("list", M) for list[M],
    ("dict", M) for dict[str, M], ("plain", None) for a value kept as given."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        models = [m for m in map(_model_of, args) if m is not None]
        if len(models) == 1 and all(a is type(None) or _model_of(a) for a in args):
            return "model", models[0]
        if models:
            raise TypeError(f"a union of models and values is not built: {annotation!r}")
        return "plain", None
    if _model_of(annotation):
        return "model", annotation
    if origin is list and args and _model_of(args[0]):
        return "list", args[0]
    if origin is dict and len(args) == 2 and _model_of(args[1]):
        return "dict", args[1]
    if any(_model_of(a) or _shape(a)[1] for a in args):
        raise TypeError(f"a model nested this way is not built: {annotation!r}")
    return "plain", None


_IMMUTABLE = (str, int, float, bool, type(None), tuple, frozenset)
_MADE = object()  # in the defaults: a value made afresh for each build (or required)


@cache
def _builder(cls: type[BaseModel]) -> Callable[[dict], Any]:
    """The generated function that builds a `cls` from its values: the given values laid over the
    defaults in one merge (which keeps the fields' order), then each field whose default is made
    afresh and each nested model, one by one."""
    if cls.__private_attributes__:  # their defaults are set by validation alone
        raise TypeError(f"{cls.__name__} has private attributes: it is not built")
    defaults: dict[str, Any] = {}
    scope: dict[str, Any] = {"_assembled": assembled, "_cls": cls, "_defaults": defaults, "_MADE": _MADE}
    lines = ["    d = {**_defaults, **v}"]
    for index, (name, field) in enumerate(cls.model_fields.items()):
        shape, model = _shape(field.annotation)
        made = None  # the expression that makes the default afresh, when it is made so
        if field.default_factory is not None:
            factory = _model_of(field.default_factory)
            if factory is not None:  # a model default: built from nothing, as validation would make it
                scope[f"_d{index}"] = _builder(factory)
                made = f"_d{index}({{}})"
            elif field.default_factory in (list, dict):
                made = "[]" if field.default_factory is list else "{}"
            else:
                scope[f"_d{index}"] = field.default_factory
                made = f"_d{index}()"
        elif field.is_required():
            made = f"v[{name!r}]"  # KeyError names the missing field
        elif not isinstance(field.default, _IMMUTABLE):
            scope[f"_d{index}"] = field.default
            scope["_deepcopy"] = copy.deepcopy
            made = f"_deepcopy(_d{index})"
        defaults[name] = _MADE if made is not None else field.default
        if shape == "plain":
            if made is not None:
                lines.append(f"    if d[{name!r}] is _MADE:\n        d[{name!r}] = {made}")
            continue
        scope[f"_b{index}"] = _builder(model)
        scope["_dict"] = dict
        lines.append(f"    x = d[{name!r}]")
        test = "if"
        if made is not None:
            lines.append(f"    if x is _MADE:\n        d[{name!r}] = {made}")
            test = "elif"
        each = f"_b{index}(i) if i.__class__ is _dict else i"
        if shape == "model":
            lines.append(f"    {test} x.__class__ is _dict:\n        d[{name!r}] = _b{index}(x)")
        elif shape == "list":  # a list given is copied, as validation copies it
            lines.append(f"    {test} x:\n        d[{name!r}] = [{each} for i in x]")
        else:
            lines.append(f"    {test} x:\n        d[{name!r}] = {{k: {each} for k, i in x.items()}}")
    source = "def build(v):\n" + "\n".join(lines) + "\n    return _assembled(_cls, d)\n"
    exec(compile(source, f"<built {cls.__name__}>", "exec"), scope)  # noqa: S102 - code generated from the model's own fields
    return scope["build"]
