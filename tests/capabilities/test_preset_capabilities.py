"""Preset capabilities on SillyTavern's Default chat-completion preset: settings, samplers, blocks, groups, copy."""

from __future__ import annotations

import pytest

from bundle_support import ST_CHAT_PRESET, ST_TEXTGEN_PRESET, corpus_piece, edited, preview, refusal


@pytest.fixture
def preset() -> dict:
    return corpus_piece(ST_CHAT_PRESET, "preset")


def _order(piece: dict, target: str) -> list[str]:
    return [
        item["identifier"] for order in piece["body"]["orders"] if order["target"] == target for item in order["items"]
    ]


def test_settings_update_changes_only_the_fields_given(preset) -> None:
    result = preview(
        "preset.settings.update",
        preset,
        {
            "name": "Storyteller",
            "model": "gpt-4o",
            "utility_prompts": {"new_chat": "[Begin]", "continue_nudge": None},
            "media": {"image_inlining": True},
            "templates": {"sequences": {"prefix": "<think>"}},
        },
    )

    def edit(p):
        p["name"] = "Storyteller"
        p["body"]["model"] = "gpt-4o"
        p["body"]["utility_prompts"]["new_chat"] = "[Begin]"
        del p["body"]["utility_prompts"]["continue_nudge"]
        p["body"]["media"]["image_inlining"] = True
        p["body"]["templates"]["sequences"] = {"prefix": "<think>"}

    assert result.after == edited(preset, edit)
    assert {c["path"] for c in result.changes} == {
        "/name",
        "/body/model",
        "/body/utility_prompts/new_chat",
        "/body/utility_prompts/continue_nudge",
        "/body/media/image_inlining",
        "/body/templates/sequences/prefix",
    }
    assert result.warnings == []


def test_settings_update_warns_when_the_family_changes(preset) -> None:
    result = preview("preset.settings.update", preset, {"family": "text_completion"})
    assert result.changes == [
        {"op": "replace", "path": "/body/family", "before": "chat_completion", "after": "text_completion"}
    ]
    assert result.warnings == [
        "the family changes from chat_completion to text_completion: exports now write the new family's format"
    ]


def test_samplers_update_sets_and_unsets_samplers(preset) -> None:
    result = preview(
        "preset.samplers.update", preset, {"temperature": 0.7, "top_p": None, "extra": {"n": None, "mirostat_tau": 5}}
    )
    assert result.changes == [
        {"op": "add", "path": "/body/samplers/extra/mirostat_tau", "after": 5},
        {"op": "remove", "path": "/body/samplers/extra/n", "before": 1},
        {"op": "replace", "path": "/body/samplers/temperature", "before": 1.0, "after": 0.7},
        {"op": "replace", "path": "/body/samplers/top_p", "before": 1.0, "after": None},
    ]
    assert result.warnings == []


def test_samplers_update_on_a_text_completion_preset() -> None:
    piece = corpus_piece(ST_TEXTGEN_PRESET, "preset")
    result = preview("preset.samplers.update", piece, {"min_p": 0.05})
    assert result.after == edited(piece, lambda p: p["body"]["samplers"].update(min_p=0.05))
    assert [c["path"] for c in result.changes] == ["/body/samplers/min_p"]


def test_samplers_update_with_nothing_given_warns(preset) -> None:
    result = preview("preset.samplers.update", preset, {})
    assert result.changes == [] and result.warnings == ["no sampler field was given; nothing changes"]


def test_blocks_add_places_the_block_in_the_list_and_every_order(preset) -> None:
    result = preview(
        "preset.blocks.add", preset, {"blocks": [{"name": "Style Guide", "content": "Write vividly."}], "after": "main"}
    )
    block = {
        "identifier": "style-guide",
        "name": "Style Guide",
        "role": "system",
        "content": "Write vividly.",
        "enabled": True,
        "marker": False,
        "system_prompt": False,
        "position": "relative",
        "depth": 4,
        "injection_order": 100,
        "triggers": [],
        "forbid_overrides": False,
    }

    def edit(p):
        p["body"]["prompts"].insert(1, block)
        for order in p["body"]["orders"]:
            order["items"].insert(1, {"identifier": "style-guide", "enabled": True})

    assert result.after == edited(preset, edit)
    # one block put in at place 1 of the list and of each order
    assert [c["path"] for c in result.changes] == [
        "/body/orders/0/items/1",
        "/body/orders/1/items/1",
        "/body/prompts/1",
    ]
    assert result.warnings == ["block 'Style Guide' was given the identifier 'style-guide'"]


def test_blocks_add_refuses_an_identifier_in_use(preset) -> None:
    error = refusal("preset.blocks.add", preset, {"blocks": [{"identifier": "main", "name": "Again"}]})
    assert error.code == "invalid_input" and "'main'" in error.message


