"""`macro-lookup`: what a macro means in its engine, and what it becomes on another platform."""

from __future__ import annotations

from bunzai.errors import BunzaiError, unknown_name
from bunzai.macros import ops
from bunzai.macros.catalog import Catalog, Entry, all_catalogs, catalog_for, engine_ids
from bunzai.macros.equivalence import example
from bunzai.macros.syntax import parse_token
from bunzai.macros.translate import translate_text


def describe_entry(cat: Catalog, entry: Entry) -> dict:
    doc = {
        "name": entry.name,
        "form": example(cat, entry),
        "args": entry.args,
        "op": entry.op,
        "family": ops.family_of(entry.op) if entry.op else None,
        "means": ops.OPS[entry.op].summary if entry.op in ops.OPS else None,
    }
    if entry.aliases:
        doc["aliases"] = list(entry.aliases)
    if entry.block:
        doc["block"] = entry.block
    if entry.status != "current":
        doc["status"] = entry.status
    if entry.fields is not None:  # read only there (`kind:pattern`); text in every other field
        doc["fields"] = list(entry.fields)
    if entry.inside is not None:  # read only in the body of these blocks; text elsewhere
        doc["inside"] = list(entry.inside)
    if entry.bare:
        doc["bare"] = True
    if entry.exact_case:
        doc["exact_case"] = True
    if entry.note:
        doc["note"] = entry.note
    return doc


def _matching(cat: Catalog, name: str) -> list[Entry]:
    key = cat.fold(name.strip().strip("{}").strip())
    return cat.by_key.get(key, [])


def _engine(engine: str) -> Catalog:
    cat = catalog_for(engine)
    if cat is None:
        known = engine_ids()
        raise unknown_name(
            "not_found",
            f"bunzai has no macro catalog for {engine!r}",
            engine,
            known,
            f"known engines: {', '.join(known)}",
        )
    return cat


def macro_lookup(name: str, engine: str | None = None, to: str | None = None) -> dict:
    """The forms of `name` in one engine (or every engine that has it), and their fate on `to`."""
    name = name.strip()
    bare = name[2:-2] if name.startswith("{{") and name.endswith("}}") else name
    cats = [_engine(engine)] if engine else list(all_catalogs().values())
    target = _engine(to) if to else None
    found = []
    for cat in cats:
        token = parse_token("{{" + bare + "}}", 0, cat.syntax)
        entries = _matching(cat, token.name)
        if not entries:
            continue
        row = {"engine": cat.engine, "forms": [describe_entry(cat, e) for e in entries]}
        if cat.partial:
            row["partial"] = True
        if token.pipes:
            row["note"] = f"{cat.engine} parses {' '.join('| ' + p for p in token.pipes)} and never applies it"
        if target is not None:
            row["on"] = {"engine": target.engine, "forms": [_fate(cat, e, target, translate_text) for e in entries]}
            if token.args or token.pipes:  # the token as given, beside its forms' examples
                # an opener is judged with a body and its closer, as its forms are (alone it opens nothing)
                closer = "…" + _closer(token.name) if any(e.block == "block" for e in entries) else ""
                row["on"]["as_written"] = _fate_of(token.raw, None, cat, target, translate_text, closer=closer)
        found.append(row)
    if not found:
        raise BunzaiError(
            "not_found",
            f"no catalog declares a macro named {bare!r}" + (f" in {engine}" if engine else ""),
            "check the spelling, or list an engine's macros with `bunzai macro engines`",
        )
    return {"name": bare, "count": len(found), "items": found}


def _fate(cat: Catalog, entry: Entry, target: Catalog, translate_text) -> dict:
    """Translate the entry's own example form and report what happens to it."""
    form = example(cat, entry)
    if entry.block == "block":
        form = form + "…" + _closer(entry.name)
    opener, closer = _around(cat, entry)
    doc = _fate_of(form, entry.op, cat, target, translate_text, opener, closer)
    same_op = target.by_op.get(entry.op or "", [])[:4]
    if same_op:
        doc["target_forms"] = [example(target, e) for e in same_op]
        limited = {example(target, e): list(e.fields) for e in same_op if e.fields is not None}
        if limited:  # a form the target reads only in these fields
            doc["target_fields"] = limited
    return doc


def _closer(name: str) -> str:
    """The closer of the block an opener named `name` opens (`#each` -> `{{/each}}`)."""
    return "{{/" + name.lstrip("#:") + "}}"


def _around(cat: Catalog, entry: Entry) -> tuple[str, str]:
    """The block a form read only inside one is looked up in (Agnai's `{{#each bot}}` for `{{.name}}`)."""
    blocks = [e for op in entry.inside or () for e in cat.by_op.get(op, []) if e.block == "block"]
    if not blocks:
        return "", ""
    return example(cat, blocks[0]), _closer(blocks[0].name)


def _fate_of(
    form: str, op: str | None, cat: Catalog, target: Catalog, translate_text, opener: str = "", closer: str = ""
) -> dict:
    """What `form` (a macro's first token) becomes on `target`: its verdict, spelling and notes;
    in the body of `opener` ... `closer` where the form is read only there."""
    # the first token's own verdict comes after those of the macros nested in it (all at the same place)
    text = opener + form + closer
    own = [v for v in translate_text(text, cat.engine, target.engine).verdicts if v["at"] == len(opener)]
    verdict = own[-1] if own else {"verdict": "unknown", "op": op}
    doc = {"form": form, "verdict": verdict["verdict"], "op": op if op is not None else verdict.get("op")}
    if opener:
        doc["inside"] = opener + "…" + closer
    for key in ("to", "target_op", "candidates", "note", "comment"):
        if key in verdict:
            doc[key] = verdict[key]
    return doc
