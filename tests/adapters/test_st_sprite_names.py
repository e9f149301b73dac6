"""SillyTavern sprite file names: which are images (mime-types' table, not the machine's), the
label SillyTavern lists a file under, and the loss when that is not the pack's label."""

from __future__ import annotations

import mimetypes

import pytest
from hypothesis import given
from hypothesis import strategies as st
from st_side_formats_support import media_of, undeclared

from bunzai.adapters.contract import Blob
from bunzai.adapters.registry import get_adapter
from bunzai.adapters.sillytavern.sprites import _name_is_image, label_of, mime_of, st_label_of
from bunzai.convert import convert_piece
from bunzai.model.pack import Pack, PackBody, PackItem

ZIP = "sillytavern.sprites"
FOLDER = "sillytavern.sprites.folder"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(13)


def png(tag: str) -> bytes:
    return PNG + tag.encode()


@pytest.fixture
def no_mimetypes(monkeypatch):
    """A machine whose mimetypes knows nothing: reading sprites must not ask it."""

    def refuse(*_args, **_kwargs):
        raise AssertionError("the machine's mimetypes table was consulted")

    for name in ("guess_type", "guess_extension", "guess_all_extensions"):
        monkeypatch.setattr(mimetypes, name, refuse)


def test_the_type_of_a_sprite_by_its_name_comes_from_sillytavern_s_table(no_mimetypes):
    # Bytes that are no known image: the name decides, as SillyTavern's mime.lookup does.
    assert mime_of("joy.avif", b"....ftypavif") == "image/avif"
    assert mime_of("joy.JXL", b"") == "image/jxl" and mime_of("joy.svg", b"<svg/>") == "image/svg+xml"
    assert mime_of("_emotions.json", b"{}") == "" and mime_of("joy.webm", b"") == "" and mime_of("joy", b"") == ""
    assert mime_of("joy.png.gz", b"") == ""  # a compressed file is not an image
    assert mime_of("anything.bin", PNG) == "image/png"  # the bytes first


def test_a_sprite_folder_is_recognised_and_read_without_the_machine_s_table(no_mimetypes):
    adapter = get_adapter(FOLDER)
    files = {"joy.avif": b"\x00\x00\x00\x1cftypavif", "neutral.png": png("n"), "_emotions.json": b"{}"}
    assert adapter.sniff_names(sorted(files)) == 0.9
    piece = adapter.read(b"", "Ada", files).pieces[0]
    assert [(item.id, item.mime, item.asset.ext) for item in piece.body.items] == [
        ("joy", "image/avif", "avif"),
        ("neutral", "image/png", "png"),
    ]


@pytest.mark.parametrize(
    ("name", "image"),
    [
        ("joy.png", True),
        ("JOY.WEBP", True),
        ("png", True),  # mime.lookup("png") is image/png: a bare extension, or a file of that name
        ("PNG", True),
        ("jxl", True),
        (".png", True),
        ("webm", False),
        ("joy.webm", False),
        ("joy.", False),
        ("joy", False),
        ("", False),
        ("sub/png", False),  # a path's last part has no extension
    ],
)
def test_which_names_sillytavern_lists_as_images(name, image):
    assert _name_is_image(name) is image


def test_a_sprite_file_named_as_a_bare_extension_keeps_its_name(no_mimetypes):
    # SillyTavern lists a file named `png` as a sprite (label png); it is written back under that name.
    files = {"png": png("p"), "neutral.png": png("n")}
    assert get_adapter(FOLDER).sniff_names(sorted(files)) == 0.9
    decoded = get_adapter(FOLDER).read(b"", "Ada", files)
    item = decoded.pieces[0].body.items[1]
    assert (item.id, item.label, item.asset.ext) == ("png", "png", "png")
    crossing = convert_piece(decoded.pieces[0], FOLDER, media_of(decoded))
    assert dict(crossing.files) == files and crossing.losses == []


@pytest.mark.parametrize(
    ("file_name", "label"),
    [  # sprites.js: path.parse(file).name.toLowerCase().match(/^(.+?)(?:[-\\.].*?)?$/)[1]
        ("joy.png", "joy"),
        ("Joy-1.PNG", "joy"),
        ("joy.alt.png", "joy"),
        ("very-happy.png", "very"),
        ("very_happy.png", "very_happy"),
        ("-x.png", "-x"),
        ("a\\b.png", "a"),
        ("x\ny-z.png", "x\ny-z"),  # no match across a line break: the whole stem
    ],
)
def test_the_label_sillytavern_lists_a_file_under(file_name, label):
    assert st_label_of(file_name) == label


