"""SillyTavern sprite packs: flat zips and sprite folders read into packs; packs write as zips or folders."""

from __future__ import annotations

import io
import zipfile

import pytest
from testkit import corpus_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from st_side_formats_support import random_pieces, undeclared, media_of

from bunzai import limits
from bunzai.adapters.common.zipsafe import open_archive, write_archive
from bunzai.adapters.contract import Blob
from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.registry import get_adapter
from bunzai.adapters.sillytavern.sprites import label_of
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError
from bunzai.model.pack import Pack, PackBody, PackGroup, PackItem

ZIP = "sillytavern.sprites"
FOLDER = "sillytavern.sprites.folder"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(13)


def png(tag: str) -> bytes:
    return PNG + tag.encode()


def corpus_folder() -> tuple[str, dict[str, bytes]]:
    folder = corpus_path("sillytavern", "characters", "sprites", "Seraphina")
    return str(folder), {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_the_corpus_sprite_folder_is_claimed_and_read():
    path, files = corpus_folder()
    adapter = get_adapter(FOLDER)
    assert adapter.sniff(b"", path, files) >= 0.5
    decoded = adapter.read(b"", path, files)
    piece = decoded.pieces[0]
    assert (piece.kind, piece.id, piece.name, piece.body.default_face) == ("pack", "seraphina", "Seraphina", "neutral")
    assert [(item.id, item.label, item.mime) for item in piece.body.items] == [
        ("joy", "joy", "image/png"),
        ("neutral", "neutral", "image/png"),
    ]
    assert {blob.sha256 for blob in decoded.blobs} == {item.asset.sha256 for item in piece.body.items}
    assert decoded.warnings == []


def test_a_sprite_folder_is_written_as_a_zip_with_the_same_sprites():
    path, files = corpus_folder()
    decoded = get_adapter(FOLDER).read(b"", path, files)
    crossing = convert_piece(decoded.pieces[0], ZIP, media_of(decoded))
    # the zip is named after the pack, so the name it has no place for inside travels
    assert crossing.file_name == decoded.pieces[0].name + ".zip"
    assert {loss.code for loss in crossing.losses} == {"pack.folder_as_zip"}
    archive = open_archive(crossing.data)
    assert {name: archive.read(name) for name in archive.names()} == files


def test_a_sprite_folder_too_large_for_one_zip_is_refused_not_written_unreadable(monkeypatch):
    # A folder may hold more than one archive may (FOLDER_PIECE_MAX_BYTES is twice
    # ARCHIVE_TOTAL_MAX_BYTES); the zip bunzai would write must be one it reads back.
    path, files = corpus_folder()
    decoded = get_adapter(FOLDER).read(b"", path, files)
    monkeypatch.setattr(limits, "ARCHIVE_TOTAL_MAX_BYTES", sum(map(len, files.values())) - 1)
    with pytest.raises(BunzaiError) as caught:
        convert_piece(decoded.pieces[0], ZIP, media_of(decoded))
    assert caught.value.code == "too_large"
    assert dict(convert_piece(decoded.pieces[0], FOLDER, media_of(decoded)).files) == files


def test_a_sprite_folder_is_written_back_as_the_same_files_under_the_same_names():
    path, files = corpus_folder()
    decoded = get_adapter(FOLDER).read(b"", path, files)
    crossing = convert_piece(decoded.pieces[0], FOLDER, media_of(decoded))
    assert crossing.losses == []
    assert crossing.file_name == "Seraphina" and crossing.data == b""
    assert dict(crossing.files) == files
    assert [entry["name"] for entry in crossing.report()["files"]] == sorted(files)


def test_a_folder_keeps_several_sprites_per_label_and_its_underscore_files():
    files = {
        "joy.png": png("a"),
        "joy-1.png": png("b"),
        "joy.alt.png": png("c"),
        "neutral.png": png("d"),
        "_emotions.json": b'{"joy": "happy"}',
    }
    adapter = get_adapter(FOLDER)
    decoded = adapter.read(b"", "Ada", files)
    assert [item.label for item in decoded.pieces[0].body.items] == ["joy", "joy", "joy", "neutral"]
    crossing = convert_piece(decoded.pieces[0], FOLDER, media_of(decoded))
    assert dict(crossing.files) == files and crossing.losses == []


def test_a_zip_pack_is_written_as_a_folder_named_after_the_pack():
    data = write_archive([("joy.png", png("a")), ("neutral.png", png("b"))])
    decoded = get_adapter(ZIP).read(data, "Sera Phina.zip", None)
    piece = decoded.pieces[0]
    crossing = convert_piece(piece, FOLDER, media_of(decoded))
    assert crossing.file_name == "Sera Phina"
    assert dict(crossing.files) == {"joy.png": png("a"), "neutral.png": png("b")}
    assert undeclared(crossing) == []


def test_new_sprites_in_a_folder_are_named_label_then_label_dash_number():
    refs = {tag: Blob(png(tag), "png", "image/png") for tag in "abc"}
    items = [PackItem(id=f"smile-{tag}", label="joy", asset=blob.ref(), mime="image/png") for tag, blob in refs.items()]
    piece = Pack(id="ada", name="Ada: the <first>", body=PackBody(items=items, default_face="joy"))
    crossing = convert_piece(piece, FOLDER, lambda ref: {b.sha256: b.data for b in refs.values()}[ref.sha256])
    assert [name for name, _ in crossing.files] == ["joy.png", "joy-1.png", "joy-2.png"]
    assert crossing.file_name == "Ada the first"  # SillyTavern's sanitized folder name
    assert {"pack.name.folder_name", "pack.item.order.by_file_name"} <= {loss.code for loss in crossing.losses}
    assert undeclared(crossing) == []


@pytest.mark.parametrize(
    ("file_name", "label"),
    [
        ("joy.png", "joy"),
        ("Joy.PNG", "joy"),
        ("joy-1.png", "joy"),
        ("joy.alt.png", "joy"),
        ("anger-2.webp", "anger"),
        ("very-happy.png", "very-happy"),
        ("smug-2.png", "smug"),
        ("talkinghead.gif", "talkinghead"),
    ],
)
def test_labels_follow_sillytavern_file_naming(file_name, label):
    assert label_of(file_name) == label


def pack_zip() -> bytes:
    return write_archive(
        [
            ("joy.png", png("joy")),
            ("joy-1.png", png("joy1")),
            ("joy.alt.png", png("joyalt")),
            ("smug.png", png("smug")),
            ("_emotions.json", b'{"x": 1}'),
        ]
    )


def test_a_zip_pack_reads_several_sprites_per_label_and_flags_custom_labels():
    adapter, decoded = read_bytes(pack_zip(), "Ada.zip")
    piece = decoded.pieces[0]
    assert adapter.format_id == ZIP
    assert [(item.id, item.label) for item in piece.body.items] == [
        ("joy", "joy"),
        ("joy-1", "joy"),
        ("joy.alt", "joy"),
        ("smug", "smug"),
    ]
    assert piece.body.default_face == "joy"  # no neutral: the first label
    assert any("'smug'" in warning for warning in decoded.warnings)
    assert list(piece.original.files) == ["_emotions.json"]


def test_an_unedited_zip_pack_writes_back_byte_for_byte():
    data = pack_zip()
    decoded = read_bytes(data, "ada.zip")[1]
    crossing = convert_piece(decoded.pieces[0], ZIP, media_of(decoded))
    assert crossing.data == data
    assert crossing.losses == []


def test_a_new_pack_declares_what_sillytavern_cannot_hold():
    blobs = [Blob(png("a"), "png", "image/png"), Blob(png("b"), "png", "")]
    items = [
        PackItem(id="happy-face", label="Happy Face", asset=blobs[0].ref(), mime="image/png"),
        PackItem(id="calm", label="neutral", asset=blobs[1].ref(), mime=""),
    ]
    body = PackBody(items=items, default_face="Happy Face", groups=[PackGroup(name="g", items=["calm"])])
    by_sha = {blob.sha256: blob.data for blob in blobs}
    crossing = convert_piece(Pack(id="new", name="New", body=body), ZIP, lambda ref: by_sha[ref.sha256])
    codes = {loss.code for loss in crossing.losses}
    assert codes == {
        "pack.item.id.from_file_name",
        "pack.item.label.renamed",
        "pack.item.mime.detected",
        "pack.default_face.dropped",
        "pack.groups.dropped",
    }  # no pack.name.file_name: the zip is New.zip
    assert open_archive(crossing.data).names() == ["happy_face.png", "neutral.png"]


def test_writing_is_deterministic():
    decoded = read_bytes(pack_zip(), "ada.zip")[1]
    piece = decoded.pieces[0]
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"items": piece.body.items[::-1]})})
    first = convert_piece(edited, ZIP, media_of(decoded)).data
    assert first == convert_piece(edited, ZIP, media_of(decoded)).data


