"""`bunzai doctor` and the lines of the change log that are no record: a torn record (a
writer killed mid-append) is a note; anything else is a `log_line` problem, with its line
number, that repair leaves alone. Readers of the log go on past both."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from bunzai.changes.apply import apply_draft
from bunzai.changes.create import create_draft
from bunzai.changes.draft import new_draft
from bunzai.changes.revert import studio_revert
from bunzai.store.changelog import annotated, is_torn
from bunzai.store.doctor import examine
from bunzai.store.feed import entries_from
from bunzai.store.pieces import create_piece, read_stored, update_piece
from bunzai.store.studio import Studio


def piece(name: str = "Ada") -> dict:
    return {"kind": "character", "id": "ada", "name": name}


def rename(studio: Studio, name: str) -> None:
    stored = read_stored(studio, "character", "ada")
    proposed = {**stored.data, "name": name}
    apply_draft(
        studio, new_draft(mode="update", proposed=proposed, baseline=stored.revision, before=stored.data, operations=[])
    )


def append_raw(studio: Studio, data: bytes) -> None:
    with open(studio.changes_log, "ab") as log:
        log.write(data)


def test_foreign_lines_are_problems_with_their_line_numbers_and_repair_keeps_them(studio: Studio) -> None:
    with annotated(session="me"):
        apply_draft(studio, create_draft("character", {"name": "Ada"}))
        append_raw(studio, b"garbage here\n[1]\n" + b'{"seq": 7, "op": "launch"}\n')
        rename(studio, "Ada 2")
    before = studio.changes_log.read_bytes()
    report = examine(studio, repair=True)
    rows = [(p["check"], p["line"], p["code"]) for p in report["problems"]]
    assert rows == [("log_line", 2, "invalid_json"), ("log_line", 3, "invalid_input"), ("log_line", 4, "invalid_input")]
    assert "line 2 of .bunzai/changes.jsonl is not JSON ('garbage here')" in report["problems"][0]["message"]
    assert not report["clean"] and report["repaired"] == [] and report["log_records"] == 2
    assert studio.changes_log.read_bytes() == before  # the log is append-only: repair never rewrites it
    # readers go on past them, and the foreign seq 7 does not number the next record
    assert [entry.seq for entry in entries_from(studio)] == [1, 2]
    assert studio_revert(studio, "me")["reverted"] == 2


def test_a_record_torn_by_a_killed_writer_is_a_note(studio: Studio) -> None:
    first = create_piece(studio, piece())
    line = studio.changes_log.read_bytes()
    append_raw(studio, line[: len(line) // 2])  # killed mid-append: no newline
    assert examine(studio)["clean"]
    update_piece(studio, piece("Ada 2"), first.revision)  # starts a fresh line
    report = examine(studio)
    assert report["clean"] and report["log_records"] == 2
    assert report["notes"] == [
        "line 2 of .bunzai/changes.jsonl is a record its writer did not finish (stopped mid-append); readers skip it"
    ]


_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8)
)


@given(fields=st.dictionaries(st.text(max_size=4), _VALUES, max_size=4), cut=st.floats(0, 1, exclude_max=True))
def test_every_cut_of_a_record_is_torn_and_a_whole_one_is_not(fields: dict, cut: float) -> None:
    line = json.dumps({"seq": 3, **fields}, ensure_ascii=False)  # as `append_change` writes it
    raw = line.encode("utf-8")
    assert not is_torn(raw + b"\n")
    assert is_torn(raw[: max(1, int(len(raw) * cut))])


@given(st.binary(max_size=40).filter(lambda b: not b'{"seq": '.startswith(b[:8])))
def test_a_line_not_begun_as_a_record_is_never_torn(line: bytes) -> None:
    assert not is_torn(line)


def test_the_doctor_command_reports_a_foreign_line(bunzai) -> None:
    draft = bunzai("create", "character", "--input", '{"name": "Ada"}', check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    with open(bunzai.studio / ".bunzai" / "changes.jsonl", "ab") as log:
        log.write(b"not a record\n")
    result = bunzai("doctor", "--repair")
    assert result.code == 1
    [problem] = result.json["problems"]
    assert (problem["check"], problem["line"], problem["code"]) == ("log_line", 2, "invalid_json")
    assert bunzai("changes", "--since", "0", check=True).json["count"] == 1
