"""Every character capability previews on the real Seraphina card: whole proposed piece, changes, warnings."""

from __future__ import annotations

import copy

import pytest

from corpus_pieces import paths, run, seraphina
from bunzai.errors import BunzaiError

SHA = "a" * 64


def _with_variant(piece: dict) -> dict:
    piece["body"]["variants"] = [
        {
            "id": "winter",
            "name": "Winter",
            "mode": "overlay",
            "inherit": [],
            "overrides": {
                k: None
                for k in (
                    "name",
                    "nickname",
                    "tagline",
                    "description",
                    "personality",
                    "scenario",
                    "first_message",
                    "alternate_greetings",
                    "group_only_greetings",
                    "example_messages",
                    "system_prompt",
                    "post_history_instructions",
                    "creator_notes",
                    "tags",
                    "portrait",
                    "media",
                    "depth_prompt",
                    "links",
                )
            },
        }
    ]
    return piece


def _set(path: str, value):
    def edit(piece: dict) -> None:
        *head, last = path.strip("/").split("/")
        node = piece
        for key in head:
            node = node[key]
        node[last] = value

    return edit


CASES = [
    (
        "character.identity.update",
        {"name": "Sera", "tagline": "Guardian of the glade"},
        [_set("/name", "Sera"), _set("/body/tagline", "Guardian of the glade")],
        ["/body/tagline", "/name"],
        ["'Seraphina' is written out"],
    ),
    (
        "character.prompts.update",
        {"scenario": "A storm.", "depth_prompt": {"text": "Stay gentle.", "depth": 2}},
        [
            _set("/body/scenario", "A storm."),
            _set("/body/depth_prompt/text", "Stay gentle."),
            _set("/body/depth_prompt/depth", 2),
        ],
        ["/body/depth_prompt/depth", "/body/depth_prompt/text", "/body/scenario"],
        [],
    ),
    (
        "character.greetings.update",
        {"alternate": {"add": ["*Seraphina waves.*"]}},
        [_set("/body/alternate_greetings", ["*Seraphina waves.*"])],
        ["/body/alternate_greetings"],
        [],
    ),
    (
        "character.metadata.update",
        {"add_tags": ["fantasy", "healer"], "rating": "sfw", "creator": "me"},
        [_set("/body/tags", ["fantasy", "healer"]), _set("/body/rating", "sfw"), _set("/body/creator", "me")],
        ["/body/creator", "/body/rating", "/body/tags"],
        [],
    ),
    (
        "character.presentation.update",
        {"palette": {"name": "#ff88cc"}, "field_order": ["scenario", "shoe"]},
        [
            _set("/body/presentation/palette", {"name": "#ff88cc"}),
            _set("/body/presentation/field_order", ["scenario", "shoe"]),
        ],
        ["/body/presentation/field_order", "/body/presentation/palette/name"],
        ["shoe"],
    ),
    (
        "character.media.update",
        {"visual": "sprites", "face": "joy"},
        [_set("/body/media/visual", "sprites"), _set("/body/media/face", "joy")],
        ["/body/media/face", "/body/media/visual"],
        ["visual is sprites but no pack is bound", "a default face is named but no pack is bound"],
    ),
    (
        "character.links.update",
        {"world": "eldoria-2", "regex": {"add": ["st-formatting"]}},
        [_set("/body/links/lorebooks", ["eldoria-2", "eldoria"]), _set("/body/links/regex", ["st-formatting"])],
        ["/body/links/lorebooks/0", "/body/links/regex"],  # one world put first; the regex list was empty
        [],
    ),
    (
        "character.variants.manage",
        {"action": "add", "id": "winter", "name": "Winter", "overrides": {"scenario": "Snow."}},
        [
            _set(
                "/body/variants",
                [
                    {
                        "id": "winter",
                        "name": "Winter",
                        "mode": "overlay",
                        "inherit": [],
                        "overrides": {
                            **{
                                k: None
                                for k in (
                                    "name",
                                    "nickname",
                                    "tagline",
                                    "description",
                                    "personality",
                                    "first_message",
                                    "alternate_greetings",
                                    "group_only_greetings",
                                    "example_messages",
                                    "system_prompt",
                                    "post_history_instructions",
                                    "creator_notes",
                                    "tags",
                                    "portrait",
                                    "media",
                                    "depth_prompt",
                                    "links",
                                )
                            },
                            "scenario": "Snow.",
                        },
                    }
                ],
            )
        ],
        ["/body/variants"],
        [],
    ),
    (
        "character.settings.update",
        {"talkativeness": 0.9, "variables": {"mood": "calm"}},
        [_set("/body/settings/talkativeness", 0.9), _set("/body/settings/variables", {"mood": "calm"})],
        ["/body/settings/talkativeness", "/body/settings/variables/mood"],
        [],
    ),
    (
        "character.behavior-scripts.manage",
        {
            "action": "add",
            "scripts": [{"format": "sillytavern.regex", "name": "trim", "payload": {"findRegex": "/x/g"}}],
        },
        [
            _set(
                "/body/behavior_scripts",
                [{"format": "sillytavern.regex", "name": "trim", "payload": {"findRegex": "/x/g"}}],
            )
        ],
        ["/body/behavior_scripts"],
        [],
    ),
]


