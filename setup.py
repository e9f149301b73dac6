"""Ships docs/ inside the wheel, so an installed bunzai answers `bunzai docs` too.

Everything else about the build is declared in pyproject.toml. A regular (non-editable)
build copies every Markdown page of docs/ into bunzai/docs/shipped/ of the build; an
editable install reads docs/ of the checkout instead (bunzai.docs.pages.docs_root).
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
RECORD_FOLDERS = ("summaries", "summary-reviews")  # review records, not pages (bunzai.docs.pages)


class BuildWithDocs(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        source = ROOT / "docs"
        target = Path(self.build_lib) / "bunzai" / "docs" / "shipped"
        for page in sorted(source.rglob("*.md")):
            relative = page.relative_to(source)
            if page.is_symlink() or relative.parts[0] in RECORD_FOLDERS or any(part.startswith(".") for part in relative.parts):
                continue
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(page.read_bytes())


setup(cmdclass={"build_py": BuildWithDocs})
