"""preset.settings.update refuses a blank name; preset.groups.add/update refuse a block listed
twice in one group and warn of a block two groups share (Marinara, the one platform with
groups, files a section under one group; SillyTavern has none)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from bunzai.capabilities.discovery import find_capability
from bunzai.capabilities.runner import run_capability
from bunzai.changes.create import create_draft
from bunzai.errors import BunzaiError

BLOCKS = ("main", "lore", "style", "jail")


def _preset(groups: list[dict] = ()) -> dict:
    prompts = [{"identifier": name, "name": name.title()} for name in BLOCKS]
    return create_draft("preset", {"name": "Story", "prompts": prompts, "groups": list(groups)})["proposed"]


def _run(cap_id: str, piece: dict, raw: dict) -> dict:
    return run_capability(find_capability(cap_id), piece, raw, baseline="r0")


def _refused(cap_id: str, piece: dict, raw: dict) -> BunzaiError:
    with pytest.raises(BunzaiError) as caught:
        _run(cap_id, piece, raw)
    return caught.value


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
def test_a_blank_preset_name_is_refused_with_a_hint(blank) -> None:
    error = _refused("preset.settings.update", _preset(), {"name": blank})
    assert error.code == "invalid_input" and "'name'" in error.message and error.hint


def test_a_preset_name_with_letters_is_taken() -> None:
    draft = _run("preset.settings.update", _preset(), {"name": " Saga "})
    assert draft["proposed"]["name"] == " Saga "


def test_a_block_twice_in_a_new_group_is_refused() -> None:
    error = _refused(
        "preset.groups.add", _preset(), {"groups": [{"id": "core", "name": "Core", "blocks": ["main", "lore", "main"]}]}
    )
    assert error.code == "invalid_input" and "'main'" in error.message and "core" in error.message and error.hint


def test_a_block_twice_in_an_updated_group_is_refused() -> None:
    piece = _preset([{"id": "core", "blocks": ["main"]}])
    error = _refused("preset.groups.update", piece, {"id": "core", "blocks": ["lore", "lore"]})
    assert error.code == "invalid_input" and "'lore'" in error.message


def test_a_block_in_two_groups_is_kept_and_warned_of() -> None:
    piece = _preset([{"id": "core", "blocks": ["main", "lore"]}])
    draft = _run(
        "preset.groups.add", piece, {"groups": [{"id": "extra", "name": "Extra", "blocks": ["lore", "style"]}]}
    )
    assert draft["proposed"]["body"]["groups"][1]["blocks"] == ["lore", "style"]
    (warning,) = [w for w in draft["warnings"] if "shares" in w]
    assert "'lore'" in warning and "'core'" in warning and "'style'" not in warning


def test_updating_a_group_warns_of_blocks_another_group_holds_but_not_of_its_own() -> None:
    piece = _preset([{"id": "core", "blocks": ["main", "lore"]}, {"id": "extra", "blocks": ["style"]}])
    own = _run("preset.groups.update", piece, {"id": "core", "blocks": ["lore", "main", "jail"]})
    assert [w for w in own["warnings"] if "shares" in w] == []
    shared = _run("preset.groups.update", piece, {"id": "core", "new_id": "base", "blocks": ["main", "style"]})
    (warning,) = [w for w in shared["warnings"] if "shares" in w]
    assert "'base'" in warning and "'style'" in warning and "'extra'" in warning


@settings(max_examples=60, deadline=None)
@given(
    existing=st.lists(st.lists(st.sampled_from(BLOCKS), unique=True), max_size=3),
    new=st.lists(st.sampled_from(BLOCKS), max_size=6),
)
def test_add_refuses_exactly_repeats_and_warns_exactly_of_shared_blocks(existing, new) -> None:
    piece = _preset([{"id": f"g{i}", "blocks": blocks} for i, blocks in enumerate(existing)])
    raw = {"groups": [{"id": "new", "name": "New", "blocks": new}]}
    if len(set(new)) != len(new):
        assert _refused("preset.groups.add", piece, raw).code == "invalid_input"
        return
    warnings = [w for w in _run("preset.groups.add", piece, raw)["warnings"] if "shares" in w]
    crossed = {f"g{i}" for i, blocks in enumerate(existing) if set(blocks) & set(new)}
    assert {w.split("with group '")[1].split("'")[0] for w in warnings} == crossed