@pytest.mark.parametrize("cap_id,payload,edits,changed,warned", CASES, ids=[c[0] for c in CASES])
def test_character_capability_previews_on_seraphina(cap_id, payload, edits, changed, warned) -> None:
    piece = seraphina()
    expected = copy.deepcopy(piece)
    for edit in edits:
        edit(expected)
    draft = run(cap_id, piece, payload)
    assert draft["proposed"] == expected
    assert sorted(paths(draft)) == sorted(changed)
    assert len(draft["warnings"]) == len(warned)
    for fragment, warning in zip(warned, draft["warnings"]):
        assert fragment in warning
    assert draft["proposed"]["original"] == piece["original"]


def test_greetings_edit_lists_by_index() -> None:
    piece = seraphina()
    piece["body"]["alternate_greetings"] = ["one", "two", "three"]
    draft = run(
        "character.greetings.update",
        piece,
        {"alternate": {"replace": [{"index": 0, "text": "ONE"}], "remove": [1], "add": ["four"], "at": 1}},
    )
    assert draft["proposed"]["body"]["alternate_greetings"] == ["ONE", "four", "three"]
    with pytest.raises(BunzaiError) as caught:
        run("character.greetings.update", piece, {"alternate": {"remove": [7]}})
    assert "alternate" in caught.value.message and "out of range" in caught.value.message


def test_edits_target_a_named_variant_through_its_overrides() -> None:
    piece = _with_variant(seraphina())
    draft = run("character.greetings.update", piece, {"variant": "winter", "alternate": {"add": ["*Snow falls.*"]}})
    body = draft["proposed"]["body"]
    assert body["alternate_greetings"] == piece["body"]["alternate_greetings"]  # the base card is untouched
    assert body["variants"][0]["overrides"]["alternate_greetings"] == piece["body"]["alternate_greetings"] + [
        "*Snow falls.*"
    ]
    assert paths(draft) == ["/body/variants/0/overrides/alternate_greetings"]
    renamed = run("character.identity.update", piece, {"variant": "winter", "name": "Winter Sera"})
    assert (
        renamed["proposed"]["name"] == "Seraphina"
        and renamed["proposed"]["body"]["variants"][0]["overrides"]["name"] == "Winter Sera"
    )


def test_a_standalone_variant_stops_inheriting_a_field_it_now_sets() -> None:
    piece = _with_variant(seraphina())
    piece["body"]["variants"][0].update(mode="standalone", inherit=["scenario", "description"])
    draft = run("character.prompts.update", piece, {"variant": "winter", "scenario": "Snowed in."})
    variant = draft["proposed"]["body"]["variants"][0]
    assert variant["inherit"] == ["description"] and variant["overrides"]["scenario"] == "Snowed in."


def test_variant_edits_refuse_fields_a_variant_cannot_vary_and_unknown_variants() -> None:
    piece = _with_variant(seraphina())
    with pytest.raises(BunzaiError) as caught:
        run("character.metadata.update", piece, {"variant": "winter", "rating": "nsfw"})
    assert "cannot vary 'rating'" in caught.value.message
    with pytest.raises(BunzaiError) as caught:
        run("character.identity.update", piece, {"variant": "summer", "name": "X"})
    assert "'variant'" in caught.value.message and "summer" in caught.value.message


def test_variants_manage_rename_mode_and_remove() -> None:
    piece = _with_variant(seraphina())
    assert (
        run("character.variants.manage", piece, {"action": "rename", "id": "winter", "name": "Snow"})["proposed"][
            "body"
        ]["variants"][0]["name"]
        == "Snow"
    )
    standalone = run("character.variants.manage", piece, {"action": "mode", "id": "winter", "mode": "standalone"})
    assert standalone["proposed"]["body"]["variants"][0]["mode"] == "standalone" and standalone["warnings"]
    assert (
        run("character.variants.manage", piece, {"action": "remove", "id": "winter"})["proposed"]["body"]["variants"]
        == []
    )


def test_behavior_scripts_overlay_reorder_remove_never_run_payloads() -> None:
    piece = seraphina()
    piece["body"]["behavior_scripts"] = [
        {"format": "risu.trigger", "name": "a", "payload": {"code": "while(true){}"}},
        {"format": "sillytavern.regex", "name": "b", "payload": None},
    ]
    over = run("character.behavior-scripts.manage", piece, {"action": "overlay", "index": 1, "set": {"name": "bee"}})
    assert over["proposed"]["body"]["behavior_scripts"][1] == {
        "format": "sillytavern.regex",
        "name": "bee",
        "payload": None,
    }
    order = run("character.behavior-scripts.manage", piece, {"action": "reorder", "order": [1, 0]})
    assert [s["name"] for s in order["proposed"]["body"]["behavior_scripts"]] == ["b", "a"]
    with pytest.raises(BunzaiError):
        run("character.behavior-scripts.manage", piece, {"action": "reorder", "order": [0]})
    gone = run("character.behavior-scripts.manage", piece, {"action": "remove", "indexes": [0]})
    assert [s["name"] for s in gone["proposed"]["body"]["behavior_scripts"]] == ["b"]
