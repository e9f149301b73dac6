"""A card PNG of a user folder comes back from a library export as it came in (docs/library.md):
its `data` JSON-equal, and, where the card was saved by another app without SillyTavern's V1
copies at the top level, those copies added as SillyTavern's save writes them, nothing else."""

from __future__ import annotations

import base64
import json

from testkit import v2_card_png

from bunzai.adapters.common import png
from bunzai.adapters.common.png import PNG_SIGNATURE, text_chunk

# The V1 fields SillyTavern mirrors at the top level of a card it saves (charaFormatData), as
# card key -> key in `data`; `avatar` and `tags` are written beside them.
V1_COPIES = {
    "name": "name",
    "description": "description",
    "personality": "personality",
    "scenario": "scenario",
    "first_mes": "first_mes",
    "mes_example": "mes_example",
    "creatorcomment": "creator_notes",
    "tags": "tags",
}


def chara_of(data: bytes) -> dict:
    [chunk] = [text for text in png.read_png(data).text_chunks() if text.keyword == "chara"]
    return json.loads(base64.b64decode(chunk.text))


def without_root_copies(card_png: bytes) -> bytes:
    """The same PNG with a card holding only spec, spec_version and data, as a site's export may."""
    card = chara_of(card_png)
    bare = {"spec": card["spec"], "spec_version": card["spec_version"], "data": card["data"]}
    end = card_png.rindex(b"IEND") - 4
    body = card_png[len(PNG_SIGNATURE) : end]
    kept = b""
    at = 0
    while at < len(body):  # every chunk but the card's
        length = int.from_bytes(body[at : at + 4], "big")
        chunk = body[at : at + 12 + length]
        if chunk[4:8] != b"tEXt":
            kept += chunk
        at += 12 + length
    text = base64.b64encode(json.dumps(bare).encode("utf-8"))
    return PNG_SIGNATURE + kept + text_chunk("chara", text) + card_png[end:]


def test_a_card_without_v1_copies_comes_back_with_them_and_its_data_unchanged(bunzai, tmp_path):
    root = tmp_path / "ST"
    (root / "characters").mkdir(parents=True)
    (root / "worlds").mkdir()
    source = without_root_copies(v2_card_png("Wren", description="Wren keeps bees.", more={"tags": ["bees"]}))
    assert set(chara_of(source)) == {"spec", "spec_version", "data"}
    (root / "characters" / "Wren.png").write_bytes(source)
    bunzai("apply", "--yes", input=bunzai("import", str(root), check=True).stdout, check=True)
    out = tmp_path / "out"
    bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True)
    before, after = chara_of(source), chara_of((out / "characters" / "Wren.png").read_bytes())
    assert after["data"] == before["data"]
    added = set(after) - set(before)
    assert added <= set(V1_COPIES) | {"avatar"}
    for key in added - {"avatar"}:
        assert after[key] == after["data"][V1_COPIES[key]], key
