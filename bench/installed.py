"""bunzai installed from a wheel into an environment of its own, as a user's `pip install` has it.

The development environment (`make install`) installs bunzai in editable mode, and its
`python -c pass` runs the editable finder's `.pth` at start-up, which imports pathlib, re,
urllib.parse and more: modules bunzai's hot commands would otherwise import themselves. So there
a ratio to `python -c pass` flatters bunzai, and a module that a hot command imports needlessly
costs it nothing. In an installed bunzai, `python -c pass` imports none of them and every module
bunzai imports counts.

`installed_bin(folder)` builds a wheel from a copy of this checkout's sources (so the checkout
gets no build/ folder), makes a bare virtual environment in `folder`, installs the wheel into it
with the running pip (`--python`, so the console script is written by the same pip as the
development one) and appends the running environment's site-packages to the new one's
`sys.path` through a `.pth` line: typer, pydantic and the rest are found there without a
download, and a path appended so runs none of that folder's own `.pth` files (the editable
finder stays out). tests/docs/test_docs_wheel.py uses it too.
"""

from __future__ import annotations

import compileall
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("bunzai", "docs", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md")


class WheelNotBuilt(Exception):
    """pip could not build the wheel; the message holds its output (offline, a build backend
    that cannot be had says so there)."""


def borrow_dependencies(python: Path) -> Path:
    """Append the running environment's site-packages to `python`'s `sys.path` through a `.pth`
    line (after its own packages; that folder's own `.pth` files are not run); its site-packages."""
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (site / "zz_borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return site


def installed_bin(folder: Path) -> Path:
    """The `bin/` folder of a fresh environment in `folder` holding this checkout's wheel,
    with bunzai's bytecode compiled."""
    source = folder / "src"
    source.mkdir(parents=True)
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "shipped", "*.egg-info"))
        else:
            shutil.copy2(path, source / name)
    wheels = folder / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--wheel-dir", str(wheels), "--quiet"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if built.returncode != 0:
        raise WheelNotBuilt(built.stdout + built.stderr)
    (wheel,) = wheels.glob("bunzai-*.whl")
    environment = folder / "venv"
    venv.EnvBuilder(with_pip=False).create(environment)
    python = environment / "bin" / "python"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    site = borrow_dependencies(python)
    compileall.compile_dir(site / "bunzai", quiet=1)
    found = subprocess.run(  # (run outside the checkout: `python -c` puts its folder first on sys.path)
        [str(python), "-c", "import bunzai; print(bunzai.__file__)"],
        check=True,
        capture_output=True,
        text=True,
        cwd=folder,
    ).stdout.strip()
    if not Path(found).is_relative_to(site):  # the checkout imported instead: nothing measured would mean much
        raise SystemExit(f"the installed environment imports bunzai from {found}, not from {site}")
    return environment / "bin"
