"""The registry finds every adapter by walking the spokes' modules; a spoke's __init__ holds no code."""

from __future__ import annotations

import ast
import inspect
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import bunzai.adapters
from bunzai.adapters import registry
from bunzai.adapters.contract import Adapter

ADAPTERS = Path(bunzai.adapters.__file__).parent
SPOKES = sorted(info.name for info in pkgutil.iter_modules([str(ADAPTERS)]) if info.ispkg and info.name != "common")


def spoke_modules(spoke: str) -> list[str]:
    return [
        f"bunzai.adapters.{spoke}.{info.name}"
        for info in pkgutil.iter_modules([str(ADAPTERS / spoke)])
        if not info.name.startswith("_")
    ]


def test_a_spoke_init_is_only_its_docstring() -> None:
    for spoke in [*SPOKES, "common"]:
        body = ast.parse((ADAPTERS / spoke / "__init__.py").read_text(encoding="utf-8")).body
        assert len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant), spoke


def test_a_fresh_process_loads_every_spoke_module_through_the_registry() -> None:
    probe = (
        "import json, sys\nfrom bunzai.adapters.registry import all_adapters\n"
        "ids = [a.format_id for a in all_adapters()]\n"
        "print(json.dumps([ids, sorted(m for m in sys.modules if m.startswith('bunzai.adapters.'))]))"
    )
    ids, loaded = json.loads(
        subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120).stdout
    )
    wanted = {module for spoke in SPOKES for module in spoke_modules(spoke)}
    assert wanted <= set(loaded)
    assert ids == [adapter.format_id for adapter in registry.all_adapters()]


def test_every_adapter_class_of_a_spoke_is_registered() -> None:
    registry.all_adapters()
    found = 0
    for spoke in SPOKES:
        for name in spoke_modules(spoke):
            for _, cls in inspect.getmembers(sys.modules[name], inspect.isclass):
                if issubclass(cls, Adapter) and cls.__module__ == name and cls.format_id:
                    assert type(registry.get_adapter(cls.format_id)) is cls, cls
                    found += 1
    assert found == len(registry.all_adapters())
