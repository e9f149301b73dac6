"""A whole file stored as a splice of a part of it (a card PNG over its portrait): read back
whole, checked by its hash, never kept twice, and a used splice keeps its base from doctor."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai import limits
from bunzai.changes.media import splice_plan
from bunzai.errors import BunzaiError
from bunzai.store.assets import (
    encode_splice,
    has_asset,
    land_asset,
    put_asset,
    read_asset,
    splice_base,
    splice_path,
    stage_asset,
    stage_splice,
    stored_file,
)
from bunzai.store.studio import Studio, init_studio

WHOLE = bytes(range(256)) * 40  # 10,240 bytes
SPANS = [(0, 4000), (4100, 9000), (9050, 10240)]  # the part: all but two runs of the whole


def _part(data: bytes, spans: list[tuple[int, int]]) -> bytes:
    return b"".join(data[start:end] for start, end in spans)


def _spliced(studio: Studio, data: bytes = WHOLE, spans: list[tuple[int, int]] = SPANS) -> tuple[dict, dict]:
    """The part stored plain and `data` stored as a splice of it: (part ref, whole ref)."""
    part = put_asset(studio, _part(data, spans), "png", "image/png")
    sha = hashlib.sha256(data).hexdigest()
    staged = stage_splice(studio, data, "png", "image/png", sha256=sha, base=(part["sha256"], "png"), spans=spans)
    return part, land_asset(staged)


def test_a_splice_reads_back_whole_and_takes_only_the_rest(studio: Studio) -> None:
    part, whole = _spliced(studio)
    path = studio.asset_path(whole["sha256"], "png")
    assert not path.exists() and splice_path(path).is_file()
    assert read_asset(studio, whole["sha256"], "png") == WHOLE
    rest = len(WHOLE) - len(_part(WHOLE, SPANS))
    assert splice_path(path).stat().st_size < rest + 300  # the rest and a short header, not the part again
    assert has_asset(studio, whole["sha256"], "png")
    assert stored_file(studio, whole["sha256"], "png") == (splice_path(path), len(WHOLE))
    assert splice_base(splice_path(path)) == (part["sha256"], "png")


@given(st.data())
def test_any_spans_in_order_splice_and_read_back(data) -> None:
    whole = data.draw(st.binary(min_size=1, max_size=600))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(whole)), min_size=2, max_size=12, unique=True)))
    spans = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts) - 1, 2) if cuts[i] < cuts[i + 1]]
    if not spans:
        return
    with tempfile.TemporaryDirectory() as folder:
        studio, _ = init_studio(Path(folder) / "studio")
        _part_ref, ref = _spliced(studio, whole, spans)
        assert read_asset(studio, ref["sha256"], "png") == whole


def test_landing_a_splice_lands_its_staged_base_first(studio: Studio) -> None:
    """A later draft of an apply may reuse a splice staged for an earlier, refused one, and not
    carry the base itself: the splice brings its base."""
    part = stage_asset(studio, _part(WHOLE, SPANS), "png", "image/png")
    sha = hashlib.sha256(WHOLE).hexdigest()
    base = (part.ref["sha256"], "png")
    staged = stage_splice(studio, WHOLE, "png", "image/png", sha256=sha, base=base, spans=SPANS, staged_base=part)
    assert part.temp is not None and staged.temp is not None
    land_asset(staged)
    assert part.temp is None and studio.asset_path(*base).is_file()
    assert read_asset(studio, sha, "png") == WHOLE


@pytest.mark.parametrize("staged", [False, True])
def test_no_splice_is_made_over_a_base_that_is_a_splice(studio: Studio, staged: bool) -> None:
    """A base is always a plain file (reviewer 447: a file an earlier draft of the window stored
    as a splice, taken as the base of another, left the other unreadable)."""
    part = put_asset(studio, _part(WHOLE, SPANS), "png")
    sha = hashlib.sha256(WHOLE).hexdigest()
    spliced = stage_splice(studio, WHOLE, "png", "", sha256=sha, base=(part["sha256"], "png"), spans=SPANS)
    land_asset(spliced)
    bigger = WHOLE[:5000] + b"one more chunk" * 400 + WHOLE[5000:]
    bigger_sha = hashlib.sha256(bigger).hexdigest()
    spans = [(0, 5000), (5000 + 14 * 400, len(bigger))]
    land_asset(
        stage_splice(
            studio,
            bigger,
            "png",
            "",
            sha256=bigger_sha,
            base=(sha, "png"),
            spans=spans,
            staged_base=spliced if staged else None,
        )
    )
    path = studio.asset_path(bigger_sha, "png")
    assert path.read_bytes() == bigger and not splice_path(path).exists()


def test_a_file_stored_plain_stays_plain(studio: Studio) -> None:
    plain = put_asset(studio, WHOLE, "png", "image/png")
    _part_ref, whole = _spliced(studio)
    path = studio.asset_path(plain["sha256"], "png")
    assert whole == plain and path.is_file() and not splice_path(path).exists()


@pytest.mark.parametrize(
    ("spans", "header_max"),
    [
        ([(at, at + 1) for at in range(0, 8192, 2)], None),  # 4,096 one-byte spans: the splice outweighs the file
        ([(0, 4096), (4100, 8192)], 50),  # a good splice, but its header past the limit
    ],
)
def test_a_splice_that_would_not_read_back_or_save_is_stored_plain(
    studio: Studio, monkeypatch, spans: list, header_max: int | None
) -> None:
    """A hand-made draft may name a part in thousands of one-byte spans: a header past the limit
    would make the file unreadable, and a splice no smaller than the file saves nothing."""
    whole = bytes(range(256)) * 32
    if header_max is not None:
        monkeypatch.setattr(limits, "ASSET_SPLICE_HEADER_MAX_BYTES", header_max)
    part = put_asset(studio, _part(whole, spans), "png")
    sha = hashlib.sha256(whole).hexdigest()
    land_asset(stage_splice(studio, whole, "png", "", sha256=sha, base=(part["sha256"], "png"), spans=spans))
    path = studio.asset_path(sha, "png")
    assert path.read_bytes() == whole and not splice_path(path).exists()


def test_a_good_splice_is_reused_and_a_damaged_one_replaced(studio: Studio) -> None:
    part, whole = _spliced(studio)
    spliced = splice_path(studio.asset_path(whole["sha256"], "png"))
    inode = spliced.stat().st_ino
    again = stage_splice(
        studio, WHOLE, "png", "image/png", sha256=whole["sha256"], base=(part["sha256"], "png"), spans=SPANS
    )
    assert again.temp is None and spliced.stat().st_ino == inode
    spliced.write_bytes(spliced.read_bytes()[:-5])  # torn
    assert _code(lambda: read_asset(studio, whole["sha256"], "png")) == "corrupt_asset"
    land_asset(
        stage_splice(
            studio, WHOLE, "png", "image/png", sha256=whole["sha256"], base=(part["sha256"], "png"), spans=SPANS
        )
    )
    assert read_asset(studio, whole["sha256"], "png") == WHOLE


@pytest.mark.parametrize(
    "damage",
    [
        "base_gone",
        "base_damaged",
        "header_garbage",
        "magic_wrong",
        "spans_past_size",
        "base_is_traversal",
        "rest_short",
        "span_not_a_whole_number",
    ],
)
def test_a_damaged_splice_or_base_is_a_coded_refusal(studio: Studio, damage: str) -> None:
    part, whole = _spliced(studio)
    spliced = splice_path(studio.asset_path(whole["sha256"], "png"))
    base = studio.asset_path(part["sha256"], "png")
    raw = spliced.read_bytes()
    magic, header, rest = raw.split(b"\n", 2)
    if damage == "base_gone":
        base.unlink()
    elif damage == "base_damaged":
        base.write_bytes(b"x" + base.read_bytes()[1:])
    elif damage == "header_garbage":
        spliced.write_bytes(magic + b"\n{not json\n" + rest)
    elif damage == "magic_wrong":
        spliced.write_bytes(b"bunzai splice 9\n" + header + b"\n" + rest)
    elif damage == "spans_past_size":
        spliced.write_bytes(magic + b"\n" + header.replace(b"10240]]", b"99999]]") + b"\n" + rest)
    elif damage == "base_is_traversal":
        spliced.write_bytes(magic + b"\n" + header.replace(part["sha256"].encode(), b"../" + b"0" * 61) + b"\n" + rest)
    elif damage == "span_not_a_whole_number":
        spliced.write_bytes(magic + b"\n" + header.replace(b"[[0,4000]", b"[[0,4000.0]") + b"\n" + rest)
    else:
        spliced.write_bytes(raw[:-1])
    assert (spliced.read_bytes(), base.read_bytes() if base.exists() else None) != (raw, _part(WHOLE, SPANS))
    assert _code(lambda: read_asset(studio, whole["sha256"], "png")) == "corrupt_asset"


def test_a_splice_header_without_end_is_damaged(studio: Studio, monkeypatch) -> None:
    _part_ref, whole = _spliced(studio)
    monkeypatch.setattr(limits, "ASSET_SPLICE_HEADER_MAX_BYTES", 20)
    assert _code(lambda: read_asset(studio, whole["sha256"], "png")) == "corrupt_asset"


def test_encode_keeps_the_bytes_between_and_around_the_spans() -> None:
    record = encode_splice(("a" * 64, "png"), [(2, 4), (6, 7)], b"0123456789")
    assert record.split(b"\n", 2)[2] == b"01" + b"45" + b"789"


def _attachment(path: str, size: int, spans: list | None = None, **more) -> dict:
    where = {"path": path, **({"spans": spans} if spans is not None else {}), **more}
    return {"ext": "png", "mime": "image/png", "size": size, "from": where}


def test_the_plan_splices_a_whole_file_over_its_largest_part() -> None:
    big, small = limits.ASSET_SPLICE_MIN_BYTES + 10, limits.ASSET_SPLICE_MIN_BYTES
    attachments = {
        "whole": _attachment("/x/card.png", big + 100),
        "part": _attachment("/x/card.png", big, [[0, 50], [50, big - 10], [big - 10, big - 10], [big + 90, big + 100]]),
        "smaller": _attachment("/x/card.png", small, [[0, small]]),
    }
    assert splice_plan(attachments) == {"whole": ("part", [(0, big - 10), (big + 90, big + 100)])}


@pytest.mark.parametrize(
    "part",
    [
        _attachment("/x/card.png", limits.ASSET_SPLICE_MIN_BYTES - 1, [[0, limits.ASSET_SPLICE_MIN_BYTES - 1]]),
        _attachment("/x/other.png", 5000, [[0, 5000]]),  # another file
        _attachment("/x/card.png", 5000, [[3000, 6000], [0, 2000]]),  # out of order
        _attachment("/x/card.png", 5000, [[0, 3000], [2000, 4000]]),  # overlapping
        _attachment("/x/card.png", 5000, [[5000, 10000]]),  # past the whole file
        _attachment("/x/card.png", 5000, [[0, 5000]], member="a.png"),  # an archive member
    ],
)
def test_the_plan_leaves_a_file_whole_without_a_part_that_fits(part: dict) -> None:
    assert splice_plan({"whole": _attachment("/x/card.png", 8000), "part": part}) == {}


def _code(call) -> str:
    with pytest.raises(BunzaiError) as caught:
        call()
    return caught.value.code


def _card_piece(piece_id: str, portrait: dict, original: dict) -> dict:
    return {
        "kind": "character",
        "id": piece_id,
        "name": piece_id.title(),
        "body": {"portrait": portrait},
        "original": {"format": "sillytavern.card.png", "document": {}, "files": {"card.png": original}},
    }


def test_a_used_splice_keeps_its_base_from_doctor(studio: Studio) -> None:
    """The portrait replaced, only the escrowed original's splice names the old portrait: it
    stays; the piece deleted for good, splice and base are both orphans, and repair removes both."""
    from bunzai.store.doctor import examine
    from bunzai.store.pieces import create_piece, delete_piece, read_stored, update_piece

    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    assert examine(studio)["clean"]
    other = put_asset(studio, b"another portrait", "png", "image/png")
    update_piece(studio, _card_piece("ada", other, whole), read_stored(studio, "character", "ada").revision)
    _forget_history(studio)  # the revision revert keeps names the old portrait too
    report = examine(studio, repair=True)
    assert report["clean"] and report["assets"] == 3
    assert read_asset(studio, whole["sha256"], "png") == WHOLE
    delete_piece(studio, "character", "ada")
    _forget_history(studio)
    report = examine(studio, repair=True)
    removed = sorted(Path(row["path"]).name for row in report["repaired"])
    spliced = splice_path(studio.asset_path(whole["sha256"], "png")).name
    assert removed == sorted([f"{part['sha256']}.png", f"{other['sha256']}.png", spliced])
    assert list(studio.assets_dir.iterdir()) == []


def _forget_history(studio: Studio) -> None:
    kept = [path for path in (studio.root / ".bunzai" / "history").rglob("*") if path.is_file()]
    assert kept
    for path in kept:
        path.unlink()


def test_doctor_names_a_piece_whose_media_cannot_be_read(studio: Studio) -> None:
    """A medium with no file, a splice whose base was deleted by hand, a splice whose header is
    damaged: each is a missing_asset problem of the piece naming it, which repair leaves."""
    from bunzai.store.doctor import examine
    from bunzai.store.pieces import create_piece

    part, whole = _spliced(studio)
    create_piece(studio, _card_piece("ada", part, whole))
    never = {"sha256": "e" * 64, "ext": "png", "mime": "image/png"}
    create_piece(studio, {"kind": "character", "id": "bob", "name": "Bob", "body": {"portrait": never}})
    report = examine(studio, repair=True)
    assert [(p["check"], p["asset"]) for p in report["problems"]] == [("missing_asset", f"{'e' * 64}.png")]
    assert "assets/" + "e" * 64 + ".png, which is not in the studio" in report["problems"][0]["message"]
    studio.asset_path(part["sha256"], "png").unlink()
    found = examine(studio)["problems"]
    assert sorted((p["check"], p["asset"].split(".")[0]) for p in found) == sorted(
        [("missing_asset", "e" * 64), ("missing_asset", part["sha256"]), ("missing_asset", whole["sha256"])]
    )
    assert any("whose base assets/" in p["message"] for p in found)
    spliced = splice_path(studio.asset_path(whole["sha256"], "png"))
    spliced.write_bytes(b"not a splice")
    assert any("header is damaged" in p["message"] for p in examine(studio)["problems"])
