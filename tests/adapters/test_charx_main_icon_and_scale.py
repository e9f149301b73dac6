"""CHARX: the main icon a crossing writes (RisuAI shows only the icon named `main`), and uri
resolution that stays linear in the number of assets."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from cards_support import cross, read
from hypothesis import given
from hypothesis import strategies as st
from testkit import corpus_path

from bunzai.adapters.common import charx_assets
from bunzai.adapters.common.charx_members import CARD_MEMBER, resolve, risu_sanitized


def _card_assets(data: bytes) -> list[dict]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return json.loads(archive.read("card.json"))["data"]["assets"]


def _risu_image(assets: list[dict]) -> str | None:
    """The uri RisuAI's import takes as the character's image: only an icon named `main`
    (characterCards.ts, importCharacterCardSpec)."""
    return next((a["uri"] for a in assets if a["type"] == "icon" and a["name"] == "main"), None)


@pytest.mark.parametrize("target", ["charx", "risu.charx"])
def test_a_backyard_character_crossing_to_charx_names_its_portrait_icon_main(target):
    data = corpus_path("backyard-byaf", "3.byaf").read_bytes()
    crossing = cross(data, "3.byaf", target)
    assets = _card_assets(crossing.data)
    assert _risu_image(assets) is not None, "RisuAI would import the card without its image"
    assert [a["name"] for a in assets].count("main") == 1
    assert "charx.icon.named_main" in [loss.code for loss in crossing.losses]
    _adapter, again, _media = read(crossing.data, f"3.{target}")
    source = read(data, "3.byaf")[1].pieces[0]
    assert again.pieces[0].body.portrait == source.body.portrait


def test_a_charx_without_a_main_icon_keeps_its_names_on_a_same_format_round_trip():
    icon = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40
    document = {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {
            "name": "Ada",
            "assets": [{"type": "icon", "uri": "embeded://assets/icon/images/face.png", "name": "face", "ext": "png"}],
        },
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("card.json", json.dumps(document))
        archive.writestr("assets/icon/images/face.png", icon)
    crossing = cross(buffer.getvalue(), "ada.charx", "charx")
    assert [a["name"] for a in _card_assets(crossing.data)] == ["face"]
    assert crossing.losses == []


class _CountingNames(list):
    """A member list that counts how often it is walked."""

    walks = 0

    def __iter__(self):
        type(self).walks += 1
        return super().__iter__()


def test_resolving_the_uris_of_many_assets_walks_the_member_list_a_fixed_number_of_times():
    count = 300
    names = _CountingNames(f"assets/emotion/image/e{i}.png" for i in range(count))
    raw = [
        {"type": "emotion", "uri": f"embeded://assets/emotion/image/e{i}.png", "name": f"e{i}"} for i in range(count)
    ]
    _CountingNames.walks = 0
    links, members, _blobs = charx_assets.link_entries(raw, names, lambda name: "0" * 64)
    assert members == list(names)
    assert _CountingNames.walks <= 2, f"the member list was walked {_CountingNames.walks} times for {count} uris"


def _reference(path: str, names: list[str]) -> str | None:
    """The resolution the docs describe, spelled out: exact, then basename, then RisuAI's sanitized basename;
    the smallest name among several."""
    candidates = [name for name in names if name != CARD_MEMBER]
    for wanted in (path, path.lstrip("/")):
        if wanted in candidates:
            return wanted
    base = path.rsplit("/", 1)[-1]
    for wanted in (base, risu_sanitized(base)):
        found = sorted(name for name in candidates if name.rsplit("/", 1)[-1] == wanted)
        if wanted and found:
            return found[0]
    return None


_SEGMENT = st.sampled_from(["a", "b", "a.png", "b.png", "a_.png", "a?.png", "card.json", "x y.png", "é.png", ""])
_PATH = st.lists(_SEGMENT, min_size=1, max_size=3).map("/".join)


@given(path=_PATH, names=st.lists(_PATH, max_size=8, unique=True))
def test_resolution_finds_the_member_the_documented_rules_name(path, names):
    assert resolve(path, names) == _reference(path, names)
