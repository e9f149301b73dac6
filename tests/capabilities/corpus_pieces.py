"""Real pieces for capability tests: the Seraphina card and the Eldoria world, imported from the corpus."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "sillytavern"
SERAPHINA = CORPUS / "characters" / "default_Seraphina.png"
ELDORIA = CORPUS / "worlds" / "Eldoria.json"


def imported(path: Path, kind: str) -> dict:
    """The canonical piece of `kind` read from a corpus file (skips where absent or unreadable yet)."""
    if not path.exists():
        pytest.skip(f"corpus file {path} is absent")
    from bunzai.changes.imports import drafts_from_bytes
    from bunzai.errors import BunzaiError

    try:
        drafts = drafts_from_bytes(path.read_bytes(), path.name)
    except BunzaiError as error:
        if error.code in ("unrecognized_file", "unknown_format", "unsupported"):
            pytest.skip(f"no importer registered for {path.name} yet: {error.message}")
        raise
    return copy.deepcopy(next(d["proposed"] for d in drafts if d["target"]["kind"] == kind))


def seraphina() -> dict:
    return imported(SERAPHINA, "character")


def eldoria() -> dict:
    return imported(ELDORIA, "lorebook")


def run(cap_id: str, entity: dict, payload: dict) -> dict:
    from bunzai.capabilities.discovery import find_capability
    from bunzai.capabilities.runner import run_capability

    return run_capability(find_capability(cap_id), entity, payload, baseline="0" * 64)


def paths(draft: dict) -> list[str]:
    return [change["path"] for change in draft["changes"]]
