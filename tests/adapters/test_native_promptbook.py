"""A promptbook, library and phase uses included, crosses the bunzai.native format unchanged.

bunzai.native is the only format that holds promptbooks; no other adapter lists the kind, so
no crossing has losses to name for it.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from st_side_formats_support import random_pieces

from bunzai.adapters.registry import all_adapters, get_adapter
from bunzai.model import dump_piece, parse_piece


def _without_media(piece):
    # Random asset refs name bytes nobody has; the native file's media travel is tested elsewhere.
    doc = dump_piece(piece)
    doc["assets"] = []
    doc["body"]["attachments"] = []
    if doc.get("original"):
        doc["original"]["files"] = {}
    return parse_piece(doc)


def _native():
    return get_adapter("bunzai.native")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_pieces("promptbook").map(_without_media))
def test_a_promptbook_round_trips_through_native(piece) -> None:
    native = _native()
    encoded = native.write(piece, media=lambda ref: b"")  # no media left to fetch
    assert encoded.losses == []
    data = encoded.data
    again = native.read(data, "book.bunzai.json", json.loads(data)).pieces
    assert [dump_piece(p) for p in again] == [dump_piece(piece)]


def test_native_is_the_only_format_for_promptbooks() -> None:
    assert [adapter.format_id for adapter in all_adapters() if "promptbook" in adapter.kinds] == ["bunzai.native"]