@given(st.text(alphabet=st.characters(blacklist_characters="/\n\r\u2028\u2029\x00"), min_size=1, max_size=30))
def test_sillytavern_s_label_is_a_head_of_the_stem_with_no_separator_after_its_first_character(stem):
    label = st_label_of(stem + ".png")
    lowered = stem.lower()
    assert lowered.startswith(label) and label
    assert not any(mark in label[1:] for mark in "-.\\")
    assert label == lowered or lowered[len(label)] in "-.\\"


def _one_sprite_pack(label: str, item_id: str) -> tuple[Pack, dict]:
    blob = Blob(png(label), "png", "image/png")
    items = [PackItem(id=item_id, label=label, asset=blob.ref(), mime="image/png")]
    return Pack(id="ada", name="Ada", body=PackBody(items=items, default_face=label)), {blob.sha256: blob.data}


@pytest.mark.parametrize("target", [ZIP, FOLDER])
def test_a_label_sillytavern_cuts_is_a_declared_loss(target):
    piece, data = _one_sprite_pack("very-happy", "very-happy")
    crossing = convert_piece(piece, target, lambda ref: data[ref.sha256])
    cut = [loss for loss in crossing.losses if loss.code == "pack.item.label.cut"]
    assert [(loss.pointer, loss.action) for loss in cut] == [("/body/items/0/label", "translated")]
    assert "'very'" in cut[0].why and "'very-happy.png'" in cut[0].why
    assert "pack.item.label.renamed" not in {loss.code for loss in crossing.losses}  # bunzai reads it back as it is
    assert undeclared(crossing) == []


@pytest.mark.parametrize(("label", "item_id"), [("joy", "joy"), ("very_happy", "very_happy"), ("joy", "smile")])
def test_a_label_sillytavern_reads_as_it_is_has_no_such_loss(label, item_id):
    piece, data = _one_sprite_pack(label, item_id)
    for target in (ZIP, FOLDER):
        crossing = convert_piece(piece, target, lambda ref: data[ref.sha256])
        assert "pack.item.label.cut" not in {loss.code for loss in crossing.losses}


def test_a_sprite_keeping_its_sillytavern_file_name_is_not_noted_a_new_one_is():
    # SillyTavern already lists very-happy.png as `very`: written back under its name, nothing changes there.
    files = {"joy-1.png": png("a"), "joy.png": png("b"), "very-happy.png": png("c"), "neutral.png": png("d")}
    decoded = get_adapter(FOLDER).read(b"", "Ada", files)
    piece = decoded.pieces[0]
    assert [item.label for item in piece.body.items] == ["joy", "joy", "neutral", "very-happy"]
    assert label_of("very-happy.png") != st_label_of("very-happy.png")
    crossing = convert_piece(piece, FOLDER, media_of(decoded))
    assert dict(crossing.files) == files and crossing.losses == []
    new = Blob(png("new"), "png", "image/png")
    items = [*piece.body.items, PackItem(id="so-sad", label="so-sad", asset=new.ref(), mime="image/png")]
    edited = piece.model_copy(update={"body": piece.body.model_copy(update={"items": items})})
    by_sha = {blob.sha256: blob.data for blob in decoded.blobs} | {new.sha256: new.data}
    crossing = convert_piece(edited, FOLDER, lambda ref: by_sha[ref.sha256])
    assert dict(crossing.files) == files | {"so-sad.png": new.data}
    cut = [loss.pointer for loss in crossing.losses if loss.code == "pack.item.label.cut"]
    assert cut == ["/body/items/4/label"] and undeclared(crossing) == []


@pytest.mark.parametrize("target", [ZIP, FOLDER])
def test_sprite_names_differing_only_in_case_are_written_as_two_files_on_any_filesystem(target):
    # A zip made on Linux can hold Joy.png and joy.png. On Windows and macOS they are one file, so
    # SillyTavern's unzip (and a folder export) would keep only the last: the second takes a free name.
    files = {"Joy.png": png("a"), "joy.png": png("b"), "sad.png": png("c")}
    decoded = get_adapter(FOLDER).read(b"", "Ada", files)
    crossing = convert_piece(decoded.pieces[0], target, media_of(decoded))
    written = dict(crossing.files) if target == FOLDER else _zip_members(crossing.data)
    assert len({name.lower() for name in written}) == len(written) == 3
    assert sorted(written.values()) == sorted(files.values())  # no sprite lost
    assert [loss.pointer for loss in crossing.losses if loss.code == "pack.item.id.from_file_name"] == [
        "/body/items/1/id"
    ]
    assert undeclared(crossing) == []


def _zip_members(data: bytes) -> dict[str, bytes]:
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}
