"""Where added and copied prompt blocks land in the prompt orders, on SillyTavern's Default preset.

SillyTavern sends the blocks in `prompt_order`, not in `prompts`, so a block placed in the list
must land beside the same neighbours in every order, and a replaced block must keep its place.
"""

from __future__ import annotations

import pytest

from bundle_support import ST_CHAT_PRESET, corpus_piece, edited, preview, refusal


@pytest.fixture
def preset() -> dict:
    return corpus_piece(ST_CHAT_PRESET, "preset")


def _order(piece: dict, target: str) -> list[str]:
    (order,) = [order for order in piece["body"]["orders"] if order["target"] == target]
    return [item["identifier"] for item in order["items"]]


def _states(piece: dict, target: str) -> dict[str, bool]:
    (order,) = [order for order in piece["body"]["orders"] if order["target"] == target]
    return {item["identifier"]: item["enabled"] for item in order["items"]}


def test_a_block_added_at_the_start_of_the_list_is_first_in_every_order(preset) -> None:
    result = preview("preset.blocks.add", preset, {"blocks": [{"identifier": "tone", "content": "Be kind."}], "at": 0})
    assert [block["identifier"] for block in result.after["body"]["prompts"]][0] == "tone"
    for target in ("global", "100000"):
        assert _order(result.after, target) == ["tone"] + _order(preset, target)


def test_a_block_added_at_an_index_goes_before_the_block_that_follows_it_in_the_list(preset) -> None:
    prompts = [block["identifier"] for block in preset["body"]["prompts"]]
    follower = prompts[3]  # jailbreak in Default: last in both orders, after the chat history
    result = preview("preset.blocks.add", preset, {"blocks": [{"identifier": "tone"}], "at": 3})
    for target in ("global", "100000"):
        listed = _order(preset, target)
        at = listed.index(follower)
        assert _order(result.after, target) == listed[:at] + ["tone"] + listed[at:]


def test_a_block_anchored_on_a_block_an_order_leaves_out_follows_the_list(preset) -> None:
    # the 100000 order without nsfw: the block goes before the next block of the list it lists
    def drop_nsfw(p):
        items = p["body"]["orders"][0]["items"]
        p["body"]["orders"][0]["items"] = [item for item in items if item["identifier"] != "nsfw"]

    start = edited(preset, drop_nsfw)
    prompts = [block["identifier"] for block in preset["body"]["prompts"]]
    listed = _order(start, "100000")
    follower = next(name for name in prompts[prompts.index("nsfw") + 1 :] if name in listed)
    for placement in ({"before": "nsfw"}, {"after": "nsfw"}):
        result = preview("preset.blocks.add", start, {"blocks": [{"identifier": "tone"}], **placement})
        at = listed.index(follower)
        assert _order(result.after, "100000") == listed[:at] + ["tone"] + listed[at:]
        # the global order lists nsfw: the block goes right beside it
        global_order = _order(result.after, "global")
        assert global_order.index("tone") - global_order.index("nsfw") == (1 if "after" in placement else -1)


def test_the_default_placement_still_appends(preset) -> None:
    result = preview("preset.blocks.add", preset, {"blocks": [{"identifier": "tone"}]})
    for target in ("global", "100000"):
        assert _order(result.after, target) == _order(preset, target) + ["tone"]


def _source(preset: dict) -> dict:
    def edit(p):
        p["id"] = "other"
        p["body"]["prompts"][0]["content"] = "Another main prompt."
        p["body"]["orders"][1]["items"][0]["enabled"] = False  # main off in its global order

    return edited(preset, edit)


def test_a_replaced_block_keeps_its_place_in_the_list_orders_and_groups(preset) -> None:
    grouped = preview(
        "preset.groups.add", preset, {"groups": [{"id": "core", "name": "Core", "blocks": ["main", "nsfw"]}]}
    ).after
    result = preview(
        "preset.blocks.copy",
        grouped,
        {"source": "other", "identifiers": ["main"], "on_conflict": "replace", "source_preset": _source(preset)},
    )
    after = result.after["body"]
    assert [block["identifier"] for block in after["prompts"]] == [b["identifier"] for b in preset["body"]["prompts"]]
    assert after["prompts"][0]["content"] == "Another main prompt."
    for target in ("global", "100000"):
        assert _order(result.after, target) == _order(preset, target)
    assert after["groups"][0]["blocks"] == ["main", "nsfw"]
    # the copy is off as it was in the source's global order
    assert _states(result.after, "global")["main"] is False
    assert result.warnings == ["block 'main' replaces this preset's block of that identifier"]


