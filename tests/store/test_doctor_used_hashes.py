"""What doctor counts as in use, read from the files' text: every JSON string of 64 hex digits
(an AssetRef's sha256, an attachment's key) in pieces, buried pieces, drafts and kept revisions.
Never fewer than a parse would find: a file writing hex digits as escapes is parsed, one too
large to read whole is scanned block by block, one that does not parse gives every hex run."""

from __future__ import annotations

import json

from bunzai import limits
from bunzai.store.assets import put_asset
from bunzai.store.doctor import examine
from bunzai.store.studio import Studio


def _orphans(studio: Studio) -> set[str]:
    return {p["path"].rsplit("/", 1)[-1] for p in examine(studio)["problems"] if p["check"] == "orphan_asset"}


def _hand_piece(studio: Studio, name: str, text: str) -> None:
    (studio.root / "character").mkdir(exist_ok=True)
    (studio.root / "character" / f"{name}.json").write_text(text, encoding="utf-8")


def test_a_hash_written_with_escaped_digits_still_keeps_its_asset(studio: Studio) -> None:
    ref = put_asset(studio, b"face", "png", "image/png")
    escaped = "".join(f"\\u{ord(c):04x}" for c in ref["sha256"])
    _hand_piece(
        studio,
        "ada",
        '{"kind": "character", "id": "ada", "body": {"portrait": {"sha256": "HASH"}}}'.replace("HASH", escaped),
    )
    assert (
        json.loads((studio.root / "character" / "ada.json").read_text())["body"]["portrait"]["sha256"] == ref["sha256"]
    )
    assert _orphans(studio) == set()


def test_a_hash_as_a_key_or_in_a_damaged_file_keeps_its_asset(studio: Studio) -> None:
    keyed = put_asset(studio, b"keyed", "png", "image/png")
    broken = put_asset(studio, b"broken", "png", "image/png")
    stray = put_asset(studio, b"stray", "png", "image/png")
    _hand_piece(studio, "ada", json.dumps({"kind": "character", "id": "ada", "attachments": {keyed["sha256"]: {}}}))
    _hand_piece(studio, "bob", '{"kind": "character", "id": "bob", "x": "HASH", '.replace("HASH", broken["sha256"]))
    assert _orphans(studio) == {f"{stray['sha256']}.png"}


def test_a_piece_file_too_large_to_read_is_scanned_for_hashes(studio: Studio, monkeypatch) -> None:
    """Once a crash: the first file of a folder too large to read left nothing to scan."""
    ref = put_asset(studio, b"face", "png", "image/png")
    stray = put_asset(studio, b"stray", "png", "image/png")
    padding = "x" * 3_000_000  # the hash lies past the first block of the scan
    _hand_piece(studio, "ada", json.dumps({"kind": "character", "id": "ada", "pad": padding, "ref": ref["sha256"]}))
    monkeypatch.setattr(limits, "JSON_MAX_BYTES", 1_000_000)
    assert _orphans(studio) == {f"{stray['sha256']}.png"}
