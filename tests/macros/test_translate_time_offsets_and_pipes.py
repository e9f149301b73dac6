"""Time offsets and Agnai's pipes, as the engines read them.

SillyTavern's `{{time_UTC±N}}` is in both its engines: the 2.0 engine rewrites it to
`{{time::UTC±N}}` before it parses (MacroEngine.js, core:legacy-time-syntax) and its handler
takes only `UTC±N` so written (time-macros.js); the legacy engine replaces
/{{time_UTC([-+]\\d+)}}/gi itself (macros.js). Both read N as moment.js's utcOffset does, hours
under 16, else minutes, so `UTC+00`, `UTC-0` and `UTC+0` are one offset and `UTC+60` is `UTC+1`.
RisuAI's `{{isotime}}` and `{{isodate}}` are UTC (cbs.ts, getUTCHours, getUTCFullYear).
Agnai's grammar reads `| upper` / `| lower` after a placeholder (common/grammar.ts, Pipe) and
template-parser.ts never applies them.
"""

from __future__ import annotations

import pytest

from bunzai.macros.equivalence import utc_offset, utc_offset_minutes
from bunzai.macros.translate import translate_text


def _one(text: str, source: str, target: str) -> tuple[str, str, str]:
    result = translate_text(text, source, target)
    (verdict,) = result.verdicts
    return result.text, verdict["verdict"], verdict.get("note", "")


@pytest.mark.parametrize(
    ("written", "minutes", "shortest"),
    [
        ("UTC+0", 0, "UTC+0"),
        ("UTC+00", 0, "UTC+0"),
        ("UTC-0", 0, "UTC+0"),
        ("UTC+2", 120, "UTC+2"),
        ("UTC-7", -420, "UTC-7"),
        ("UTC+15", 900, "UTC+15"),
        ("UTC+16", 16, "UTC+16"),  # 16 and over: minutes
        ("UTC+60", 60, "UTC+1"),
        ("UTC-90", -90, "UTC-90"),
        ("utc+2", None, None),  # the 2.0 handler's /^UTC([+-]\d+)$/ is case-sensitive: local time
        ("UTC+2.5", None, None),
        ("UTC 2", None, None),
        ("Europe/Paris", None, None),
    ],
)
def test_an_offset_is_read_as_moment_reads_it(written, minutes, shortest) -> None:
    assert utc_offset_minutes(written) == minutes
    assert utc_offset(written) == shortest


def test_the_legacy_engine_reads_utc_in_any_case() -> None:
    assert utc_offset("utc+2", any_case=True) == "UTC+2"


@pytest.mark.parametrize("engine", ["sillytavern", "sillytavern-legacy"])
def test_time_utc_is_known_to_both_sillytavern_engines(engine: str) -> None:
    assert _one("{{time_UTC+0}}", engine, "risuai")[:2] == ("{{isotime}}", "portable")


def test_risuai_isotime_is_the_legacy_engines_glued_time_utc() -> None:
    assert _one("{{isotime}}", "risuai", "sillytavern-legacy")[:2] == ("{{time_UTC+0}}", "portable")
    assert _one("{{isotime}}", "risuai", "sillytavern")[:2] == ("{{time::UTC+0}}", "portable")


def test_the_two_sillytavern_spellings_cross_into_each_other() -> None:
    assert _one("{{time::UTC+2}}", "sillytavern", "sillytavern-legacy")[:2] == ("{{time_UTC+2}}", "portable")
    assert _one("{{time_UTC-7}}", "sillytavern-legacy", "sillytavern")[:2] == ("{{time::UTC-7}}", "portable")
    assert _one("{{time::UTC+60}}", "sillytavern", "sillytavern-legacy")[:2] == ("{{time_UTC+1}}", "portable")


@pytest.mark.parametrize("written", ["{{time::UTC+00}}", "{{time::UTC-0}}", "{{time:: UTC+0 }}", "{{time_UTC+000}}"])
def test_any_spelling_of_utc_is_risuai_isotime(written: str) -> None:
    # it read as time.format before: RisuAI's {{time::X}} is a format, and "UTC+00" was not "UTC+0"
    out, verdict, note = _one(written, "sillytavern", "risuai")
    assert (out, verdict) == ("{{isotime}}", "portable")


def test_an_argument_the_20_engine_reads_as_no_offset_is_local_time() -> None:
    for written in ("{{time::utc+0}}", "{{time_utc+0}}", "{{time::noon}}"):
        out, verdict, note = _one(written, "sillytavern", "risuai")
        assert (out, verdict) == ("{{time}}", "portable") and "no UTC offset: its local time" in note
    assert _one("{{time_utc+0}}", "sillytavern-legacy", "risuai")[:2] == ("{{isotime}}", "portable")


def test_a_time_utc_with_a_space_or_a_flag_is_no_macro() -> None:
    for written in ("{{ time_UTC+0}}", "{{time_UTC+0 }}", "{{!time_UTC+0}}"):
        assert _one(written, "sillytavern", "risuai")[1] == "unknown"