def test_a_replace_outside_the_orders_named_keeps_their_entries(preset) -> None:
    result = preview(
        "preset.blocks.copy",
        preset,
        {
            "source": "other",
            "identifiers": ["main"],
            "on_conflict": "replace",
            "add_to_orders": "none",
            "source_preset": _source(preset),
        },
    )
    for target in ("global", "100000"):
        assert _order(result.after, target) == _order(preset, target)
        assert _states(result.after, target) == _states(preset, target)


def test_a_replace_with_a_placement_moves_the_block_there(preset) -> None:
    result = preview(
        "preset.blocks.copy",
        preset,
        {
            "source": "other",
            "identifiers": ["main"],
            "on_conflict": "replace",
            "after": "jailbreak",
            "source_preset": _source(preset),
        },
    )
    assert _order(result.after, "global")[-1] == "main"
    assert "main" not in _order(result.after, "global")[:-1]


def test_two_new_blocks_with_one_identifier_are_refused_by_name(preset) -> None:
    error = refusal("preset.blocks.add", preset, {"blocks": [{"identifier": "tone"}, {"identifier": "tone"}]})
    assert error.code == "invalid_input" and "'tone'" in error.message
    assert "own identifier" in error.hint


def test_a_made_identifier_does_not_take_one_a_later_block_gives(preset) -> None:
    result = preview("preset.blocks.add", preset, {"blocks": [{"name": "Tone"}, {"identifier": "tone", "name": "T"}]})
    added = [block["identifier"] for block in result.after["body"]["prompts"][-2:]]
    assert added == ["tone-2", "tone"]
    assert result.warnings == ["block 'Tone' was given the identifier 'tone-2'"]


def test_turning_a_block_on_in_an_order_that_leaves_it_out_lists_it(preset) -> None:
    # personaDescription is in the global order only; SillyTavern sends only what an order lists
    listed = _order(preset, "100000")
    result = preview(
        "preset.blocks.enable", preset, {"identifiers": ["personaDescription", "main"], "target": "100000"}
    )
    after = _order(result.after, "100000")
    assert sorted(after) == sorted(listed + ["personaDescription"])
    assert _states(result.after, "100000")["personaDescription"] is True
    assert result.warnings == ["block 'personaDescription' was not in order '100000'; it is listed there now"]
    assert _order(result.after, "global") == _order(preset, "global")


def test_an_unlisted_block_goes_before_its_follower_in_the_list(preset) -> None:
    def drop_nsfw(p):
        p["body"]["orders"][1]["items"] = [i for i in p["body"]["orders"][1]["items"] if i["identifier"] != "nsfw"]

    start = edited(preset, drop_nsfw)
    prompts = [block["identifier"] for block in preset["body"]["prompts"]]
    listed = _order(start, "global")
    follower = next(name for name in prompts[prompts.index("nsfw") + 1 :] if name in listed)
    result = preview("preset.blocks.enable", start, {"identifiers": ["nsfw", "nsfw"], "target": "global"})
    at = listed.index(follower)
    assert _order(result.after, "global") == listed[:at] + ["nsfw"] + listed[at:]


def test_turning_off_in_an_order_that_leaves_the_block_out_changes_nothing(preset) -> None:
    result = preview(
        "preset.blocks.enable", preset, {"identifiers": ["personaDescription"], "target": "100000", "enabled": False}
    )
    assert result.changes == []
    assert result.warnings == ["block 'personaDescription' is in no such prompt order; nothing changed for it"]


def test_renaming_a_marker_warns_that_the_frontend_no_longer_fills_it(preset) -> None:
    # SillyTavern sends the chat history only under the identifier chatHistory
    result = preview("preset.blocks.update", preset, {"identifier": "chatHistory", "new_identifier": "history"})
    assert "history" in _order(result.after, "global")
    assert len(result.warnings) == 1
    assert "'chatHistory' is built into the frontend" in result.warnings[0] and "'history'" in result.warnings[0]


def test_renaming_a_user_block_does_not_warn(preset) -> None:
    added = preview("preset.blocks.add", preset, {"blocks": [{"identifier": "tone"}]}).after
    result = preview("preset.blocks.update", added, {"identifier": "tone", "new_identifier": "voice"})
    assert result.warnings == [] and "voice" in _order(result.after, "global")
