"""`bunzai import` that finds no piece at all says so with a coded error (never silence), while
a re-import whose pieces --on-conflict skip leaves out still prints nothing and exits 0."""

from __future__ import annotations

from testkit import v2_card_png


def test_an_empty_folder_is_refused_as_not_found(bunzai, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / ".hidden.json").write_text("{}")  # hidden files are passed over: still nothing to read
    done = bunzai("import", str(empty))
    assert done.code == 1
    error = done.json["error"]
    assert error["code"] == "not_found" and str(empty) in error["message"]
    assert "bunzai: not_found:" in done.stderr


def test_a_folder_of_files_no_format_claims_is_refused_and_names_them(bunzai, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "README.md").write_text("# not a card\n")
    done = bunzai("import", str(notes))
    assert done.code == 1 and done.json["error"]["code"] == "not_found"
    assert "skipped 1 file(s) or folder(s): README.md" in done.stderr
    assert "1 file(s)" in done.json["error"]["hint"]


def test_the_refusal_piped_to_apply_is_passed_on_not_read_as_empty_input(bunzai, tmp_path):
    (tmp_path / "empty").mkdir()
    imported = bunzai("import", str(tmp_path / "empty"))
    applied = bunzai("apply", "--yes", input=imported.stdout)
    assert applied.code == 1 and applied.json["error"]["code"] == "not_found"


def test_an_empty_folder_beside_a_card_is_no_error(bunzai, tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "Ada.png").write_bytes(v2_card_png("Ada"))
    done = bunzai("import", str(tmp_path / "empty"), str(tmp_path / "Ada.png"))
    assert done.code == 0, done.stdout + done.stderr
    assert [line["target"]["id"] for line in done.lines] == ["ada"]


def test_pieces_left_out_by_skip_were_found_so_nothing_is_refused(bunzai, tmp_path):
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "Ada.png").write_bytes(v2_card_png("Ada"))
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "cards"), check=True).stdout, check=True)
    again = bunzai("import", "--on-conflict", "skip", str(tmp_path / "cards"))
    assert again.code == 0 and again.stdout == "", again.stdout
    assert "skipped 1 piece(s)" in again.stderr
