"""A data: URI's bytes are sniffed like a file's (docs/media.md): the sniffed type is stored, an
images-only input refuses bytes that are no image, and a damaged PNG is refused."""

from __future__ import annotations

import base64

from bundle_support import PNG_1X1, preview, refusal


def uri(mime: str, data: bytes) -> str:
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


def create(media: str) -> dict:
    return {"name": "Ada", "items": [{"label": "joy", "media": media}]}


def test_gif_bytes_in_a_png_uri_are_stored_as_the_gif_they_are() -> None:
    gif = b"GIF89a" + bytes(20)
    result = preview("studio.pack.create", None, create(uri("image/png", gif)))
    item = result.after["body"]["items"][0]
    assert (item["asset"]["ext"], item["asset"]["mime"], item["mime"]) == ("gif", "image/gif", "image/gif")
    assert [(a["ext"], a["mime"]) for a in result.attachments.values()] == [("gif", "image/gif")]
    assert any("they look like image/gif" in warning for warning in result.warnings)


def test_text_in_an_image_uri_is_refused_for_a_sprite_and_a_portrait() -> None:
    text = uri("image/png", b"hello, not an image")
    assert "text/plain (sniffed from its bytes)" in refusal("studio.pack.create", None, create(text)).message
    portrait = refusal("studio.character.create", None, {"name": "Ada", "portrait": text})
    assert portrait.code == "invalid_input" and "text/plain" in portrait.message


def test_a_damaged_png_uri_is_refused_as_a_damaged_file_is() -> None:
    damaged = PNG_1X1[:-5] + b"\x00" * 5  # the IEND chunk's CRC broken
    assert "damaged PNG" in refusal("studio.pack.create", None, create(uri("image/png", damaged))).message


def test_a_sound_png_uri_is_stored_as_before() -> None:
    result = preview("studio.pack.create", None, create(uri("image/png", PNG_1X1)))
    assert result.after["body"]["items"][0]["asset"]["mime"] == "image/png" and result.warnings == []
