"""Every bundle capability through the real command: `cap run` prints a draft, `apply` stores it, and the
stored piece equals the draft's proposed entity."""

from __future__ import annotations

import base64
import json

import pytest

from bunzai.model.key_order import recorded_in

from bundle_support import PNG_1X1, ST_CHAT_PRESET, ST_QUICK_REPLIES

DATA_URI = "data:image/png;base64," + base64.b64encode(PNG_1X1).decode("ascii")


def _run_and_apply(bunzai, cap_id: str, ref: str | None, payload: dict) -> dict:
    args = ["cap", "run", cap_id] + ([ref] if ref else []) + ["--input", json.dumps(payload)]
    draft = bunzai(*args)
    assert draft.code == 0, draft.stdout
    receipt = bunzai("apply", "--yes", input=draft.stdout).json
    assert receipt["status"] == "applied", receipt
    target = draft.json["target"]
    stored = bunzai("read", f"{target['kind']}/{target['id']}", check=True).json["piece"]
    assert stored == recorded_in(draft.json["proposed"]), cap_id  # the file records its escrow's key order
    return stored


def _chain(bunzai, create: tuple[str, dict], ref: str, steps: list[tuple[str, dict]]) -> None:
    _run_and_apply(bunzai, create[0], None, create[1])
    for cap_id, payload in steps:
        _run_and_apply(bunzai, cap_id, ref, payload)


def test_persona_capabilities_apply(bunzai) -> None:
    _chain(
        bunzai,
        ("studio.persona.create", {"name": "Mira", "description": "I map coasts."}),
        "persona/mira",
        [
            ("persona.identity.update", {"brief": "A mapmaker."}),
            ("persona.profile.update", {"labels": {"age": "34"}}),
            ("persona.injection.update", {"position": "at_depth", "depth": 1}),
            ("persona.presentation.update", {"presentation": {"palette": {"name": "#c0392b"}}}),
        ],
    )


def test_preset_capabilities_apply(bunzai) -> None:
    if not ST_CHAT_PRESET.exists():
        pytest.skip(f"corpus {ST_CHAT_PRESET} is absent")
    imported = bunzai("import", str(ST_CHAT_PRESET), "--id", "st")
    if imported.code != 0:
        pytest.skip(f"the SillyTavern preset does not import yet: {imported.stdout}")
    assert bunzai("apply", "--yes", input=imported.stdout).json["status"] == "applied"
    for cap_id, payload in [
        ("preset.settings.update", {"description": "Mine now."}),
        ("preset.samplers.update", {"temperature": 0.8}),
        (
            "preset.blocks.add",
            {"blocks": [{"identifier": "tone", "name": "Tone", "content": "Gentle."}], "after": "main"},
        ),
        ("preset.blocks.update", {"identifier": "tone", "content": "Warm."}),
        ("preset.blocks.reorder", {"move": "tone", "to": 0}),
        ("preset.blocks.enable", {"identifiers": ["tone"], "enabled": False}),
        ("preset.groups.add", {"groups": [{"id": "style", "name": "Style", "blocks": ["tone"]}]}),
        ("preset.groups.update", {"id": "style", "enabled": False}),
        ("preset.groups.remove", {"ids": ["style"]}),
        ("preset.blocks.remove", {"identifiers": ["tone"]}),
    ]:
        _run_and_apply(bunzai, cap_id, "preset/st", payload)


def test_preset_blocks_copy_applies(bunzai) -> None:
    _run_and_apply(
        bunzai, "studio.preset.create", None, {"name": "A", "prompts": [{"identifier": "tone", "content": "Gentle."}]}
    )
    _run_and_apply(bunzai, "studio.preset.create", None, {"name": "B"})
    _run_and_apply(bunzai, "preset.blocks.copy", "preset/b", {"source": "preset/a", "identifiers": ["tone"]})


def test_regex_capabilities_apply(bunzai) -> None:
    _chain(
        bunzai,
        (
            "studio.regex.create",
            {"name": "Tidy", "rules": [{"id": "r1", "name": "Trim", "pattern": "\\s+$", "placements": ["ai_output"]}]},
        ),
        "regex/tidy",
        [
            ("regex.settings.update", {"description": "Cleans replies."}),
            (
                "regex.rules.add",
                {
                    "rules": [
                        {"id": "r2", "name": "Dash", "pattern": "--", "replacement": "—", "placements": ["ai_output"]}
                    ]
                },
            ),
            ("regex.rules.update", {"rule": "r2", "flags": "g"}),
            ("regex.rules.reorder", {"order": ["r2", "r1"]}),
            ("regex.rules.remove", {"rules": ["r1"]}),
        ],
    )


