"""Media from files: @path / file: refs become by-place attachments, types are sniffed from bytes,
portraits, packs from a folder and preset attachments go through apply and export."""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import zipfile
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from bunzai.adapters.common import png
from bunzai.capabilities.common.media_refs import resolve_media, sniff_mime
from bunzai.changes.media import SourceReader, attachment_problem
from bunzai.errors import BunzaiError
from bundle_support import preview, refusal

EXPRESSIONS = ("admiration", "anger", "joy", "neutral", "sadness", "surprise")


def make_png(seed: int, size: int = 3) -> bytes:
    """A small, valid RGB PNG whose pixels depend on `seed`."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    row = b"\x00" + bytes((seed * 37 + i) % 256 for i in range(size * 3))
    return (
        png.PNG_SIGNATURE
        + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(row * size))
        + chunk(b"IEND", b"")
    )


PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"


# --- sniffing and resolving ------------------------------------------------------------


@pytest.mark.parametrize(
    "data,mime",
    [
        (make_png(1), "image/png"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "image/jpeg"),
        (b"GIF89a\x01\x00", "image/gif"),
        (b"RIFF\x10\x00\x00\x00WEBPVP8 ", "image/webp"),
        (b"\x00\x00\x00\x1cftypavif\x00\x00", "image/avif"),
        (PDF, "application/pdf"),
        ("héllo\n".encode(), "text/plain"),
        (b"\x00\x01\x02\xff", ""),
        (b"\xc3\x28 not utf-8", ""),
    ],
)
def test_sniff_names_the_type_from_the_bytes(data: bytes, mime: str) -> None:
    assert sniff_mime(data) == mime


@given(st.binary(max_size=200))
@settings(max_examples=200)
def test_sniffing_a_png_signature_always_says_png(tail: bytes) -> None:
    assert sniff_mime(png.PNG_SIGNATURE + tail) == "image/png"
    assert sniff_mime(b"%PDF-" + tail) == "application/pdf"


def test_a_file_ref_becomes_a_whole_file_attachment_by_place(tmp_path: Path, monkeypatch) -> None:
    image = make_png(2)
    (tmp_path / "nova.png").write_bytes(image)
    monkeypatch.chdir(tmp_path)
    sha = hashlib.sha256(image).hexdigest()
    for ref in ("@nova.png", "file:nova.png", f"file://{tmp_path / 'nova.png'}"):
        media = resolve_media(ref, "portrait")
        assert media.asset.sha256 == sha and media.mime == "image/png" and media.name == "nova.png"
        attachment = media.attachments[sha]
        assert attachment == {
            "ext": "png",
            "mime": "image/png",
            "size": len(image),
            "from": {"path": str(tmp_path / "nova.png")},
        }
        assert attachment_problem(attachment) is None
        assert SourceReader().read(sha, attachment) == image  # what apply reads is the file, hash-checked


def test_an_archive_member_ref_names_the_member(tmp_path: Path, monkeypatch) -> None:
    image = make_png(3)
    with zipfile.ZipFile(tmp_path / "pack.zip", "w") as archive:
        archive.writestr("faces/joy.png", image)
    monkeypatch.chdir(tmp_path)
    media = resolve_media("@pack.zip#faces/joy.png", "item")
    sha = hashlib.sha256(image).hexdigest()
    assert media.attachments[sha]["from"] == {"path": str(tmp_path / "pack.zip"), "member": "faces/joy.png"}
    assert SourceReader().read(sha, media.attachments[sha]) == image
    with pytest.raises(BunzaiError) as missing:
        resolve_media("@pack.zip#faces/sad.png", "item")
    assert missing.value.code == "not_found" and "faces/sad.png" in missing.value.message


def test_a_stored_asset_file_name_is_a_ref() -> None:
    sha = "a" * 64
    media = resolve_media(f"{sha}.png", "portrait")
    assert media.asset.model_dump() == {"sha256": sha, "ext": "png", "mime": "image/png"} and media.attachments == {}


def test_a_declared_type_that_disagrees_is_a_warning(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "face.jpg").write_bytes(make_png(4))
    monkeypatch.chdir(tmp_path)
    media = resolve_media("@face.jpg", "portrait", declared="image/webp")
    assert media.mime == "image/png" and media.ext == "png"
    assert any("named .jpg but its bytes are image/png" in w for w in media.warnings)
    assert any("declared type image/webp disagrees" in w for w in media.warnings)


@pytest.mark.parametrize(
    "content,code,named",
    [
        (None, "not_found", "no file at"),
        (b"", "invalid_input", "is empty"),
        (b"\x00\x01\x02\x03binary", "invalid_input", "type bunzai does not know"),
        (b"just text\n", "invalid_input", "is text/plain"),
        (make_png(11)[:-5] + b"XXXXX", "invalid_input", "is a damaged PNG"),
    ],
)
def test_unusable_files_are_refused_naming_the_file(tmp_path: Path, monkeypatch, content, code, named) -> None:
    if content is not None:
        (tmp_path / "face.png").write_bytes(content)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BunzaiError) as refused:
        resolve_media("@face.png", "portrait", accept=("image/",))
    assert refused.value.code == code and named in refused.value.message
    assert str(tmp_path / "face.png") in refused.value.message


def test_an_oversized_file_is_refused(tmp_path: Path, monkeypatch) -> None:
    from bunzai import limits

    monkeypatch.setattr(limits, "MEDIA_FILE_MAX_BYTES", 10)
    (tmp_path / "big.png").write_bytes(make_png(5))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BunzaiError) as refused:
        resolve_media("@big.png", "portrait")
    assert refused.value.code == "too_large" and "big.png" in refused.value.message


# --- capabilities ----------------------------------------------------------------------


def test_character_media_update_sets_portrait_and_additional_media(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "nova.png").write_bytes(make_png(6))
    (tmp_path / "beach.png").write_bytes(make_png(7))
    monkeypatch.chdir(tmp_path)
    start = preview("studio.character.create", None, {"name": "Nova"}).after
    result = preview(
        "character.media.update",
        start,
        {
            "portrait": "@nova.png",
            "additional_media": [
                {"role": "background", "media": "@beach.png"},
                {"role": "expression", "name": "joy", "media": "https://x.test/joy.webp"},
            ],
        },
    )
    portrait_sha = hashlib.sha256(make_png(6)).hexdigest()
    assert result.after["body"]["portrait"]["sha256"] == portrait_sha
    assert [(a["role"], a["name"], a["ext"], a["uri"]) for a in result.after["assets"]] == [
        ("background", "beach", "png", None),
        ("emotion", "joy", "webp", "https://x.test/joy.webp"),
    ]
    assert set(result.attachments) == {portrait_sha, hashlib.sha256(make_png(7)).hexdigest()}
    again = preview(
        "character.media.update",
        result.after,
        {"additional_media": [{"role": "background", "name": "beach", "media": "@nova.png"}]},
    )
    assert [a["name"] for a in again.after["assets"]] == ["joy", "beach"]  # same role and name: replaced


def test_a_portrait_url_is_refused(tmp_path: Path) -> None:
    assert (
        "URL is not downloaded"
        in refusal("studio.character.create", None, {"name": "N", "portrait": "https://x.test/a.png"}).message
    )


def test_pack_items_add_from_a_folder_keeps_a_default_face(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "faces"
    folder.mkdir()
    for index, name in enumerate(("joy.png", "joy-1.png", "neutral.png", "_emotions.json", "notes.txt")):
        (folder / name).write_bytes(make_png(index) if name.endswith(".png") else b"{}")
    monkeypatch.chdir(tmp_path)
    made = preview("studio.pack.create", None, {"name": "Faces", "from_folder": "faces"})
    body = made.after["body"]
    assert [(i["id"], i["label"]) for i in body["items"]] == [("joy-1", "joy"), ("joy", "joy"), ("neutral", "neutral")]
    assert body["default_face"] == "neutral" and len(made.attachments) == 3
    assert made.warnings == ["from_folder: notes.txt is not an image by its name; skipped"]
    chosen = preview("studio.pack.create", None, {"name": "Faces", "from_folder": "faces", "default_face": "joy"})
    assert chosen.after["body"]["default_face"] == "joy"
    added = preview(
        "pack.items.add", preview("studio.pack.create", None, {"name": "Empty"}).after, {"from_folder": "faces"}
    )
    assert [i["id"] for i in added.after["body"]["items"]] == ["joy-1", "joy", "neutral"]
    assert added.after["body"]["default_face"] == "neutral"
    assert "needs `items` or `from_folder`" in refusal("pack.items.add", added.after, {}).message


@pytest.mark.parametrize("kind", ["preset", "promptbook"])
def test_attachments_add_replace_remove(tmp_path: Path, monkeypatch, kind: str) -> None:
    (tmp_path / "guide.pdf").write_bytes(PDF)
    (tmp_path / "notes.md").write_text("# notes\n")
    monkeypatch.chdir(tmp_path)
    from bunzai.model import dump_piece
    from bunzai.validate import validate_piece

    start = dump_piece(validate_piece({"kind": kind, "id": "p", "name": "P"}))
    added = preview(
        f"{kind}.attachments.manage",
        start,
        {
            "add": [
                {"media": "@guide.pdf", "mime": "text/plain"},
                {"media": "@notes.md", "name": "Notes", "enabled": False},
            ]
        },
    )
    pdf_sha = hashlib.sha256(PDF).hexdigest()
    assert added.after["body"]["attachments"] == [
        {
            "name": "guide.pdf",
            "mime": "application/pdf",
            "asset": {"sha256": pdf_sha, "ext": "pdf", "mime": "application/pdf"},
            "enabled": True,
        },
        {
            "name": "Notes",
            "mime": "text/plain",
            "asset": {"sha256": hashlib.sha256(b"# notes\n").hexdigest(), "ext": "md", "mime": "text/plain"},
            "enabled": False,
        },
    ]
    assert added.warnings == [
        "add[0]: the declared type text/plain disagrees with the bytes (application/pdf); "
        "it is stored as application/pdf"
    ]
    changed = preview(
        f"{kind}.attachments.manage",
        added.after,
        {"remove": ["Notes"], "replace": [{"name": "guide.pdf", "new_name": "Guide", "enabled": False}]},
    )
    assert [(a["name"], a["enabled"]) for a in changed.after["body"]["attachments"]] == [("Guide", False)]
    assert (
        "no attachment named 'nope'" in refusal(f"{kind}.attachments.manage", added.after, {"remove": ["nope"]}).message
    )
    assert (
        "would be named 'Notes'"
        in refusal(
            f"{kind}.attachments.manage", added.after, {"add": [{"media": "@notes.md", "name": "Notes"}]}
        ).message
    )
    assert (
        "URL is not downloaded"
        in refusal(f"{kind}.attachments.manage", start, {"add": [{"media": "https://x.test/a.pdf"}]}).message
    )


# --- end to end, through the real command ----------------------------------------------


def _studio_file(bunzai, receipt: dict) -> bytes:
    return (bunzai.studio / receipt["path"]).read_bytes()


def test_create_with_a_portrait_file_then_export_a_png_card(bunzai) -> None:
    image = make_png(8, size=5)
    (bunzai.cwd / "nova.png").write_bytes(image)
    draft = bunzai("create", "character", "--input", json.dumps({"name": "Nova", "portrait": "@nova.png"}), check=True)
    assert "base64" not in draft.stdout  # the draft names the file, it does not carry it
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    exported = bunzai("export", "nova", "--to", "sillytavern.card.png", check=True).json
    card = png.read_png(_studio_file(bunzai, exported))
    assert png.replace_text(card, {"chara", "ccv3"}, []) == image  # the image is nova.png's, byte for byte
    data = json.loads(base64.b64decode(png.find_text(card, "chara").text))
    assert data["data"]["name"] == "Nova"


def test_a_text_file_named_png_is_refused_and_nothing_is_written(bunzai) -> None:
    (bunzai.cwd / "nova.png").write_text("not a picture\n")
    result = bunzai("create", "character", "--input", json.dumps({"name": "Nova", "portrait": "@nova.png"}))
    assert result.code == 1
    error = result.json["error"]
    assert error["code"] == "invalid_input" and "text/plain" in error["message"] and "nova.png" in error["message"]
    assert not list((bunzai.studio / "character").glob("*.json"))


def test_a_changed_file_is_refused_at_apply(bunzai) -> None:
    (bunzai.cwd / "nova.png").write_bytes(make_png(9))
    draft = bunzai("create", "character", "--input", json.dumps({"name": "Nova", "portrait": "@nova.png"}), check=True)
    (bunzai.cwd / "nova.png").write_bytes(make_png(10))
    applied = bunzai("apply", "--yes", input=draft.stdout)
    assert applied.code == 1 and "source_changed" in applied.stdout
    assert not (bunzai.studio / "character" / "nova.json").exists()


def test_a_pack_from_a_folder_exports_to_a_sprite_folder_with_the_same_names(bunzai) -> None:
    folder = bunzai.cwd / "sprites"
    folder.mkdir()
    for index, label in enumerate(EXPRESSIONS):
        (folder / f"{label}.png").write_bytes(make_png(20 + index))
    draft = bunzai("create", "pack", "--input", json.dumps({"name": "Nova", "from_folder": "sprites"}), check=True)
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    out = bunzai.cwd / "st"
    bunzai("export", "pack/nova", "--into", str(out), "--layout", "sillytavern", check=True)
    written = out / "characters" / "Nova"
    assert sorted(p.name for p in written.iterdir()) == [f"{label}.png" for label in EXPRESSIONS]
    for label in EXPRESSIONS:
        assert (written / f"{label}.png").read_bytes() == (folder / f"{label}.png").read_bytes()


def test_a_preset_pdf_attachment_travels_through_a_native_export_and_back(bunzai, tmp_path: Path) -> None:
    (bunzai.cwd / "guide.pdf").write_bytes(PDF)
    bunzai(
        "apply",
        "--yes",
        input=bunzai("create", "preset", "--input", '{"name": "Chatty"}', check=True).stdout,
        check=True,
    )
    draft = bunzai(
        "cap", "run", "preset.attachments.manage", "chatty", "--input", '{"add": [{"media": "@guide.pdf"}]}', check=True
    )
    bunzai("apply", "--yes", input=draft.stdout, check=True)
    exported = bunzai("export", "chatty", "--to", "bunzai.native", check=True).json
    native = tmp_path / "chatty.bunzai.json"
    native.write_bytes(_studio_file(bunzai, exported))
    other = tmp_path / "other"
    bunzai("init", str(other), check=True)
    again = bunzai("--studio", str(other), "import", str(native), check=True)
    bunzai("--studio", str(other), "apply", "--yes", input=again.stdout, check=True)
    piece = bunzai("--studio", str(other), "read", "preset/chatty", check=True).json["piece"]
    ref = piece["body"]["attachments"][0]["asset"]
    assert (other / "assets" / f"{ref['sha256']}.{ref['ext']}").read_bytes() == PDF


def test_backgrounds_and_persona_avatars_take_files_too(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "bg.png").write_bytes(make_png(30))
    (tmp_path / "me.png").write_bytes(make_png(31))
    (tmp_path / "doc.pdf").write_bytes(PDF)
    monkeypatch.chdir(tmp_path)
    bg_sha, me_sha = (hashlib.sha256(make_png(n)).hexdigest() for n in (30, 31))
    card = preview("studio.character.create", None, {"name": "Nova"}).after
    shown = preview("character.presentation.update", card, {"background": "@bg.png"})
    assert shown.after["body"]["presentation"]["background"]["sha256"] == bg_sha and set(shown.attachments) == {bg_sha}
    persona = preview("studio.persona.create", None, {"name": "Me", "portrait": "@me.png"})
    assert persona.after["body"]["portrait"]["sha256"] == me_sha and set(persona.attachments) == {me_sha}
    both = preview(
        "persona.presentation.update", persona.after, {"portrait": None, "presentation": {"background": "@bg.png"}}
    )
    assert (
        both.after["body"]["portrait"] is None and both.after["body"]["presentation"]["background"]["sha256"] == bg_sha
    )
    assert "application/pdf" in refusal("character.presentation.update", card, {"background": "@doc.pdf"}).message
