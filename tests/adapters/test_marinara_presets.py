"""Marinara Engine presets: the corpus export reads, round-trips byte for byte, keeps unknown keys,
and crossings to and from SillyTavern name what they cost and keep portable macros as written."""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from testkit import corpus_path


def no_media(ref):
    raise AssertionError("a preset has no media")


def corpus_preset():
    path = corpus_path("marinara-engine", "default-preset.marinara.json")
    return path.read_bytes()


def read(data: bytes, name: str = "p.marinara.json"):
    adapter, decoded = read_bytes(data, name)
    return adapter, decoded.pieces[0]


def test_every_marinara_corpus_file_imports():
    folder = corpus_path("marinara-engine")
    files = [p for p in folder.iterdir() if p.name != "SOURCES.md"]  # SOURCES.md is the provenance note
    assert files
    for path in files:
        adapter, piece = read(path.read_bytes(), path.name)
        assert adapter.format_id == "marinara.preset"
        assert piece.kind == "preset" and piece.name


def test_the_corpus_preset_reads_its_blocks_groups_order_and_samplers():
    _, piece = read(corpus_preset())
    body = piece.body
    assert body.samplers.temperature == 1 and body.samplers.max_context == 128000 and body.samplers.top_k == 0
    assert body.prompts[0].content == "You are {{role}}!"
    # Marinara's slots read as SillyTavern's markers (SLOT_FOR_ST_MARKER, one table both ways);
    # chat_summary has no SillyTavern marker
    assert [b.identifier for b in body.prompts if b.marker] == [
        "worldInfoBefore",
        "charDescription",
        "personaDescription",
        "chat_summary",
        "dialogueExamples",
        "chatHistory",
    ]
    assert body.groups[0].name == "Lore" and body.groups[0].blocks[0] == "worldInfoBefore"
    assert len(body.orders[0].items) == len(body.prompts)


def test_marinara_slots_cross_to_sillytavern_as_its_markers():
    _, piece = read(corpus_preset())
    crossing = convert_piece(piece, "sillytavern.preset.chat", no_media)
    prompts = {p["identifier"]: p for p in json.loads(crossing.data)["prompts"]}
    for marker in ("worldInfoBefore", "charDescription", "personaDescription", "dialogueExamples", "chatHistory"):
        assert prompts[marker]["marker"] is True
    unknown = [loss.pointer for loss in crossing.losses if loss.code == "preset.marker.unknown"]
    index = [b.identifier for b in piece.body.prompts].index("chat_summary")
    assert unknown == [f"/body/prompts/{index}"]  # chat_summary: SillyTavern has no such marker


def test_a_same_format_round_trip_gives_the_same_bytes():
    raw = corpus_preset()
    _, piece = read(raw)
    crossing = convert_piece(piece, "marinara.preset", no_media)
    assert crossing.data == raw
    assert crossing.losses == []


def test_an_edit_rewrites_only_what_was_edited_and_keeps_nested_strings_as_they_were():
    raw = corpus_preset()
    _, piece = read(raw)
    body = piece.body.model_copy(deep=True)
    body.prompts[0].content = "You are {{role}}, always."
    body.samplers.temperature = 0.7
    edited = piece.model_copy(update={"body": body})
    out = json.loads(convert_piece(edited, "marinara.preset", no_media).data)
    before = json.loads(raw)
    assert out["data"]["sections"][0]["content"] == "You are {{role}}, always."
    assert out["data"]["sections"][1:] == before["data"]["sections"][1:]
    params_before = json.loads(before["data"]["preset"]["parameters"])
    params_after = json.loads(out["data"]["preset"]["parameters"])
    assert params_after == params_before | {"temperature": 0.7}
    assert list(params_after) == list(params_before)  # key order kept
    assert ", " not in out["data"]["preset"]["parameters"]  # compact, as JSON.stringify writes it
    for key in ("sectionOrder", "groupOrder", "defaultChoices", "variableValues", "variableGroups"):
        assert out["data"]["preset"][key] == before["data"]["preset"][key]
    assert out["data"]["choiceBlocks"] == before["data"]["choiceBlocks"]


