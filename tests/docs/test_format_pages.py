"""Every registered format has its page in docs/formats/, listed in the formats index."""

from __future__ import annotations

from pathlib import Path

from bunzai.adapters.registry import all_adapters

FORMATS = Path(__file__).resolve().parents[2] / "docs" / "formats"


def test_every_format_has_a_page_and_an_index_row() -> None:
    index = (FORMATS / "index.md").read_text(encoding="utf-8")
    for adapter in all_adapters():
        assert (FORMATS / f"{adapter.format_id}.md").is_file(), f"docs/formats/{adapter.format_id}.md is missing"
        assert f"[{adapter.format_id}]({adapter.format_id}.md)" in index, (
            f"{adapter.format_id} is not in docs/formats/index.md"
        )


def test_no_page_describes_a_format_that_does_not_exist() -> None:
    known = {adapter.format_id for adapter in all_adapters()}
    pages = {page.stem for page in FORMATS.glob("*.md")} - {"index"}
    assert pages <= known, f"pages for unknown formats: {sorted(pages - known)}"
