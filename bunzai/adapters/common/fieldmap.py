"""The one field-mapping mechanism: native keys <-> canonical fields as a table of rows.

A `Field` row names one native key (or a path into nested objects, like
`("extensions", "depth")`), the path of the canonical value it carries, a `decode`
(native value, or MISSING when the key is absent -> canonical value) and an `encode`
(canonical value -> native value, or MISSING to leave the key out). A `Whole` row is for
the few fields that read or write several native keys at once: it reads and writes the
whole native object.

A `FieldMap` compiles its rows once into plain tuples (source object, native key,
canonical key, converter), so decoding an entry is one loop of dict lookups: a lorebook of
hundreds of entries pays no per-row indirection beyond the converter itself.

Writing over an escrowed document keeps a native value whenever decoding it still gives
the canonical value: so `role: null`, a sparse 2023 entry without `addMemo`, or a
temperature written as "0.7" come back exactly as written, and only edited fields are
re-encoded. Keys no row names are kept as they are. `put` is the same rule for one key,
for spokes whose writers are code rather than a table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from bunzai.adapters.common import drift
from bunzai.adapters.common.drift import MISSING
from bunzai.adapters.common.losses import same


def identity(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Field:
    native: str | tuple[str, ...]
    path: tuple[str, ...]
    decode: Callable[..., Any] = identity
    encode: Callable[[Any], Any] = identity
    args: tuple = ()
    """More arguments for `decode` after the native value (a default): `decode(value, *args)`."""


@dataclass(frozen=True)
class Whole:
    """A canonical field read from (and written into) the whole native object.

    `read(native, *nested)` also gets the nested objects the table's Field rows read from
    (an empty object where one is absent), in the order the rows first name them.
    """

    path: tuple[str, ...]
    read: Callable[[dict], Any]
    write: Callable[[dict, Any], None]


Row = Field | Whole


class FieldMap:
    """Rows compiled once into (source, native key, canonical key, decode, encode) tuples.

    `source` indexes the nested objects the rows read from (0 is the native object
    itself, others are prefixes like ("extensions",)); a Whole row has native key None.
    `equal` is the test "the native value already reads as the canonical one"; `total`
    says no decoder gives MISSING, so decoding skips the search for unset values;
    `compiled=False` walks the rows instead of compiling them (for a table read once).
    """

    __slots__ = ("rows", "_prefixes", "_ops", "_flat", "_equal", "_total", "decode")

    def __init__(
        self, rows: Iterable[Row], equal: Callable[[Any, Any], bool] = same, total: bool = False, compiled: bool = True
    ) -> None:
        self.rows = tuple(rows)
        self._total = total  # no decoder ever gives MISSING: every row's value is set
        self._equal = equal
        prefixes: list[tuple[str, ...]] = [()]
        ops = []
        args: list[tuple] = []
        for row in self.rows:
            canon = row.path[0] if len(row.path) == 1 else row.path
            if isinstance(row, Whole):
                ops.append((0, None, canon, row.read, row.write))
                args.append(())
                continue
            native = (row.native,) if isinstance(row.native, str) else row.native
            prefix, key = native[:-1], native[-1]
            if prefix not in prefixes:
                prefixes.append(prefix)
            decode = _with_args(row.decode, row.args) if row.args else row.decode
            ops.append((prefixes.index(prefix), key, canon, decode, row.encode))
            args.append(row.args)
        self._prefixes = tuple(prefixes)
        self._ops = tuple(ops)
        self._flat = all(isinstance(op[2], str) for op in ops)
        tree = _canonical_tree(ops) if compiled and (self._flat or total) else None
        self.decode = self._compiled_decode(args, tree) if tree is not None else self._decode_nested

    def _compiled_decode(self, args: list[tuple], tree: dict) -> Callable[[dict], dict]:
        """`decode` as one function holding a dict display: each row is a `.get` and its converter.

        Built once per table, it reads an entry as fast as code written out by hand would.
        Canonical paths nest as dict displays inside it (`"group": {"names": ..., ...}`, placed
        where the first row of the group is), which `tree` lays out; a table with nested paths
        is compiled only when `total`, so no value is left out of a nested object.
        """
        names: dict[str, Any] = {"_M": MISSING, "_object": _object, "_dict": dict, "_E": {}}
        names.update(_str=str, _bool=bool, _int=int)
        lines = ["def decode(native, *_unused):", "    g0 = native.get"]
        for index, prefix in enumerate(self._prefixes[1:], 1):
            names[f"p{index}"] = prefix
            if len(prefix) == 1:
                lines += [
                    f"    o{index} = native.get({prefix[0]!r})",
                    f"    if o{index}.__class__ is not _dict: o{index} = _E",
                ]
            else:
                lines.append(f"    o{index} = _object(native, p{index})")
            lines.append(f"    g{index} = o{index}.get")
        nested = "".join(f", o{index}" for index in range(1, len(self._prefixes)))
        values: dict[int, str] = {}
        for index, ((source, key, _canon, decode, _encode), extra) in enumerate(zip(self._ops, args)):
            row_decode = self.rows[index].decode if key is not None else decode
            names[f"d{index}"] = row_decode
            read = f"native{nested}" if key is None else f"g{source}({key!r}, _M)"
            names.update({f"a{index}_{n}": arg for n, arg in enumerate(extra)})
            more = "".join(f", a{index}_{n}" for n in range(len(extra)))
            kept = _kept_as_is(row_decode) if key is not None else None
            absent = getattr(row_decode, "absent_as", None) if key is not None and not extra else None
            if kept is None and absent is not None:  # an absent key or a null is answered by a literal
                values[index] = f"{absent} if (v := {read}) is _M or v is None else d{index}(v)"
            elif kept is None:
                values[index] = f"d{index}({read}{more})"
            else:  # a value already of its type, or absent, is answered without calling the reader
                test, default, *table = kept
                names[f"z{index}"] = extra[0] if extra else default
                answer = "v"
                if table:  # an enum's reader: the value is looked up in its table
                    names[f"c{index}"] = table[0]
                    answer = f"c{index}.get(v, z{index})"
                values[index] = (
                    f"{answer} if ({test.format(v=f'(v := {read})')}) "
                    f"else z{index} if v is _M or v is None else d{index}(v{more})"
                )
        lines += ["    out = {", *_display(tree, values, "        "), "    }"]
        lines.append(
            "    return out"
            if self._total
            else "    return {k: v for k, v in out.items() if v is not _M} if _M in out.values() else out"
        )
        exec("\n".join(lines), names)  # noqa: S102 - the source is built above from the table's own keys
        return names["decode"]

    def __iter__(self):
        return iter(self.rows)

    def _decode_nested(self, native: dict) -> dict:
        """The canonical values the native object carries (unset ones left out), in row order."""
        sources = [native, *(_object(native, prefix) for prefix in self._prefixes[1:])]
        out: dict = {}
        for source, key, canon, decode, _encode in self._ops:
            value = decode(*sources) if key is None else decode(sources[source].get(key, MISSING))
            if value is MISSING:
                continue
            _set_path(out, (canon,) if isinstance(canon, str) else canon, value)
        return out

    def _nested(self, native: dict) -> list[dict]:
        return [_object(native, prefix) for prefix in self._prefixes[1:]]

    def encode(self, canon: dict, prior: dict | None) -> dict:
        """The native object for `canon`: a copy of `prior` (the escrowed object) written over, or a new one."""
        if prior is None:
            return self.write({}, canon, compare=False)
        return self.write(dict(prior), canon)

    def write(self, target: dict, canon: dict, compare: bool = True) -> dict:
        """Write `canon` into `target` in place, leaving each key that already reads as its value."""
        equal = self._equal
        containers: dict[int, dict] = {0: target}
        for source, key, name, decode, encode in self._ops:
            value = canon.get(name, MISSING) if isinstance(name, str) else get_path(canon, name)
            if key is None:
                if not compare or not equal(decode(target, *self._nested(target)), value):
                    encode(target, value)
                continue
            home = containers.get(source)
            if home is None:
                home = containers[source] = container(target, self._prefixes[source])
            if compare and equal(decode(home.get(key, MISSING)), value):
                continue
            native = MISSING if value is MISSING else encode(value)
            if native is MISSING:
                home.pop(key, None)
            else:
                home[key] = native
        return target


def answered_inline(decode: Any, test: str, default: Any, table: dict | None = None) -> Any:
    """Mark a row's reader so a compiled table answers some values without calling it.

    `test` is an expression over `{v}` (the value; `v` after its first use) true only for
    values the reader gives back unchanged (`_int`, `_bool`, `_str` name the types; bounds are
    written in), or, with `table`, values it looks up there (an enum's int); `default` is what
    it gives for an absent key or a null. Every other value still goes to the reader, so a
    mark can only be wrong by answering a value differently from the reader: the property
    tests compare compiled tables with walked ones."""
    decode.kept_as_is = (test, default) if table is None else (test, default, table)
    return decode


def answered_when_absent(decode: Any, literal: str) -> Any:
    """Mark a row's reader (one that takes no row arguments) so a compiled table answers an
    absent key or a null with `literal`, the source text of what the reader gives for them
    (`[]` and `{}` are written into the table, so each read gets a fresh one), without calling
    it: a V2 card has none of V3's fields, and each was a call. Property tests compare the
    compiled tables with walked ones."""
    decode.absent_as = literal
    return decode


def _kept_as_is(decode: Callable[..., Any]) -> tuple | None:
    """The inline test and default `answered_inline` gave a reader (an enum's reader adds the
    table an int passing the test is looked up in); None for a reader always called."""
    return getattr(decode, "kept_as_is", None)


# The drift readers give back a value already of their type unchanged (a bool is not an int
# here, as for the readers) and their default for an absent key or a null (the default when
# the row names none; a row's own default comes from its args).
answered_inline(drift.as_str, "{v}.__class__ is _str", "")
answered_inline(drift.as_bool, "{v}.__class__ is _bool", False)
answered_inline(drift.as_int, "{v}.__class__ is _int", None)
answered_inline(drift.as_count, "{v}.__class__ is _int and v >= 0", None)
answered_when_absent(drift.as_str_list, "[]")


def _canonical_tree(ops: tuple) -> dict | None:
    """The canonical object's layout: key -> row index, or -> a nested layout, in the order the
    rows first name each key; None when a path is both a value and an object's prefix."""
    tree: dict = {}
    for index, op in enumerate(ops):
        path = (op[2],) if isinstance(op[2], str) else op[2]
        node = tree
        for part in path[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                return None
        if path[-1] in node:
            return None
        node[path[-1]] = index
    return tree


def _display(tree: dict, values: dict[int, str], indent: str) -> list[str]:
    """The source lines of a dict display laid out as `tree`, each row's value from `values`."""
    lines = []
    for key, node in tree.items():
        if isinstance(node, dict):
            lines += [f"{indent}{key!r}: {{", *_display(node, values, indent + "    "), f"{indent}}},"]
        else:
            lines.append(f"{indent}{key!r}: {values[node]},")
    return lines


def _with_args(decode: Callable[..., Any], args: tuple) -> Callable[[Any], Any]:
    return lambda value: decode(value, *args)


def _object(tree: dict, path: tuple[str, ...]) -> dict:
    found = get_path(tree, path)
    return found if isinstance(found, dict) else {}


def container(tree: dict, path: tuple[str, ...]) -> dict:
    """The object at `path`, made one (an empty object) where it is absent or not an object."""
    for part in path:
        if not isinstance(tree.get(part), dict):
            tree[part] = {}
        tree = tree[part]
    return tree


def put(target: dict, key: str, value: Any, read: Any, encode: Any = None) -> None:
    """Write `value` under `key` unless what is there already reads as `value` (one row, written by hand).

    `read(raw)` is how the reader reads the key (raw is MISSING when absent); keeping an
    equal native value as it is keeps type drift ("0.5") and absent keys untouched.
    """
    if read(target.get(key, MISSING)) != value:
        target[key] = value if encode is None else encode(value)


def as_map(fields: FieldMap | Iterable[Row]) -> FieldMap:
    # A table assembled per document (a chat preset's rows depend on its source) is read
    # once: walking its rows costs less than compiling them.
    return fields if isinstance(fields, FieldMap) else FieldMap(fields, compiled=False)


def get_path(tree: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(tree, dict) or part not in tree:
            return MISSING
        tree = tree[part]
    return tree


def _set_path(tree: dict, path: tuple[str, ...], value: Any) -> None:
    for part in path[:-1]:
        tree = tree.setdefault(part, {})
    tree[path[-1]] = value


def decode_fields(fields: FieldMap | Iterable[Row], native: dict) -> dict:
    """The canonical values the native keys carry, as a nested dict (unset ones left out)."""
    return as_map(fields).decode(native)


def encode_fields(fields: FieldMap | Iterable[Row], canon: dict, prior: dict | None) -> dict:
    """The native object for `canon`, written over `prior` (the escrowed object) when given."""
    return as_map(fields).encode(canon, prior)


# --- readers for rows: each factory returns a decoder that tolerates the type drift real
# files carry and never raises (drift.as_int and its kin coerce one value; these make the
# decoder a row calls, with its default and bounds bound in) ------------------------------


def int_reader(default: Any = None, lo: int | None = None, hi: int | None = None) -> Callable[[Any], Any]:
    def decode(value: Any) -> Any:
        number = _to_number(value)
        if number is None or not float(number).is_integer():
            return default
        number = int(number)
        if (lo is not None and number < lo) or (hi is not None and number > hi):
            return default
        return number

    # A compiled table answers an int within the bounds (and within 2**53) without the call.
    low = -_EXACT_INT if lo is None else max(lo, -_EXACT_INT)
    high = _EXACT_INT if hi is None else min(hi, _EXACT_INT)
    return answered_inline(decode, f"{{v}}.__class__ is _int and {int(low)} <= v <= {int(high)}", default)


def float_reader(default: Any = None, lo: float | None = None) -> Callable[[Any], Any]:
    def decode(value: Any) -> Any:
        number = _to_number(value)
        if number is None or (lo is not None and number < lo):
            return default
        return number

    return decode


def _to_number(value: Any) -> int | float | None:
    if isinstance(value, bool) or value is MISSING or value is None:
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, int):
        return value if abs(value) <= _EXACT_INT else None  # past 2**53 no platform keeps it exact
    if isinstance(value, float) and math.isfinite(value):
        return value
    return None


_EXACT_INT = 2**53


def bool_reader(default: Any = False) -> Callable[[Any], Any]:
    decode = partial(drift.as_bool, default=default)  # a C-level binding: no extra Python frame per value
    return answered_inline(decode, "{v}.__class__ is _bool", default)


def str_reader(default: Any = "") -> Callable[[Any], Any]:
    def decode(value: Any) -> Any:
        return value if isinstance(value, str) else default

    return answered_inline(decode, "{v}.__class__ is _str", default)


def as_json(value: Any) -> Any:
    """Any JSON value as it is (absent stays absent)."""
    return value


def choice(values: dict[Any, Any], default: Any) -> Callable[[Any], Any]:
    """A native enum (ints or strings) -> canonical names; unknown values give `default`."""

    def decode(value: Any) -> Any:
        if isinstance(value, bool):
            return default
        if isinstance(value, str) and value.strip().lstrip("-").isdigit() and value.isascii():  # not "²"
            value = int(value)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return values.get(value, default) if isinstance(value, (int, str)) else default

    return answered_inline(decode, "{v}.__class__ is _int", default, values)


def reverse(values: dict[Any, Any]) -> Callable[[Any], Any]:
    back = {name: native for native, name in values.items()}
    return lambda value: back.get(value, MISSING)


def omit_none(value: Any) -> Any:
    return MISSING if value is None else value


def decimal_text(text: str) -> bool:
    """True for the canonical spelling of a non-negative integer ("12", not "012" or "¹")."""
    return text.isascii() and text.isdigit() and str(int(text)) == text
