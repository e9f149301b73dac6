"""Every reader under mutation: seeds from real files, wrong types at any key and damaged
bytes; anything but a coded refusal is a crash (a small budget per CI run; bench/fuzz.py
runs a large one). Crash groups found by fuzzing stay here as regression tests."""

from __future__ import annotations

import json

import pytest
from fuzzkit import Outcome, forced_format, mutate, read_and_follow_through, run_one, seeds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testkit import corpus_path

SEEDS = seeds()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SEEDS), st.randoms(use_true_random=False))
def test_no_mutated_file_crashes_a_reader_or_what_follows_it(seed, rng) -> None:
    outcome = Outcome()
    run_one(mutate(seed, rng), seed.name, outcome, read_and_follow_through, forced_format(seed, rng))
    assert not outcome.crashes, next(iter(outcome.crashes.values()))[3]


def test_an_integer_past_float_range_in_a_world_entry_is_not_a_crash() -> None:
    """OverflowError in sillytavern/field_overlay.py: `math.isfinite(2**1024)`."""
    world = json.loads(corpus_path("sillytavern", "worlds", "Eldoria.json").read_bytes())
    entry = next(iter(world["entries"].values()))
    entry["order"] = 10**400
    outcome = Outcome()
    run_one(json.dumps(world).encode(), "Eldoria.json", outcome, read_and_follow_through)
    assert not outcome.crashes and outcome.accepted == 1


def test_a_marinara_section_without_an_id_is_not_a_crash_on_write() -> None:
    """KeyError 'id' in marinara/preset.py when a section row lost its id."""
    preset = json.loads(corpus_path("marinara-engine", "default-preset.marinara.json").read_bytes())
    text = json.dumps(preset)
    holder = preset.get("data", preset)
    sections = holder.get("sections") if isinstance(holder, dict) else None
    if not isinstance(sections, list) or not sections:
        pytest.skip("the corpus preset has no sections list to damage")
    del sections[0]["id"]
    outcome = Outcome()
    run_one(json.dumps(preset).encode(), "default-preset.marinara.json", outcome, read_and_follow_through)
    assert not outcome.crashes and text != json.dumps(preset)


def test_an_integer_past_float_range_in_a_card_extension_is_not_a_crash_on_write() -> None:
    """OverflowError in common/drift.py `as_float` while writing SillyTavern's talkativeness mirror."""
    card = json.loads(
        corpus_path("sillytavern", "characters", "extracted", "seraphina.v2-only.chara.json").read_bytes()
    )
    card["data"].setdefault("extensions", {})["talkativeness"] = 10**400
    outcome = Outcome()
    run_one(json.dumps(card).encode(), "seraphina.json", outcome, read_and_follow_through)
    assert not outcome.crashes


def test_native_assets_of_the_wrong_type_are_a_coded_refusal() -> None:
    """AttributeError in native/piece_file.py when /assets is not an object."""
    from fuzzkit import _native_of
    from testkit import v2_card_png

    doc = json.loads(_native_of(v2_card_png("Ada")))
    for wrong in (5, "x", [1]):
        doc["assets"] = wrong
        outcome = Outcome()
        run_one(json.dumps(doc).encode(), "ada.bunzai.json", outcome, read_and_follow_through)
        assert not outcome.crashes and outcome.refused == 1


def test_a_yaml_integer_of_thousands_of_digits_is_a_coded_refusal() -> None:
    """ValueError (int max digits) out of ruamel.yaml in common/yamltext.py."""
    outcome = Outcome()
    run_one(b"name: Bob\ngreeting: " + b"9" * 5000 + b"\n", "bob.yaml", outcome, read_and_follow_through)
    assert not outcome.crashes and outcome.refused == 1


WATCH = None


def _watch():
    global WATCH
    if WATCH is None:
        from fuzzkit import StudioWatch

        WATCH = StudioWatch()
    return WATCH


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SEEDS), st.randoms(use_true_random=False))
def test_applying_what_a_mutated_file_drafts_changes_only_the_studio_and_only_when_it_applies(seed, rng) -> None:
    outcome = Outcome()
    run_one(mutate(seed, rng), seed.name, outcome, read_and_follow_through, forced_format(seed, rng), _watch())
    assert not outcome.crashes and outcome.studio_changes == 0, next(iter(outcome.crashes.values()))[3]


def test_the_studio_oracle_sees_a_write_outside_the_studio_and_a_refused_apply_that_wrote(monkeypatch) -> None:
    from fuzzkit import StudioWatch

    import bunzai.changes.apply as apply

    watch = StudioWatch()
    try:

        def refused_but_wrote(studio, drafts):
            (watch.parent / "outside" / "leak").write_text("x")
            (studio.root / "stray.tmp").write_text("x")
            return [{"status": "failed"}]

        monkeypatch.setattr(apply, "apply_batch", refused_but_wrote)
        assert watch.apply([b"{}"]) == ["outside/leak", "studio/stray.tmp"]

        def applied_and_leaked(studio, drafts):
            (watch.parent / "outside" / "leak2").write_text("x")
            (studio.root / "piece.json").write_text("x")
            return [{"status": "applied"}]

        monkeypatch.setattr(apply, "apply_batch", applied_and_leaked)
        assert watch.apply([b"{}"]) == ["outside/leak2"]
    finally:
        watch.close()


def test_a_v1_quick_reply_context_menu_of_the_wrong_type_is_not_a_crash() -> None:
    """TypeError in sillytavern/quickreplies.py: `contextMenu` as a number in a v1 slot (no
    seed had the key; found once mutations added the keys readers ask for)."""
    doc = json.loads(corpus_path("sillytavern", "quick-replies", "Default.v1.json").read_bytes())
    for wrong in (5, 1.5, True, "x", {"a": 1}):
        doc["quickReplySlots"][0]["contextMenu"] = wrong
        outcome = Outcome()
        run_one(json.dumps(doc).encode(), "Default.v1.json", outcome, read_and_follow_through)
        assert not outcome.crashes and outcome.accepted == 1


def test_a_risu_script_key_named_like_bunzais_own_flag_tokens_is_not_a_crash_on_write() -> None:
    """TypeError in risu/regex_scripts.py: a script's own `flag_tokens` key (kept among its
    extras) was taken for bunzai's list of flag tokens."""
    doc = {
        "type": "regex",
        "data": [
            {
                "comment": "Hide",
                "in": "<think>",
                "out": "",
                "type": "disabled",
                "flag": "<cbs>",
                "ableFlag": True,
                "flag_tokens": 1.5,
            }
        ],
    }
    for wrong in (1.5, 7, "x", {"a": 1}, [1, "cbs"]):
        doc["data"][0]["flag_tokens"] = wrong
        outcome = Outcome()
        run_one(json.dumps(doc).encode(), "scripts.json", outcome, read_and_follow_through, "risu.regex")
        assert not outcome.crashes and outcome.accepted == 1
