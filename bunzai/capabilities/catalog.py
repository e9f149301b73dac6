"""The capability catalog: bunzai/generated/capabilities.json, regenerated from the folders.

The committed file is what docs and reviewers read; `bunzai cap check` regenerates it
and refuses (with a unified diff) when the committed file differs, so a capability added,
renamed or changed without regenerating fails CI.
"""

from __future__ import annotations

import json
from pathlib import Path

from bunzai.capabilities.discovery import ROOT_PACKAGE, discover
from bunzai.docs.generated_page import out_of_date
from bunzai.errors import BunzaiError

CATALOG_PATH = Path(__file__).resolve().parents[1] / "generated" / "capabilities.json"
CATALOG_TYPE = "bunzai.capabilities"
CATALOG_FORMAT = 1


def build_catalog(found: list) -> dict:
    """The catalog document for discovered capabilities (bunzai.capabilities.discovery.Found)."""
    entries = [dict(item.capability.describe(schema=True), module=item.module) for item in found]
    return {"type": CATALOG_TYPE, "format": CATALOG_FORMAT, "capabilities": entries}


def catalog_text(catalog: dict) -> str:
    return json.dumps(catalog, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def check_catalog(package: str | None = None, path: Path = CATALOG_PATH, *, write: bool = False) -> dict:
    """Regenerate the catalog; with `write` store it, else refuse (out_of_date) when it differs."""
    found = discover(package or ROOT_PACKAGE)
    fresh = catalog_text(build_catalog(found))
    committed = path.read_text(encoding="utf-8") if path.is_file() else ""
    summary = {"status": "ok", "capabilities": len(found), "path": str(path)}
    if fresh == committed:
        return summary
    if write:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(fresh, encoding="utf-8")
        return dict(summary, status="written")
    raise out_of_date(
        path,
        committed,
        fresh,
        "the capability folders",
        "run `bunzai cap check --write` (or `make capabilities`) and commit the result",
    )


def read_catalog(path: Path = CATALOG_PATH) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BunzaiError("out_of_date", f"{path} is missing", "run `bunzai cap check --write`") from None
