"""The catalogs: valid ops, the gate on unannotated divergence, parity with the engines' oracle files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bunzai.macros import ops
from bunzai.macros.catalog import all_catalogs, catalogs_from_document
from bunzai.macros.catalog_cache import load_yaml_text
from bunzai.macros.equivalence import unannotated_divergence

ORACLE = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "macros"
SIX = ("sillytavern", "sillytavern-legacy", "rolecall", "lumiverse", "marinara", "risuai", "agnai")


def test_every_engine_of_the_issue_has_a_catalog() -> None:
    assert set(SIX) <= set(all_catalogs())


def test_every_op_is_in_the_vocabulary_or_engine_only() -> None:
    for engine, cat in all_catalogs().items():
        for entry in cat.entries:
            assert entry.op is None or ops.is_known(entry.op), (engine, entry.name, entry.op)


def test_engine_only_ops_are_named_after_their_engine() -> None:
    for engine, cat in all_catalogs().items():
        stem = {"sillytavern-legacy": "st", "sillytavern": "st", "risuai": "risu"}.get(engine, engine)
        for entry in cat.entries:
            if entry.op and ops.is_engine_only(entry.op):
                assert entry.op.split(".")[1] == stem, (engine, entry.name, entry.op)


def test_no_name_shared_with_differing_shapes_lacks_an_op() -> None:
    assert unannotated_divergence() == []


UNDER_ANNOTATED = """
engine: testengine
title: a deliberately under-annotated engine
oracle: none.json
syntax: {fold: case}
macros:
  - {name: random, args: "2"}
"""


def test_an_under_annotated_catalog_fails_the_gate() -> None:
    extra = catalogs_from_document(load_yaml_text(UNDER_ANNOTATED, "test"), "test")
    found = unannotated_divergence({**all_catalogs(), **extra})
    assert [d["name"] for d in found] == ["random"]
    assert found[0]["unannotated"] == ["testengine"]


def test_a_name_whose_shapes_agree_may_go_unannotated() -> None:
    doc = UNDER_ANNOTATED.replace('{name: random, args: "2"}', "{name: weekday}")
    extra = catalogs_from_document(load_yaml_text(doc, "test"), "test")
    assert unannotated_divergence({**all_catalogs(), **extra}) == []


def _oracle_names(engine: str, fold) -> set[str]:
    cat = all_catalogs()[engine]
    path = ORACLE / cat.oracle
    if not path.exists():
        pytest.skip(f"oracle {path} is absent (../shared is not beside this checkout)")
    rows = json.loads(path.read_text(encoding="utf-8"))
    if engine == "sillytavern":
        rows = [r for r in rows if r.get("st_engine") in ("both", "new")]
    elif engine == "sillytavern-legacy":
        rows = [r for r in rows if r.get("st_engine") in ("both", "legacy")]
    names = {fold(r["name"]) for r in rows if r["kind"] not in ("marker", "pattern", "flag")}
    # One oracle row stands for a shorthand with several operators (`.==` lists `== != > ...`).
    for r in rows:
        if r["kind"] == "shorthand":
            names.update(fold(r["name"][0] + op) for sep in r["args"]["sep"] for op in sep.split())
    return names


@pytest.mark.parametrize("engine", SIX)
def test_catalog_claims_no_macro_its_engine_lacks(engine: str, capsys) -> None:
    cat = all_catalogs()[engine]
    known = _oracle_names(engine, cat.fold)
    claimed = set()
    for entry in cat.entries:
        if entry.inside:  # a loop's field: held against its loop's row (test_a_loop_field_is_one_its_loop_names)
            continue
        for spelling in entry.spellings:
            name = f"{spelling} {entry.first_arg}" if entry.first_arg else spelling
            claimed.add(cat.fold(name))
    assert claimed - known == set()
    with capsys.disabled():
        print(
            f"\n  {engine}: covers {len(claimed & known)}/{len(known)} oracle names "
            f"({100 * len(claimed & known) // len(known)}%)"
        )


def test_a_loop_field_is_one_its_loop_names() -> None:
    # The oracle names a loop's fields in its row's note ("props .name .personality/.persona .i");
    # Agnai's HistoryProperty takes them with the dot or without ("."? prop).
    cat = all_catalogs()["agnai"]
    path = ORACLE / cat.oracle
    if not path.exists():
        pytest.skip(f"oracle {path} is absent (../shared is not beside this checkout)")
    notes = {r["op"]: r["note"] for r in json.loads(path.read_text(encoding="utf-8")) if r["kind"] == "loop"}
    fields = [e for e in cat.entries if e.inside and e.block is None]  # `{{#else}}`, read in an `{{#if}}`, is no field
    assert fields
    for entry in fields:
        for op in entry.inside:
            props = set(notes[op].split("props ")[1].split(";")[0].replace("/", " ").split())
            assert {"." + s.lstrip(".") for s in entry.spellings} <= props, (entry.name, op)
