"""Properties of the new writers: MessagePack round trips; any module lorebook and any preset's mapped
fields read back as written (with a table); any legacy Backyard character's texts read back as written."""

from __future__ import annotations

from cards_support import read
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from risu_support import fake_checkout, module_bytes, risup_bytes

from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.risu import rpack
from bunzai.adapters.risu.msgpack_read import unpack
from bunzai.adapters.risu.msgpack_write import pack
from bunzai.convert import convert_piece

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**53), 2**53),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer()),
    st.text(max_size=40),
    st.binary(max_size=40),
)
VALUE = st.recursive(
    LEAF,
    lambda inner: st.lists(inner, max_size=20) | st.dictionaries(st.text(max_size=8), inner, max_size=20),
    max_leaves=30,
)
TEXT = st.text(max_size=60)


@settings(max_examples=200, deadline=None)
@given(value=VALUE)
def test_msgpack_written_reads_back_equal(value):
    assert unpack(pack(value), "property") == value


ENTRY = st.fixed_dictionaries(
    {
        "key": st.text("abc, ", max_size=12),
        "secondkey": st.just(""),
        "insertorder": st.integers(0, 1000),
        "comment": TEXT,
        "content": TEXT,
        "mode": st.just("normal"),
        "alwaysActive": st.booleans(),
        "selective": st.just(False),
    }
)


@SETTINGS
@given(entries=st.lists(ENTRY, max_size=5), new_content=TEXT, description=TEXT)
def test_any_module_lorebook_edit_reads_back_as_written(tmp_path, entries, new_content, description):
    table = fake_checkout(tmp_path)
    rpack.configure_risu_root(tmp_path, verify_hash=False)
    try:
        module = {"name": "M", "description": "d", "id": "m", "lorebook": entries, "trigger": [{"x": 1}]}
        _adapter, decoded, media = read(module_bytes(module, table, [b"asset"]), "m.risum")
        book = decoded.pieces[0]
        changed = [e.model_copy(update={"content": new_content}) for e in book.body.entries]
        book = book.model_copy(
            update={"body": book.body.model_copy(update={"entries": changed, "description": description})}
        )
        crossing = convert_piece(book, "risu.module", media)
        again = read_bytes(crossing.data, "m.risum")[1]
        assert again.pieces[0].body == book.body
        assert again.pieces[0].original.document["module"]["trigger"] == [{"x": 1}]
        assert [loss for loss in crossing.losses if loss.code == "crossing.not_carried"] == []
    finally:
        rpack.configure_risu_root(None)


@SETTINGS
@given(main=TEXT, temperature=st.integers(0, 200), top_k=st.integers(0, 100), extra=VALUE)
def test_any_preset_edit_reads_back_and_keeps_the_unmapped_keys(tmp_path, main, temperature, top_k, extra):
    table = fake_checkout(tmp_path)
    rpack.configure_risu_root(tmp_path, verify_hash=False)
    try:
        source = {"name": "P", "mainPrompt": "m", "temperature": 50, "unmapped": extra}
        _adapter, decoded, media = read(risup_bytes(source, table), "p.risup")
        preset = decoded.pieces[0]
        # an empty main is sent as nothing, so it reads back as no block (preset.py); the markers keep no text
        main = main or "m"
        prompts = [b.model_copy(update={"content": main}) if b.identifier == "main" else b for b in preset.body.prompts]
        samplers = preset.body.samplers.model_copy(update={"temperature": temperature / 100, "top_k": top_k})
        preset = preset.model_copy(
            update={"body": preset.body.model_copy(update={"prompts": prompts, "samplers": samplers})}
        )
        crossing = convert_piece(preset, "risu.preset", media)
        again = read_bytes(crossing.data, "p.risup")[1].pieces[0]
        assert again.body == preset.body and crossing.losses == []
        assert (
            again.original.document["preset"]["unmapped"] == decoded.pieces[0].original.document["preset"]["unmapped"]
        )
    finally:
        rpack.configure_risu_root(None)


@SETTINGS
@given(
    name=st.text(min_size=1, max_size=30).filter(str.strip),
    description=TEXT,
    scenario=TEXT,
    first=TEXT,
    keys=st.lists(st.text("abcxyz", min_size=1, max_size=8), max_size=4),
)
def test_any_character_reads_back_from_a_legacy_backyard_png(name, description, scenario, first, keys):
    from bunzai.model.character import Character

    piece = Character.model_validate(
        {
            "id": "c",
            "name": name,
            "body": {
                "description": description,
                "scenario": scenario,
                "first_message": first,
                "book": {"entries": [{"uid": i, "keys": [{"text": k}], "content": k * 2} for i, k in enumerate(keys)]}
                if keys
                else None,
            },
        }
    )
    crossing = convert_piece(piece, "backyard.png", lambda ref: b"")
    adapter, decoded = read_bytes(crossing.data, "c.png")
    back = decoded.pieces[0]
    assert adapter.format_id == "backyard.png"
    assert (back.name, back.body.description, back.body.scenario, back.body.first_message) == (
        name,
        description,
        scenario,
        first,
    )
    assert [e.keys[0].text for e in back.body.book.entries] == keys if keys else back.body.book is None
    assert [loss for loss in crossing.losses if loss.code == "crossing.not_carried"] == []
