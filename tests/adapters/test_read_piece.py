"""read_piece: the shared last step of the single-piece readers."""

import pytest

from bunzai.adapters.common.read_piece import read_piece
from bunzai.errors import BunzaiError
from bunzai.model.lorebook import Lorebook

ORIGINAL = {"format": "sillytavern.world.json", "document": {"entries": {}}}


def test_a_valid_piece_takes_its_id_from_the_name():
    piece = read_piece(Lorebook, "Ash Vale", "vale.json", "world", {"entries": []}, ORIGINAL, "fix it")
    assert (piece.id, piece.name) == ("ash-vale", "Ash Vale")


def test_a_given_id_and_a_nameless_piece():
    assert read_piece(Lorebook, "", "", "world", {}, ORIGINAL, "h", piece_id="kept").id == "kept"
    assert read_piece(Lorebook, "", "my-book.json", "world", {}, ORIGINAL, "h").id == "my-book"


def test_a_refused_value_is_corrupt_file_naming_the_file_and_the_place():
    with pytest.raises(BunzaiError) as caught:
        read_piece(Lorebook, "Vale", "vale.json", "world", {"entries": "not a list"}, ORIGINAL, "fix the entries")
    error = caught.value
    assert error.code == "corrupt_file"
    assert error.message.startswith("vale.json holds values bunzai cannot read")
    assert error.message.endswith("at body/entries")
    assert error.hint == "fix the entries"


def test_without_a_file_name_the_kind_is_named():
    with pytest.raises(BunzaiError) as caught:
        read_piece(Lorebook, "Vale", "", "lorebook", {"entries": 3}, ORIGINAL, "h")
    assert caught.value.message.startswith("the lorebook holds values")
