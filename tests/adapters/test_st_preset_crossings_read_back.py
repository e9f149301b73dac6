"""A preset crossing writes a file bunzai reads back as the format it was written as.

SillyTavern never sniffs a preset (the user picks the panel), so a file written from another
family's preset holds only the target's own keys: `{"temperature": .., "frequency_penalty": ..}`
from a TextGen preset, `{"temp": .., "genamt": ..}` from a chat one. Each sampler-preset format
claims such a file (`PresetAdapter.made_of_own_keys`) unless its keys are all another's too, and
a new KoboldAI file says `typical` (SillyTavern's default, TYPICAL_MARKER), which tells it from
TextGen. A file of keys a chat and a NovelAI preset share stays unclaimed: it is listed here.
"""

from __future__ import annotations

import json
import random

import pytest

from bunzai.adapters.inspect import inspect_bytes, read_bytes
from bunzai.adapters.registry import all_adapters, get_adapter, readers_of
from bunzai.adapters.sillytavern.presets import OWN_KEYS_CONFIDENCE, PresetAdapter
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from test_st_kobold_min_p import cross, no_media, read
from testkit import CORPUS, corpus_path

CHAT, TEXTGEN, KOBOLD, NOVEL = (
    "sillytavern.preset.chat",
    "sillytavern.preset.textgen",
    "sillytavern.preset.kobold",
    "sillytavern.preset.novel",
)
SAMPLER_FORMATS = (CHAT, TEXTGEN, KOBOLD, NOVEL)


def corpus_presets() -> list[str]:
    """The corpus preset files (SillyTavern's, Marinara's, RisuAI's), as paths under it; one
    placeholder where the corpus is absent, which the test skips through corpus_path."""
    if not CORPUS.is_dir():
        return ["sillytavern/presets"]
    found = [*(CORPUS / "sillytavern" / "presets").rglob("*.json"), *CORPUS.rglob("*preset*.marinara.json")]
    found += [*CORPUS.rglob("*.risup"), *CORPUS.rglob("*.risupreset")]
    return sorted(str(path.relative_to(CORPUS)) for path in found)


WRITABLE = sorted(
    adapter.format_id
    for adapter in all_adapters()
    if "preset" in adapter.kinds and adapter.can_write and adapter.format_id != "bunzai.native"
)
# Written files whose keys are all a chat-completion and a NovelAI preset's: neither claims them.
# SillyTavern's chat preset loader keeps its value for a key the file lacks, so no key can be
# added to tell them apart without changing a setting there.
SHARED_KEYS = {("sillytavern/presets/kobold/Godlike.json", CHAT)}


@pytest.mark.parametrize("target", WRITABLE)
@pytest.mark.parametrize("source", corpus_presets())
def test_a_corpus_preset_written_as_each_preset_format_reads_back_as_that_format(source, target, table):
    path = corpus_path(*source.split("/"))
    piece = read_bytes(path.read_bytes(), path.name)[1].pieces[0]
    try:
        written = convert_piece(piece, target, no_media).data
    except BunzaiError as error:  # a family the target keeps nothing of: nothing is written
        assert error.code == "unsupported" and error.details["family"] == piece.body.family
        return
    name = "written" + get_adapter(target).extensions[0]
    if (source, target) in SHARED_KEYS:
        with pytest.raises(BunzaiError) as refused:
            inspect_bytes(written, name)
        assert refused.value.code == "unrecognized_file"
        assert set(json.loads(written)) <= get_adapter(CHAT).own_keys & get_adapter(NOVEL).own_keys
        return
    assert inspect_bytes(written, name).adapter.format_id == target


def sniffs(document: dict) -> dict[str, float]:
    """Every text format's claim on `document` (those that claim it)."""
    data = json.dumps(document).encode()
    scores = {adapter.format_id: adapter.sniff(data, "Preset.json", document) for adapter in readers_of("text")}
    return {format_id: score for format_id, score in scores.items() if score}


@pytest.mark.parametrize(
    ("document", "format_id"),
    [
        ({"temperature": 0.7, "frequency_penalty": 0, "presence_penalty": 0, "top_p": 0.5}, CHAT),
        ({"temperature": 1, "openai_max_tokens": 300}, CHAT),
        ({"temperature": 0.9, "max_context": 4095, "max_length": 300, "repetition_penalty_frequency": 0.7}, NOVEL),
        ({"temp": 0.9, "freq_pen": 0.7, "presence_pen": 0.7, "genamt": 300, "max_length": 4095}, TEXTGEN),
        ({"temp": 1, "top_p": 1, "min_p": 0, "top_k": 0, "genamt": 8192, "max_length": 128000}, TEXTGEN),
        ({"temp": 0.9, "typical": 1, "genamt": 300, "max_length": 4095}, KOBOLD),
    ],
)
def test_a_file_of_one_formats_own_keys_is_that_formats_at_a_lower_confidence(document, format_id):
    assert sniffs(document) == {format_id: OWN_KEYS_CONFIDENCE}
    assert inspect_bytes(json.dumps(document).encode(), "Preset.json").adapter.format_id == format_id


