"""Marinara Engine's "compatible" persona export (characters.routes.ts buildCompatiblePersonaExport:
the personas row at the top level, no dates, an `extensions.marinara` mark), which Marinara's own
persona import dialog takes, reads as the native export does and is written back native; so does
its "compatible" lorebook, a SillyTavern world: in SillyTavern's numbers since Marinara took
SillyTavern's four logics, in Marinara's own before."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marinara_profile_support import compatible_lorebook, current_compatible_entry
from marinara_support import envelope, lorebook_entry, lorebook_export, no_media, persona_export, read

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece

MARK = {"marinara": {"exportedAt": "2026-05-06T10:00:00.000Z", "source": "Marinara Engine compatibility export"}}


def compatible_persona() -> bytes:
    row = {key: value for key, value in json.loads(persona_export())["data"].items() if key != "metadata"}
    return json.dumps(row | {"extensions": MARK}, ensure_ascii=False, indent=2).encode("utf-8")


def test_a_compatible_persona_export_reads_as_the_native_one():
    adapter, decoded = read(compatible_persona(), "Luca.json")
    _native_adapter, native = read(persona_export())
    assert adapter.format_id == "marinara.persona"
    piece, twin = decoded.pieces[0], native.pieces[0]
    assert (piece.id, piece.name, piece.body) == (twin.id, twin.name, twin.body)


def test_a_compatible_persona_export_is_written_back_as_a_native_export():
    _adapter, decoded = read(compatible_persona(), "Luca.json")
    crossing = convert_piece(decoded.pieces[0], "marinara.persona", no_media)
    written = json.loads(crossing.data)
    row = json.loads(compatible_persona())
    del row["extensions"]
    assert (written["type"], written["version"], written["exportedAt"]) == (
        "marinara_persona",
        1,
        MARK["marinara"]["exportedAt"],
    )
    assert written["data"] == row and crossing.losses == []


def test_the_compatible_lorebook_export_is_not_taken_for_a_persona():
    # lorebooks.routes.ts buildCompatibleLorebookExport: an ST world with the same mark
    world = {"name": "Italy", "extensions": MARK, "entries": {"0": {"uid": 0, "key": ["rome"], "content": "A city."}}}
    adapter, _decoded = read_bytes(json.dumps(world).encode(), "Italy.json")
    assert adapter.format_id == "marinara.lorebook"


# What the compatible export carries of an entry (the rest: ids, folders, regex switch, filters ...).
CARRIED = (
    "title",
    "keys",
    "secondary_keys",
    "content",
    "enabled",
    "constant",
    "selective",
    "selective_logic",
    "order",
    "position",
    "depth",
    "role",
    "probability",
    "use_probability",
    "group",
    "sticky",
    "cooldown",
    "delay",
    "scan_depth",
    "case_sensitive",
    "match_whole_words",
)


def test_a_compatible_lorebook_reads_in_marinaras_numbers_as_the_native_export_does():
    adapter, decoded = read(json.dumps(compatible_lorebook(), indent=2).encode(), "Italy.json")
    _native_adapter, native = read(lorebook_export())
    assert adapter.format_id == "marinara.lorebook"
    got = [entry.model_dump(include=set(CARRIED)) for entry in decoded.pieces[0].body.entries]
    want = [entry.model_dump(include=set(CARRIED)) for entry in native.pieces[0].body.entries]
    for entry in want:  # the file has no regex switch: keys read as plain text, as Marinara's import reads them
        entry["keys"] = [key | {"regex": False} for key in entry["keys"]]
        entry["secondary_keys"] = [key | {"regex": False} for key in entry["secondary_keys"]]
    assert got == want
    rome = decoded.pieces[0].body.entries[1]
    assert (rome.position, rome.depth, rome.selective_logic) == ("at_depth", 3, "not_any")  # 2 is at a depth
    assert decoded.pieces[0].body.entries[0].selective_logic == "and_any"  # 0 is "and": any key, as Marinara runs it
    # no preventRecursion in the file: true, as today's Marinara imports it
    assert [entry.prevent_recursion for entry in decoded.pieces[0].body.entries] == [True, True]


# What today's compatible export carries beside: the regex switch, the outlet, the recursion flags.
CARRIED_NOW = (*CARRIED, "outlet", "prevent_recursion", "exclude_recursion", "delay_until_recursion")


def test_todays_compatible_lorebook_reads_in_sillytaverns_numbers_as_the_native_export_does():
    world = compatible_lorebook(writer=current_compatible_entry)
    rome = world["entries"]["1"]
    assert (rome["position"], rome["selectiveLogic"], rome["outletName"]) == (4, 2, "")  # stPosition, stSelectiveLogic
    adapter, decoded = read(json.dumps(world, indent=2).encode(), "Italy.json")
    _native_adapter, native = read(lorebook_export())
    assert adapter.format_id == "marinara.lorebook"
    got = [entry.model_dump(include=set(CARRIED_NOW)) for entry in decoded.pieces[0].body.entries]
    assert got == [entry.model_dump(include=set(CARRIED_NOW)) for entry in native.pieces[0].body.entries]


@settings(max_examples=60, deadline=None)
@given(
    position=st.sampled_from([0, 1, 2, 7]),
    logic=st.sampled_from(["and", "and_all", "or", "not", "not_all"]),
    outlet=st.sampled_from(["", "Weather"]),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()),
)
def test_any_entry_reads_alike_from_todays_compatible_and_the_native_export(position, logic, outlet, flags):
    regex, prevent, exclude, delay = flags
    row = lorebook_entry(
        position=position,
        selectiveLogic=logic,
        selective=True,
        secondaryKeys=["sea"],
        outletName=outlet,
        useRegex=regex,
        preventRecursion=prevent,
        excludeRecursion=exclude,
        delayUntilRecursion=delay,
    )
    world = compatible_lorebook([row], writer=current_compatible_entry)
    _adapter, compatible = read(json.dumps(world).encode(), "Italy.json")
    _native_adapter, native = read(envelope("marinara_lorebook", {"lorebook": {"name": "Italy"}, "entries": [row]}))
    got, want = compatible.pieces[0].body.entries[0], native.pieces[0].body.entries[0]
    assert got.model_dump(include=set(CARRIED_NOW)) == want.model_dump(include=set(CARRIED_NOW))


@settings(max_examples=60, deadline=None)
@given(
    position=st.sampled_from([0, 1, 2]),
    logic=st.sampled_from(["and", "or", "not"]),
    role=st.sampled_from(["system", "user", "assistant"]),
    depth=st.integers(1, 20),
    probability=st.one_of(st.none(), st.integers(0, 100)),
    enabled=st.booleans(),
)
def test_any_entry_reads_alike_from_the_compatible_and_the_native_export(
    position, logic, role, depth, probability, enabled
):
    row = lorebook_entry(
        position=position, selectiveLogic=logic, role=role, depth=depth, probability=probability, enabled=enabled
    )
    _adapter, compatible = read(json.dumps(compatible_lorebook([row])).encode(), "Italy.json")
    _native_adapter, native = read(envelope("marinara_lorebook", {"lorebook": {"name": "Italy"}, "entries": [row]}))
    got, want = compatible.pieces[0].body.entries[0], native.pieces[0].body.entries[0]
    assert got.model_dump(include=set(CARRIED)) == want.model_dump(include=set(CARRIED))


def test_a_compatible_lorebook_crosses_to_sillytavern_in_sillytaverns_numbers():
    _adapter, decoded = read(json.dumps(compatible_lorebook(), indent=2).encode(), "Italy.json")
    written = json.loads(convert_piece(decoded.pieces[0], "sillytavern.world", no_media).data)
    naples, rome = written["entries"]["0"], written["entries"]["1"]
    assert (rome["position"], rome["depth"], rome["selectiveLogic"]) == (4, 3, 2)  # at depth, NOT_ANY
    assert (naples["position"], naples["selectiveLogic"]) == (0, 0)  # before the character, AND_ANY


def test_a_compatible_lorebook_is_written_back_as_a_native_export():
    _adapter, decoded = read(json.dumps(compatible_lorebook(), indent=2).encode(), "Italy.json")
    crossing = convert_piece(decoded.pieces[0], "marinara.lorebook", no_media)
    written = json.loads(crossing.data)
    assert written["type"] == "marinara_lorebook" and crossing.losses == []
    assert [row["position"] for row in written["data"]["entries"]] == [0, 2]


def test_an_unmarked_world_keeps_sillytaverns_numbers():
    world = compatible_lorebook()
    del world["extensions"]
    adapter, decoded = read(json.dumps(world).encode(), "Italy.json")
    assert adapter.format_id == "sillytavern.world"
    assert decoded.pieces[0].body.entries[1].position == "an_top"  # SillyTavern's 2: Author's Note top


def test_a_bare_persona_row_from_the_compatible_profile_zip_reads_too():
    # backup.routes.ts buildCompatibleProfileZip writes personas/<name>.json without the mark
    row = json.loads(compatible_persona())
    del row["extensions"]
    adapter, decoded = read(json.dumps(row, indent=2).encode(), "Luca.json")
    _native_adapter, native = read(persona_export())
    assert adapter.format_id == "marinara.persona" and decoded.pieces[0].body == native.pieces[0].body
    written = json.loads(convert_piece(decoded.pieces[0], "marinara.persona", no_media).data)
    assert written["type"] == "marinara_persona" and written["data"] == row


def test_a_compatible_lorebook_of_the_weeks_before_the_outlet_reads_in_sillytaverns_numbers():
    # SillyTavern's numbers, useRegex and the recursion flags came before outletName (Marinara #2704)
    def without_outlet(entry: dict, index: int) -> dict:
        written = current_compatible_entry(entry, index)
        del written["outletName"]
        return written

    rows = [lorebook_entry(position=2, selectiveLogic="and_all", useRegex=True, excludeRecursion=True)]
    _adapter, decoded = read(json.dumps(compatible_lorebook(rows, writer=without_outlet)).encode(), "Italy.json")
    _native_adapter, native = read(envelope("marinara_lorebook", {"lorebook": {"name": "Italy"}, "entries": rows}))
    got, want = decoded.pieces[0].body.entries[0], native.pieces[0].body.entries[0]
    assert (got.position, got.selective_logic, got.exclude_recursion) == ("at_depth", "and_all", True)
    assert got.model_dump(include=set(CARRIED_NOW)) == want.model_dump(include=set(CARRIED_NOW))


@pytest.mark.parametrize(("number", "read_as"), [(4, "at_depth"), (7, "outlet"), (3, "after_char")])
def test_a_number_only_sillytavern_counts_marks_the_file_as_sillytavern_numbered(number, read_as):
    world = compatible_lorebook([lorebook_entry(secondaryKeys=["sea"], selective=True, selectiveLogic="or")])
    world["entries"]["0"]["position"] = number
    world["entries"]["0"]["selectiveLogic"] = 1  # SillyTavern's NOT_ALL here, the older Marinara's `or` elsewhere
    book = read(json.dumps(world).encode(), "Italy.json")[1].pieces[0]
    assert (book.body.entries[0].position, book.body.entries[0].selective_logic) == (read_as, "not_all")


def test_todays_compatible_lorebook_keeps_its_bindings():
    world = compatible_lorebook(writer=current_compatible_entry) | {"characterId": "c1", "personaId": None}
    _adapter, decoded = read(json.dumps(world).encode(), "Italy.json")
    written = json.loads(convert_piece(decoded.pieces[0], "marinara.lorebook", no_media).data)
    book = written["data"]["lorebook"]
    assert (book["characterId"], book["personaId"], book["chatId"]) == ("c1", None, None)
