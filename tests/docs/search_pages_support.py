"""Two small docs pages for the search tests, written into a folder of the test's own."""

from __future__ import annotations

from pathlib import Path

PAGES = {
    "index.md": "# Home\n\nWelcome to the guide.\n\n## Start\n\nRead the start.\n",
    "guide/alpha.md": "# Alpha\n\nIntro about lanterns.\n\n## Lanterns\n\nLanterns glow.\n\n"
    "## Rivers\n\nRivers flow.\n",
}


def write_pages(root: Path) -> Path:
    for relative, text in PAGES.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    return root
