"""An extension with a trailing newline is no extension: Python's `$` matches before a final
newline, so a `^...$` pattern with `match` took "png\\n", and the CHARX was refused whole when
the studio's asset model (which matches strictly) met it."""

from __future__ import annotations

import base64
import io
import json
import zipfile

from bunzai.adapters.common.charx_members import valid_ext
from bunzai.adapters.inspect import read_bytes

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def _v3_card(*assets: dict) -> dict:
    return {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {"name": "X", "first_mes": "hi", "assets": list(assets)},
    }


def test_valid_ext_takes_no_trailing_newline():
    assert valid_ext("PNG") == "png"
    assert valid_ext("png\n") is None and valid_ext("png\r\n") is None


def test_a_charx_whose_asset_ext_ends_in_a_newline_reads():
    card = _v3_card(
        {"type": "icon", "uri": "embeded://assets/icon/images/main.png", "name": "main", "ext": "png\n"},
        {"type": "emotion", "uri": "embeded://assets/emotion/images/joy.png", "name": "joy", "ext": "png\n"},
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("card.json", json.dumps(card))
        archive.writestr("assets/icon/images/main.png", PNG)
        archive.writestr("assets/emotion/images/joy.png", PNG)
    _adapter, decoded = read_bytes(buffer.getvalue(), "x.charx")
    character = decoded.pieces[0]
    assert character.body.portrait is not None and character.body.portrait.ext == "png"


def test_a_card_with_a_data_uri_asset_whose_ext_ends_in_a_newline_reads():
    """The same slip in a V3 JSON card's `data:` asset: the ext is taken from its MIME type."""
    uri = "data:image/png;base64," + base64.b64encode(PNG).decode()
    card = _v3_card({"type": "icon", "name": "main", "ext": "png\n", "uri": uri})
    _adapter, decoded = read_bytes(json.dumps(card).encode(), "x.json")
    assert decoded.pieces[0].body.portrait.ext == "png"