keys = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=3, max_size=10).map(lambda k: "x_" + k)
values = st.one_of(
    st.integers(-5, 5), st.text(max_size=8), st.booleans(), st.none(), st.lists(st.integers(0, 3), max_size=2)
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    extra=st.dictionaries(
        st.sampled_from(["root", "data", "preset", "section", "group", "choice", "parameters"]),
        st.dictionaries(keys, values, min_size=1, max_size=3),
        min_size=1,
    )
)
def test_unknown_keys_at_every_level_survive_a_same_format_round_trip(extra):
    document = json.loads(corpus_preset())
    places = {
        "root": document,
        "data": document["data"],
        "preset": document["data"]["preset"],
        "section": document["data"]["sections"][2],
        "group": document["data"]["groups"][0],
        "choice": document["data"]["choiceBlocks"][0],
    }
    for where, added in extra.items():
        if where == "parameters":
            params = json.loads(document["data"]["preset"]["parameters"]) | added
            document["data"]["preset"]["parameters"] = json.dumps(params, separators=(",", ":"))
        else:
            places[where].update(added)
    raw = json.dumps(document, indent=2).encode()
    _, piece = read(raw)
    body = piece.body.model_copy(deep=True)
    body.samplers.temperature = 0.5  # forces `parameters` to be re-encoded
    body.prompts[2].name = "Characters (edited)"
    written = json.loads(convert_piece(piece.model_copy(update={"body": body}), "marinara.preset", no_media).data)
    expected = copy.deepcopy(document)
    expected["data"]["sections"][2]["name"] = "Characters (edited)"
    params = json.loads(expected["data"]["preset"]["parameters"]) | {"temperature": 0.5}
    expected["data"]["preset"]["parameters"] = json.dumps(params, separators=(",", ":"))
    assert json.loads(written["data"]["preset"].pop("parameters")) == json.loads(
        expected["data"]["preset"].pop("parameters")
    )
    assert written == expected


def st_default():
    raw = corpus_path("sillytavern", "presets", "openai", "Default.json").read_bytes()
    from bunzai.changes.imports import drafts_from_bytes
    from bunzai.model import parse_piece

    return parse_piece(drafts_from_bytes(raw, "Default.json")[0]["proposed"])


def test_the_sillytavern_default_preset_crosses_to_marinara_with_every_macro_verdict_and_back_as_written():
    # The issue-6 acceptance: exporting the real SillyTavern default chat-completion preset to a
    # Marinara preset translates its prompt contents and lists every verdict in the receipt;
    # exporting it back to SillyTavern gives the same macro text for every portable token.
    piece = st_default()
    out = convert_piece(piece, "marinara.preset", no_media)
    report = out.report()
    verdicts = report["macros"]["verdicts"]
    assert report["macros"]["from"] == "sillytavern" and report["macros"]["to"] == "marinara"
    assert sum(report["macros"]["counts"].values()) == len(verdicts) > 0
    assert not [loss for loss in out.losses if loss.code == "crossing.not_carried"]
    prompt_verdicts = [v for v in verdicts if v["pointer"].startswith("/body/prompts/")]
    assert prompt_verdicts and all(v["verdict"] == "portable" for v in prompt_verdicts)
    _, marinara = read(out.data, out.file_name)
    back = convert_piece(marinara, "sillytavern.preset.chat", no_media)
    assert back.macros is not None and back.macros["from"] == "marinara"
    _, returned = read_bytes(back.data, "Default.json")
    returned = returned.pieces[0]
    by_id = {block.identifier: block for block in returned.body.prompts}
    for verdict in prompt_verdicts:
        index = int(verdict["pointer"].split("/")[3])
        block = piece.body.prompts[index]
        came_back = by_id[block.identifier].content
        assert came_back == block.content
        assert verdict["token"] in came_back


def test_a_crossing_from_sillytavern_names_every_loss_with_a_marinara_code():
    piece = st_default()
    out = convert_piece(piece, "marinara.preset", no_media)
    codes = {loss.code for loss in out.losses}
    assert "crossing.not_carried" not in codes
    assert {
        "marinara.preset.utility_prompt.dropped",
        "marinara.preset.orders.single",
        "marinara.preset.marker.unmapped",
    } <= codes
    document = json.loads(out.data)
    assert document["type"] == "marinara_preset" and document["version"] == 1
    section = document["data"]["sections"][0]
    assert section["enabled"] in ("true", "false") and isinstance(section["injectionDepth"], int)
    assert json.loads(document["data"]["preset"]["sectionOrder"])
    # the same piece written twice gives the same bytes (a preview and its export agree)
    assert convert_piece(piece, "marinara.preset", no_media).data == out.data


