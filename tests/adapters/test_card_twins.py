"""A PNG card's `chara` document built from the `ccv3` one it mirrors is exactly what parsing
the chunk on its own gives: same document, whatever the two texts hold."""

from __future__ import annotations

import base64
import json

from cards_support import card_png
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.adapters.common import png
from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.sillytavern.card_twins import top_level, twin_document, twin_in_base64
from bunzai.jsondoc.reading import json_decoder

DATA = {
    "name": "Ada",
    "description": "d “quoted” ✓",
    "first_mes": "hi",
    "extensions": {"spec": "x"},
    "character_book": {"name": "B", "entries": [{"keys": ["k"], "content": "c", "id": 1}]},
}


def _texts(chara: str, ccv3: str) -> bytes:
    base = png.read_png(png.default_portrait())
    return png.replace_text(
        base, set(), [("chara", base64.b64encode(chara.encode())), ("ccv3", base64.b64encode(ccv3.encode()))]
    )


def _escrowed(data: bytes) -> dict:
    return read_bytes(data, "card.png")[1].pieces[0].original.document


def _card(spec: str, version: str, data: dict = DATA) -> str:
    return json.dumps({"spec": spec, "spec_version": version, "data": data}, ensure_ascii=False, separators=(",", ":"))


def test_twins_differing_in_spec_only_read_as_each_parsed_alone():
    chara, ccv3 = _card("chara_card_v2", "2.0"), _card("chara_card_v3", "3.0")
    decoder = json_decoder()
    first, spans = top_level(ccv3, decoder)
    assert twin_document(first, spans, ccv3, chara, decoder) == json.loads(chara)
    assert _escrowed(_texts(chara, ccv3)) == {"chara": json.loads(chara), "ccv3": json.loads(ccv3)}


def test_a_difference_anywhere_else_is_not_taken_from_the_twin():
    decoder = json_decoder()
    ccv3 = _card("chara_card_v3", "3.0")
    first, spans = top_level(ccv3, decoder)
    for chara in (
        _card("chara_card_v2", "2.0", DATA | {"extensions": {"spec": "y"}}),  # a nested `spec`
        _card("chara_card_v2", "2.0", DATA | {"name": "Adb"}),
        _card("chara_card_v2", "2.00"),
    ):
        assert twin_document(first, spans, ccv3, chara, decoder) is None
        assert _escrowed(_texts(chara, ccv3)) == {"chara": json.loads(chara), "ccv3": json.loads(ccv3)}


def test_a_repeated_top_level_key_reads_the_chunks_one_by_one():
    ccv3 = '{"spec":"chara_card_v3","spec":"chara_card_v3","spec_version":"3.0","data":{"name":"A"}}'
    chara = ccv3.replace("v3", "v2").replace("3.0", "2.0")
    assert top_level(ccv3, json_decoder()) is None
    assert _escrowed(_texts(chara, ccv3)) == {"chara": json.loads(chara), "ccv3": json.loads(ccv3)}


def test_twins_share_nothing_a_writer_edits():
    chara, ccv3 = _card("chara_card_v2", "2.0"), _card("chara_card_v3", "3.0")
    decoded = read_bytes(_texts(chara, ccv3), "card.png")[1]
    from bunzai.convert import convert_piece

    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    before = json.loads(json.dumps(decoded.pieces[0].original.document))
    piece = decoded.pieces[0]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"description": "new"})})
    convert_piece(piece, "sillytavern.card.png", lambda ref: blobs[ref.sha256])
    assert json.loads(json.dumps(decoded.pieces[0].original.document)) == before


