"""studio_list by `after` reads its page and its counts in one read transaction: another
process's index refresh (a piece applied meanwhile) cannot land between them, so `total` and
`next_after` always agree with the page."""

from __future__ import annotations

import sqlite3

from test_list_after import call, studio_with, write

from bunzai import limits
from bunzai.query import index


class Interleaved:
    """A connection that, just before the counts are read, lets `between()` run."""

    def __init__(self, connection: sqlite3.Connection, between) -> None:
        self._connection = connection
        self._between = between

    def execute(self, sql: str, *args):
        if "count(*)" in sql and self._between is not None:
            between, self._between = self._between, None
            between()
        return self._connection.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._connection, name)


def test_a_piece_applied_between_the_page_and_its_counts_does_not_split_them(tmp_path, monkeypatch) -> None:
    studio, dispatcher = studio_with(tmp_path, [("character", "a"), ("character", "b")])
    call(dispatcher, after="character/a")  # the index holds a and b
    real_fresh_index = index.fresh_index

    def another_process() -> None:
        """A piece written and indexed through a second connection while the list reads. Held
        off by the reader's transaction, it gives up waiting at once and builds the index anew
        in a new file (fresh_index), which the reader's open file does not see."""
        write(studio, "character", "c")
        with monkeypatch.context() as patched:
            patched.setattr(limits, "LOCK_TIMEOUT_SECONDS", 0.01)
            real_fresh_index(studio, ("character",)).close()

    def interleaved_fresh_index(studio_, kinds):
        return Interleaved(real_fresh_index(studio_, kinds), another_process)

    monkeypatch.setattr(index, "fresh_index", interleaved_fresh_index)
    page = call(dispatcher, after="character/a", kind="character")
    ids = [row["id"] for row in page["items"]["data"]]
    assert (ids, page["count"], page["total"], page["next_after"]) == (["b"], 1, 2, None)
    monkeypatch.setattr(index, "fresh_index", real_fresh_index)
    assert [row["id"] for row in call(dispatcher, after="character/a", kind="character")["items"]["data"]] == [
        "b",
        "c",
    ]
