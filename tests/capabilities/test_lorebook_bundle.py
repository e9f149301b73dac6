"""Every lorebook capability previews on the real Eldoria world: whole proposed piece, changes, warnings."""

from __future__ import annotations

import copy

import pytest

from corpus_pieces import eldoria, paths, run
from bunzai.errors import BunzaiError


def test_settings_update_changes_only_what_is_given() -> None:
    piece = eldoria()
    draft = run("lorebook.settings.update", piece, {"description": "The realm.", "settings": {"scan_depth": 0}})
    expected = copy.deepcopy(piece)
    expected["body"]["description"] = "The realm."
    expected["body"]["settings"]["scan_depth"] = 0
    assert draft["proposed"] == expected
    assert paths(draft) == ["/body/description", "/body/settings/scan_depth"]
    assert len(draft["warnings"]) == 1 and "only constant entries" in draft["warnings"][0]


def test_entries_update_by_uid_with_regex_keys() -> None:
    piece = eldoria()
    draft = run(
        "lorebook.entries.update",
        piece,
        {
            "uid": 1,
            "set": {
                "keys": [{"text": "shadow ?fang", "regex": True, "flags": "i"}],
                "position": "at_depth",
                "depth": 2,
            },
        },
    )
    expected = copy.deepcopy(piece)
    entry = expected["body"]["entries"][1]
    entry.update(keys=[{"text": "shadow ?fang", "regex": True, "flags": "i"}], position="at_depth", depth=2)
    assert draft["proposed"] == expected
    assert set(paths(draft)) <= {"/body/entries/1/keys", "/body/entries/1/position", "/body/entries/1/depth"}
    assert "/body/entries/1/keys" in paths(draft) and draft["warnings"] == []


def test_entries_update_by_index_and_refuses_two_selectors() -> None:
    piece = eldoria()
    draft = run("lorebook.entries.update", piece, {"index": -1, "set": {"content": "Power."}})
    assert draft["proposed"]["body"]["entries"][-1]["content"] == "Power." and paths(draft) == [
        "/body/entries/3/content"
    ]
    with pytest.raises(BunzaiError) as caught:
        run("lorebook.entries.update", piece, {"uid": 0, "index": 0, "set": {}})
    assert "'uid' / 'index'" in caught.value.message


def test_entries_reorder_whole_order_and_display_index() -> None:
    piece = eldoria()
    draft = run("lorebook.entries.reorder", piece, {"order": [3, 2, 1, 0]})
    entries = draft["proposed"]["body"]["entries"]
    assert [e["uid"] for e in entries] == [3, 2, 1, 0] and [e["display_index"] for e in entries] == [0, 1, 2, 3]
    moved = run("lorebook.entries.reorder", piece, {"uid": 3, "to": 0})
    assert [e["uid"] for e in moved["proposed"]["body"]["entries"]] == [3, 0, 1, 2]
    assert "editor order" in draft["warnings"][0]


def test_disabling_every_entry_warns() -> None:
    piece = eldoria()
    draft = run("lorebook.entries.enable", piece, {"all": True, "enabled": False})
    expected = copy.deepcopy(piece)
    for entry in expected["body"]["entries"]:
        entry["enabled"] = False
    assert draft["proposed"] == expected
    assert paths(draft) == [f"/body/entries/{i}/enabled" for i in range(4)]
    assert draft["warnings"] == ["every entry of the book is now disabled: the book inserts nothing"]
    one = run("lorebook.entries.enable", piece, {"uids": [2], "enabled": False})
    assert paths(one) == ["/body/entries/2/enabled"] and one["warnings"] == []


def test_entries_remove_by_uid() -> None:
    piece = eldoria()
    draft = run("lorebook.entries.remove", piece, {"uids": [1, 2]})
    expected = copy.deepcopy(piece)
    expected["body"]["entries"] = [piece["body"]["entries"][0], piece["body"]["entries"][3]]
    assert draft["proposed"] == expected and draft["warnings"] == []
    # the entries kept at both ends are set aside: the two taken out are the rows
    assert draft["changes"] == [
        {"op": "remove", "path": f"/body/entries/{n}", "before": piece["body"]["entries"][n]} for n in (1, 2)
    ]
    with pytest.raises(BunzaiError) as caught:
        run("lorebook.entries.remove", piece, {"uids": [99]})
    assert "uid 99" in caught.value.message


def test_entries_create_gives_next_uids_and_accepts_plain_keys() -> None:
    piece = eldoria()
    draft = run(
        "lorebook.entries.create",
        piece,
        {"entries": [{"title": "river", "keys": ["river", "Silverrun"], "content": "A river."}, {"title": "empty"}]},
    )
    new = draft["proposed"]["body"]["entries"][4:]
    assert [e["uid"] for e in new] == [4, 5]
    assert new[0]["keys"] == [
        {"text": "river", "regex": False, "flags": ""},
        {"text": "Silverrun", "regex": False, "flags": ""},
    ]
    assert draft["proposed"]["body"]["entries"][:4] == piece["body"]["entries"]
    assert len(draft["warnings"]) == 1 and "5 (empty)" in draft["warnings"][0]


def test_entries_duplicate_places_the_copy_after_the_original() -> None:
    piece = eldoria()
    draft = run("lorebook.entries.duplicate", piece, {"uid": 1})
    entries = draft["proposed"]["body"]["entries"]
    source = piece["body"]["entries"][1]
    assert entries[2] == dict(
        source, uid=4, title=f"{source['title']} (copy)", display_index=source["display_index"] + 1
    )
    assert [e["uid"] for e in entries] == [0, 1, 4, 2, 3]
    assert "activate together" in draft["warnings"][0]