def test_a_zip_with_a_card_is_not_a_sprite_pack():
    data = write_archive([("card.json", b"{}"), ("assets/icon/main.png", png("i"))])
    assert get_adapter(ZIP).sniff(data, "x.charx", None) == 0.0


def test_a_hostile_sprite_zip_is_refused():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("../joy.png", png("x"))
    with pytest.raises(BunzaiError) as caught:
        get_adapter(ZIP).read(out.getvalue(), "evil.zip", None)
    assert caught.value.code == "unsafe_archive"


def test_a_truncated_sprite_zip_is_corrupt():
    data = pack_zip()
    with pytest.raises(BunzaiError) as caught:
        get_adapter(ZIP).read(data[: len(data) - 30], "cut.zip", None)
    assert caught.value.code == "corrupt_file"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_canonical_pack_crossing_in_declares_every_loss(data):
    piece = data.draw(random_pieces("pack"))
    blobs = {}  # every stored image gets real bytes, as the studio's assets have
    items = []
    for item in piece.body.items:
        if item.asset is not None:
            blob = Blob(png(item.id), item.asset.ext, item.asset.mime)
            blobs[blob.sha256] = blob.data
            item = item.model_copy(update={"asset": blob.ref()})
        items.append(item)
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"items": items})})
    for target in (ZIP, FOLDER):
        crossing = convert_piece(piece, target, lambda ref: blobs[ref.sha256])
        assert undeclared(crossing) == []


