"""Where the docs live, and the one door every page read goes through.

An installed bunzai carries its pages inside the package (`bunzai/docs/shipped/`, copied
from docs/ when the wheel is built; see setup.py); a source checkout reads docs/ itself.
A page is named by its catalog id (`commands/import`), never by a path: `page_file`
refuses malformed ids, `..`, absolute paths and ids the catalog does not declare, then
`bunzai.files.contained_path` refuses any symlink, all before a file is opened.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from pathlib import Path

from bunzai.errors import BunzaiError
from bunzai.files import contained_path, read_text_nofollow, walk_files
from bunzai.limits import DOCS_ID_MAX_CHARS, DOCS_PAGE_MAX_BYTES

PACKAGE_DIR = Path(__file__).resolve().parent
SHIPPED_ROOT = PACKAGE_DIR / "shipped"
CHECKOUT_ROOT = PACKAGE_DIR.parents[1] / "docs"
# Folders of docs/ that hold review records, not pages.
RECORD_FOLDERS = ("summaries", "summary-reviews")
# A page id: slash-separated lower-case parts, each like a file stem (`formats/ccv3.json`).
PAGE_ID = re.compile(r"[a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*)*")


def docs_root() -> Path:
    """The folder the pages are read from: the shipped copy if there is one, else docs/."""
    return SHIPPED_ROOT if SHIPPED_ROOT.is_dir() else CHECKOUT_ROOT


def check_page_id(page_id: object) -> str:
    """The id itself, or unsafe_path/invalid_id; nothing is looked up or opened."""
    if not isinstance(page_id, str) or not page_id:
        raise BunzaiError(
            "invalid_id", "a page id is a non-empty text like commands/import", "see `bunzai docs browse`"
        )
    if len(page_id) > DOCS_ID_MAX_CHARS:
        raise BunzaiError(
            "invalid_id", f"page id is {len(page_id)} characters, over {DOCS_ID_MAX_CHARS}", "see `bunzai docs browse`"
        )
    if page_id.startswith("/") or "\\" in page_id or "\x00" in page_id or (len(page_id) > 1 and page_id[1] == ":"):
        raise BunzaiError(
            "unsafe_path",
            f"{page_id!r} is a path, not a page id",
            "name a page by its id, e.g. commands/import (see `bunzai docs browse`)",
        )
    if any(part in ("..", ".", "") for part in page_id.split("/")):
        raise BunzaiError(
            "unsafe_path",
            f"{page_id!r} steps outside the docs",
            "`..`, `.` and empty parts are refused; see `bunzai docs browse`",
        )
    if not PAGE_ID.fullmatch(page_id):
        raise BunzaiError(
            "invalid_id", f"{page_id!r} is not a page id (lower-case parts joined by /)", "see `bunzai docs browse`"
        )
    return page_id


def page_file(page_id: object, pages: dict, root: Path) -> Path:
    """The file of a catalog-declared page, checked for containment without opening anything."""
    page_id = check_page_id(page_id)
    entry = pages.get(page_id)
    if entry is None:
        close = difflib.get_close_matches(page_id, list(pages), n=3)
        hint = (
            ("did you mean " + ", ".join(close) + "?")
            if close
            else "see `bunzai docs browse` or `bunzai docs search WORDS`"
        )
        raise BunzaiError("not_found", f"no docs page {page_id!r}", hint)
    return contained_path(root, entry["path"])


def text_hash(text: str) -> str:
    """The source hash of a page: SHA-256 of its UTF-8 bytes (what reviews and the catalog bind to)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_page(page_id: object, pages: dict, root: Path) -> str:
    """The text of a catalog-declared page (the only function that opens one)."""
    return read_text_nofollow(page_file(page_id, pages, root), DOCS_PAGE_MAX_BYTES)


def scan_pages(root: Path) -> list[tuple[str, str]]:
    """(page id, relative path) of every Markdown page beneath `root`, sorted by id.

    Symlinks and hidden entries are skipped (bunzai.files.walk_files), and so are the
    review record folders; a file name that cannot be a page id is refused (invalid_id).
    """
    found = []
    for path in walk_files(root):
        relative = path.relative_to(root).as_posix()
        if not relative.endswith(".md") or relative.split("/")[0] in RECORD_FOLDERS:
            continue
        page_id = relative[: -len(".md")]
        if not PAGE_ID.fullmatch(page_id):
            raise BunzaiError(
                "invalid_id",
                f"docs page {relative} cannot have an id: {page_id!r} is not lower-case parts joined by /",
                "rename the file: lower-case letters, digits, '.', '_' and '-'",
            )
        found.append((page_id, relative))
    return sorted(found)
