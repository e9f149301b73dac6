"""A saved draft's default name: `<kind>-<id>-<time>`, a valid id whatever the id's length,
and never without its time (two saves of one piece's drafts must not collide)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bunzai.changes.saved import default_name
from bunzai.limits import ID_MAX_LENGTH
from bunzai.model import KIND_NAMES
from bunzai.model.ids import is_safe_id

_STAMP = re.compile(r"-[0-9]{8}t[0-9]{12}$")
# Every length up to the limit is drawn alike: long ids are where the time could be cut off.
_IDS = st.builds(
    str.__add__,
    st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789"),
    st.integers(0, ID_MAX_LENGTH - 1).flatmap(
        lambda n: st.text("abcdefghijklmnopqrstuvwxyz0123456789._-", min_size=n, max_size=n)
    ),
).filter(is_safe_id)


@given(st.sampled_from(KIND_NAMES), _IDS)
def test_the_default_name_is_an_id_that_keeps_its_time(kind: str, piece_id: str) -> None:
    name = default_name({"target": {"kind": kind, "id": piece_id}})
    assert is_safe_id(name) and len(name) <= ID_MAX_LENGTH
    assert _STAMP.search(name), name
    assert name.startswith(f"{kind}-{piece_id}"[: len(name) - 22])


def test_a_short_id_is_kept_whole() -> None:
    name = default_name({"target": {"kind": "character", "id": "ada"}})
    assert name.startswith("character-ada-") and _STAMP.search(name)


def test_two_saves_of_a_long_ids_drafts_both_succeed(bunzai) -> None:
    long_name = "a" * 120
    created = bunzai("create", "character", "--input", f'{{"name": "{long_name}"}}')
    assert bunzai("apply", "--yes", input=created.stdout).code == 0
    names = []
    for nickname in ("One", "Two"):
        saved = bunzai(
            "cap", "run", "character.identity.update", long_name, "--input", f'{{"nickname": "{nickname}"}}', "--save"
        )
        assert saved.code == 0, saved.stdout
        names.append(saved.json["saved"]["name"])
    assert names[0] != names[1] and all(_STAMP.search(name) for name in names)
    listed = bunzai("draft", "list")
    assert {item["name"] for item in listed.json["items"]} == set(names)
