"""Every real file in the SillyTavern and card-architect corpus imports through the hub.

Files are taken to their adapter by sniffing, exactly as `bunzai import` does. A folder a
folder adapter claims (a sprite folder) is imported as one piece; its images are not
cards on their own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit import CORPUS

FOLDERS = ("sillytavern", "card-architect")


def corpus_files() -> list[Path]:
    files = []
    for folder in FOLDERS:
        root = CORPUS / folder
        if root.is_dir():
            files += [
                p for p in sorted(root.rglob("*")) if p.is_file() and p.suffix != ".md" and "sprites" not in p.parts
            ]
    return files


def sprite_folders() -> list[Path]:
    root = CORPUS / "sillytavern" / "characters" / "sprites"
    return sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []


def _id(path: Path) -> str:
    return str(path.relative_to(CORPUS))


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"{CORPUS} is absent (../shared/corpus is not beside this checkout)")
@pytest.mark.parametrize("path", corpus_files(), ids=_id)
def test_corpus_file_imports(path: Path) -> None:
    from bunzai.changes.imports import drafts_from_bytes

    drafts = drafts_from_bytes(path.read_bytes(), path.name)
    assert drafts, f"{path} gave no draft"
    for draft in drafts:
        assert draft["proposed"]["original"] is not None or draft["proposed"]["kind"] == "lorebook"


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"{CORPUS} is absent (../shared/corpus is not beside this checkout)")
@pytest.mark.parametrize("folder", sprite_folders(), ids=_id)
def test_sprite_folder_imports_as_one_pack(folder: Path) -> None:
    from bunzai.changes.imports import drafts_from_path

    results = list(drafts_from_path(folder))
    assert len(results) == 1
    _, drafts = results[0]
    assert [d["proposed"]["kind"] for d in drafts] == ["pack"]
    labels = {item["label"] for item in drafts[0]["proposed"]["body"]["items"]}
    assert {p.stem for p in folder.iterdir()} <= labels
