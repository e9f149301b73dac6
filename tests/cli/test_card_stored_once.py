"""A card PNG is stored once: its portrait as a file, the original (escrowed for a lossless write
back) as a splice of it, and the card written back is the same file, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

from testkit import big_card, corpus_path, v2_card_png

from bunzai import limits


def _stored(bunzai) -> dict[str, int]:
    return {path.name: path.stat().st_size for path in (bunzai.studio / "assets").iterdir()}


def _exported(bunzai, ref: str) -> bytes:
    done = bunzai("export", ref, "--to", "sillytavern.card.png", check=True).lines[-1]
    return (bunzai.studio / done["path"]).read_bytes()


def test_a_card_with_a_big_portrait_is_stored_once_and_written_back_as_it_was(bunzai) -> None:
    card = bunzai.home / "nova.png"
    card.write_bytes(big_card("Nova"))
    bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
    portrait = bunzai("read", "nova", check=True).json["piece"]["body"]["portrait"]
    stored = _stored(bunzai)
    spliced = [name for name in stored if name.endswith(".png.splice")]
    assert sorted(stored) == sorted([f"{portrait['sha256']}.png", *spliced]) and len(spliced) == 1
    assert stored[f"{portrait['sha256']}.png"] >= limits.ASSET_SPLICE_MIN_BYTES
    assert sum(stored.values()) < card.stat().st_size + 300  # once, and a short header
    assert _exported(bunzai, "nova") == card.read_bytes()
    assert bunzai("doctor", check=True).json["clean"]


def test_a_card_with_a_small_portrait_keeps_both_files_plain(bunzai) -> None:
    card = bunzai.home / "ada.png"
    card.write_bytes(v2_card_png("Ada"))
    bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
    stored = _stored(bunzai)
    assert len(stored) == 2 and all(name.endswith(".png") for name in stored)
    assert _exported(bunzai, "ada") == card.read_bytes()


def test_seraphina_takes_her_file_size_on_disk_not_twice_it(bunzai) -> None:
    card = corpus_path("sillytavern", "characters", "default_Seraphina.png")
    bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
    assert sum(_stored(bunzai).values()) < card.stat().st_size * 1.01
    assert _exported(bunzai, "seraphina") == Path(card).read_bytes()
    assert bunzai("doctor", check=True).json["clean"]


def test_a_native_copy_carries_the_image_once_and_imports_as_a_splice(bunzai, tmp_path) -> None:
    """bunzai.native carries the original as its portrait and the run put in; a studio importing
    it finds the same and stores the original as a splice, though the file names no spans."""
    from bunzai.store.studio import init_studio

    card = bunzai.home / "nova.png"
    card.write_bytes(big_card("Nova", side=96))
    bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
    done = bunzai("export", "nova", "--to", "bunzai.native", check=True).lines[-1]
    native = bunzai.studio / done["path"]
    assert native.stat().st_size < card.stat().st_size * 1.6  # base64 (4/3) of the image once: twice is 2.7x
    other = type(bunzai)(bunzai.home, init_studio(tmp_path / "other")[0].root)  # the fixture's runner
    other("apply", "--yes", input=other("import", str(native)).stdout, check=True)
    assert sorted(name.rsplit(".", 1)[-1] for name in _stored(other)) == ["png", "splice"]
    assert _exported(other, "nova") == card.read_bytes()


def test_two_native_cards_of_one_portrait_in_one_apply_are_both_splices(bunzai, tmp_path) -> None:
    """The second card's portrait was staged by the first card's draft in the same apply window:
    it is still the base its original is spliced over."""
    from bunzai.store.studio import init_studio

    natives = []
    for name in ("Nova", "Vega"):  # the same image of noise, two cards
        card = bunzai.home / f"{name}.png"
        card.write_bytes(big_card(name))
        bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
        done = bunzai("export", name.lower(), "--to", "bunzai.native", check=True).lines[-1]
        natives.append(str(bunzai.studio / done["path"]))
    other = type(bunzai)(bunzai.home, init_studio(tmp_path / "other")[0].root)
    other("apply", "--yes", input=other("import", *natives).stdout, check=True)
    assert sorted(name.rsplit(".", 1)[-1] for name in _stored(other)) == ["png", "splice", "splice"]
    assert _exported(other, "vega") == (bunzai.home / "Vega.png").read_bytes()


def test_an_escrowed_file_that_is_the_part_of_a_splice_is_staged_first(bunzai) -> None:
    """A hand-made draft may name the part (by spans) in the escrow and the whole file as the
    portrait: the part is still staged before the splice built on it."""
    card = bunzai.home / "nova.png"
    card.write_bytes(big_card("Nova"))
    draft = bunzai("import", str(card), check=True).lines[0]
    body, original = draft["proposed"]["body"], draft["proposed"]["original"]
    body["portrait"], original["files"]["card.png"] = original["files"]["card.png"], body["portrait"]
    applied = bunzai("apply", "--yes", input=json.dumps(draft) + "\n")
    assert applied.code == 0, applied.stdout + applied.stderr
    assert sorted(name.rsplit(".", 1)[-1] for name in _stored(bunzai)) == ["png", "splice"]
    assert bunzai("art", "nova", "--out", str(bunzai.home / "art.png"), check=True).json["size"] == len(
        card.read_bytes()
    )


def test_doctor_verify_assets_finds_a_damaged_portrait_and_an_import_again_mends_it(bunzai) -> None:
    """Through the command: the flag reads the bytes, names the card it hurts (its portrait and
    the original spliced over it), and the remedy the doctor page gives clears it."""
    card = bunzai.home / "nova.png"
    card.write_bytes(big_card("Nova"))
    bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
    portrait = bunzai("read", "nova", check=True).json["piece"]["body"]["portrait"]
    path = bunzai.studio / "assets" / f"{portrait['sha256']}.png"
    path.write_bytes(path.read_bytes()[:-1] + b"\0")
    assert bunzai("doctor", check=True).json["clean"]
    found = bunzai("doctor", "--verify-assets")
    assert found.code == 1
    damaged = sorted((Path(p["path"]).suffix, p["code"], p["pieces"]) for p in found.json["problems"])
    assert damaged == [(".png", "corrupt_asset", ["character/nova"]), (".splice", "corrupt_asset", ["character/nova"])]
    again = bunzai("import", str(card), "--on-conflict", "suffix", check=True).stdout
    copy = bunzai("apply", "--yes", input=again, check=True).json["target"]["id"]
    bunzai("delete", copy, "--yes", check=True)
    assert bunzai("doctor", "--verify-assets", check=True).json["clean"]
    assert _exported(bunzai, "nova") == card.read_bytes()
