"""Helpers shared by the SillyTavern regex / quick-reply / persona / sprite tests."""

from __future__ import annotations

import json

from hypothesis import strategies as st

from bunzai.adapters.contract import Decoded
from bunzai.adapters.inspect import read_bytes
from bunzai.convert import Crossing, convert_piece


def st_regex_script(**fields) -> dict:
    """One SillyTavern regex script as its editor saves a new one (an AI-output rule), with `fields` set."""
    return {
        "id": "a1b2",
        "scriptName": "Rule",
        "findRegex": "/x/g",
        "replaceString": "",
        "trimStrings": [],
        "placement": [2],
        "disabled": False,
        "markdownOnly": False,
        "promptOnly": False,
        "runOnEdit": True,
        "substituteRegex": 0,
        "minDepth": None,
        "maxDepth": None,
    } | fields


def read_json(document, name: str, format_id: str | None = None) -> Decoded:
    adapter, decoded = read_bytes(json.dumps(document).encode("utf-8"), name, format_id)
    if format_id is None:
        assert decoded.pieces and adapter.format_id
    return decoded


def media_of(decoded: Decoded):
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    return lambda ref: blobs[ref.sha256]


def round_trip(piece, format_id: str, decoded: Decoded | None = None) -> Crossing:
    return convert_piece(piece, format_id, media_of(decoded) if decoded else (lambda ref: b""))


# Unknown keys: names no platform uses, values any JSON.
unknown_keys = st.dictionaries(
    st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8).map(lambda key: "x_" + key),
    st.recursive(
        st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=12),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=6,
    ),
    max_size=3,
)


def random_pieces(kind: str):
    """Random valid canonical pieces of `kind`, from the model tests' strategies."""
    import sys
    from pathlib import Path

    model_tests = str(Path(__file__).resolve().parents[1] / "model")
    if model_tests not in sys.path:
        sys.path.append(model_tests)
    from model_strategies import pieces

    return pieces(kind)


def undeclared(crossing: Crossing) -> list:
    """Differences the read-back found that the adapter did not declare itself."""
    return [loss.to_json() for loss in crossing.losses if loss.code in ("crossing.not_carried", "crossing.unreadable")]
