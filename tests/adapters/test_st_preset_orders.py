"""SillyTavern chat presets: which `prompt_order` list is the `global` order.

SillyTavern's chat completion uses the list under `character_id` 100001 (openai.js
`promptOrder: {strategy: 'global', dummyId: 100001}`) and ignores 100000. bunzai reads 100001
as `global` and 100000 as the plain order "100000"; a piece read under the old mapping
(100000 as `global`, 100001 as "100001") still exports to the file it came from."""

from __future__ import annotations

import copy
import json

from bunzai.adapters.registry import get_adapter
from bunzai.convert import convert_piece
from bunzai.model.preset import active_order_index, old_sillytavern_mapping, order_index
from testkit import corpus_path

FORMAT = "sillytavern.preset.chat"
PROMPTS = [
    {"identifier": "main", "name": "Main Prompt", "system_prompt": True, "role": "system", "content": "Be {{char}}."},
    {"identifier": "chatHistory", "name": "Chat History", "system_prompt": True, "marker": True},
    {"identifier": "personaDescription", "name": "Persona Description", "system_prompt": True, "marker": True},
]
BOTH = {
    "temperature": 1,
    "openai_max_context": 4095,
    "prompts": PROMPTS,
    "prompt_order": [
        {
            "character_id": 100000,
            "zz_old": 1,
            "order": [{"identifier": "main", "enabled": True}, {"identifier": "chatHistory", "enabled": True}],
        },
        {
            "character_id": 100001,
            "zz_new": [2],
            "order": [
                {"identifier": "main", "enabled": True},
                {"identifier": "personaDescription", "enabled": True, "zz_item": "x"},
                {"identifier": "chatHistory", "enabled": True},
            ],
        },
    ],
}


def no_media(ref):
    raise AssertionError("a preset has no media")


def read(document: dict, name: str = "Test.json"):
    data = json.dumps(document, indent=4).encode()
    return get_adapter(FORMAT).read(data, name, json.loads(data)).pieces[0]


def write(piece) -> tuple[dict, list]:
    crossing = convert_piece(piece, FORMAT, no_media)
    return json.loads(crossing.data), crossing.losses


def as_old_mapping(piece):
    """The piece as bunzai read the same file before: 100000 was `global`, 100001 the order "100001"."""
    old = piece.model_copy(deep=True)
    for order in old.body.orders:
        order.target = {"100000": "global", "global": "100001"}.get(order.target, order.target)
    return old


def test_100001_reads_as_global_and_100000_as_a_plain_order():
    piece = read(BOTH)
    assert [order.target for order in piece.body.orders] == ["100000", "global"]
    active = piece.body.orders[1]
    assert [item.identifier for item in active.items] == ["main", "personaDescription", "chatHistory"]
    assert write(piece)[0] == BOTH


def test_the_id_as_text_is_the_global_order_as_sillytavern_compares_it():
    # PromptManager.getPromptOrderForCharacter compares String(character_id) with "100001"
    for value in ("100001", 100001.0):
        document = copy.deepcopy(BOTH)
        document["prompt_order"][1]["character_id"] = value
        piece = read(document)
        assert [order.target for order in piece.body.orders] == ["100000", "global"]
        assert write(piece)[0] == document


def test_an_id_that_is_no_number_or_text_is_not_the_global_order():
    for value in (None, True, [100001], {"a": 1}, 1.5):
        document = copy.deepcopy(BOTH)
        document["prompt_order"][1]["character_id"] = value
        piece = read(document)
        assert "global" not in [order.target for order in piece.body.orders]
        assert write(piece)[0] == document
    document = copy.deepcopy(BOTH)
    del document["prompt_order"][1]["character_id"]
    piece = read(document)
    assert [order.target for order in piece.body.orders] == ["100000", ""]
    assert write(piece)[0] == document


def test_a_new_global_order_is_written_as_100001_and_the_order_100000_as_100000():
    piece = read(BOTH).model_copy(update={"original": None})  # as a piece from another format or made in bunzai
    written, _ = write(piece)
    assert [order["character_id"] for order in written["prompt_order"]] == [100000, 100001]
    assert written["prompt_order"][1]["order"][1] == {"identifier": "personaDescription", "enabled": True}


def test_an_edit_of_the_global_order_lands_in_the_100001_list():
    piece = read(BOTH)
    piece.body.orders[1].items[1].enabled = False
    written, _ = write(piece)
    expected = copy.deepcopy(BOTH)
    expected["prompt_order"][1]["order"][1]["enabled"] = False
    assert written == expected


def test_two_lists_of_one_id_keep_their_own_keys():
    document = copy.deepcopy(BOTH)
    twin = copy.deepcopy(document["prompt_order"][1])
    twin.update(zz_new="second", order=[{"identifier": "main", "enabled": False}])
    document["prompt_order"].append(twin)
    piece = read(document)
    assert [order.target for order in piece.body.orders] == ["100000", "global", "global"]
    assert write(piece)[0] == document


def test_a_piece_read_under_the_old_mapping_exports_to_the_same_file():
    piece = as_old_mapping(read(BOTH))
    assert [order.target for order in piece.body.orders] == ["global", "100001"]
    assert write(piece)[0] == BOTH
    # an edit of its "100001" order (the one SillyTavern uses) lands in the 100001 list
    piece.body.orders[1].items[0].enabled = False
    written, _ = write(piece)
    expected = copy.deepcopy(BOTH)
    expected["prompt_order"][1]["order"][0]["enabled"] = False
    assert written == expected
    # and without its escrow, `global` is still written as 100000 beside 100001
    fresh, _ = write(piece.model_copy(update={"original": None}))
    assert [order["character_id"] for order in fresh["prompt_order"]] == [100000, 100001]


def test_the_corpus_default_preset_under_the_old_mapping_exports_to_the_same_file():
    path = corpus_path("sillytavern", "presets", "openai", "Default.json")
    document = json.loads(path.read_bytes())
    piece = read(document, "Default.json")
    assert [order.target for order in piece.body.orders] == ["100000", "global"]
    assert write(piece)[0] == document
    assert write(as_old_mapping(piece))[0] == document


def test_a_file_with_only_the_100000_list_keeps_it():
    document = copy.deepcopy(BOTH)
    del document["prompt_order"][1]
    piece = read(document)
    assert [order.target for order in piece.body.orders] == ["100000"]
    assert write(piece)[0] == document


def test_the_active_order_is_global_unless_the_old_mapping_names_100001():
    assert active_order_index(["100000", "global"]) == 1
    assert active_order_index(["global", "100001"]) == 1  # the old mapping: `global` is the unused 100000 list
    assert active_order_index(["100000"]) is None and active_order_index([]) is None
    assert old_sillytavern_mapping(["global", "100001"]) and not old_sillytavern_mapping(["100000", "global"])
    assert order_index(["global", "100001"], "global") == 1 and order_index(["100000", "global"], "100000") == 0
    assert order_index(["global"], "42") is None
