"""A SillyTavern export onto a file system that folds case (macOS's default): two cards whose
names differ only in case get two files, SillyTavern's next name for the second, instead of the
second finding the first one's file and being reported as already there."""

from __future__ import annotations

import json

import pytest

from bunzai import library_export
from bunzai.store.studio import find_studio


def _create(bunzai, piece_id: str, name: str) -> None:
    draft = bunzai("create", "character", "--id", piece_id, "--input", json.dumps({"name": name}), check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)


@pytest.mark.parametrize("folds", [True, False])
def test_names_that_differ_only_in_case(bunzai, tmp_path, monkeypatch, folds):
    if not folds and library_export._folds_case(tmp_path):
        pytest.skip("this file system folds case: it cannot hold both names")
    _create(bunzai, "luna", "Luna")
    _create(bunzai, "luna-2", "luna")
    monkeypatch.setattr(library_export, "_folds_case", lambda folder: folds)
    report = library_export.export_library(find_studio(str(bunzai.studio)), tmp_path / "ST", "sillytavern")
    written = {entry["ref"]: entry["path"] for entry in report.written}
    if folds:
        assert written == {
            "character/luna": "characters/Luna.png",
            "character/luna-2": "characters/luna1.png",
        }
    else:  # a file system that tells them apart keeps each name as it is
        assert written == {
            "character/luna": "characters/Luna.png",
            "character/luna-2": "characters/luna.png",
        }
    assert report.skipped == []
    assert sorted(path.name for path in (tmp_path / "ST" / "characters").iterdir()) == sorted(
        path.rsplit("/", 1)[1] for path in written.values()
    )


def test_a_recorded_name_in_decomposed_form_is_one_name_with_its_composed_form_where_case_folds():
    composed, decomposed = "characters/Zo\u00e9.png", "characters/Zoe\u0301.png"
    assert library_export._name_key(composed, True) == library_export._name_key(decomposed.upper(), True)
    assert library_export._name_key(composed, False) != library_export._name_key(decomposed, False)


def test_the_probe_leaves_nothing_behind_and_sees_this_file_system(tmp_path):
    folds = library_export._folds_case(tmp_path)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "Case.txt").write_text("x")
    assert folds == (tmp_path / "CASE.TXT").exists()
