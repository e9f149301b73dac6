"""`bunzai cap check`: the committed catalog matches the folders; drift and duplicates are refused."""

from __future__ import annotations

import itertools
import shutil
import sys
from pathlib import Path

import pytest

from bunzai.capabilities.catalog import build_catalog, catalog_text, check_catalog
from bunzai.capabilities.discovery import discover
from bunzai.errors import BunzaiError

PACKAGE = Path(__file__).resolve().parents[2] / "bunzai" / "capabilities"
_names = itertools.count()


@pytest.fixture
def copy_of_package(tmp_path: Path, monkeypatch):
    """A private copy of bunzai/capabilities under a fresh package name, and its committed catalog."""
    name = f"capcopy{next(_names)}"
    root = tmp_path / "src"
    shutil.copytree(PACKAGE, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.syspath_prepend(str(root))
    catalog = tmp_path / "capabilities.json"
    catalog.write_text(catalog_text(build_catalog(discover(name))), encoding="utf-8")
    yield name, root / name, catalog
    forget(name)


def forget(name: str) -> None:
    """Drop the copy's modules, so the next discovery reads the files again."""
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]


def test_cap_check_passes_on_the_committed_catalog(bunzai) -> None:
    result = bunzai("cap", "check")
    assert result.code == 0, result.stdout
    assert result.json["status"] == "ok" and result.json["docs"] in ("ok", "absent")


def test_check_passes_when_nothing_changed(copy_of_package) -> None:
    name, _, catalog = copy_of_package
    assert check_catalog(name, catalog)["status"] == "ok"


def test_adding_a_module_without_regenerating_fails_with_a_diff(copy_of_package) -> None:
    name, folder, catalog = copy_of_package
    source = (folder / "character" / "identity_update.py").read_text(encoding="utf-8")
    (folder / "character" / "nickname_only.py").write_text(
        source.replace('id="character.identity.update"', 'id="character.nickname.update"'), encoding="utf-8"
    )
    with pytest.raises(BunzaiError) as caught:
        check_catalog(name, catalog)
    assert caught.value.code == "out_of_date"
    assert any(line.startswith("+") and "character.nickname.update" in line for line in caught.value.details["diff"])
    assert check_catalog(name, catalog, write=True)["status"] == "written"
    assert check_catalog(name, catalog)["status"] == "ok"


def test_renaming_a_module_without_regenerating_fails(copy_of_package) -> None:
    name, folder, catalog = copy_of_package
    (folder / "lorebook" / "entries_remove.py").rename(folder / "lorebook" / "entries_delete.py")
    with pytest.raises(BunzaiError) as caught:
        check_catalog(name, catalog)
    assert caught.value.code == "out_of_date"
    assert any("entries_delete" in line for line in caught.value.details["diff"])


def test_changing_a_capability_without_regenerating_fails(copy_of_package) -> None:
    name, folder, catalog = copy_of_package
    path = folder / "character" / "greetings_update.py"
    path.write_text(path.read_text(encoding="utf-8").replace('"swipe",', ""), encoding="utf-8")
    forget(name)
    with pytest.raises(BunzaiError) as caught:
        check_catalog(name, catalog)
    assert any(line.startswith("-") and "swipe" in line for line in caught.value.details["diff"])


def test_duplicate_ids_are_refused(copy_of_package) -> None:
    name, folder, catalog = copy_of_package
    shutil.copy(folder / "character" / "identity_update.py", folder / "character" / "identity_again.py")
    with pytest.raises(BunzaiError) as caught:
        discover(name)
    assert caught.value.code == "invalid_capability"
    assert "character.identity.update" in caught.value.message and "defined twice" in caught.value.message


def test_helper_modules_without_capability_are_not_capabilities() -> None:
    modules = {found.module for found in discover()}
    assert "character.target" not in modules and "lorebook.entries" not in modules
    assert "character.identity_update" in modules


def test_the_generated_docs_page_is_up_to_date() -> None:
    from bunzai.capabilities.docs_page import check_docs_page

    assert check_docs_page() in ("ok", "absent")
