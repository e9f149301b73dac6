"""A RisuAI module's asset extension names the asset's escrow file and studio asset. RisuAI
writes the lowercase suffix of a file its picker took (png, mp3, woff2 ...: ASCII); any other
value, such as a fullwidth `ｐｎｇ` that `str.isalnum()` accepts, is stored as `bin`, and the
module JSON keeps the ext as written, so the module written back still holds it."""

from __future__ import annotations

import pytest
from cards_support import read
from risu_support import module_bytes
from test_risu_binary import MODULE

from bunzai.adapters.risu.module import decode_module
from bunzai.convert import convert_piece
from bunzai.model import dump_piece

_EXTS = [
    ("PNG", "png"),
    ("woff2", "woff2"),
    ("ｐｎｇ", "bin"),
    ("mp³", "bin"),
    ("İ", "bin"),
    (3, "bin"),
    ("a" * 11, "bin"),
]


@pytest.mark.parametrize(("ext", "stored"), _EXTS)
def test_an_asset_ext_is_stored_only_as_ascii_letters_and_digits(table, ext, stored) -> None:
    data = module_bytes(dict(MODULE, assets=[["sky", "", ext]]), table, [b"\x89PNG sky"])
    _adapter, decoded, media = read(data, "weather.risum")
    book = decoded.pieces[0]
    assert sorted(dump_piece(book)["original"]["files"]) == ["assets/0." + stored, "module.risum"]
    assert [blob.ext for blob in decoded.blobs[1:]] == [stored]
    written, assets = decode_module(convert_piece(book, "risu.module", media).data, table, "the written module")
    assert written["module"]["assets"] == [["sky", "", ext]] and assets == [b"\x89PNG sky"]