def test_an_offset_risuai_cannot_write_is_not_carried() -> None:
    # RisuAI's {{time::X}} is a format: the 2.0 spelling is read there as another op
    assert _one("{{time::UTC+2}}", "sillytavern", "risuai")[:2] == ("{{time::UTC+2}}", "collision")


@pytest.mark.parametrize(
    ("written", "source"),
    [
        ("{{time::UTC+2}}", "sillytavern"),
        ("{{time_UTC+2}}", "sillytavern"),
        ("{{time_UTC+2}}", "sillytavern-legacy"),
        ("{{time_utc+2}}", "sillytavern-legacy"),
    ],
)
def test_both_spellings_of_one_offset_cross_alike(written: str, source: str) -> None:
    # SillyTavern's 2.0 engine rewrites {{time_UTC+2}} to {{time::UTC+2}} before it parses: one
    # meaning, which RisuAI cannot say, and whose {{time::UTC+2}} it reads as a format (printing
    # "UTC+2"); every spelling of it is kept and flagged, none removed
    out, verdict, note = _one(written, source, "risuai")
    assert (out, verdict) == (written, "collision")
    assert "time.format" in note
    # where the target reads neither spelling (Agnai has no clock), both are absent alike
    assert _one(written, source, "agnai")[:2] == ("", "absent")


def test_risuai_isodate_is_the_date_in_utc() -> None:
    # SillyTavern has only local dates: its {{isodate}} would give another day near midnight
    out, verdict, note = _one("{{isodate}}", "risuai", "sillytavern")
    assert (out, verdict) == ("{{isodate}}", "collision") and '["UTC+0"]' in note
    assert _one("{{isodate}}", "sillytavern", "risuai")[:2] == ("{{date}}", "portable")
    assert _one("{{isodate}}", "risuai", "marinara")[:2] == ("{{date}}", "portable")  # Marinara's is UTC too


@pytest.mark.parametrize(
    ("written", "to", "pipes"),
    [
        ("{{char | upper}}", "{{char}}", "| upper"),
        ("{{user|lower}}", "{{user}}", "| lower"),
        ("{{ bot | upper | lower }}", "{{char}}", "| upper | lower"),
        ("{{char\t|\tupper}}", "{{char}}", "| upper"),
        ("{{roll 2d6 | lower}}", "{{roll::2d6}}", "| lower"),
    ],
)
def test_an_agnai_pipe_is_read_and_dropped(written: str, to: str, pipes: str) -> None:
    out, verdict, note = _one(written, "agnai", "sillytavern")
    assert (out, verdict) == (to, "portable")
    assert note.endswith(f"agnai parses {pipes} and never applies it; dropped")


def test_a_pipe_agnai_does_not_parse_is_no_pipe() -> None:
    assert _one("{{char | UPPER}}", "agnai", "sillytavern")[1] == "unknown"  # handlers are lower case
    assert _one("{{char | title}}", "agnai", "sillytavern")[1] == "unknown"
    # random's comma list takes the `|` as text: the last item is "b | upper"
    assert _one("{{random: a, b | upper}}", "agnai", "sillytavern")[:2] == ("{{random::a::b | upper}}", "portable")


def test_macro_lookup_reads_the_token_as_written(bunzai) -> None:
    looked = bunzai("macro-lookup", "time::UTC+00", "--engine", "sillytavern", "--to", "risuai", check=True).json
    written = looked["items"][0]["on"]["as_written"]
    assert (written["verdict"], written["to"]) == ("portable", "{{isotime}}")
    forms = looked["items"][0]["on"]["forms"]
    assert [f["form"] for f in forms] == ["{{time}}", "{{time::UTC+2}}"]  # an offset RisuAI has no form for
    assert forms[1]["verdict"] == "collision"
    glued = bunzai("macro-lookup", "time_UTC+2", check=True).json
    assert [row["engine"] for row in glued["items"]] == ["sillytavern", "sillytavern-legacy"]
    piped = bunzai("macro-lookup", "char | upper", "--engine", "agnai", "--to", "sillytavern", check=True).json
    assert piped["items"][0]["note"] == "agnai parses | upper and never applies it"
    assert piped["items"][0]["on"]["as_written"]["to"] == "{{char}}"


def test_macro_translate_carries_them_end_to_end(bunzai, tmp_path) -> None:
    source = tmp_path / "in.txt"
    source.write_text("{{isotime}} {{isodate}}", encoding="utf-8")
    legacy = bunzai("macro", "translate", "--from", "risuai", "--to", "sillytavern-legacy", str(source), check=True)
    assert legacy.json["text"] == "{{time_UTC+0}} {{isodate}}"
    assert [v["verdict"] for v in legacy.json["verdicts"]] == ["portable", "collision"]
    source.write_text("{{char | upper}}", encoding="utf-8")
    agnai = bunzai("macro", "translate", "--from", "agnai", "--to", "risuai", str(source), check=True)
    assert agnai.json["text"] == "{{char}}" and agnai.json["counts"]["unknown"] == 0