def _section_order(document: dict) -> list[tuple[str, str]]:
    rows = {row["id"]: row for row in document["data"]["sections"]}
    return [
        (rows[sid]["identifier"], rows[sid]["enabled"])
        for sid in json.loads(document["data"]["preset"]["sectionOrder"])
    ]


def test_a_block_in_no_order_crosses_switched_off_and_says_so():
    # SillyTavern's Default with personaDescription taken out of its global order (the 100001 list, the one
    # SillyTavern uses; the unused 100000 list never had it), so SillyTavern never sends it.
    piece = st_default()
    assert [order.target for order in piece.body.orders] == ["100000", "global"]
    active = piece.body.orders[1]
    active.items = [item for item in active.items if item.identifier != "personaDescription"]
    out = convert_piece(piece, "marinara.preset", no_media)
    order = _section_order(json.loads(out.data))
    assert order[-1] == ("personaDescription", "false")
    index = next(i for i, b in enumerate(piece.body.prompts) if b.identifier == "personaDescription")
    unordered = {loss.pointer for loss in out.losses if loss.code == "marinara.preset.section.unordered"}
    assert unordered == {f"/body/prompts/{index}", "/body/orders/1/items"}
    # and back in SillyTavern it is still not sent: in the order, switched off
    _, marinara = read(out.data, out.file_name)
    back = read_bytes(convert_piece(marinara, "sillytavern.preset.chat", no_media).data, "Default.json")[1].pieces[0]
    assert [order.target for order in back.body.orders] == ["global"]
    items = {item.identifier: item.enabled for item in back.body.orders[0].items}
    assert items["personaDescription"] is False


def test_a_section_the_file_kept_out_of_its_order_stays_out():
    document = json.loads(corpus_preset())
    order = json.loads(document["data"]["preset"]["sectionOrder"])
    hidden = order.pop()
    document["data"]["preset"]["sectionOrder"] = json.dumps(order, separators=(",", ":"))
    raw = json.dumps(document, indent=2).encode()
    _, piece = read(raw)
    out = convert_piece(piece, "marinara.preset", no_media)
    written = json.loads(out.data)
    assert hidden not in json.loads(written["data"]["preset"]["sectionOrder"])
    assert written["data"]["sections"] == document["data"]["sections"]
    assert out.losses == []


def test_without_an_order_every_block_is_written_as_listed():
    piece = st_default()
    body = piece.body.model_copy(update={"orders": []})
    out = convert_piece(piece.model_copy(update={"body": body}), "marinara.preset", no_media)
    order = _section_order(json.loads(out.data))
    assert [ident for ident, _ in order] == [b.identifier for b in piece.body.prompts]
    assert all(enabled == "true" for _, enabled in order)
    assert not [loss for loss in out.losses if loss.code == "marinara.preset.section.unordered"]


def test_sillytavern_world_info_markers_are_marinara_s_two_world_info_slots():
    # Marinara's MarkerType has world_info_before and world_info_after (marker-expander.ts,
    # expandLorebook); its `lorebook` slot sends both, so neither marker is written as `lorebook`
    st_preset = {
        "prompts": [
            {"identifier": "worldInfoBefore", "name": "Before", "marker": True},
            {"identifier": "worldInfoAfter", "name": "After", "marker": True},
        ],
        "prompt_order": [
            {
                "character_id": 100001,
                "order": [{"identifier": i, "enabled": True} for i in ("worldInfoBefore", "worldInfoAfter")],
            }
        ],
    }
    piece = read_bytes(json.dumps(st_preset).encode(), "St.json", "sillytavern.preset.chat")[1].pieces[0]
    crossing = convert_piece(piece, "marinara.preset", no_media)
    sections = json.loads(crossing.data)["data"]["sections"]
    assert [json.loads(s["markerConfig"])["type"] for s in sections] == ["world_info_before", "world_info_after"]
    assert not [loss for loss in crossing.losses if loss.code == "marinara.preset.marker.unmapped"]
    _, back = read(crossing.data)
    assert [b.identifier for b in back.body.prompts] == ["worldInfoBefore", "worldInfoAfter"]
