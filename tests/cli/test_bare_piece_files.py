"""A piece file copied out of a studio (`character/<id>.json`) reads as the bunzai piece it is,
not as an Agnai character; the media it names stay in the studio it came from."""

from __future__ import annotations

from testkit import big_card


def _with_nova(bunzai):
    card = bunzai.home / "nova.png"
    card.write_bytes(big_card("Nova"))
    bunzai("apply", "--yes", input=bunzai("import", str(card)).stdout, check=True)
    copy = bunzai.home / "nova-piece.json"
    copy.write_bytes((bunzai.studio / "character" / "nova.json").read_bytes())
    return copy


def test_a_character_piece_file_reads_as_bunzai_native_with_its_text(bunzai) -> None:
    """Agnai's own import test takes any `"kind": "character"` (0.95): the copy read as an empty
    Agnai card, with no loss reported (reviewer 449)."""
    copy = _with_nova(bunzai)
    draft = bunzai("import", str(copy), check=True).lines[0]
    assert draft["operations"][0]["input"]["format"] == "bunzai.native"
    assert draft["proposed"]["body"]["description"] == "big"
    assert draft["proposed"]["original"]["format"] == "sillytavern.card.png"


def test_its_media_come_from_the_studio_or_it_is_refused_with_a_code(bunzai, tmp_path) -> None:
    from bunzai.store.studio import init_studio

    copy = _with_nova(bunzai)
    other = type(bunzai)(bunzai.home, init_studio(tmp_path / "other")[0].root)  # the fixture's runner
    refused = other("apply", "--yes", input=other("import", str(copy)).stdout)
    assert refused.code == 1 and refused.lines[0]["status"] == "failed" and refused.lines[0]["reason"] == "not_found"
    bunzai("bury", "nova", check=True)
    applied = bunzai("apply", "--yes", input=bunzai("import", str(copy)).stdout, check=True)
    assert applied.lines[0]["status"] == "applied"
    assert _exported(bunzai) == (bunzai.home / "nova.png").read_bytes()


def test_converting_it_to_a_format_that_needs_its_media_is_not_found(bunzai) -> None:
    copy = _with_nova(bunzai)
    refused = bunzai("convert", str(copy), "--to", "sillytavern.card.png", "-o", str(bunzai.home / "out.png"))
    assert refused.code == 1 and refused.json["error"]["code"] == "not_found"
    assert not (bunzai.home / "out.png").exists()
    done = bunzai("convert", str(copy), "--to", "ccv3.json", "-o", str(bunzai.home / "out.json"), check=True)
    assert done.json["source_format"] == "bunzai.native"


def _exported(bunzai) -> bytes:
    done = bunzai("export", "nova", "--to", "sillytavern.card.png", check=True).lines[-1]
    return (bunzai.studio / done["path"]).read_bytes()
