"""The 18 crash groups of issue 17 as regression tests, each with its smallest reproducer built
here. Each once ended in an uncaught exception (exit 3); each must now be a coded refusal
(`corrupt_file` naming the pointer, ...) or a clean read. Groups already tested elsewhere are
not repeated; the list says where each is.

Crash groups of issue 17, and where each is tested:

- 1: lone surrogate (`"\\ud800"`) in a text field, every format family. Tested here:
  `test_a_lone_surrogate_in_a_text_field_of_every_family_is_mended_and_said`; end to end (import, apply):
  tests/cli/test_hostile_values.py `test_a_lone_surrogate_in_a_card_is_replaced_said_and_the_card_applies`
- 2: BYAF manifest `characters` / `scenarios` as a number. Tested here:
  `test_a_byaf_list_of_the_wrong_type_is_corrupt_file_naming_its_pointer[manifest-*]`
- 3: BYAF character `images` as a number. Tested here: same test, `[character-images]`
- 4: BYAF scenario first messages as a number (byaf_docs). Tested here: same test, `[scenario-firstMessages]`
- 5: BYAF scenario example messages as a number (byaf_docs). Tested here: same test, `[scenario-exampleMessages]`
- 6: `assets` as a number in a native piece file. Tested in tests/test_fuzz_readers.py
  `test_native_assets_of_the_wrong_type_are_a_coded_refusal`
- 7: `parameters: true` in a Marinara preset. Tested here: `test_marinara_parameters_of_any_type_are_not_a_crash`
- 8: a 5,000-digit integer in YAML. Tested in tests/test_fuzz_readers.py
  `test_a_yaml_integer_of_thousands_of_digits_is_a_coded_refusal`
- 9: a pydantic ValidationError out of a mutated `.risum`. Tested here:
  `test_a_risum_with_a_wrong_value_at_any_key_is_read_or_refused`
- 10-16: `convert` on `1e400` in seven writers (at 1c81005~1 a typed number of 19 formats crashed five serializers:
  agnai/json_io.py, ccv3/json_io.py, common/jsjson.py, common/charx_card.py, sillytavern/st_json.py; see
  BIG_NUMBER_SITES). Tested here:
  `test_convert_of_a_number_past_float_range_is_refused_where_each_writer_crashed[<format>]` (each of the 19) and
  `test_convert_of_a_card_with_a_number_past_float_range_is_refused_for_every_writer`; end to end:
  tests/cli/test_hostile_values.py `test_a_number_too_large_for_a_float_is_refused_on_read_by_every_command`
- 17: YAML `!!binary` values in `convert`. Tested here:
  `test_convert_of_a_yaml_binary_value_is_refused_whatever_the_format`; the reader:
  tests/adapters/test_textgen_formats.py `test_hostile_yaml_gives_a_coded_error`
- 18: a YAML file forced to `--format sillytavern.regex` (KeyError `scriptName`). Tested here:
  `test_a_yaml_file_forced_to_a_regex_script_converts_without_a_crash`

Crashes later fuzzing found (bench/fuzz.py) are regression-tested in tests/test_fuzz_readers.py.
"""

from __future__ import annotations

import json

import pytest
from fuzzkit import WRONG, Outcome, _pointers, _replace, read_and_follow_through, risu_decoding, run_one, seeds
from testkit import corpus_path

from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.registry import all_adapters
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError

SEEDS = seeds()


def seed_of(family: str, prefix: str = ""):
    return min(
        (s for s in SEEDS if s.family == family and s.doc is not None and s.name.startswith(prefix)),
        key=lambda s: len(s.data),
    )


def outcome_of(data: bytes, name: str, format_id: str | None = None) -> Outcome:
    outcome = Outcome()
    run_one(data, name, outcome, read_and_follow_through, format_id)
    assert not outcome.crashes, next(iter(outcome.crashes.values()))[3]
    return outcome


def convert_like_the_cli(data: bytes, name: str, to: str, format_id: str | None = None):
    """What `bunzai convert FILE --to FORMAT [--format F]` does with a file's bytes."""
    _adapter, decoded = read_bytes(data, name, format_id)
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    return convert_piece(decoded.pieces[0], to, lambda ref: blobs[ref.sha256])


def longest_text(doc) -> tuple | None:
    """The pointer of the longest prose value in a document (a text field with a space, not a
    type tag, a path or base64), or None when it holds none."""
    texts = []
    for path in _pointers(doc):
        value = doc
        for part in path:
            value = value[part]
        if isinstance(value, str) and " " in value:
            texts.append((len(value), path))
    return max(texts)[1] if texts else None


