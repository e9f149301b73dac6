"""The import arrows of docs/architecture.md are import-linter contracts in pyproject.toml.

The contracts name every top-level module of bunzai and every spoke, so a new folder must be
placed before `make check` passes; and lint-imports really fails on a graph that breaks one.
"""

from __future__ import annotations

import os
import pkgutil
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import bunzai
import bunzai.adapters

ROOT = Path(__file__).resolve().parents[1]
CONTRACTS = {
    c["id"]: c
    for c in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
}
TOP = {info.name for info in pkgutil.iter_modules(bunzai.__path__)} - {"__main__"}


def names(modules: list[str]) -> set[str]:
    return {module.removeprefix("bunzai.") for module in modules}


def test_every_top_level_module_sits_in_one_layer() -> None:
    layered = [name.strip() for layer in CONTRACTS["layers"]["layers"] for name in layer.replace(":", "|").split("|")]
    assert len(layered) == len(set(layered))
    assert set(layered) == TOP


def test_the_forbidden_lists_name_every_other_module() -> None:
    assert names(CONTRACTS["model"]["forbidden_modules"]) == TOP - {"model"}
    assert names(CONTRACTS["typer"]["source_modules"]) == TOP - {"cli"}
    assert names(CONTRACTS["regexlab"]["forbidden_modules"]) == TOP - {"regexlab", "errors", "limits", "jstext"}


def test_every_spoke_is_independent_of_the_others() -> None:
    spokes = {info.name for info in pkgutil.iter_modules(bunzai.adapters.__path__) if info.ispkg} - {"common"}
    assert {module.removeprefix("bunzai.adapters.") for module in CONTRACTS["spokes"]["modules"]} == spokes


def lint_imports(source: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(source)}
    return subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache", "--config", str(source / "pyproject.toml")],
        cwd=source,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def copy_of_the_package(tmp_path: Path) -> Path:
    source = tmp_path / "src"
    shutil.copytree(ROOT / "bunzai", source / "bunzai", ignore=shutil.ignore_patterns("__pycache__", "shipped"))
    shutil.copy2(ROOT / "pyproject.toml", source / "pyproject.toml")
    return source


def test_the_checkout_keeps_every_contract(tmp_path: Path) -> None:
    result = lint_imports(copy_of_the_package(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("reaches", "contract"), [("bunzai.changes.diff", "adapters"), ("bunzai.store.canon", "adapters-store")]
)
def test_an_adapter_reaching_up_breaks_the_build(tmp_path: Path, reaches: str, contract: str) -> None:
    source = copy_of_the_package(tmp_path)
    package, module = reaches.rsplit(".", 1)
    (source / "bunzai" / "adapters" / "zz_bad.py").write_text(
        f'"""An adapter that reaches up."""\n\nfrom {package} import {module}  # noqa: F401\n', encoding="utf-8"
    )
    result = lint_imports(source)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"bunzai.adapters.zz_bad -> {reaches}" in result.stdout
    report = " ".join(result.stdout.split())
    assert f"{CONTRACTS[contract]['name']} BROKEN" in report


def test_the_architecture_page_shows_every_contract_and_the_layers() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for contract in CONTRACTS.values():
        assert f"- {contract['name']}\n" in page, contract["name"]
    drawn = "\n".join(f"    {layer}" for layer in CONTRACTS["layers"]["layers"])
    assert f"\n{drawn}\n" in page, "the layer list in docs/architecture.md differs from pyproject.toml"
