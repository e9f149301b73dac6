"""A revision kept for revert is checked for the media it names, as a buried piece is:
`bunzai revert` puts it back through apply, which refuses a piece whose medium is gone."""

from __future__ import annotations

from pathlib import Path

from bunzai.store.assets import put_asset
from bunzai.store.canon import revision_of
from bunzai.store.doctor import examine
from bunzai.store.pieces import create_piece, read_stored, update_piece
from bunzai.store.studio import Studio


def _ada(face: dict | None) -> dict:
    return {"kind": "character", "id": "ada", "name": "Ada", "body": {"portrait": face}}


def _kept_with_old_face(studio: Studio) -> tuple[dict, Path]:
    """Ada's first portrait, named now only by the revision her update replaced."""
    old = put_asset(studio, b"the old face", "png", "image/png")
    first = create_piece(studio, _ada(old))
    update_piece(studio, _ada(put_asset(studio, b"the new face", "png", "image/png")), first.revision)
    (kept,) = (studio.history_dir / "character" / "ada").iterdir()
    assert kept.stem == first.revision != read_stored(studio, "character", "ada").revision
    return old, kept


def test_a_kept_revisions_medium_gone_is_a_missing_asset_of_that_revision(studio: Studio) -> None:
    old, kept = _kept_with_old_face(studio)
    assert examine(studio)["clean"]
    studio.asset_path(old["sha256"], "png").unlink()
    report = examine(studio, repair=True)
    assert [(p["check"], p["asset"], Path(p["path"])) for p in report["problems"]] == [
        ("missing_asset", f"{old['sha256']}.png", kept)
    ]
    assert report["problems"][0]["message"].startswith(
        f"a revision of character/ada kept for revert ({kept.stem[:12]}…) refers to assets/{old['sha256']}.png"
    )
    assert report["repaired"] == []


def test_storing_the_medium_again_or_removing_the_revision_clears_it(studio: Studio) -> None:
    old, kept = _kept_with_old_face(studio)
    path = studio.asset_path(old["sha256"], "png")
    path.unlink()
    put_asset(studio, b"the old face", "png", "image/png")
    assert examine(studio)["clean"]
    path.unlink()
    kept.unlink()  # a person gives up undoing the update: the problem goes with it
    assert examine(studio)["clean"]


def test_a_kept_revision_that_does_not_validate_is_not_named(studio: Studio) -> None:
    """Revert cannot put it back either; its hashes still hold repair (they may be a medium)."""
    old, kept = _kept_with_old_face(studio)
    studio.asset_path(old["sha256"], "png").unlink()
    raw = kept.read_bytes().replace(b'"name": "Ada"', b'"name": 7')
    assert raw != kept.read_bytes()
    kept.unlink()
    kept.with_name(f"{revision_of(raw)}.json").write_bytes(raw)
    put_asset(studio, b"nobody's", "png", "image/png")
    report = examine(studio, repair=True)
    assert [p["check"] for p in report["problems"]] == ["orphan_asset"]
    assert "is named by a piece, a buried piece or a kept revision and is not there" in report["problems"][0]["message"]
    assert report["repaired"] == []


def test_a_kept_revision_naming_a_splice_whose_base_is_gone_is_named(studio: Studio) -> None:
    """The card's original is kept as a splice of its first portrait. That portrait replaced and
    the card deleted, one revision names the portrait and the original, the next only the
    original: with the portrait gone, both revisions name a medium that cannot be read (reviewer 471)."""
    from test_asset_splices import _card_piece, _spliced

    from bunzai.store.pieces import delete_piece

    part, whole = _spliced(studio)
    first = create_piece(studio, _card_piece("ada", part, whole))
    other = put_asset(studio, b"another portrait", "png", "image/png")
    second = update_piece(studio, _card_piece("ada", other, whole), first.revision)
    delete_piece(studio, "character", "ada")
    assert examine(studio)["clean"]
    studio.asset_path(part["sha256"], "png").unlink()
    rows = sorted(
        (Path(p["path"]).stem, p["asset"]) for p in examine(studio)["problems"] if p["check"] == "missing_asset"
    )
    original, portrait = f"{whole['sha256']}.png", f"{part['sha256']}.png"
    assert rows == sorted([(first.revision, original), (first.revision, portrait), (second.revision, original)])
