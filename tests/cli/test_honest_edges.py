"""Honest errors at the edges: a renamed text file, and an explicit --format the file does not have."""

from __future__ import annotations

from testkit import corpus_path


def test_a_text_file_named_png_is_not_a_png(bunzai, tmp_path):
    for text in ("hello world\n", '{"name": "x"'):
        path = tmp_path / "card.png"
        path.write_text(text)
        refused = bunzai("import", str(path))
        assert refused.code == 1
        assert refused.json["error"]["code"] == "unrecognized_file"
        assert "is not a PNG" in refused.json["error"]["message"]
        assert "JSON" not in refused.json["error"]["message"]


def test_a_format_whose_shape_the_file_lacks_is_refused_and_drafts_nothing(bunzai):
    world = corpus_path("sillytavern", "worlds", "Eldoria.json")
    for fmt, words in (("ccv2.json", "reads as SillyTavern world info"), ("sillytavern.card.png", "it is text")):
        refused = bunzai("import", str(world), "--format", fmt)
        assert refused.code == 1, fmt
        assert refused.json["error"]["code"] == "unrecognized_file"
        assert words in refused.json["error"]["message"]
    assert bunzai("list", check=True).json["items"] == []


def test_a_format_of_the_same_kind_may_still_be_forced(bunzai):
    card = corpus_path("card-architect", "test-ccv2-amanda.json")
    drafts = bunzai("import", str(card), "--format", "sillytavern.card.json", check=True).lines
    assert drafts[0]["target"]["kind"] == "character" and drafts[0]["proposed"]["name"]
