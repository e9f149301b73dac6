"""bunzai.native keeps a card PNG's original as its portrait and the run put in (format 2): the
file is about half as large, reads back to the same bytes, and a damaged splice is refused."""

from __future__ import annotations

import base64
import json

import pytest
from testkit import big_card, v2_card_png

from bunzai import limits
from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.native.piece_file import NativePiece
from bunzai.errors import BunzaiError

NATIVE = NativePiece()


def _written(card: bytes) -> tuple[dict, dict[str, bytes]]:
    """The card read, written to bunzai.native: (the native document, every blob by key)."""
    _adapter, decoded = read_bytes(card, "card.png")
    blobs = {f"{blob.sha256}.{blob.ext}": blob.data for blob in decoded.blobs}
    encoded = NATIVE.write(decoded.pieces[0], lambda ref: blobs[f"{ref.sha256}.{ref.ext}"])
    return json.loads(encoded.data), blobs


def _read(doc: dict) -> dict[str, bytes]:
    raw = json.dumps(doc).encode("utf-8")
    decoded = NATIVE.read(raw, "card.bunzai.json", json.loads(raw))
    return {f"{blob.sha256}.{blob.ext}": blob.data for blob in decoded.blobs}


def test_a_card_s_original_travels_as_its_portrait_and_the_run_put_in() -> None:
    card = big_card("Nova")
    doc, blobs = _written(card)
    original = next(key for key, data in blobs.items() if data == card)
    entry = doc["assets"][original]
    assert doc["format"] == 2 and set(entry) == {"mime", "base", "at", "base64"}
    assert entry["base"] in doc["assets"] and "base" not in doc["assets"][entry["base"]]
    assert len(base64.b64decode(entry["base64"])) == len(card) - len(blobs[entry["base"]])
    assert _read(doc) == blobs


def test_a_card_with_a_small_portrait_is_written_as_format_1() -> None:
    doc, blobs = _written(v2_card_png("Ada"))
    assert doc["format"] == 1 and all(set(entry) == {"mime", "base64"} for entry in doc["assets"].values())
    assert _read(doc) == blobs


def _spliced_doc() -> tuple[dict, str]:
    doc, blobs = _written(big_card("Nova"))
    return doc, next(key for key, entry in doc["assets"].items() if "base" in entry)


@pytest.mark.parametrize(
    ("damage", "code"),
    [
        (lambda entry, doc: entry.update(base="0" * 64 + ".png"), "corrupt_file"),  # no such asset
        (lambda entry, doc: entry.update(base=["a"]), "corrupt_file"),
        (lambda entry, doc: entry.update(at=-1), "corrupt_file"),
        (lambda entry, doc: entry.update(at=10**9), "corrupt_file"),
        (lambda entry, doc: entry.update(at="12"), "corrupt_file"),
        (lambda entry, doc: entry.update(at=True), "corrupt_file"),
        (lambda entry, doc: entry.update(at=entry["at"] - 1), "corrupt_file"),  # rebuilt, but not its hash
        (lambda entry, doc: entry.update(base64=base64.b64encode(b"x").decode()), "corrupt_file"),
        (lambda entry, doc: doc["assets"][entry["base"]].update(base=entry["base"], at=0), "corrupt_file"),
    ],
)
def test_a_damaged_splice_is_refused_with_a_code(damage, code: str) -> None:
    doc, key = _spliced_doc()
    damage(doc["assets"][key], doc)
    with pytest.raises(BunzaiError) as caught:
        _read(doc)
    assert caught.value.code == code


def test_a_splice_past_the_asset_limit_is_too_large(monkeypatch) -> None:
    doc, key = _spliced_doc()
    monkeypatch.setattr(limits, "ASSET_MAX_BYTES", 8000)
    with pytest.raises(BunzaiError) as caught:
        _read(doc)
    assert caught.value.code == "too_large"
