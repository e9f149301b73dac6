"""bunzai installed from a wheel into an environment of its own, as a user's `pip install` has it.

The development environment (`make install`) installs bunzai in editable mode, and its
`python -c pass` runs the editable finder's `.pth` at start-up, which imports pathlib, re,
urllib.parse and more: modules bunzai's hot commands would otherwise import themselves. So there
a ratio to `python -c pass` flatters bunzai, and a module that a hot command imports needlessly
costs it nothing. In an installed bunzai, `python -c pass` imports none of them and every module
bunzai imports counts.

`installed_bin(folder)` builds a wheel of this checkout (`pip wheel --no-deps`), makes a bare
virtual environment in `folder`, installs the wheel into it with the running pip (`--python`, so
the console script is written by the same pip as the development one), compiles its bytecode,
and appends the running environment's site-packages to the new one's `sys.path` through a `.pth`
line: typer, pydantic and the rest are found there without a download, and a path appended so
runs none of that folder's own `.pth` files (the editable finder stays out). The hot commands
import none of those packages; `apply --help` does.
"""

from __future__ import annotations

import compileall
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def installed_bin(folder: Path) -> Path:
    """The `bin/` folder of a fresh environment in `folder` holding this checkout's wheel."""
    wheels = folder / "wheel"
    venv = folder / "venv"
    build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(ROOT)]
    if subprocess.run(build, capture_output=True).returncode != 0:  # offline: build with this environment's setuptools
        subprocess.run([*build, "--no-build-isolation"], check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (wheel,) = wheels.glob("bunzai-*.whl")
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
    )
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (site / "_bench_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    compileall.compile_dir(site / "bunzai", quiet=1)
    found = subprocess.run(  # (run outside the checkout: `python -c` puts its folder first on sys.path)
        [str(python), "-c", "import bunzai; print(bunzai.__file__)"],
        check=True,
        capture_output=True,
        text=True,
        cwd=folder,
    ).stdout.strip()
    if not Path(found).is_relative_to(site):  # the checkout imported instead: the figures would mean nothing
        raise SystemExit(f"the installed environment imports bunzai from {found}, not from {site}")
    return venv / "bin"
