"""Helpers for the bundle tests: real corpus pieces, and one capability previewed the way the brief asks."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "sillytavern"
ST_CHAT_PRESET = CORPUS / "presets" / "openai" / "Default.json"
ST_TEXTGEN_PRESET = CORPUS / "presets" / "textgen" / "Universal-Light.json"
ST_QUICK_REPLIES = CORPUS / "quick-replies" / "Default.v1.json"
SERAPHINA_SPRITES = CORPUS / "characters" / "sprites" / "Seraphina"

# A 1x1 transparent PNG: a real image small enough to inline as a data: URI.
PNG_1X1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000b49444154789c6360000200000500017a5eab3f0000000049454e44ae426082"
)


def _skip_unreadable(error, name: str) -> None:
    if error.code in ("unrecognized_file", "unknown_format", "unsupported"):
        pytest.skip(f"no importer registered for {name} yet: {error.message}")


def corpus_piece(path: Path, kind: str) -> dict:
    """The canonical piece of `kind` read from a corpus file or folder (skips where absent or unreadable yet)."""
    if not path.exists():
        pytest.skip(f"corpus {path} is absent (../shared/corpus is not beside this checkout)")
    from bunzai.changes.imports import drafts_from_bytes, drafts_from_path
    from bunzai.errors import BunzaiError

    try:
        if path.is_dir():
            drafts = next(result for _, result in drafts_from_path(path))
            if isinstance(drafts, BunzaiError):
                raise drafts
        else:
            drafts = drafts_from_bytes(path.read_bytes(), path.name)
    except BunzaiError as error:
        _skip_unreadable(error, path.name)
        raise
    return copy.deepcopy(next(d["proposed"] for d in drafts if d["target"]["kind"] == kind))


@dataclass
class Previewed:
    before: dict  # the starting piece's canonical JSON (None for a create)
    after: dict  # the proposed piece's canonical JSON, re-validated
    changes: list[dict]  # diff_json(before, after)
    warnings: list[str]
    attachments: dict


def preview(cap_id: str, entity: dict | None, raw: dict) -> Previewed:
    """CAPABILITY.preview(entity, CAPABILITY.input_model.model_validate(raw)), checked and diffed."""
    from bunzai.capabilities.discovery import find_capability
    from bunzai.changes.diff import diff_json
    from bunzai.model import dump_piece
    from bunzai.validate import validate_piece

    cap = find_capability(cap_id)
    start = validate_piece(copy.deepcopy(entity)) if entity is not None else None
    before = dump_piece(start) if start is not None else None
    result = cap.preview(start, cap.input_model.model_validate(raw))
    after = dump_piece(validate_piece(dump_piece(result.entity)))
    assert after == dump_piece(result.entity)
    if start is not None:
        assert dump_piece(start) == before, "preview must not touch the entity it was given"
        assert (after["kind"], after["id"], after["original"]) == (before["kind"], before["id"], before["original"])
    changes = diff_json(before, after) if before is not None else []
    return Previewed(before, after, changes, list(result.warnings), dict(result.attachments))


def refusal(cap_id: str, entity: dict | None, raw: dict):
    """The BunzaiError a preview raises (or the pydantic error its input raises)."""
    from bunzai.capabilities.discovery import find_capability
    from bunzai.errors import BunzaiError
    from bunzai.validate import validate_piece

    cap = find_capability(cap_id)
    start = validate_piece(copy.deepcopy(entity)) if entity is not None else None
    with pytest.raises(BunzaiError) as caught:
        cap.preview(start, cap.input_model.model_validate(raw))
    return caught.value


def edited(piece: dict, edit) -> dict:
    """A deep copy of `piece` with `edit(copy)` applied: the expected proposed entity."""
    result = copy.deepcopy(piece)
    edit(result)
    return result
