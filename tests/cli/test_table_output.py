"""--table, BUNZAI_OUTPUT=table and --nl: list-like answers for people, and one object per line."""

from __future__ import annotations

import json

import pytest

from bunzai.cli.table import cell, items_of, table_text


@pytest.fixture
def shelf(bunzai):
    for name in ("Ada Lovelace", "Seraphina", "Merlin"):
        draft = bunzai("create", "character", "--input", json.dumps({"name": name}), check=True).stdout
        bunzai("apply", "--yes", input=draft, check=True)
    return bunzai


@pytest.mark.parametrize("args", [["list", "--table"], ["--table", "list"], ["list", "-k", "character", "--table"]])
def test_three_pieces_fit_in_five_lines(shelf, args):
    answer = shelf(*args)
    assert answer.code == 0
    lines = answer.stdout.splitlines()
    assert len(lines) == 4 and lines[0].split() == ["KIND", "ID", "NAME", "REVISION"]
    revisions = {piece["id"]: piece["revision"] for piece in shelf("list").json["items"]}
    row = next(line for line in lines if "seraphina" in line)
    assert row.split()[-1] == revisions["seraphina"][:12]
    starts = {line.index(token) for line, token in zip(lines, ["ID", "ada-lovelace", "merlin", "seraphina"])}
    assert len(starts) == 1  # the column is aligned


def test_environment_chooses_table(shelf):
    shelf_env = shelf.env
    shelf.env = lambda: shelf_env() | {"BUNZAI_OUTPUT": "table"}
    assert shelf("list").stdout.startswith("KIND")
    shelf.env = lambda: shelf_env() | {"BUNZAI_OUTPUT": "nonsense"}
    assert shelf("list").json["count"] == 3  # an unknown value keeps JSON


def test_nl_prints_one_object_per_line(shelf):
    answer = shelf("list", "--nl")
    assert [item["id"] for item in answer.lines] == ["ada-lovelace", "merlin", "seraphina"]


def test_json_stays_the_default_and_errors_stay_json(shelf):
    assert shelf("list").json["count"] == 3
    error = shelf("read", "nobody", "--table")
    assert error.code == 1 and error.json["error"]["code"] == "not_found"
    assert shelf("read", "merlin", "--table").json["piece"]["name"] == "Merlin"  # not list-like: JSON
    both = shelf("list", "--table", "--nl")
    assert both.code == 2 and both.json["error"]["code"] == "usage"


def test_table_shapes():
    assert items_of({"count": 0, "items": [], "damaged": []}) is None
    assert items_of({"count": 1, "items": [{"a": 1}], "damaged": [{"b": 2}]}) == [{"a": 1}]
    assert items_of({"pieces": [{"a": 1}]}) is None  # only `items` is a list answer's list
    assert items_of({"count": 1, "items": ["/a/folder"]}) is None  # plain values print as JSON
    assert cell("f" * 64) == "f" * 12 and cell(["a", "b"]) == "a, b" and cell(None) == "" and cell(True) == "yes"
    assert cell("x" * 100).endswith("…") and len(cell("x" * 100)) == 60
    assert cell("two\nlines") == "two lines"
    assert table_text([{"a": "1", "b": "22"}, {"a": "333"}]) == "A    B\n1    22\n333\n"


def test_wide_and_combining_characters_keep_the_columns_in_line():
    from bunzai.cli.table import width

    assert width("Bob 龍") == 6 and width("Zoë") == 3 and width("Zoe\u0301") == 3 and width("a\u200db") == 2
    text = table_text(
        [{"name": "Bob 龍", "id": "a"}, {"name": "Zoe\u0301 Ünal", "id": "b"}, {"name": "Ada", "id": "c"}]
    )
    lines = text.splitlines()
    # Where the id column starts, counted in terminal columns, is the same on every line.
    assert {width(line[: line.rindex("  ") + 2]) for line in lines} == {10}


def test_a_wide_cell_is_cut_by_its_columns():
    cut = cell("龍" * 100)
    assert cut.endswith("…") and len(cut) == 30  # 29 wide characters and the ellipsis: 59 columns


def test_a_stream_that_is_not_utf8_gets_escaped_cells_aligned_by_their_escapes():
    text = table_text([{"name": "Zoë 龍", "id": "a"}, {"name": "Ada", "id": "b"}], encoding="ascii")
    assert text.isascii()
    escaped = "Zo\\xeb \\u9f8d"  # 13 columns
    assert text.splitlines() == [f"{'NAME':13}  ID", f"{escaped}  a", f"{'Ada':13}  b"]
    # Latin-1 holds ë: only the dragon is escaped, as the stream itself would write it.
    latin = table_text([{"name": "Zoë 龍", "id": "a"}, {"name": "Ada", "id": "b"}], encoding="latin-1")
    assert latin.splitlines() == [f"{'NAME':10}  ID", "Zoë \\u9f8d  a", f"{'Ada':10}  b"]
    latin.encode("latin-1")
    long = cell("é" * 100, encoding="ascii")
    assert long.isascii() and long.endswith("...") and len(long) <= 60 and long[:-3].endswith("\\xe9")


def test_list_as_a_table_on_an_ascii_stream_stays_aligned(bunzai):
    for name in ("Zoë Ünal", "Bob 龍", "Ada"):
        draft = bunzai("create", "persona", "--input", json.dumps({"name": name}), check=True).stdout
        bunzai("apply", "--yes", input=draft, check=True)
    plain = bunzai.env
    bunzai.env = lambda: plain() | {"PYTHONIOENCODING": "ascii"}
    lines = bunzai("list", "--table", check=True).stdout.splitlines()
    assert all(line.isascii() for line in lines) and "Zo\\xeb \\xdcnal" in lines[-1] + lines[-2] + lines[-3]
    starts = {len(line) - len(line.split()[-1]) for line in lines}
    assert len(starts) == 1  # the last column starts at the same place on every line


@pytest.mark.parametrize("hidden", ["\x1b[2J", "\x9b31m", "\u202e", "\x07", "\U000e0041"])
def test_a_cell_never_carries_a_hidden_character_raw(hidden):
    shown = cell(f"Ada{hidden}Lovelace")
    assert hidden not in shown and "Ada" in shown and "Lovelace" in shown
    assert "\\" in shown  # written as a visible escape


def test_an_emoji_sequence_stays_as_it_is():
    assert cell("👩\u200d🚀 pilot") == "👩\u200d🚀 pilot"


def test_list_as_a_table_escapes_a_name_that_would_rewrite_the_terminal(bunzai):
    draft = bunzai("create", "character", "--input", json.dumps({"name": "Eve\x1b]0;owned\x07"}), check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    table = bunzai("list", "--table", check=True).stdout
    assert "\x1b" not in table and "\x07" not in table and "\\x1b" in table
