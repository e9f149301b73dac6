"""`doctor --verify-assets`: every asset in use is read and checked against its hash, plain
files and splices alike; damage is reported with the pieces it hurts, repair leaves it, and
storing the good bytes again (any apply that carries them) mends it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bunzai.errors import BunzaiError
from bunzai.store.assets import asset_damage, put_asset, read_asset, splice_path
from bunzai.store.doctor import examine
from bunzai.store.pieces import create_piece
from bunzai.store.studio import Studio
from tests.store.test_asset_splices import SPANS, WHOLE, _card_piece, _part, _spliced


def _damaged(report: dict) -> list[tuple[str, str, list[str]]]:
    return [
        (Path(p["path"]).name, p["message"], p["pieces"]) for p in report["problems"] if p["check"] == "damaged_asset"
    ]


def test_a_studio_whose_assets_are_whole_verifies_clean(studio: Studio) -> None:
    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    report = examine(studio, verify_assets=True)
    assert report["clean"] and report["assets"] == 2


@pytest.mark.parametrize(
    ("damage", "file", "why"),
    [
        ("flip_base", "base", "its bytes hash to"),
        ("flip_base", "splice", "its base assets/"),
        ("truncate_splice", "splice", "beside its base, where its header says"),
        ("garble_header", "splice", "its header is damaged"),
        ("flip_splice_rest", "splice", "its bytes hash to"),
    ],
)
def test_damage_of_every_kind_is_found_only_when_asked(studio: Studio, damage: str, file: str, why: str) -> None:
    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    base = studio.asset_path(part["sha256"], "png")
    spliced = splice_path(studio.asset_path(whole["sha256"], "png"))
    if damage == "flip_base":
        base.write_bytes(b"x" + base.read_bytes()[1:])
    elif damage == "truncate_splice":
        spliced.write_bytes(spliced.read_bytes()[:-10])
    elif damage == "garble_header":
        magic, _header, rest = spliced.read_bytes().split(b"\n", 2)
        spliced.write_bytes(magic + b"\n{\n" + rest)
    else:
        raw = spliced.read_bytes()
        spliced.write_bytes(raw[:-1] + bytes([raw[-1] ^ 1]))
    # Without the flag no byte is read: only a header that does not read is seen (missing_asset).
    assert examine(studio)["clean"] is (damage != "garble_header")
    report = examine(studio, verify_assets=True, repair=True)
    found = {name: (message, pieces) for name, message, pieces in _damaged(report)}
    name = base.name if file == "base" else spliced.name
    assert why in found[name][0] and found[name][1] == ["character/ada"]
    assert not report["clean"] and report["repaired"] == []
    assert base.exists() and spliced.exists()  # repair leaves damage for a person


def test_storing_the_good_bytes_again_mends_the_damage(studio: Studio) -> None:
    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    base = studio.asset_path(part["sha256"], "png")
    base.write_bytes(base.read_bytes()[:-1])
    assert {name for name, _m, _p in _damaged(examine(studio, verify_assets=True))} == {
        base.name,
        splice_path(studio.asset_path(whole["sha256"], "png")).name,
    }
    put_asset(studio, _part(WHOLE, SPANS), "png", "image/png")  # what an apply carrying it stages
    assert examine(studio, verify_assets=True)["clean"]
    assert read_asset(studio, whole["sha256"], "png") == WHOLE


def test_an_orphan_is_not_read_and_a_plain_asset_is_named_by_its_users(studio: Studio) -> None:
    face = put_asset(studio, b"a face" * 100, "png", "image/png")
    for name in ("ada", "bob"):
        create_piece(studio, {"kind": "character", "id": name, "name": name, "body": {"portrait": face}})
    stray = put_asset(studio, b"nobody's", "png", "image/png")
    stray_path = studio.asset_path(stray["sha256"], "png")
    stray_path.write_bytes(b"damaged and unused")
    path = studio.asset_path(face["sha256"], "png")
    path.write_bytes(b"a fade" * 100)
    report = examine(studio, verify_assets=True)
    assert _damaged(report) == [
        (
            path.name,
            f"assets/{path.name} is damaged: its bytes hash to {hashlib.sha256(b'a fade' * 100).hexdigest()}",
            ["character/ada", "character/bob"],
        )
    ]
    assert [p["check"] for p in report["problems"] if p["path"] == str(stray_path)] == ["orphan_asset"]


def test_asset_damage_says_why_for_a_plain_file(studio: Studio) -> None:
    ref = put_asset(studio, b"bytes", "png", "image/png")
    path = studio.asset_path(ref["sha256"], "png")
    assert asset_damage(path) == ""
    path.unlink()
    assert asset_damage(path) == "it is gone"


def test_hundreds_of_assets_verify_and_one_damaged_is_named(studio: Studio) -> None:
    refs = [put_asset(studio, f"portrait {n}".encode() * 50, "png", "image/png") for n in range(400)]
    for n, ref in enumerate(refs):
        create_piece(studio, {"kind": "character", "id": f"c{n}", "name": f"C{n}", "body": {"portrait": ref}})
    assert examine(studio, verify_assets=True)["clean"]
    studio.asset_path(refs[217]["sha256"], "png").write_bytes(b"")
    assert [pieces for _name, _message, pieces in _damaged(examine(studio, verify_assets=True))] == [["character/c217"]]


def test_a_splice_whose_header_is_damaged_keeps_its_base_from_repair(studio: Studio) -> None:
    """The card's portrait changed and its history gone, only the splice names the old portrait:
    its header garbled, the hash still in it keeps the base for a person to mend the header."""
    part, whole = _spliced(studio)
    other = put_asset(studio, b"another portrait", "png", "image/png")
    create_piece(studio, _card_piece("ada", other, whole))
    spliced = splice_path(studio.asset_path(whole["sha256"], "png"))
    raw = spliced.read_bytes()
    spliced.write_bytes(raw[:20] + b"\x00" + raw[21:])  # inside the JSON header
    report = examine(studio, repair=True)
    assert report["repaired"] == [] and studio.asset_path(part["sha256"], "png").exists()
    spliced.write_bytes(raw)
    assert read_asset(studio, whole["sha256"], "png") == WHOLE


def test_a_splice_beside_its_own_plain_file_is_an_orphan_removed_only_when_that_file_is_whole(
    studio: Studio,
) -> None:
    """Stored plain as well (a portrait of the whole file), the splice is never read: a damaged
    one could not be mended by storing the bytes again, so repair removes it, but not while the
    plain file is the damaged one."""
    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    put_asset(studio, WHOLE, "png", "image/png")  # the plain file beside the splice
    plain = studio.asset_path(whole["sha256"], "png")
    spliced = splice_path(plain)
    good = plain.read_bytes()
    plain.write_bytes(b"x" + good[1:])
    report = examine(studio, repair=True, verify_assets=True)
    assert spliced.exists() and report["repaired"] == []
    rows = {(p["check"], Path(p["path"]).name) for p in report["problems"]}
    assert ("orphan_asset", spliced.name) in rows and ("damaged_asset", plain.name) in rows
    plain.write_bytes(good)
    report = examine(studio, repair=True, verify_assets=True)
    assert [Path(row["path"]).name for row in report["repaired"]] == [spliced.name]
    assert report["clean"] and read_asset(studio, whole["sha256"], "png") == WHOLE


def test_a_folder_in_place_of_an_asset_is_damage_not_a_crash(studio: Studio) -> None:
    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    base = studio.asset_path(part["sha256"], "png")
    base.unlink()
    base.mkdir()
    report = examine(studio, verify_assets=True)
    found = {name: message for name, message, _pieces in _damaged(report)}
    assert "cannot be read" in found[splice_path(studio.asset_path(whole["sha256"], "png")).name]
    assert base.name not in found  # a folder is no asset file: the portrait is missing_asset
    assert ("missing_asset", base.name) in {(p["check"], p.get("asset")) for p in report["problems"]}
    for sha in (part["sha256"], whole["sha256"]):
        with pytest.raises(BunzaiError) as caught:
            read_asset(studio, sha, "png")
        assert caught.value.code == "corrupt_asset"


def _portrait_changed(studio: Studio) -> tuple[dict, dict, Path]:
    """A card whose portrait was replaced, its history gone: only the splice of its original
    uses the old portrait (the splice's base). (base ref, whole ref, splice path)."""
    from bunzai.store.pieces import read_stored, update_piece

    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    other = put_asset(studio, b"another portrait", "png", "image/png")
    update_piece(studio, _card_piece("ada", other, whole), read_stored(studio, "character", "ada").revision)
    for kept in (studio.root / ".bunzai" / "history").rglob("*"):
        if kept.is_file():
            kept.unlink()
    return part, whole, splice_path(studio.asset_path(whole["sha256"], "png"))


def test_a_shadowed_splice_kept_for_a_damaged_plain_file_keeps_its_base(studio: Studio) -> None:
    part, whole, spliced = _portrait_changed(studio)
    put_asset(studio, WHOLE, "png", "image/png")
    plain = studio.asset_path(whole["sha256"], "png")
    plain.write_bytes(b"x" + plain.read_bytes()[1:])
    report = examine(studio, repair=True)
    assert report["repaired"] == []
    plain.unlink()  # the damaged plain file moved aside: the splice still rebuilds the card
    assert read_asset(studio, whole["sha256"], "png") == WHOLE


@pytest.mark.parametrize("spans_too", [False, True])
def test_a_splice_naming_a_base_not_in_the_studio_keeps_every_plain_orphan(studio: Studio, spans_too: bool) -> None:
    """Its header damaged where it still parses (a digit of the base's hash changed, and its
    spans too), it says nothing sure of its base: no plain orphan is removed while it stands."""
    part, whole, spliced = _portrait_changed(studio)
    stray = put_asset(studio, b"not that size", "png", "image/png")
    raw = spliced.read_bytes()
    other_hash = ("0" if part["sha256"][0] != "0" else "1") + part["sha256"][1:]
    damaged = raw.replace(part["sha256"].encode(), other_hash.encode(), 1)
    if spans_too:
        damaged = damaged.replace(b"[[0,4000]", b"[[0,4001]", 1)
    spliced.write_bytes(damaged)
    report = examine(studio, repair=True)
    assert report["repaired"] == []
    for kept in (part, stray):
        (row,) = [p for p in report["problems"] if Path(p["path"]).name == f"{kept['sha256']}.png"]
        assert row["check"] == "orphan_asset" and "has lost its base: it may stand for that" in row["message"]
    spliced.write_bytes(raw)
    assert read_asset(studio, whole["sha256"], "png") == WHOLE


def test_no_orphan_is_removed_while_a_medium_is_missing(studio: Studio) -> None:
    """A splice renamed by hand (one digit of its name): the card's original is missing, and the
    renamed file an orphan; repair keeps it, and its base, for a person to name back."""
    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    spliced = splice_path(studio.asset_path(whole["sha256"], "png"))
    renamed = spliced.with_name(("0" if spliced.name[0] != "0" else "1") + spliced.name[1:])
    spliced.rename(renamed)
    report = examine(studio, repair=True)
    assert report["repaired"] == [] and renamed.exists()
    assert "missing_asset" in {p["check"] for p in report["problems"]}
    (row,) = [p for p in report["problems"] if p["path"] == str(renamed)]
    assert "is not there: it may stand for that" in row["message"]
    renamed.rename(spliced)
    assert examine(studio)["clean"]


def test_a_folder_where_the_plain_file_would_be_leaves_the_splice_read(studio: Studio) -> None:
    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    studio.asset_path(whole["sha256"], "png").mkdir()
    assert read_asset(studio, whole["sha256"], "png") == WHOLE
    assert examine(studio, verify_assets=True)["clean"]


def test_a_folder_where_the_splice_would_be_is_not_a_file(studio: Studio) -> None:
    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    spliced = splice_path(studio.asset_path(whole["sha256"], "png"))
    spliced.unlink()
    spliced.mkdir()
    missing = [p["message"] for p in examine(studio)["problems"] if p["check"] == "missing_asset"]
    assert missing == [
        f"character/ada refers to assets/{spliced.name}, which is not a file (a folder or a link stands there)"
    ]


def test_a_base_only_a_splice_uses_names_the_pieces_of_the_splice(studio: Studio) -> None:
    part, _whole, _spliced_path = _portrait_changed(studio)
    base = studio.asset_path(part["sha256"], "png")
    base.write_bytes(b"x" + base.read_bytes()[1:])
    assert {name: pieces for name, _m, pieces in _damaged(examine(studio, verify_assets=True))}[base.name] == [
        "character/ada"
    ]


def test_storing_over_a_folder_in_an_assets_place_is_a_coded_refusal(studio: Studio) -> None:
    part, whole = _spliced(studio)
    base = studio.asset_path(part["sha256"], "png")
    base.unlink()
    base.mkdir()
    with pytest.raises(BunzaiError) as caught:
        put_asset(studio, _part(WHOLE, SPANS), "png", "image/png")
    assert caught.value.code == "corrupt_asset" and "is a folder" in caught.value.message
    assert base.is_dir()
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada", "body": {"portrait": part}})
    missing = [p["message"] for p in examine(studio)["problems"] if p["check"] == "missing_asset"]
    assert missing == [
        f"character/ada refers to assets/{base.name}, which is not a file (a folder or a link stands there)"
    ]


@pytest.mark.parametrize("where", ["renamed", "moved"])
def test_a_graveyard_file_moved_or_renamed_by_hand_keeps_its_media(studio: Studio, where: str) -> None:
    from bunzai.store.graveyard import bury_piece

    part, whole, spliced = _portrait_changed(studio)
    bury_piece(studio, "character", "ada")
    for kept in (studio.root / ".bunzai" / "history").rglob("*"):
        if kept.is_file():
            kept.unlink()
    (entry,) = (studio.graveyard_dir / "character").iterdir()
    if where == "renamed":
        entry.rename(entry.with_name(entry.name + ".bak"))
    else:
        (studio.graveyard_dir / "keep").mkdir()
        entry.rename(studio.graveyard_dir / "keep" / entry.name)
    report = examine(studio, repair=True)
    assert report["repaired"] == [] and read_asset(studio, whole["sha256"], "png") == WHOLE


@pytest.mark.parametrize("verify", [False, True])
def test_a_header_naming_another_stored_file_keeps_the_real_base(studio: Studio, verify: bool) -> None:
    part, whole, spliced = _portrait_changed(studio)
    other = put_asset(studio, b"another portrait", "png", "image/png")  # the card's new portrait
    raw = spliced.read_bytes()
    spliced.write_bytes(raw.replace(part["sha256"].encode(), other["sha256"].encode(), 1))
    report = examine(studio, repair=True, verify_assets=verify)
    assert report["repaired"] == [] and studio.asset_path(part["sha256"], "png").exists()
    if verify:
        (row,) = [p for p in report["problems"] if p["check"] == "damaged_asset"]
        assert "is not the size its header gives" in row["message"]
    spliced.write_bytes(raw)
    assert read_asset(studio, whole["sha256"], "png") == WHOLE


@pytest.mark.parametrize("who", ["a kept revision", "a piece that does not validate"])
def test_a_splice_renamed_by_hand_is_kept_for_whatever_names_it(studio: Studio, who: str) -> None:
    from bunzai.store.pieces import delete_piece

    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    if who == "a kept revision":
        delete_piece(studio, "character", "ada")
    else:
        path = studio.piece_path("character", "ada")
        path.write_text(path.read_text().replace('"name": "Ada"', '"name": 12345'))
        for kept in (studio.root / ".bunzai" / "history").rglob("*"):
            kept.unlink() if kept.is_file() else None
    spliced = splice_path(studio.asset_path(whole["sha256"], "png"))
    renamed = spliced.with_name("card-backup.png.splice")
    spliced.rename(renamed)
    report = examine(studio, repair=True)
    assert report["repaired"] == [] and renamed.exists() and studio.asset_path(part["sha256"], "png").exists()
    renamed.rename(spliced)
    assert read_asset(studio, whole["sha256"], "png") == WHOLE


@pytest.mark.parametrize("verify", [False, True])
def test_a_splice_renamed_to_a_plain_name_keeps_its_base(studio: Studio, verify: bool) -> None:
    part, whole, spliced = _portrait_changed(studio)
    plain = studio.asset_path(whole["sha256"], "png")
    spliced.rename(plain)
    report = examine(studio, repair=True, verify_assets=verify)
    assert report["repaired"] == [] and studio.asset_path(part["sha256"], "png").exists()
    plain.rename(spliced)
    assert read_asset(studio, whole["sha256"], "png") == WHOLE


def test_a_file_of_another_name_in_assets_keeps_every_orphan(studio: Studio) -> None:
    from bunzai.store.pieces import delete_piece

    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    delete_piece(studio, "character", "ada")  # a kept revision names the original
    spliced = splice_path(studio.asset_path(whole["sha256"], "png"))
    backup = spliced.with_name(spliced.name + ".bak")
    spliced.rename(backup)
    report = examine(studio, repair=True)
    assert report["repaired"] == [] and backup.exists() and studio.asset_path(part["sha256"], "png").exists()


def test_a_piece_file_moved_into_a_subfolder_still_keeps_its_media(studio: Studio) -> None:
    part, whole, spliced = _portrait_changed(studio)
    path = studio.piece_path("character", "ada")
    (path.parent / "old").mkdir()
    path.rename(path.parent / "old" / path.name)
    report = examine(studio, repair=True)
    assert report["repaired"] == [] and read_asset(studio, whole["sha256"], "png") == WHOLE


def test_a_header_pasted_to_fit_another_stored_file_keeps_the_real_base(studio: Studio) -> None:
    """Without --verify-assets: the header names another stored file, with spans of its size;
    the splice's own length no longer agrees with the header, so its base is astray."""
    import json as _json

    part, whole, spliced = _portrait_changed(studio)
    other = put_asset(studio, b"o" * 500, "png", "image/png")
    raw = spliced.read_bytes()
    magic, header, rest = raw.split(b"\n", 2)
    fields = _json.loads(header)
    fields["base"]["sha256"], fields["spans"] = other["sha256"], [[0, 500]]
    spliced.write_bytes(magic + b"\n" + _json.dumps(fields).encode() + b"\n" + rest)
    report = examine(studio, repair=True)
    assert report["repaired"] == [] and studio.asset_path(part["sha256"], "png").exists()
    spliced.write_bytes(raw)
    assert read_asset(studio, whole["sha256"], "png") == WHOLE


@pytest.mark.parametrize("damage", ["emptied", "cut short", "utf-16", "buried and cut short"])
def test_a_piece_file_that_does_not_read_keeps_its_media_from_repair(studio: Studio, damage: str) -> None:
    """An editor's crash or a full disk leaves a piece file cut short: the hashes read from it
    may be missing, so repair keeps every orphan while it stands (a person mends the file)."""
    from bunzai.store.graveyard import bury_piece

    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    path = studio.piece_path("character", "ada")
    if damage == "buried and cut short":
        bury_piece(studio, "character", "ada")
        (path,) = (studio.graveyard_dir / "character").iterdir()
    raw = path.read_bytes()
    if damage == "emptied":
        path.write_bytes(b"")
    elif damage == "utf-16":
        path.write_bytes(raw.decode("utf-8").encode("utf-16"))
    else:
        path.write_bytes(raw[: len(raw) // 3])
    report = examine(studio, repair=True)
    assert report["repaired"] == []
    path.write_bytes(raw)
    assert examine(studio)["clean"] and read_asset(studio, whole["sha256"], "png") == WHOLE


def test_a_stray_copy_cut_short_holds_repair_and_an_os_leftover_does_not(studio: Studio) -> None:
    from bunzai.store.pieces import delete_piece

    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    copy = studio.root / "character" / "old" / "ada.json"
    copy.parent.mkdir()
    copy.write_bytes(studio.piece_path("character", "ada").read_bytes()[:200])
    delete_piece(studio, "character", "ada")
    for kept in (studio.root / ".bunzai" / "history").rglob("*"):
        kept.unlink() if kept.is_file() else None
    (studio.assets_dir / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    rows = examine(studio, repair=True)
    assert rows["repaired"] == [] and any(
        "character/old/ada.json does not read as JSON" in p["message"] for p in rows["problems"]
    )
    copy.unlink()
    report = examine(studio, repair=True)
    removed = sorted(Path(row["path"]).name for row in report["repaired"])
    assert removed == sorted([f"{part['sha256']}.png", splice_path(studio.asset_path(whole["sha256"], "png")).name])
    assert (studio.assets_dir / ".DS_Store").exists() and report["clean"]


@pytest.mark.parametrize("name", ["ada copy.json", "ada.json.bak"])
def test_a_copy_cut_short_beside_the_pieces_holds_repair(studio: Studio, name: str) -> None:
    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    copy = studio.root / "character" / name
    copy.write_bytes(studio.piece_path("character", "ada").read_bytes()[:200])
    stray = put_asset(studio, b"stray", "png", "image/png")
    report = examine(studio, repair=True)
    assert report["repaired"] == [] and studio.asset_path(stray["sha256"], "png").exists()
    copy.unlink()
    assert [Path(row["path"]).name for row in examine(studio, repair=True)["repaired"]] == [f"{stray['sha256']}.png"]
