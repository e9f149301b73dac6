"""Pack capabilities on Seraphina's sprites: settings, default face, items from data: URIs, URLs or assets, groups."""

from __future__ import annotations

import base64
import hashlib

import pytest

from bundle_support import PNG_1X1, SERAPHINA_SPRITES, corpus_piece, edited, preview, refusal

DATA_URI = "data:image/png;base64," + base64.b64encode(PNG_1X1).decode("ascii")
PNG_SHA = hashlib.sha256(PNG_1X1).hexdigest()


@pytest.fixture
def pack() -> dict:
    return corpus_piece(SERAPHINA_SPRITES, "pack")


def test_settings_update_chooses_the_default_face(pack) -> None:
    result = preview("pack.settings.update", pack, {"default_face": "joy", "description": "Seraphina's faces"})
    assert result.changes == [
        {"op": "replace", "path": "/body/default_face", "before": "neutral", "after": "joy"},
        {"op": "replace", "path": "/body/description", "before": "", "after": "Seraphina's faces"},
    ]
    assert "no item has the label 'angry'" in refusal("pack.settings.update", pack, {"default_face": "angry"}).message


def test_items_add_from_a_data_uri_carries_the_bytes_as_an_attachment(pack) -> None:
    result = preview("pack.items.add", pack, {"items": [{"label": "surprise", "media": DATA_URI}], "before": "neutral"})
    item = {
        "id": "surprise",
        "label": "surprise",
        "asset": {"sha256": PNG_SHA, "ext": "png", "mime": "image/png"},
        "mime": "image/png",
    }
    assert result.after == edited(pack, lambda p: p["body"]["items"].insert(1, item))
    assert [c["path"] for c in result.changes] == ["/body/items/1"]  # put in before "neutral"
    assert result.attachments == {PNG_SHA: {"ext": "png", "mime": "image/png", "base64": DATA_URI.split(",", 1)[1]}}
    assert result.warnings == []


def test_items_add_from_a_url_keeps_a_link_and_warns(pack) -> None:
    result = preview(
        "pack.items.add", pack, {"items": [{"id": "joy-2", "label": "joy", "media": "https://example.com/s/joy.webp"}]}
    )
    assert result.after["body"]["items"][-1] == {"id": "joy-2", "label": "joy", "asset": None, "mime": "image/webp"}
    assert result.after["assets"] == [
        {"role": "emotion", "name": "joy-2", "ext": "webp", "asset": None, "uri": "https://example.com/s/joy.webp"}
    ]
    assert [c["path"] for c in result.changes] == ["/assets", "/body/items/2"] and result.attachments == {}
    assert result.warnings == [
        "item 'joy-2': the URL is kept as a link and not downloaded; the image is not stored in the studio"
    ]


def test_items_add_from_a_stored_asset(pack) -> None:
    ref = pack["body"]["items"][0]["asset"]
    result = preview("pack.items.add", pack, {"items": [{"label": "glad", "media": ref}]})
    assert result.after["body"]["items"][-1] == {"id": "glad", "label": "glad", "asset": ref, "mime": "image/png"}
    assert result.attachments == {} and result.warnings == []


@pytest.mark.parametrize(
    "media,problem",
    [
        ("data:text/html;base64,PGI+", "not a media type"),
        ("data:image/png;base64,@@@", "not valid base64"),
        ("ftp://example.com/a.png", "is not a media reference"),
        ("data:image/png,raw", "must be base64"),
    ],
)
def test_items_refuse_media_that_is_not_an_image_ref(pack, media, problem) -> None:
    assert problem in refusal("pack.items.add", pack, {"items": [{"label": "x", "media": media}]}).message


def test_items_add_warns_when_bytes_are_not_what_the_uri_declares(pack) -> None:
    uri = "data:image/png;base64," + base64.b64encode(b"GIF89a....").decode()
    assert preview("pack.items.add", pack, {"items": [{"label": "x", "media": uri}]}).warnings == [
        "item 'x': the bytes do not look like image/png, which the data: URI declares (they look like image/gif)"
    ]


def test_items_update_relabels_and_the_default_face_follows(pack) -> None:
    result = preview("pack.items.update", pack, {"id": "neutral", "label": "calm", "new_id": "calm"})
    assert result.changes == [
        {"op": "replace", "path": "/body/default_face", "before": "neutral", "after": "calm"},
        {"op": "replace", "path": "/body/items/1/id", "before": "neutral", "after": "calm"},
        {"op": "replace", "path": "/body/items/1/label", "before": "neutral", "after": "calm"},
    ]
    assert result.warnings == ["the default face follows the label: 'neutral' -> 'calm'"]


def test_items_remove_clears_groups_and_an_orphaned_default_face(pack) -> None:
    start = edited(pack, lambda p: p["body"]["groups"].append({"name": "Day", "items": ["joy", "neutral"]}))
    result = preview("pack.items.remove", start, {"ids": ["neutral"]})
    assert result.after == edited(
        start,
        lambda p: (
            p["body"].update(default_face="", items=p["body"]["items"][:1]),
            p["body"]["groups"][0].update(items=["joy"]),
        ),
    )
    assert result.warnings == ["no item is labelled 'neutral' any more; the pack has no default face now"]


def test_groups_add_update_remove(pack) -> None:
    added = preview("pack.groups.add", pack, {"groups": [{"name": "Smiles", "items": ["joy"]}]})
    assert added.changes == [
        {"op": "replace", "path": "/body/groups", "before": [], "after": [{"name": "Smiles", "items": ["joy"]}]}
    ]
    updated = preview(
        "pack.groups.update", added.after, {"name": "Smiles", "new_name": "Moods", "items": ["joy", "neutral"]}
    )
    assert updated.after["body"]["groups"] == [{"name": "Moods", "items": ["joy", "neutral"]}]
    assert refusal("pack.groups.update", added.after, {"name": "Smiles", "items": ["ghost"]}).code == "invalid_input"
    assert preview("pack.groups.remove", updated.after, {"names": ["Moods"]}).after == pack
