"""A line in the change log that readers skip (foreign, damaged or torn) never numbers the next
record, whatever `seq` it carries: the records readers take stay numbered 1, 2, 3... with no gap."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bunzai import limits
from bunzai.store.changelog import append_change
from bunzai.store.doctor import examine
from bunzai.store.changelog import well_formed
from bunzai.store.feed import entries_from
from bunzai.store.studio import Studio, init_studio

_SEQS = st.one_of(st.integers(min_value=1, max_value=10**30), st.just(10**9), st.booleans(), st.text(max_size=3))
_FIELDS = st.fixed_dictionaries(
    {"seq": _SEQS},
    optional={
        "op": st.sampled_from(["create", "update", "bury", "launch", "", None]),
        "kind": st.sampled_from(["character", "lorebook", "spaceship", None, 7]),
        "id": st.sampled_from(["ada", "bob", "../etc", "", "A B", None]),
    },
)
_FOREIGN_RECORD = _FIELDS.filter(lambda fields: not well_formed(fields)).map(lambda f: json.dumps(f).encode())
_NO_JSON = st.binary(max_size=40).filter(lambda raw: b"\n" not in raw)
_FOREIGN_LINE = st.one_of(_FOREIGN_RECORD, _NO_JSON, st.sampled_from([b"[7]", b"7", b'{"seq": 99, "op": "create"']))
# between two appends: nothing, or some foreign lines (the last one may be left without its newline)
_BETWEEN = st.tuples(st.lists(_FOREIGN_LINE, max_size=4), st.booleans())


def _append_foreign(studio: Studio, lines: list[bytes], ends_mid_line: bool) -> None:
    if not lines:
        return
    data = b"".join(line + b"\n" for line in lines)
    with open(studio.changes_log, "ab") as log:
        log.write(data[:-1] if ends_mid_line else data)


def _numbering(between: list[tuple[list[bytes], bool]]) -> tuple[list[int], list[int]]:
    """(seqs append_change returned, seqs readers see) after writing a record after each gap."""
    with tempfile.TemporaryDirectory() as folder:
        studio, _ = init_studio(Path(folder) / "studio")
        given_seqs = []
        for number, (lines, ends_mid_line) in enumerate(between):
            _append_foreign(studio, lines, ends_mid_line)
            given_seqs.append(append_change(studio, kind="character", id=f"p{number}", revision=None, op="create"))
        return given_seqs, [entry.seq for entry in entries_from(studio)]


@given(st.lists(_BETWEEN, min_size=1, max_size=5))
def test_foreign_lines_never_number_the_next_record(between) -> None:
    given_seqs, read = _numbering(between)
    expected = list(range(1, len(between) + 1))
    assert given_seqs == expected
    assert read == expected  # readers take exactly bunzai's records, numbered with no gap


@given(st.lists(_BETWEEN, min_size=1, max_size=5))
def test_foreign_lines_never_number_the_next_record_from_a_small_tail(between) -> None:
    # a tail window smaller than a few lines: often it holds only foreign lines, and the whole
    # log is read for the last record
    real = limits.CHANGELOG_TAIL_BYTES
    limits.CHANGELOG_TAIL_BYTES = 64
    try:
        given_seqs, read = _numbering(between)
    finally:
        limits.CHANGELOG_TAIL_BYTES = real
    assert given_seqs == read == list(range(1, len(between) + 1))


def test_a_tail_of_only_foreign_lines_is_read_past_to_the_last_record(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "CHANGELOG_TAIL_BYTES", 200)
    for number in range(3):
        append_change(studio, kind="character", id=f"p{number}", revision=None, op="create")
    _append_foreign(studio, [b'{"seq": 500, "tool": "elsewhere"}'] * 20, False)  # far more than the tail holds
    assert append_change(studio, kind="character", id="p3", revision=None, op="create") == 4
    assert [entry.seq for entry in entries_from(studio)] == [1, 2, 3, 4]


def test_doctor_quotes_a_foreign_line_up_to_its_own_limit(studio: Studio, monkeypatch) -> None:
    monkeypatch.setattr(limits, "DOCTOR_LINE_EXCERPT_CHARS", 12)
    monkeypatch.setattr(limits, "OUTLINE_PREVIEW_CHARS", 30)  # an outline's limit is not the doctor's
    append_change(studio, kind="character", id="ada", revision=None, op="create")
    _append_foreign(studio, [b"x" * 50], False)
    (problem,) = [p for p in examine(studio)["problems"] if p["check"] == "log_line"]
    assert f"({'x' * 12!r})" in problem["message"]