def test_quickreply_capabilities_apply(bunzai) -> None:
    if not ST_QUICK_REPLIES.exists():
        pytest.skip(f"corpus {ST_QUICK_REPLIES} is absent")
    imported = bunzai("import", str(ST_QUICK_REPLIES), "--id", "qr")
    if imported.code != 0:
        pytest.skip(f"the SillyTavern quick-reply set does not import yet: {imported.stdout}")
    assert bunzai("apply", "--yes", input=imported.stdout).json["status"] == "applied"
    for cap_id, payload in [
        ("quickreply.settings.update", {"settings": {"color": "#336699"}}),
        ("quickreply.items.add", {"items": [{"label": "Roll", "message": "/roll 1d20"}]}),
        ("quickreply.items.update", {"id": 5, "title": "Dice"}),  # the id SillyTavern would give the new reply
        ("quickreply.items.reorder", {"move": 5, "to": 0}),
        ("quickreply.items.remove", {"ids": [1]}),
    ]:
        _run_and_apply(bunzai, cap_id, "quickreply/qr", payload)


def test_pack_capabilities_apply(bunzai) -> None:
    _chain(
        bunzai,
        (
            "studio.pack.create",
            {"name": "Faces", "items": [{"label": "joy", "media": "https://example.com/joy.png"}, {"label": "sad"}]},
        ),
        "pack/faces",
        [
            ("pack.settings.update", {"default_face": "joy"}),
            ("pack.items.update", {"id": "sad", "label": "gloomy"}),
            ("pack.groups.add", {"groups": [{"name": "All", "items": ["joy", "sad"]}]}),
            ("pack.groups.update", {"name": "All", "items": ["joy"]}),
            ("pack.groups.remove", {"names": ["All"]}),
            ("pack.items.remove", {"ids": ["sad"]}),
        ],
    )


def test_pack_items_from_a_data_uri_apply(bunzai) -> None:
    _run_and_apply(
        bunzai, "studio.pack.create", None, {"name": "Faces", "items": [{"label": "joy", "media": DATA_URI}]}
    )


def test_htmldoc_capabilities_apply(bunzai) -> None:
    _chain(
        bunzai,
        ("studio.htmldoc.create", {"name": "Tavern map", "markup": "<div>Bar</div>"}),
        "htmldoc/tavern-map",
        [
            ("htmldoc.document.update", {"markup": "<svg></svg>", "tags": ["map"]}),
        ],
    )


def test_promptbook_capabilities_apply(bunzai) -> None:
    created = bunzai("create", "promptbook", "--input", json.dumps({"name": "Deep"}))
    assert bunzai("apply", "--yes", input=created.stdout).json["status"] == "applied"
    for cap_id, payload in [
        ("promptbook.settings.update", {"description": "Think first."}),
        ("promptbook.phases.add", {"phases": [{"id": "plan", "stage": "private"}, {"id": "muse", "stage": "private"}]}),
        ("promptbook.phases.update", {"id": "plan", "model": "small"}),
        ("promptbook.phases.reorder", {"move": "muse", "to": 0}),
        ("promptbook.together.update", {"group": "think", "phases": ["muse", "plan"]}),
        ("promptbook.cards.update", {"phase": "reply", "cards": ["seraphina"]}),
        ("promptbook.reads.update", {"phase": "reply", "phases": ["plan"]}),
        ("promptbook.together.update", {"group": "think", "action": "dissolve"}),
        ("promptbook.phases.remove", {"ids": ["plan"], "drop_reads": True}),
    ]:
        _run_and_apply(bunzai, cap_id, "promptbook/deep", payload)


def test_promptbook_rule_breaks_are_refused_by_the_command(bunzai) -> None:
    created = bunzai("create", "promptbook", "--input", json.dumps({"name": "Deep"}))
    assert bunzai("apply", "--yes", input=created.stdout).json["status"] == "applied"
    refused = bunzai(
        "cap",
        "run",
        "promptbook.phases.add",
        "promptbook/deep",
        "--input",
        json.dumps({"phases": [{"id": "r2", "stage": "reply"}]}),
    )
    assert refused.code == 1
    assert refused.json["error"]["code"] == "invalid_promptbook"
    assert refused.json["error"]["message"].startswith("reply_phase_count:")


@pytest.mark.parametrize(
    "kind,payload",
    [
        (
            "character",
            {"name": "Ada", "first_message": "Hello.", "book": {"entries": [{"keys": ["engine"], "content": "x"}]}},
        ),
        ("lorebook", {"name": "Ada", "entries": [{"keys": [{"text": "eng(ine)?", "regex": True}], "content": "x"}]}),
        ("preset", {"name": "Ada", "prompts": [{"name": "Main", "content": "x"}], "samplers": {"temperature": 0.9}}),
        ("quickreply", {"name": "Ada", "items": [{"label": "Go", "message": "go"}]}),
    ],
)
def test_create_capabilities_apply(bunzai, kind, payload) -> None:
    _run_and_apply(bunzai, f"studio.{kind}.create", None, payload)
