"""Quick-reply capabilities on SillyTavern's Default set: settings and items (messages stored, never run)."""

from __future__ import annotations

import pytest

from bundle_support import ST_QUICK_REPLIES, corpus_piece, edited, preview, refusal


@pytest.fixture
def qr() -> dict:
    return corpus_piece(ST_QUICK_REPLIES, "quickreply")


def _item(item_id: int, **fields) -> dict:
    return {
        "id": item_id,
        "label": "",
        "icon": "",
        "show_label": False,
        "title": "",
        "message": "",
        "hidden": False,
        "auto_execute": [],
        "prevent_auto_execute": True,
        "context_list": [],
        "automation_id": "",
    } | fields


def test_settings_update(qr) -> None:
    result = preview(
        "quickreply.settings.update", qr, {"name": "Tools", "settings": {"color": "#336699", "disable_send": True}}
    )
    assert result.changes == [
        {"op": "replace", "path": "/body/settings/color", "before": "", "after": "#336699"},
        {"op": "replace", "path": "/body/settings/disable_send", "before": False, "after": True},
        {"op": "replace", "path": "/name", "before": "Default", "after": "Tools"},
    ]
    assert result.warnings == []


def test_items_add_takes_the_id_sillytavern_would_give(qr) -> None:
    # the v1 set migrates to ids 1..3 and idIndex 0; addQuickReply gives `Math.max(0, 1, 2, 3) + 1 + 1`
    result = preview("quickreply.items.add", qr, {"items": [{"label": "Roll", "message": "/roll 1d20"}], "after": 1})
    assert result.after == edited(
        qr, lambda p: p["body"]["items"].insert(1, _item(5, label="Roll", message="/roll 1d20"))
    )
    assert [c["path"] for c in result.changes] == ["/body/items/1"] and result.warnings == []


def test_items_add_warns_about_self_running_scripts_and_blank_buttons(qr) -> None:
    result = preview("quickreply.items.add", qr, {"items": [{"message": "/echo hi", "auto_execute": ["startup"]}]})
    assert result.warnings == [
        "quick reply 5 (no label) has neither label nor icon, so its button is blank",
        "quick reply 5 (no label) runs STscript by itself on startup; bunzai stores it and never runs it",
    ]


def test_items_update_and_remove(qr) -> None:
    updated = preview(
        "quickreply.items.update", qr, {"id": 2, "label": "Fresh chat", "title": "Start over", "new_id": 9}
    )
    assert updated.changes == [
        {"op": "replace", "path": "/body/items/1/id", "before": 2, "after": 9},
        {"op": "replace", "path": "/body/items/1/label", "before": "New Chat", "after": "Fresh chat"},
        {"op": "replace", "path": "/body/items/1/title", "before": "", "after": "Start over"},
    ]
    removed = preview("quickreply.items.remove", qr, {"ids": [1, 3]})
    assert removed.after == edited(qr, lambda p: p["body"].update(items=[p["body"]["items"][1]]))
    assert refusal("quickreply.items.remove", qr, {"ids": [7]}).code == "invalid_input"


def test_items_reorder(qr) -> None:
    result = preview("quickreply.items.reorder", qr, {"order": [3, 1, 2]})
    assert [i["id"] for i in result.after["body"]["items"]] == [3, 1, 2]
    assert refusal("quickreply.items.reorder", qr, {"order": [3, 1]}).code == "invalid_input"