def test_blocks_update_edits_and_renames_a_block_everywhere(preset) -> None:
    result = preview(
        "preset.blocks.update",
        preset,
        {"identifier": "jailbreak", "content": "Stay in character.", "new_identifier": "post"},
    )

    def edit(p):
        for block in p["body"]["prompts"]:
            if block["identifier"] == "jailbreak":
                block.update(content="Stay in character.", identifier="post")
        for order in p["body"]["orders"]:
            for item in order["items"]:
                if item["identifier"] == "jailbreak":
                    item["identifier"] = "post"

    assert result.after == edited(preset, edit)
    assert sorted(c["path"] for c in result.changes) == [
        "/body/orders/0/items/10/identifier",
        "/body/orders/1/items/11/identifier",
        "/body/prompts/3/content",
        "/body/prompts/3/identifier",
    ]
    # jailbreak is a built-in block: SillyTavern knows it (and a card's override of it) by that identifier
    assert result.warnings == [
        "block 'jailbreak' is built into the frontend, which finds it by that identifier: under 'post' "
        "it is no longer filled or placed as 'jailbreak' was, and the frontend may add a default 'jailbreak' back"
    ]


def test_blocks_update_warns_about_content_on_a_marker(preset) -> None:
    result = preview("preset.blocks.update", preset, {"identifier": "chatHistory", "content": "ignored"})
    assert result.warnings == ["block 'chatHistory' is a marker: the frontend fills it and ignores its content"]


def test_blocks_remove_takes_the_block_out_of_orders_and_groups(preset) -> None:
    start = edited(
        preset,
        lambda p: p["body"]["groups"].append({"id": "g", "name": "G", "blocks": ["nsfw", "main"], "enabled": True}),
    )
    result = preview("preset.blocks.remove", start, {"identifiers": ["nsfw"]})

    def edit(p):
        p["body"]["prompts"] = [b for b in p["body"]["prompts"] if b["identifier"] != "nsfw"]
        for order in p["body"]["orders"]:
            order["items"] = [i for i in order["items"] if i["identifier"] != "nsfw"]
        p["body"]["groups"][0]["blocks"] = ["main"]

    assert result.after == edited(start, edit)
    assert result.warnings == ["block 'nsfw' is built into the frontend, which may add it back"]


def test_blocks_reorder_moves_a_block_in_one_order(preset) -> None:
    # the corpus Default.json: orders 100000 (unused by SillyTavern) then global (character_id 100001)
    assert [order["target"] for order in preset["body"]["orders"]] == ["100000", "global"]
    result = preview("preset.blocks.reorder", preset, {"move": "jailbreak", "before": "main"})
    assert _order(result.after, "global") == ["jailbreak"] + [i for i in _order(preset, "global") if i != "jailbreak"]
    assert _order(result.after, "100000") == _order(preset, "100000")
    assert result.after["body"]["prompts"] == preset["body"]["prompts"]
    assert all(c["path"].startswith("/body/orders/1/items/") for c in result.changes) and result.warnings == []


def test_global_names_the_order_sillytavern_uses_in_a_piece_read_under_the_old_mapping(preset) -> None:
    # bunzai used to read 100000 as `global` and 100001 as "100001": there "100001" is the active order
    old = edited(preset, lambda p: [o.update(target=t) for o, t in zip(p["body"]["orders"], ("global", "100001"))])
    result = preview("preset.blocks.reorder", old, {"move": "jailbreak", "before": "main"})
    assert _order(result.after, "100001") == ["jailbreak"] + [i for i in _order(old, "100001") if i != "jailbreak"]
    assert _order(result.after, "global") == _order(old, "global")
    result = preview("preset.blocks.enable", old, {"identifiers": ["main"], "enabled": False, "target": "global"})
    assert [c["path"] for c in result.changes] == ["/body/orders/1/items/0/enabled"]


def test_blocks_reorder_refuses_an_incomplete_order(preset) -> None:
    error = refusal("preset.blocks.reorder", preset, {"order": ["main"]})
    assert error.code == "invalid_input" and "missing" in error.message


def test_blocks_enable_switches_the_block_in_every_order(preset) -> None:
    result = preview("preset.blocks.enable", preset, {"identifiers": ["enhanceDefinitions"]})
    assert result.changes == [
        {"op": "replace", "path": "/body/orders/0/items/5/enabled", "before": False, "after": True},
        {"op": "replace", "path": "/body/orders/1/items/6/enabled", "before": False, "after": True},
    ]
    assert result.warnings == []


def test_blocks_enable_in_one_order_only(preset) -> None:
    result = preview("preset.blocks.enable", preset, {"identifiers": ["main"], "enabled": False, "target": "100000"})
    assert result.changes == [
        {"op": "replace", "path": "/body/orders/0/items/0/enabled", "before": True, "after": False}
    ]
    result = preview("preset.blocks.enable", preset, {"identifiers": ["main"], "enabled": False, "target": "global"})
    assert result.changes == [
        {"op": "replace", "path": "/body/orders/1/items/0/enabled", "before": True, "after": False}
    ]


