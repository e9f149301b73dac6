"""BYAF members as Backyard lists them: what the manifest and character.json list, what they do
not, and what Backyard's own reader refuses."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
CHARACTER = "characters/ada/character.json"


def byaf(scenarios: list[str], extra: dict[str, bytes] | None = None, character: str = CHARACTER) -> bytes:
    manifest = {"schemaVersion": 1, "createdAt": "2025-01-01T00:00:00.000Z", "characters": [character]}
    docs = {
        "manifest.json": manifest | {"scenarios": scenarios},
        CHARACTER: {
            "schemaVersion": 1,
            "id": "ada",
            "name": "Ada",
            "displayName": "Ada",
            "isNSFW": False,
            "persona": "An engineer.",
            "createdAt": "2025-01-01T00:00:00.000Z",
            "updatedAt": "2025-01-01T00:00:00.000Z",
            "loreItems": [],
            "images": [{"path": "images/avatar.png", "label": "avatar"}],
        },
        "scenarios/one.json": {"schemaVersion": 1, "narrative": "A lab.", "firstMessages": [], "messages": []},
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, doc in docs.items():
            archive.writestr(name, json.dumps(doc, indent=2))
        archive.writestr("characters/ada/images/avatar.png", PNG)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def round_trip(data: bytes) -> dict[str, bytes]:
    _, decoded = read_bytes(data, "ada.byaf")
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    crossing = convert_piece(decoded.pieces[0], "backyard.byaf", lambda ref: blobs[ref.sha256])
    archive = zipfile.ZipFile(io.BytesIO(crossing.data))
    return {name: archive.read(name) for name in archive.namelist()}


def test_an_image_character_json_does_not_list_is_written_back_like_any_member_nothing_lists():
    orphan = b"\x89PNG\r\n\x1a\n" + b"\x01" * 40
    written = round_trip(byaf(["scenarios/one.json"], {"characters/ada/images/unlisted.png": orphan}))
    assert written["characters/ada/images/unlisted.png"] == orphan
    assert written["characters/ada/images/avatar.png"] == PNG


def test_a_removed_icon_is_not_written_back_from_the_escrow():
    _, decoded = read_bytes(byaf(["scenarios/one.json"]), "ada.byaf")
    piece = decoded.pieces[0]
    edited = piece.model_copy(update={"assets": [], "body": piece.body.model_copy(update={"portrait": None})})
    crossing = convert_piece(edited, "backyard.byaf", lambda ref: PNG)
    assert "characters/ada/images/avatar.png" not in zipfile.ZipFile(io.BytesIO(crossing.data)).namelist()


def test_a_scenario_the_manifest_lists_twice_is_read_once_and_written_back_once():
    written = round_trip(byaf(["scenarios/one.json", "scenarios/one.json"]))
    assert json.loads(written["manifest.json"])["scenarios"] == ["scenarios/one.json", "scenarios/one.json"]
    assert json.loads(written["scenarios/one.json"])["narrative"] == "A lab."


@pytest.mark.parametrize(
    ("scenarios", "character"),
    [
        ([CHARACTER], CHARACTER),
        (["manifest.json"], CHARACTER),
        (["scenarios/one.json"], "manifest.json"),
        (["scenarios/one.json", 5], CHARACTER),
    ],
)
def test_a_manifest_listing_a_document_outside_its_folder_is_corrupt_as_backyard_reads_it(scenarios, character):
    with pytest.raises(BunzaiError) as error:
        read_bytes(byaf(scenarios, character=character), "odd.byaf", "backyard.byaf")
    assert error.value.code == "corrupt_file"
    assert "manifest.json lists" in error.value.message


def _relisted(data: bytes, listed: str) -> bytes:
    """The archive with character.json listing `listed` (its bytes those of avatar.png) instead."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in source.namelist():
            member = source.read(name)
            if name == CHARACTER:
                doc = json.loads(member)
                doc["images"] = [{"path": f"images/{listed}", "label": "current"}]
                member = json.dumps(doc, indent=2).encode()
            archive.writestr(name, member)
        archive.writestr(f"characters/ada/images/{listed}", PNG)
    return buffer.getvalue()


def test_a_new_image_does_not_take_the_name_of_an_unlisted_one():
    import hashlib

    from bunzai.model.base import AssetRef

    data = _relisted(byaf(["scenarios/one.json"]), "current.png")  # avatar.png is now unlisted
    _, decoded = read_bytes(data, "ada.byaf")
    piece = decoded.pieces[0]
    new = b"\x89PNG\r\n\x1a\n" + b"\x03" * 40
    portrait = AssetRef(sha256=hashlib.sha256(new).hexdigest(), ext="png", mime="image/png")
    edited = piece.model_copy(update={"assets": [], "body": piece.body.model_copy(update={"portrait": portrait})})
    blobs = {blob.sha256: blob.data for blob in decoded.blobs} | {portrait.sha256: new}
    crossing = convert_piece(edited, "backyard.byaf", lambda ref: blobs[ref.sha256])
    archive = zipfile.ZipFile(io.BytesIO(crossing.data))
    written = {name: archive.read(name) for name in archive.namelist()}
    assert written["characters/ada/images/avatar.png"] == PNG  # the unlisted image, as it was
    listed = json.loads(written[CHARACTER])["images"]
    assert [archive.read(f"characters/ada/{image['path']}") for image in listed] == [new]
    assert listed[0]["path"] != "images/avatar.png"


def test_an_unedited_scenario_goes_back_byte_for_byte_in_its_own_key_order():
    # Backyard's create-archive.ts writes {...scenario, backgroundImage}: the image key last.
    scenario = {
        "schemaVersion": 1,
        "formattingInstructions": "",
        "minP": 0.1,
        "temperature": 0.7,
        "narrative": "A lab.",
        "firstMessages": [],
        "messages": [],
        "backgroundImage": None,
    }
    member = json.dumps(scenario, indent=2).encode()
    source = zipfile.ZipFile(io.BytesIO(byaf(["scenarios/one.json"])))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in source.namelist():
            archive.writestr(name, member if name == "scenarios/one.json" else source.read(name))
    written = round_trip(buffer.getvalue())
    assert list(json.loads(written["scenarios/one.json"]))[:8] == list(scenario)
