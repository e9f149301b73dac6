"""RisuAI module JSON (RisuRealm's modules): read as the .risum module is, written in the flat form
RisuAI's module import takes, with no RPack table; the wrapped form read too."""

from __future__ import annotations

import copy
import json

import pytest
from cards_support import read
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from risu_support import module_bytes
from test_risu_binary import MODULE

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from bunzai.model import dump_piece
from bunzai.model.lorebook import Lorebook

# As RisuAI shares a module on RisuRealm (RealmFrame.svelte): the module object with `type`
# added after its keys, JSON.stringify'd compact; its asset paths point into the exporter's storage.
REALM = {**MODULE, "lowLevelAccess": False, "hideIcon": False, "assets": [["sky", "assets/1f3a.png", "png"]]}
REALM["type"] = "risuModule"


def compact(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def risu_import_module(data: bytes) -> dict:
    """RisuAI's importModule for a .json, step by step: JSON.parse, type 'risuModule', a truthy
    name and id (else it alerts noData and imports nothing)."""
    imported = json.loads(data)
    assert imported["type"] == "risuModule"
    assert imported.get("name") and imported.get("id"), "RisuAI's import refuses a module without a name or an id"
    return imported


def test_a_realm_module_reads_as_a_lorebook_and_a_regex_set():
    adapter, decoded = read_bytes(compact(REALM), "Weather.json")
    assert adapter.format_id == "risu.module.json"
    book, rules = decoded.pieces
    assert (book.kind, book.name, book.body.description) == ("lorebook", "Weather", "rain and sun")
    assert [entry.content for entry in book.body.entries] == ["Wet."]
    assert book.original.format == "risu.module.json" and book.original.document == REALM
    assert (rules.kind, rules.name) == ("regex", "Weather regex")
    assert rules.original.format == "risu.regex" and rules.original.document["data"] == MODULE["regex"]
    said = " ".join(decoded.warnings)
    assert "names 1 asset(s) but holds none of their bytes" in said
    assert "trigger (RisuAI code) are kept sealed" in said
    assert decoded.blobs == []


def test_an_unedited_module_writes_back_byte_for_byte():
    data = compact(REALM)
    _adapter, decoded, media = read(data, "Weather.json")
    crossing = convert_piece(decoded.pieces[0], "risu.module.json", media)
    assert crossing.data == data and crossing.losses == []


def test_a_module_without_a_description_or_lorebook_writes_back_byte_for_byte():
    # RisuAI's own writers always set both; a regex-only module made by another tool may not
    bare = {key: value for key, value in REALM.items() if key not in ("description", "lorebook")}
    _adapter, decoded, media = read(compact(bare), "Weather.json")
    crossing = convert_piece(decoded.pieces[0], "risu.module.json", media)
    assert crossing.data == compact(bare) and crossing.losses == []
    edited = decoded.pieces[0].model_copy(deep=True)
    edited.body.description = "storms"
    written = json.loads(convert_piece(edited, "risu.module.json", media).data)
    assert written["description"] == "storms" and "lorebook" not in written


def test_an_edited_entry_is_written_and_the_rest_of_the_module_kept():
    _adapter, decoded, media = read(compact(REALM), "Weather.json")
    book = decoded.pieces[0]
    entry = book.body.entries[0].model_copy(update={"content": "Very wet."})
    book = book.model_copy(update={"body": book.body.model_copy(update={"entries": [entry], "description": "new"})})
    crossing = convert_piece(book, "risu.module.json", media)
    module = risu_import_module(crossing.data)
    assert module["lorebook"][0]["content"] == "Very wet." and module["description"] == "new"
    kept = ("trigger", "regex", "assets", "lowLevelAccess", "hideIcon", "id")
    assert {key: module[key] for key in kept} == {key: REALM[key] for key in kept}
    assert list(module) == list(REALM)  # the keys in their order, `type` last as RisuAI adds it
    again = read_bytes(crossing.data, "Weather.json")[1].pieces[0]
    assert again.body == book.body
    assert [loss for loss in crossing.losses if loss.code == "crossing.not_carried"] == []


def test_a_lorebook_from_another_format_becomes_a_module_risuai_imports():
    export = {"type": "risu", "ver": 1, "data": MODULE["lorebook"]}
    _adapter, decoded, media = read(json.dumps(export).encode(), "weather.json")
    book = decoded.pieces[0]
    module = risu_import_module(convert_piece(book, "risu.module.json", media).data)
    assert (module["name"], module["id"]) == (book.name, book.id)
    again = read_bytes(json.dumps(module).encode(), "weather.json")[1].pieces[0]
    assert dump_piece(again)["body"] == dump_piece(book)["body"]


def test_a_regex_set_becomes_a_module_of_its_scripts():
    _adapter, decoded, media = read(compact(REALM), "Weather.json")
    rules = decoded.pieces[1]
    module = risu_import_module(convert_piece(rules, "risu.module.json", media).data)
    assert module["name"] == "Weather" and module["regex"] == MODULE["regex"]
    again = read_bytes(json.dumps(module).encode(), "Weather.json")[1].pieces
    assert again[1].body == rules.body and again[0].body.entries == []


def test_the_wrapped_form_reads_the_same_and_is_written_flat():
    wrapped = {"module": MODULE, "type": "risuModule"}
    _adapter, decoded, media = read(json.dumps(wrapped, indent=2).encode(), "weather.json")
    assert _adapter.format_id == "risu.module.json"
    assert [piece.name for piece in decoded.pieces] == ["Weather", "Weather regex"]
    module = risu_import_module(convert_piece(decoded.pieces[0], "risu.module.json", media).data)
    assert module == {**MODULE, "type": "risuModule"}


def test_a_module_read_from_a_risum_carries_its_module_and_names_the_asset_bytes_left_out(table):
    _adapter, decoded, media = read(module_bytes(MODULE, table, [b"\x89PNG sky"]), "weather.risum")
    crossing = convert_piece(decoded.pieces[0], "risu.module.json", media)
    module = risu_import_module(crossing.data)
    assert module["trigger"] == MODULE["trigger"] and module["regex"] == MODULE["regex"]
    assert [loss.code for loss in crossing.losses] == ["risu.module.json.asset_bytes"]
    assert "1 asset block(s)" in crossing.losses[0].why


def test_a_risum_read_without_a_table_is_refused_as_json_not_emptied(no_table, tmp_path):
    from risu_support import fake_checkout

    data = module_bytes(MODULE, fake_checkout(tmp_path / "elsewhere"), [b"sky"])
    _adapter, decoded, media = read(data, "weather.risum")
    with pytest.raises(BunzaiError) as raised:
        convert_piece(decoded.pieces[0], "risu.module.json", media)
    assert raised.value.code == "unsupported" and "[engines] risu" in raised.value.hint


def test_a_module_without_a_name_or_id_is_read_and_said_to_be_refused_by_risuai():
    module = {"description": "d", "lorebook": MODULE["lorebook"], "type": "risuModule"}
    _adapter, decoded, media = read(compact(module), "Nameless.json")
    book = decoded.pieces[0]
    assert book.name == "Nameless"
    assert any("no name and no id" in warning for warning in decoded.warnings)
    written = risu_import_module(convert_piece(book, "risu.module.json", media).data)
    assert (written["name"], written["id"]) == ("Nameless", book.id)


def test_other_risuai_exports_are_not_taken_for_modules():
    assert (
        read_bytes(json.dumps({"type": "risu", "ver": 1, "data": []}).encode(), "x.json")[0].format_id
        == "risu.lorebook"
    )
    assert read_bytes(json.dumps({"type": "regex", "data": []}).encode(), "x.json")[0].format_id == "risu.regex"
    with pytest.raises(BunzaiError) as raised:
        read_bytes(b'{"type": "risuModul", "name": "M"}', "x.json")
    assert raised.value.code == "unrecognized_file"


def test_a_damaged_module_is_refused_with_a_code_not_a_trace():
    for hostile in (
        {"type": "risuModule", "name": "M", "id": "m", "lorebook": "not a list", "regex": [1, None, "x"]},
        {"type": "risuModule", "name": ["M"], "id": 3, "lorebook": [None, 5, {"key": ["a"]}]},
        {"type": "risuModule", "module": {"lorebook": [{"content": {"x": 1}}]}},
    ):
        try:
            _adapter, decoded = read_bytes(json.dumps(hostile).encode(), "m.json")
        except BunzaiError as error:
            assert error.code == "corrupt_file"
        else:
            assert decoded.pieces[0].kind == "lorebook"


def test_writing_another_kind_is_refused():
    from bunzai.model.preset import Preset

    with pytest.raises(BunzaiError) as raised:
        convert_piece(Preset(id="p", name="P"), "risu.module.json", lambda ref: b"")
    assert raised.value.code == "unsupported"


ENTRY = st.fixed_dictionaries(
    {
        "key": st.text("abc, ", max_size=12),
        "secondkey": st.just(""),
        "insertorder": st.integers(0, 1000),
        "comment": st.text(max_size=30),
        "content": st.text(max_size=60),
        "mode": st.just("normal"),
        "alwaysActive": st.booleans(),
        "selective": st.just(False),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries=st.lists(ENTRY, max_size=5), content=st.text(max_size=60), description=st.text(max_size=60))
def test_any_module_lorebook_edit_reads_back_as_written(entries, content, description):
    realm = copy.deepcopy(REALM) | {"lorebook": entries}
    _adapter, decoded, media = read(compact(realm), "m.json")
    book = decoded.pieces[0]
    assert convert_piece(book, "risu.module.json", media).data == compact(realm)
    changed = [entry.model_copy(update={"content": content}) for entry in book.body.entries]
    book = book.model_copy(
        update={"body": book.body.model_copy(update={"entries": changed, "description": description})}
    )
    crossing = convert_piece(book, "risu.module.json", media)
    again = read_bytes(crossing.data, "m.json")[1].pieces[0]
    assert again.body == book.body
    assert risu_import_module(crossing.data)["trigger"] == REALM["trigger"]
    assert [loss for loss in crossing.losses if loss.code == "crossing.not_carried"] == []


def test_a_new_lorebook_with_no_entries_still_makes_a_module():
    module = risu_import_module(convert_piece(Lorebook(id="w", name="W"), "risu.module.json", lambda ref: b"").data)
    assert module == {"name": "W", "description": "", "id": "w", "lorebook": [], "type": "risuModule"}


def test_regex_keys_risuai_never_matches_are_said_for_both_module_files(table):
    entry = {"key": "rain", "secondkey": "", "content": "Wet.", "mode": "normal", "useRegex": True}
    module = {**MODULE, "lorebook": [entry]}
    for data, name in ((compact(module | {"type": "risuModule"}), "m.json"), (module_bytes(module, table), "m.risum")):
        warnings = read_bytes(data, name)[1].warnings
        assert any("RisuAI never matches rain" in warning for warning in warnings), (name, warnings)


def test_a_module_json_written_as_a_risum_carries_its_module_and_names_the_assets_left_out(table):
    from test_risu_writers import risu_read_module

    _adapter, decoded, media = read(compact(REALM), "Weather.json")
    crossing = convert_piece(decoded.pieces[0], "risu.module", media)
    module, blocks = risu_read_module(crossing.data, table)
    kept = ("trigger", "regex", "lowLevelAccess", "hideIcon", "id", "description")
    assert {key: module[key] for key in kept} == {key: REALM[key] for key in kept}
    assert "type" not in module and module["assets"] == [] and blocks == []
    assert [loss.code for loss in crossing.losses] == ["risu.module.asset_names"]
    again = read_bytes(crossing.data, "weather.risum")[1].pieces
    assert again[0].body == decoded.pieces[0].body and again[1].body == decoded.pieces[1].body
