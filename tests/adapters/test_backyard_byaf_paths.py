"""BYAF paths as Backyard's reader resolves them: image paths joined and normalised, and the first
scenario's backgroundImage read as the character's background."""

from __future__ import annotations

import io
import json
import zipfile

from bunzai.adapters.common.png import default_portrait
from bunzai.adapters.contract import Blob
from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.model.character import Character

AVATAR = default_portrait()
BACKDROP = b"\xff\xd8\xff\xe0" + b"\x00" * 40 + b"\xff\xd9"
CHARACTER = "characters/ada/character.json"
SCENARIO = "scenarios/scenario1.json"
BACKGROUND = "scenarios/scenario1-background.jpg"


def byaf(image_path: str = "images/avatar.png", background: str | None = None) -> bytes:
    """A BYAF as Backyard's create-archive.ts writes it (the background beside its scenario)."""
    scenario = {"schemaVersion": 1, "narrative": "A lab.", "firstMessages": [], "messages": []}
    if background is not None:
        scenario["backgroundImage"] = background
    docs = {
        "manifest.json": {
            "schemaVersion": 1,
            "createdAt": "2025-01-01T00:00:00.000Z",
            "characters": [CHARACTER],
            "scenarios": [SCENARIO],
        },
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
            "images": [{"path": image_path, "label": "avatar"}],
        },
        SCENARIO: scenario,
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, doc in docs.items():
            archive.writestr(name, json.dumps(doc, indent=2))
        archive.writestr("characters/ada/images/avatar.png", AVATAR)
        archive.writestr(BACKGROUND, BACKDROP)
    return buffer.getvalue()


def read(data: bytes):
    _adapter, decoded = read_bytes(data, "ada.byaf")
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    return decoded, lambda ref: blobs[ref.sha256]


def members(data: bytes) -> dict[str, bytes]:
    archive = zipfile.ZipFile(io.BytesIO(data))
    return {name: archive.read(name) for name in archive.namelist()}


def test_an_image_path_with_a_dot_segment_is_found_as_backyard_s_path_join_finds_it():
    decoded, media = read(byaf("./images/avatar.png"))
    piece = decoded.pieces[0]
    assert not [w for w in decoded.warnings if "images.missing" in w]
    assert piece.body.portrait is not None and media(piece.body.portrait) == AVATAR
    written = members(convert_piece(piece, "backyard.byaf", media).data)
    assert json.loads(written[CHARACTER])["images"] == [{"path": "./images/avatar.png", "label": "avatar"}]
    assert [name for name, data in written.items() if data == AVATAR] == ["characters/ada/images/avatar.png"]


def test_the_first_scenario_s_background_reads_as_the_character_s_background():
    decoded, media = read(byaf(background=BACKGROUND))
    piece = decoded.pieces[0]
    backgrounds = [link for link in piece.assets if link.role == "background"]
    assert [(link.name, link.ext) for link in backgrounds] == [("main", "jpg")]
    assert media(backgrounds[0].asset) == BACKDROP
    assert media(piece.body.portrait) == AVATAR  # the portrait stays the first image, not the background


def test_the_background_crosses_into_a_charx_as_its_background_asset():
    decoded, media = read(byaf(background=BACKGROUND))
    crossing = convert_piece(decoded.pieces[0], "charx", media)
    written = members(crossing.data)
    entries = json.loads(written["card.json"])["data"]["assets"]
    background = [entry for entry in entries if entry["type"] == "background"]
    assert len(background) == 1
    assert written[background[0]["uri"].removeprefix("embeded://")] == BACKDROP


def test_an_unedited_background_goes_back_as_it_was_and_a_removed_one_is_not_written():
    data = byaf(background=BACKGROUND)
    decoded, media = read(data)
    piece = decoded.pieces[0]
    again = members(convert_piece(piece, "backyard.byaf", media).data)
    assert json.loads(again[SCENARIO])["backgroundImage"] == BACKGROUND
    assert again[BACKGROUND] == BACKDROP
    bare = piece.model_copy(update={"assets": [link for link in piece.assets if link.role != "background"]})
    crossing = convert_piece(bare, "backyard.byaf", media)
    written = members(crossing.data)
    assert "backgroundImage" not in json.loads(written[SCENARIO]) and BACKGROUND not in written
    assert not [loss for loss in crossing.losses if loss.code == "backyard.not_carried"]


def test_a_background_crossing_in_is_written_where_backyard_writes_it():
    portrait = Blob(AVATAR, "png", "image/png")
    backdrop = Blob(BACKDROP, "jpg", "image/jpeg")
    piece = Character.model_validate(
        {
            "id": "mira",
            "name": "Mira",
            "body": {"portrait": portrait.ref().model_dump(mode="json")},
            "assets": [
                {"role": "icon", "name": "main", "ext": "png", "asset": portrait.ref().model_dump(mode="json")},
                {"role": "background", "name": "main", "ext": "jpg", "asset": backdrop.ref().model_dump(mode="json")},
            ],
        }
    )
    stored = {portrait.sha256: portrait.data, backdrop.sha256: backdrop.data}
    crossing = convert_piece(piece, "backyard.byaf", lambda ref: stored[ref.sha256])
    written = members(crossing.data)
    assert json.loads(written[SCENARIO])["backgroundImage"] == BACKGROUND and written[BACKGROUND] == BACKDROP
    assert not [loss for loss in crossing.losses if loss.pointer.startswith("/assets")]
    back = read(crossing.data)[0].pieces[0]
    assert [link.model_dump() for link in back.assets] == [link.model_dump() for link in piece.assets]


def test_a_background_the_archive_lacks_is_named_in_a_warning():
    data = byaf(background="scenarios/elsewhere.png")
    decoded, _media = read(data)
    assert [w for w in decoded.warnings if w.startswith("backyard.background.missing")]
    assert not [link for link in decoded.pieces[0].assets if link.role == "background"]


def test_a_background_that_is_also_a_listed_image_is_written_once():
    decoded, media = read(byaf(background="characters/ada/images/avatar.png"))
    written = convert_piece(decoded.pieces[0], "backyard.byaf", media).data
    names = zipfile.ZipFile(io.BytesIO(written)).namelist()
    assert names.count("characters/ada/images/avatar.png") == 1
    assert json.loads(members(written)[SCENARIO])["backgroundImage"] == "characters/ada/images/avatar.png"
