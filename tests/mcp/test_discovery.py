"""Tool discovery: modules with a TOOL are tools; broken ones are refused with invalid_tool."""

from __future__ import annotations

import sys

import pytest

from bunzai.errors import BunzaiError
from bunzai.tools.discovery import discover

GOOD = """from bunzai.tools.args import ToolArgs
from bunzai.tools.contract import Tool
class Args(ToolArgs):
    pass
TOOL = Tool(name={name!r}, description="A probe.", input_model=Args, effect={effect!r}, run=lambda ctx, args: {{}})
"""


def _package(tmp_path, name: str, modules: dict[str, str]) -> str:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for module, text in modules.items():
        (folder / f"{module}.py").write_text(text)
    sys.path.insert(0, str(tmp_path))
    return name


@pytest.fixture(autouse=True)
def _restore_path():
    saved = list(sys.path)
    yield
    sys.path[:] = saved
    for name in [key for key in sys.modules if key.startswith("probe_tools_")]:
        del sys.modules[name]


def test_modules_without_tool_are_helpers(tmp_path):
    package = _package(
        tmp_path,
        "probe_tools_a",
        {
            "one": GOOD.format(name="one", effect="read"),
            "helper": "X = 1\n",
            "_private": GOOD.format(name="private", effect="read"),
        },
    )
    assert [tool.name for tool in discover(package)] == ["one"]


@pytest.mark.parametrize(
    "modules",
    [
        {"a": GOOD.format(name="same", effect="read"), "b": GOOD.format(name="same", effect="read")},
        {"a": "TOOL = 'not a tool'\n"},
        {"a": GOOD.format(name="Bad-Name", effect="read")},
        {"a": GOOD.format(name="ok", effect="write")},
    ],
)
def test_broken_modules_are_refused(tmp_path, modules):
    package = _package(
        tmp_path, f"probe_tools_{len(list(tmp_path.iterdir()))}_{abs(hash(str(modules))) % 10_000}", modules
    )
    with pytest.raises(BunzaiError) as raised:
        discover(package)
    assert raised.value.code == "invalid_tool"
