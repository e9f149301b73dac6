"""A create draft's rows are the fields that differ from a new piece's: one blank per kind serves every draft."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunzai.changes.draft import blank_piece
from bunzai.model import KIND_NAMES, dump_piece, piece_class
from bunzai.model.ids import id_problem

ids = st.from_regex(r"[a-z0-9][a-z0-9._-]{0,20}", fullmatch=True).filter(lambda text: not id_problem(text))


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_the_blank_is_a_new_piece_whatever_its_id_and_name(kind):
    @settings(max_examples=25, deadline=None)
    @given(ids, st.text(max_size=30))
    def same(piece_id, name):
        new = dump_piece(piece_class(kind)(id=piece_id, name=name))
        assert {**blank_piece(kind), "id": piece_id, "name": name} == new

    same()
