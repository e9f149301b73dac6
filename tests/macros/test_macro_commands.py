"""The macro commands, run as a person would: one JSON document each, errors as refusals."""

from __future__ import annotations


def test_translate_reads_stdin_and_reports_verdicts(bare_bunzai) -> None:
    result = bare_bunzai("macro", "translate", "--from", "rolecall", "--to", "sillytavern", input="{{random::1::10}}")
    assert result.code == 0
    assert result.json["verdicts"][0]["verdict"] == "collision"
    assert result.json["text"] == "{{random::1::10}}"


def test_translate_reads_a_file(bare_bunzai, tmp_path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("{{setvar::x::1}}", encoding="utf-8")
    result = bare_bunzai("macro", "translate", "--from", "sillytavern", "--to", "lumiverse", str(path))
    assert result.json["text"] == "{{setchatvar::x::1}}"


def test_translate_to_an_unmodelled_engine_is_unchecked(bare_bunzai) -> None:
    result = bare_bunzai("macro", "translate", "--from", "sillytavern", "--to", "fast-tavern", input="{{char}}")
    assert result.code == 0 and result.json["checked"] is False


def test_translate_of_a_missing_file_is_refused(bare_bunzai) -> None:
    result = bare_bunzai("macro", "translate", "--from", "sillytavern", "--to", "agnai", "nope.txt")
    assert result.code == 1 and result.json["error"]["code"] == "not_found"


def test_engines_lists_every_catalog(bare_bunzai) -> None:
    engines = {row["engine"] for row in bare_bunzai("macro", "engines").json["items"]}
    assert {"sillytavern", "sillytavern-legacy", "rolecall", "lumiverse", "marinara", "risuai", "agnai"} <= engines


def test_macro_lookup_says_what_a_form_becomes(bare_bunzai) -> None:
    doc = bare_bunzai("macro-lookup", "random", "--engine", "rolecall", "--to", "sillytavern").json
    fate = doc["items"][0]["on"]["forms"][0]
    assert fate["verdict"] == "collision" and fate["op"] == "random.range"


def test_macro_lookup_of_an_unknown_name_is_refused(bare_bunzai) -> None:
    result = bare_bunzai("macro-lookup", "nosuchmacro")
    assert result.code == 1 and result.json["error"]["code"] == "not_found"


def test_block_lookup_lists_kinds_and_shows_one(bare_bunzai) -> None:
    kinds = [k["kind"] for k in bare_bunzai("block-lookup").json["items"]]
    assert "tracker" in kinds and "summary" in kinds
    tracker = bare_bunzai("block-lookup", "tracker").json
    assert tracker["goes_wrong"] and tracker["start"]
    assert bare_bunzai("block-lookup", "nope").code == 1