def test_a_new_sprite_placed_before_an_escrowed_one_of_its_label_gets_a_file_name_of_its_own():
    decoded = read_bytes(pack_zip(), "ada.zip")[1]
    piece = decoded.pieces[0]
    new = Blob(png("new"), "png", "image/png")
    items = [PackItem(id="joy-new", label="joy", asset=new.ref(), mime="image/png"), *piece.body.items]
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"items": items})})
    by_sha = {blob.sha256: blob.data for blob in decoded.blobs} | {new.sha256: new.data}
    for target in (ZIP, FOLDER):
        crossing = convert_piece(edited, target, lambda ref: by_sha[ref.sha256])
        files = dict(crossing.files) if target == FOLDER else _members_of(crossing.data)
        # every escrowed sprite keeps its name; the new one takes the next free joy name
        assert {name: files[name] for name in ("joy.png", "joy-1.png", "joy.alt.png", "smug.png")} == {
            name: data for name, data in _members_of(pack_zip()).items() if name != "_emotions.json"
        }
        assert files["joy-2.png"] == new.data
        assert undeclared(crossing) == []


def _members_of(data: bytes) -> dict[str, bytes]:
    archive = open_archive(data)
    return {name: archive.read(name) for name in archive.names()}


def test_a_sprite_zip_of_hundreds_of_sprites_is_recognised():
    # 10 labels with 45 sprites each: more than the 400 members sniffing once gave up at.
    labels = ("neutral", "joy", "anger", "fear", "love", "pride", "grief", "relief", "caring", "desire")
    members = [(f"{label}-{n}.png" if n else f"{label}.png", png(f"{label}{n}")) for label in labels for n in range(45)]
    adapter, decoded = read_bytes(write_archive(members), "Big.zip")
    assert adapter.format_id == ZIP
    assert len(decoded.pieces[0].body.items) == len(members) == 450


def _joy_beside_neutral(joy: Blob, mime: str):
    """(crossing, files written) for each sprite target, of a pack of `joy` and a neutral PNG."""
    still = Blob(png("n"), "png", "image/png")
    items = [
        PackItem(id="joy", label="joy", asset=joy.ref(), mime=mime),
        PackItem(id="neutral", label="neutral", asset=still.ref(), mime="image/png"),
    ]
    piece = Pack(id="ada", name="Ada", body=PackBody(items=items, default_face="neutral"))
    by_sha = {still.sha256: still.data, joy.sha256: joy.data}
    for target in (ZIP, FOLDER):
        crossing = convert_piece(piece, target, lambda ref: by_sha[ref.sha256])
        yield crossing, dict(crossing.files) if target == FOLDER else _members_of(crossing.data)


def test_a_video_sprite_is_a_declared_loss_not_a_file_sillytavern_skips():
    # SillyTavern's sprite list and zip upload take image files only (mime type image/*).
    video = Blob(b"\x1a\x45\xdf\xa3" + b"\x00" * 28, "webm", "video/webm")
    for crossing, files in _joy_beside_neutral(video, "video/webm"):
        assert files == {"neutral.png": png("n")}
        assert [(loss.pointer, loss.action) for loss in crossing.losses if loss.code == "pack.item.not_image"] == [
            ("/body/items", "dropped")
        ]
        assert undeclared(crossing) == []


def test_an_image_stored_under_another_extension_is_written_under_its_bytes_type():
    # SillyTavern decides by the file name (mime.lookup): joy.bin would be skipped there.
    odd = Blob(png("j"), "bin", "image/png")
    for _, files in _joy_beside_neutral(odd, "image/png"):
        assert files == {"joy.png": odd.data, "neutral.png": png("n")}


def test_which_names_are_images_does_not_depend_on_the_machine(monkeypatch):
    # SillyTavern's mime-types table, not /etc/mime.types: .webp is an image, .cpt is not.
    import mimetypes

    from bunzai.adapters.sillytavern.sprites import _name_is_image

    monkeypatch.setattr(mimetypes, "guess_type", lambda *_a, **_k: (None, None))
    assert _name_is_image("joy.webp") and _name_is_image("joy.JXL") and _name_is_image("joy.jfif")
    assert not _name_is_image("joy.cpt") and not _name_is_image("joy.bin") and not _name_is_image("joy.webm")


def test_a_pack_whose_name_starts_with_a_dot_names_the_folder_it_goes_by():
    # an export is never a hidden file: the folder of a pack named ".hidden" is "hidden"
    for name in (".hidden", " .0", "ok."):
        crossing = convert_piece(Pack(id="p", name=name, body={}), FOLDER, lambda ref: b"")
        assert crossing.file_name == name.strip(" .") or crossing.file_name == "p"
        assert [(loss.pointer, loss.code) for loss in crossing.losses] == [("/name", "pack.name.folder_name")]