_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["spec", "spec_version", "data", "name", "x"]), _values, max_size=5),
    st.dictionaries(st.sampled_from(["spec", "spec_version", "data", "name", "x"]), _values, max_size=5),
    st.booleans(),
)
def test_the_escrow_holds_what_parsing_each_chunk_gives(first, second, relabel):
    if relabel:  # the usual case: the same object relabelled
        second = dict(first, spec=second.get("spec", "v"), spec_version=second.get("spec_version", 1))
    chara, ccv3 = (json.dumps(doc, ensure_ascii=False, separators=(",", ":")) for doc in (second, first))
    assert _escrowed(_texts(chara, ccv3)) == {"chara": json.loads(chara), "ccv3": json.loads(ccv3)}


def test_the_bench_card_pair_reads_as_before():
    data = card_png(
        {"chara": json.loads(_card("chara_card_v2", "2.0")), "ccv3": json.loads(_card("chara_card_v3", "3.0"))}
    )
    assert _escrowed(data)["chara"]["spec"] == "chara_card_v2"


def _in_base64(chara: str, ccv3: str) -> dict | None:
    decoder = json_decoder()
    raw = ccv3.encode()
    first, spans = top_level(ccv3, decoder)
    return twin_in_base64(first, spans, ccv3, raw, base64.b64encode(raw), base64.b64encode(chara.encode()), decoder)


def test_the_relabelled_chunk_is_built_from_base64_blocks_without_decoding_it():
    chara, ccv3 = _card("chara_card_v2", "2.0"), _card("chara_card_v3", "3.0")
    assert _in_base64(chara, ccv3) == json.loads(chara)
    late = json.dumps({"data": DATA, "name": "Ada", "spec": "chara_card_v3", "spec_version": "3.0"}, ensure_ascii=False)
    assert _in_base64(late.replace("v3", "v2").replace("3.0", "2.0"), late) == json.loads(
        late.replace("v3", "v2").replace("3.0", "2.0")
    )


def test_a_difference_beside_the_relabelled_values_is_not_taken_from_the_blocks():
    ccv3 = _card("chara_card_v3", "3.0")
    for chara in (
        _card("chara_card_v2", "2.0").replace('"spec_version"', '"spec_versioN"'),  # same block, a key
        _card("chara_card_v2", "2.0", DATA | {"name": "Adb"}),
        _card("chara_card_v2", "2.00"),
        ccv3.replace("chara_card_v3", "\\ud800a_card_v"),
    ):  # a lone surrogate, which a full read mends
        assert _in_base64(chara, ccv3) is None


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["spec", "spec_version", "data", "name", "x"]), _values, max_size=5),
    _values,
    _values,
)
def test_the_blocks_give_what_parsing_the_chunk_gives(first, spec, version):
    second = dict(first, spec=spec, spec_version=version)
    chara, ccv3 = (json.dumps(doc, ensure_ascii=False, separators=(",", ":")) for doc in (second, first))
    built = _in_base64(chara, ccv3)
    assert built is None or built == json.loads(chara)


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["spec", "spec_version", "data", "name", "x"]), _values, max_size=5),
    st.sampled_from([None, 0, 1, 2]),
    st.sampled_from(["", " ", "\n\t "]),
)
def test_top_level_reads_any_spacing_as_the_decoder_does(document, indent, pad):
    text = pad + json.dumps(document, indent=indent, ensure_ascii=False) + pad
    found, spans = top_level(text, json_decoder())
    assert found == document and list(found) == list(document)
    assert {key: json.loads(text[start:end]) for key, (start, end) in spans.items()} == document
    assert top_level(text + ",", json_decoder()) is None


def test_twins_nested_past_the_limit_are_refused_for_their_depth():
    # json_text checks only the size; the twin reader measures what it parsed.
    import pytest

    from bunzai import limits
    from bunzai.errors import BunzaiError

    deep: object = "x"
    for _ in range(limits.JSON_MAX_DEPTH):
        deep = [deep]
    data = dict(DATA, extensions={"app": deep})
    with pytest.raises(BunzaiError) as caught:
        read_bytes(_texts(_card("chara_card_v2", "2.0", data), _card("chara_card_v3", "3.0", data)), "card.png")
    assert caught.value.code == "too_deep"