def test_blocks_copy_takes_blocks_from_another_preset(preset) -> None:
    source = edited(preset, lambda p: p.update(id="other"))
    source["body"]["prompts"].append({"identifier": "tone", "name": "Tone", "content": "Be gentle.", "enabled": True})
    source["body"]["orders"][1]["items"].append({"identifier": "tone", "enabled": False})  # its global order
    result = preview(
        "preset.blocks.copy",
        preset,
        {
            "source": "preset/other",
            "identifiers": ["tone", "main"],
            "on_conflict": "rename",
            "add_to_orders": "global",
            "source_preset": source,
        },
    )
    new = [b for b in result.after["body"]["prompts"] if b["identifier"] in ("tone", "main-2")]
    assert [(b["identifier"], b["content"]) for b in new] == [
        ("tone", "Be gentle."),
        ("main-2", preset["body"]["prompts"][0]["content"]),
    ]
    # the copies keep the on/off state they had in the source's global order, and join only the global order
    assert result.after["body"]["orders"][1]["items"][-2:] == [
        {"identifier": "tone", "enabled": False},
        {"identifier": "main-2", "enabled": True},
    ]
    assert _order(result.after, "100000") == _order(preset, "100000")
    # two blocks added at the end of the block list and of the global order
    assert [c["path"] for c in result.changes] == [
        "/body/orders/1/items/12",
        "/body/orders/1/items/13",
        "/body/prompts/12",
        "/body/prompts/13",
    ]
    assert result.warnings == ["block 'main' was copied as 'main-2'"]


def test_blocks_copy_refuses_a_clash_by_default_and_needs_the_source(preset) -> None:
    assert (
        "already has a block 'main'"
        in refusal(
            "preset.blocks.copy", preset, {"source": "other", "identifiers": ["main"], "source_preset": preset}
        ).message
    )
    assert refusal("preset.blocks.copy", preset, {"source": "other", "identifiers": ["main"]}).hint.startswith(
        "run this through"
    )


def test_blocks_copy_declares_the_source_it_needs() -> None:
    from bunzai.capabilities.contract import Need
    from bunzai.capabilities.discovery import find_capability

    cap = find_capability("preset.blocks.copy")
    assert cap.needs == (Need(ref="source", kind="preset", into="source_preset"),)
    assert cap.describe()["needs"] == [{"ref": "source", "kind": "preset", "into": "source_preset"}]


def test_groups_add_update_remove(preset) -> None:
    added = preview("preset.groups.add", preset, {"groups": [{"name": "Core", "blocks": ["main", "nsfw"]}]})
    group = {"id": "core", "name": "Core", "blocks": ["main", "nsfw"], "enabled": True}
    assert added.changes == [{"op": "replace", "path": "/body/groups", "before": [], "after": [group]}]
    assert added.warnings == ["group 'Core' was given the id 'core'"]
    updated = preview("preset.groups.update", added.after, {"id": "core", "enabled": False, "blocks": ["main"]})
    assert updated.changes == [
        {"op": "remove", "path": "/body/groups/0/blocks/1", "before": "nsfw"},
        {"op": "replace", "path": "/body/groups/0/enabled", "before": True, "after": False},
    ]
    removed = preview("preset.groups.remove", updated.after, {"ids": ["core"]})
    assert removed.after == preset


def test_groups_refuse_unknown_blocks(preset) -> None:
    error = refusal("preset.groups.add", preset, {"groups": [{"name": "X", "blocks": ["nope"]}]})
    assert error.code == "invalid_input" and "'nope'" in error.message


def test_renaming_a_block_keeps_a_later_prompt_with_its_old_identifier_and_says_so() -> None:
    # SillyTavern keeps every prompt in `prompts` and reads the first with an identifier, so a later
    # `main` that Default never reached is the `main` prompt once the first is renamed: it stays in
    # the exported file (as it would in SillyTavern's own list), and the export names that.
    import json

    from bunzai.changes.imports import drafts_from_bytes
    from bunzai.convert import convert_piece
    from bunzai.model import parse_piece

    if not ST_CHAT_PRESET.exists():
        pytest.skip(f"corpus {ST_CHAT_PRESET} is absent (../shared/corpus is not beside this checkout)")
    document = json.loads(ST_CHAT_PRESET.read_bytes())
    document["prompts"].append({"identifier": "main", "name": "Second", "role": "system", "content": "SECOND MAIN"})
    drafts = drafts_from_bytes(json.dumps(document, indent=4).encode(), "DupId.json")
    piece = next(d["proposed"] for d in drafts if d["target"]["kind"] == "preset")
    result = preview("preset.blocks.update", piece, {"identifier": "main", "new_identifier": "intro"})
    crossing = convert_piece(parse_piece(result.after), "sillytavern.preset.chat", lambda ref: b"")
    written = json.loads(crossing.data)
    assert [p["content"] for p in written["prompts"] if p["identifier"] == "main"] == ["SECOND MAIN"]
    assert "intro" in [p["identifier"] for p in written["prompts"]]
    assert "preset.prompts.revealed" in {loss.code for loss in crossing.losses}
