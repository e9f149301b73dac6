"""The safe ZIP reader refuses hostile archives with coded errors and reads honest ones."""

from __future__ import annotations

import io
import os
import struct
import warnings
import zipfile

import pytest

from bunzai import limits
from bunzai.adapters.common import zipsafe
from bunzai.adapters.common.zipsafe import open_archive, write_archive
from bunzai.errors import BunzaiError

JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + b"\x11" * 200 + b"\xff\xd9"


def plain_zip(members: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as zf, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are the point of some tests
        for name, data in members:
            zf.writestr(zipfile.ZipInfo(name), data)
    return out.getvalue()


def zeros_zip(name: str, size: int, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A member of `size` zero bytes, written in chunks so the test never holds it whole."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as zf:
        info = zipfile.ZipInfo(name)
        info.compress_type = method
        with zf.open(info, "w", force_zip64=True) as member:
            chunk = bytes(1024 * 1024)
            for _ in range(size // len(chunk)):
                member.write(chunk)
    return out.getvalue()


def refused(data: bytes) -> BunzaiError:
    with pytest.raises(BunzaiError) as caught:
        archive = open_archive(data)
        for name in archive.names():
            archive.read(name)
    return caught.value


def test_an_honest_archive_lists_and_reads_its_files():
    archive = open_archive(plain_zip([("dir/", b""), ("dir/a.txt", b"alpha"), ("b.png", b"\x89PNG")]))
    assert archive.names() == ["dir/a.txt", "b.png"]
    assert archive.has("b.png") and not archive.has("dir/") and not archive.has("nope")
    assert archive.read("dir/a.txt") == b"alpha"


def test_reading_a_missing_member_is_not_found():
    with pytest.raises(BunzaiError) as caught:
        open_archive(plain_zip([("a", b"x")])).read("b")
    assert caught.value.code == "not_found"


def test_a_zip_bomb_of_zeros_is_refused():
    error = refused(zeros_zip("bomb.bin", 20 * 1024 * 1024))
    assert error.code == "unsafe_archive"
    assert "ratio" in error.message


def test_a_zip_bomb_is_refused_while_reading_even_when_headers_are_not_consulted(monkeypatch):
    monkeypatch.setattr(zipsafe, "_check_declared_size", lambda info: None)
    monkeypatch.setattr(limits, "ARCHIVE_TOTAL_MAX_BYTES", 10**12)
    error = refused(zeros_zip("bomb.bin", 20 * 1024 * 1024))
    assert error.code == "unsafe_archive"
    assert "decompresses at a ratio" in error.message


def test_a_member_as_large_as_the_largest_asset_reads_back():
    # A CHARX may carry a video: whatever the studio stores goes into an archive and back.
    video = os.urandom(limits.ASSET_MAX_BYTES)
    assert open_archive(write_archive([("assets/other/video/v.mp4", video)])).read("assets/other/video/v.mp4") == video


def test_a_member_past_the_largest_asset_is_refused():
    error = refused(zeros_zip("video.bin", limits.ASSET_MAX_BYTES + 1024 * 1024, zipfile.ZIP_STORED))
    assert error.code == "unsafe_archive"
    assert "per member" in error.message


def test_a_member_past_the_largest_asset_is_refused_while_reading(monkeypatch):
    monkeypatch.setattr(zipsafe, "_check_declared_size", lambda info: None)
    monkeypatch.setattr(limits, "ARCHIVE_MAX_RATIO", 10**9)
    error = refused(zeros_zip("video.bin", limits.ASSET_MAX_BYTES + 1024 * 1024))
    assert error.code == "unsafe_archive"
    assert "decompresses past" in error.message and "per member" in error.message


def test_the_total_of_all_members_is_bounded_while_reading(monkeypatch):
    data = plain_zip([(f"m{i}.bin", bytes(range(256)) * 64) for i in range(4)], zipfile.ZIP_STORED)
    archive = open_archive(data)  # declared sizes pass; the limit tightens for the reads
    monkeypatch.setattr(limits, "ARCHIVE_TOTAL_MAX_BYTES", 3 * 256 * 64)
    for name in archive.names()[:3]:
        archive.read(name)
    archive.read("m0.bin")  # a member read again is counted once
    with pytest.raises(BunzaiError) as caught:
        archive.read("m3.bin")
    assert caught.value.code == "unsafe_archive"


@pytest.mark.parametrize(
    "name",
    [
        "../evil.png",
        "a/../../evil.png",
        "/etc/passwd",
        "C:/Windows/evil.dll",
        "c:evil",
        "a\\..\\evil.png",
        "sprites\\joy.png",
        "./joy.png",
        "a//b.png",
    ],
)
def test_member_names_that_could_escape_are_refused(name):
    error = refused(plain_zip([("ok.png", b"x"), (name, b"y")]))
    assert error.code == "unsafe_archive"


def test_a_nul_in_a_member_name_is_refused():
    data = plain_zip([("evil_X.png", b"y")]).replace(b"evil_X.png", b"evil\x00X.png")
    error = refused(data)
    assert error.code == "unsafe_archive"
    assert "NUL" in error.message


def test_a_duplicated_member_name_is_refused():
    error = refused(plain_zip([("joy.png", b"a"), ("joy.png", b"b")]))
    assert error.code == "unsafe_archive"
    assert "twice" in error.message


def test_too_many_members_are_refused():
    error = refused(plain_zip([(f"{i}.txt", b"") for i in range(limits.ARCHIVE_MAX_MEMBERS + 1)], zipfile.ZIP_STORED))
    assert error.code == "unsafe_archive"
    assert "members" in error.message


def test_a_truncated_archive_is_corrupt():
    data = plain_zip([("a.txt", b"alpha" * 1000), ("b.txt", b"beta" * 1000)])
    assert refused(data[: len(data) // 2]).code == "corrupt_file"


def test_a_garbled_member_is_corrupt():
    data = bytearray(plain_zip([("a.txt", bytes(range(256)) * 40)], zipfile.ZIP_STORED))
    data[100:110] = b"\x00" * 10  # inside the stored data: the CRC no longer matches
    assert refused(bytes(data)).code == "corrupt_file"


def test_a_garbled_directory_is_corrupt():
    data = bytearray(plain_zip([("a.txt", b"alpha")]))
    at = data.rfind(b"PK\x01\x02")
    data[at + 4 : at + 40] = b"\xff" * 36
    assert refused(bytes(data)).code == "corrupt_file"


def test_an_encrypted_member_is_unsupported():
    data = bytearray(plain_zip([("a.txt", b"alpha")], zipfile.ZIP_STORED))
    for magic, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.find(magic)
        data[at + flag_at] |= 0x1
    assert refused(bytes(data)).code == "unsupported"


def test_a_jpeg_followed_by_a_zip_opens():
    archive = open_archive(JPEG + plain_zip([("card.json", b"{}"), ("assets/icon.png", b"\x89PNG")]))
    assert archive.names() == ["card.json", "assets/icon.png"]
    assert archive.read("card.json") == b"{}"


def test_a_zip_appended_to_a_jpeg_with_absolute_offsets_opens():
    out = io.BytesIO(JPEG)
    with zipfile.ZipFile(out, "a") as zf:
        zf.writestr("card.json", b'{"spec": "chara_card_v3"}')
    assert open_archive(out.getvalue()).read("card.json") == b'{"spec": "chara_card_v3"}'


def test_a_jpeg_without_a_zip_is_not_an_archive():
    assert refused(JPEG).code == "unrecognized_file"


def test_an_archive_over_the_size_limit_is_too_large(monkeypatch):
    monkeypatch.setattr(limits, "ARCHIVE_MAX_BYTES", 100)
    assert refused(plain_zip([("a.txt", bytes(range(256)))], zipfile.ZIP_STORED)).code == "too_large"


def test_the_writer_gives_the_same_bytes_for_the_same_members():
    members = [("neutral.png", b"\x89PNG" + bytes(range(256))), ("notes.txt", b"hello " * 100)]
    first = write_archive(members)
    assert first == write_archive(list(members))
    archive = open_archive(first)
    assert [(name, archive.read(name)) for name in archive.names()] == members


def test_the_writer_stores_what_deflate_cannot_shrink():
    data = write_archive([("a.bin", bytes(range(256))), ("b.txt", b"a" * 1000)])
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert [info.compress_type for info in zf.infolist()] == [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]
        assert {info.date_time for info in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_the_writer_stores_a_member_that_deflating_would_make_look_like_a_bomb():
    # Two megabytes of one repeated entry deflate far past ARCHIVE_MAX_RATIO; the reader
    # would refuse that member, so the writer stores it and reads it back.
    text = b'{"content": "the same entry again", "keys": ["same"]},' * 40_000
    assert len(text) > limits.ARCHIVE_RATIO_FLOOR_BYTES
    data = write_archive([("card.json", text), ("small.txt", b"a" * 1000)])
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert [info.compress_type for info in zf.infolist()] == [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]
    assert open_archive(data).read("card.json") == text


def written_or_refused(members: list[tuple[str, bytes]], lead: bytes = b"") -> BunzaiError | None:
    """None when the archive was written and reads back whole, else the writer's error."""
    try:
        data = write_archive(members, lead)
    except BunzaiError as error:
        return error
    archive = open_archive(data)
    assert [(name, archive.read(name)) for name in archive.names()] == members
    return None


def test_the_writer_refuses_more_members_than_the_reader_opens(monkeypatch):
    monkeypatch.setattr(limits, "ARCHIVE_MAX_MEMBERS", 3)
    assert written_or_refused([(f"{n}.png", b"x") for n in range(3)]) is None
    error = written_or_refused([(f"{n}.png", b"x") for n in range(4)])
    assert error is not None and error.code == "too_large" and "4 members" in error.message


def test_the_writer_refuses_a_member_or_a_total_the_reader_would_refuse(monkeypatch):
    monkeypatch.setattr(limits, "ARCHIVE_MEMBER_MAX_BYTES", 1000)
    monkeypatch.setattr(limits, "ARCHIVE_TOTAL_MAX_BYTES", 2500)
    pieces = [(f"{n}.bin", os.urandom(1000)) for n in range(3)]
    assert written_or_refused(pieces[:2]) is None
    big = written_or_refused([("big.bin", os.urandom(1001))])
    assert big is not None and big.code == "too_large" and "'big.bin'" in big.message
    total = written_or_refused(pieces)
    assert total is not None and total.code == "too_large" and "3000 bytes in all" in total.message


def test_the_writer_counts_a_polyglot_cover_in_the_file_it_writes(monkeypatch):
    members = [("card.json", b"{}")]
    alone = len(write_archive(members))
    assert written_or_refused(members, JPEG) is None
    monkeypatch.setattr(limits, "ARCHIVE_MAX_BYTES", alone + len(JPEG) - 1)
    assert written_or_refused(members) is None
    error = written_or_refused(members, JPEG)
    assert error is not None and error.code == "too_large"


@pytest.mark.parametrize(
    "members",
    [
        [("../x.png", b"")],
        [("a.png", b""), ("a.png", b"")],
        [("/abs", b"")],
        [("a\x00b.png", b"")],
        [("x\ud800.png", b"")],  # a lone surrogate: no UTF-8 holds it
        [("é" * 32768 + ".png", b"")],  # over the 65,535 bytes a ZIP name holds
    ],
)
def test_the_writer_refuses_unsafe_names(members):
    with pytest.raises(BunzaiError) as caught:
        write_archive(members)
    assert caught.value.code == "invalid_input"


def test_an_unknown_compression_method_is_unsupported():
    data = bytearray(plain_zip([("a.txt", b"alpha")], zipfile.ZIP_STORED))
    for magic, method_at in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        at = data.find(magic)
        data[at + method_at] = 99  # AES / unknown
    assert refused(bytes(data)).code == "unsupported"


def _many_members(count: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for index in range(count):
            archive.writestr(f"m{index}", b"")
    return buffer.getvalue()


def test_a_zip64_directory_of_seventy_thousand_members_is_refused_from_its_count() -> None:
    data = _many_members(70_000)  # past 65,535 entries zipfile writes zip64 records
    with pytest.raises(BunzaiError) as caught:
        open_archive(data)
    assert caught.value.code == "unsafe_archive" and "70000" in caught.value.message


def test_a_directory_that_understates_its_count_is_counted_by_its_headers() -> None:
    data = bytearray(_many_members(limits.ARCHIVE_MAX_MEMBERS + 1_000))
    at = data.rfind(b"PK\x05\x06")
    struct.pack_into("<HH", data, at + 8, 10, 10)  # the end record claims ten members
    with pytest.raises(BunzaiError) as caught:
        open_archive(bytes(data))
    assert caught.value.code == "unsafe_archive" and "more than" in caught.value.message