@pytest.mark.parametrize("family", sorted({s.family for s in SEEDS if s.doc is not None}))
def test_a_lone_surrogate_in_a_text_field_of_every_family_is_mended_and_said(family: str) -> None:
    with_text = [
        s
        for s in sorted(SEEDS, key=lambda s: len(s.data))
        if s.family == family and s.doc is not None and longest_text(s.doc) is not None
    ]
    if not with_text:
        pytest.skip(f"no {family} seed has a text field (a sprite pack holds images and names only)")
    seed = with_text[0]
    doc = json.loads(json.dumps(seed.doc))
    path = longest_text(doc)
    holder = doc
    for part in path[:-1]:
        holder = holder[part]
    holder[path[-1]] += "\ud800"
    data = seed.encode(doc)  # written as JavaScript writes it: the escape \ud800
    outcome = Outcome()
    drafts = read_and_follow_through(data, seed.name, seed.format_id)
    run_one(data, seed.name, outcome, read_and_follow_through, seed.format_id)
    assert outcome.accepted == 1 and not outcome.crashes
    assert any("surrogate" in warning for draft in drafts for warning in json.loads(draft).get("warnings", []))


BYAF_LISTS = [
    ("manifest.json", "characters"),
    ("manifest.json", "scenarios"),
    ("characters/made-card/character.json", "images"),
    ("scenarios/scenario1.json", "firstMessages"),
    ("scenarios/scenario1.json", "exampleMessages"),
]


@pytest.mark.parametrize(
    ("member", "key"), BYAF_LISTS, ids=[f"{m.split('/')[0].split('.')[0].rstrip('s')}-{k}" for m, k in BYAF_LISTS]
)
@pytest.mark.parametrize("wrong", [5, 1.5, True, "x", {"a": 1}])
def test_a_byaf_list_of_the_wrong_type_is_corrupt_file_naming_its_pointer(member: str, key: str, wrong) -> None:
    seed = seed_of("backyard", "made")
    doc = json.loads(json.dumps(seed.doc))
    doc[member][key] = wrong
    with pytest.raises(BunzaiError) as refused:
        read_bytes(seed.encode(doc), seed.name)
    assert refused.value.code == "corrupt_file" and f"{member} /{key}" in refused.value.message
    assert outcome_of(seed.encode(doc), seed.name, "backyard.byaf").refused == 1


@pytest.mark.parametrize("wrong", [True, False, 5, 1e300, [], [1], "not json", "[1]", "true", None])
def test_marinara_parameters_of_any_type_are_not_a_crash(wrong) -> None:
    preset = json.loads(corpus_path("marinara-engine", "default-preset.marinara.json").read_bytes())
    holder = preset.get("data", preset)
    holder = holder.get("preset", holder) if isinstance(holder.get("preset"), dict) else holder
    assert "parameters" in holder
    holder["parameters"] = wrong
    outcome_of(json.dumps(preset).encode(), "default-preset.marinara.json")
    outcome_of(json.dumps(preset).encode(), "default-preset.marinara.json", "marinara.preset")


def test_a_risum_with_a_wrong_value_at_any_key_is_read_or_refused() -> None:
    """Every key of a module (its lorebook and regex rows included) holding each wrong value."""
    seed = seed_of("risu-module")
    outcome = Outcome()
    for path in _pointers(seed.doc):
        for wrong in WRONG:
            data = seed.encode(_replace(json.loads(json.dumps(seed.doc)), path, json.loads(json.dumps(wrong))))
            run_one(data, seed.name, outcome, read_and_follow_through, "risu.module")
    assert not outcome.crashes, next(iter(outcome.crashes.values()))[3]
    assert outcome.accepted and outcome.tried == len(_pointers(seed.doc)) * len(WRONG)
    with risu_decoding():
        book = read_bytes(seed.data, seed.name)[1].pieces[0]
    assert book.kind == "lorebook" and book.body.entries  # the fixture table decodes it


CHARACTER_WRITERS = sorted(a.format_id for a in all_adapters() if a.can_write and "character" in a.kinds)
CARD = {
    "spec": "chara_card_v2",
    "spec_version": "2.0",
    "data": {"name": "Zed", "description": "d", "first_mes": "hi", "extensions": {"depth": "BIG"}},
}