@pytest.mark.parametrize(
    "document",
    [
        {},
        {"extensions": {}},
        {"top_p": 1, "top_k": 0},  # every sampler family's keys
        {"temperature": 0.7, "top_p": 0.5, "repetition_penalty": 1.1},  # a chat and a NovelAI preset's
        {"seed": 1, "n": 1},  # a chat and a TextGen preset's
        {"temperature": 0.7, "frequency_penalty": 0, "name": "Mine"},  # a key no sampler preset has
        {"temperature": 0.7, "frequency_penalty": 0, "messages": []},  # an OpenAI request, not a preset
        {"temp": 0.7, "temperature": 0.7},  # TextGen's and chat's spellings at once
    ],
)
def test_a_file_not_made_of_one_formats_own_keys_is_claimed_by_no_preset_format(document):
    assert not set(sniffs(document)) & set(SAMPLER_FORMATS)


def test_the_lower_claim_leaves_every_file_another_rule_claims_to_it():
    """Random objects of sampler-preset keys (and some others): where a format claims one by its
    own keys alone, no other format sniffs it at all, so no file another format claims moved."""
    owned = sorted(set().union(*(get_adapter(format_id).own_keys for format_id in SAMPLER_FORMATS)))
    others = ["name", "content", "prompts", "entries", "data", "spec", "input_sequence", "story_string", "prefix"]
    rng = random.Random(7)
    weak = 0
    for _ in range(3000):
        keys = rng.sample(owned if rng.random() < 0.8 else owned + others, rng.randint(1, 8))
        scores = sniffs({key: rng.choice([0, 1, 0.5, "x", [], {}]) for key in keys})
        lower = [format_id for format_id, score in scores.items() if score == OWN_KEYS_CONFIDENCE]
        if lower:
            weak += 1
            assert list(scores) == lower and len(lower) == 1 and lower[0] in SAMPLER_FORMATS, scores
    assert weak > 100  # the rule was exercised


def test_only_the_four_sampler_preset_formats_have_own_keys():
    keyed = [a.format_id for a in all_adapters() if isinstance(a, PresetAdapter) and a.own_keys]
    assert sorted(keyed) == sorted(SAMPLER_FORMATS)


# --- the `typical` a new KoboldAI file says ---------------------------------------------------


def test_a_new_kobold_file_without_a_typical_sampler_says_sillytaverns_default_and_names_it():
    piece = read(TEXTGEN, {"temp": 0.7, "top_p": 0.9, "top_k": 40, "rep_pen": 1.1, "genamt": 300})
    written, losses = cross(piece, KOBOLD)
    assert list(written) == ["temp", "rep_pen", "top_p", "top_k", "typical", "genamt"]
    assert written["typical"] == 1
    assert ("preset.kobold.typical_default", "/body/samplers/typical_p") in losses
    assert inspect_bytes(json.dumps(written).encode(), "Preset.json").adapter.format_id == KOBOLD


def test_a_typical_sampler_the_piece_sets_is_written_as_it_is_and_no_loss_is_named():
    piece = read(TEXTGEN, {"temp": 0.7, "top_p": 0.9, "top_k": 40, "rep_pen": 1.1, "typical_p": 0.9})
    written, losses = cross(piece, KOBOLD)
    assert written["typical"] == 0.9
    assert not any(code == "preset.kobold.typical_default" for code, _ in losses)


def test_an_escrowed_kobold_file_without_typical_goes_back_as_it_came():
    document = {"temp": 0.7, "top_p": 0.9, "top_k": 40, "rep_pen": 1.1}  # read with --format
    written, losses = cross(read(KOBOLD, document), KOBOLD)
    assert written == document
    assert not any(code == "preset.kobold.typical_default" for code, _ in losses)


def test_a_piece_kobold_keeps_nothing_of_is_still_refused_and_gets_no_typical():
    piece = read("sillytavern.sysprompt", {"name": "Plain", "content": "Be brief."})
    with pytest.raises(BunzaiError) as refused:
        convert_piece(piece, KOBOLD, no_media)
    assert refused.value.code == "unsupported"