@pytest.mark.parametrize("to", CHARACTER_WRITERS)
@pytest.mark.parametrize("big", ["1e400", "-1e400", "9" * 400 + ".0"])
def test_convert_of_a_card_with_a_number_past_float_range_is_refused_for_every_writer(to: str, big: str) -> None:
    data = json.dumps(CARD).replace('"BIG"', big).encode()
    with pytest.raises(BunzaiError) as refused:
        convert_like_the_cli(data, "zed.json", to)
    assert refused.value.code in ("invalid_json", "corrupt_file") and "too large" in refused.value.message


# Where `1e400` crashed `convert` before the fix (found by running this sweep at 1c81005~1):
# a typed number of each format that reaches its writer. The crashes were in five
# serializers (agnai/json_io.py, ccv3/json_io.py, common/jsjson.py, common/charx_card.py,
# sillytavern/st_json.py) under these formats; the issue counted them as seven writers.
BIG_NUMBER_SITES = [
    ("agnai.card.v3.json", ("data", "character_book", "entries", 0, "id")),
    ("agnai.character.json", ("characterBook", "entries", 0, "weight")),
    ("agnai.memory.json", ("entries", 0, "weight")),
    ("agnai.tavern.json", ("data", "character_book", "entries", 0, "id")),
    ("backyard.byaf", ("scenarios/scenario1.json", "schemaVersion")),
    ("ccv2.json", ("data", "extensions", "depth_prompt", "depth")),
    ("ccv3.json", ("data", "character_book", "entries", 0, "insertion_order")),
    ("charx", ("card.json", "data", "character_book", "entries", 0, "id")),
    ("lorebook_v3.json", ("data", "entries", 0, "id")),
    ("marinara.preset", ("version",)),
    ("risu.charx", ("card.json", "data", "character_book", "entries", 0, "id")),
    ("sillytavern.card.json", ("data", "extensions", "depth_prompt", "depth")),
    ("sillytavern.context", ("story_string_position",)),
    ("sillytavern.preset.chat", ("temperature",)),
    ("sillytavern.preset.kobold", ("temp",)),
    ("sillytavern.preset.novel", ("max_context",)),
    ("sillytavern.preset.textgen", ("temp",)),
    ("sillytavern.regex", ("placement", 0)),
    ("sillytavern.world", ("entries", "0", "uid")),
]


def _holding(format_id: str, path: tuple):
    for seed in SEEDS:
        if seed.format_id == format_id and seed.doc is not None:
            try:
                value = seed.doc
                for part in path:
                    value = value[part]
            except (KeyError, IndexError, TypeError):
                continue
            return seed
    pytest.skip(f"no seed of {format_id} holds {path} (the corpus file is absent)")


@pytest.mark.parametrize(("format_id", "path"), BIG_NUMBER_SITES, ids=[f for f, _ in BIG_NUMBER_SITES])
def test_convert_of_a_number_past_float_range_is_refused_where_each_writer_crashed(
    monkeypatch, format_id, path
) -> None:
    import fuzzkit

    seed = _holding(format_id, path)
    written = fuzzkit._dumps
    monkeypatch.setattr(fuzzkit, "_dumps", lambda doc: written(doc).replace(b"Infinity", b"1e400"))
    data = seed.encode(_replace(json.loads(json.dumps(seed.doc)), path, float("inf")))
    assert b"1e400" in data or not data.startswith(b"{")
    with pytest.raises(BunzaiError) as refused:
        convert_like_the_cli(data, seed.name, format_id, format_id)
    assert refused.value.code in ("invalid_json", "corrupt_file") and "too large" in refused.value.message
    assert outcome_of(data, seed.name).refused == 1


@pytest.mark.parametrize(
    "format_id",
    [None, "textgen.character.yaml"]
    + [a.format_id for a in all_adapters() if a.container == "text" and a.format_id != "textgen.character.yaml"],
)
def test_convert_of_a_yaml_binary_value_is_refused_whatever_the_format(format_id: str | None) -> None:
    data = b"name: Bob\ncontext: !!binary aGk=\ngreeting: hi\n"
    with pytest.raises(BunzaiError) as refused:
        convert_like_the_cli(data, "bob.yaml", "ccv3.json", format_id)
    assert refused.value.code == "unsupported" and "!!binary" in refused.value.message
    outcome_of(data, "bob.yaml", format_id)


def test_a_yaml_file_forced_to_a_regex_script_converts_without_a_crash() -> None:
    data = b"note: a file no format claims\n"  # a card-shaped YAML is refused: it reads as a character
    crossing = convert_like_the_cli(data, "bob.yaml", "sillytavern.regex", "sillytavern.regex")
    assert json.loads(crossing.data)["scriptName"] == "bob"  # the set's name fills the missing scriptName
    assert outcome_of(data, "bob.yaml", "sillytavern.regex").accepted == 1
