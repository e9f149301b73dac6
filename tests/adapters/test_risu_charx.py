"""RisuAI CHARX: sniffing above plain CHARX, the module's book and scripts, round trips, hostile archives."""

from __future__ import annotations

import json

import pytest
from cards_support import cross, read
from risu_support import module_bytes, opened, zip_of

from bunzai.adapters.common import png
from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError

ICON = png.default_portrait()
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + b"\x00" * 64 + b"\xff\xd9"
LORE = [
    {
        "key": "glade, grove",
        "secondkey": "",
        "insertorder": 100,
        "comment": "Glade",
        "content": "A glade.",
        "mode": "normal",
        "alwaysActive": False,
        "selective": False,
    }
]
MODULE = {
    "name": "Ada Module",
    "description": "Module for Ada",
    "id": "m",
    "lorebook": LORE,
    "regex": [{"comment": "caps", "in": "a", "out": "A", "type": "editoutput"}],
    "trigger": [{"comment": "start", "type": "start", "conditions": [], "effect": []}],
}


def card() -> dict:
    return {
        "spec": "chara_card_v3",
        "spec_version": "3.0",
        "data": {
            "name": "Ada",
            "description": "d",
            "personality": "",
            "scenario": "",
            "first_mes": "hi",
            "mes_example": "",
            "creator_notes": "",
            "system_prompt": "",
            "post_history_instructions": "",
            "alternate_greetings": [],
            "tags": [],
            "creator": "",
            "character_version": "1",
            "group_only_greetings": [],
            "nickname": "",
            "extensions": {"risuai": {"bias": [], "viewScreen": "none"}, "depth_prompt": {"depth": 0, "prompt": ""}},
            "character_book": {
                "scan_depth": 7,
                "token_budget": 500,
                "recursive_scanning": False,
                "extensions": {},
                "entries": [
                    {
                        "keys": ["glade", "grove"],
                        "content": "A glade.",
                        "extensions": {},
                        "enabled": True,
                        "insertion_order": 100,
                        "constant": False,
                        "selective": False,
                        "name": "Glade",
                        "comment": "Glade",
                        "case_sensitive": False,
                        "use_regex": False,
                    }
                ],
            },
            "assets": [
                {"type": "icon", "uri": "embeded://assets/icon/image/main.png", "name": "main", "ext": "png"},
                {
                    "type": "x-risu-asset",
                    "uri": "embeded://assets/other/image/no:te.png",
                    "name": "no:te",
                    "ext": "png",
                },
                {"type": "icon", "uri": "ccdefault:", "name": "main", "ext": "png"},
            ],
        },
    }


def members(module: bytes) -> list[tuple[str, bytes]]:
    return [
        ("x_meta/main.json", b'{"type":"PNG"}'),
        ("assets/icon/image/main.png", ICON),
        ("x_meta/no_te.json", b'{"type":"PNG"}'),
        ("assets/other/image/no_te.png", ICON + b"x"),
        ("module.risum", module),
        ("card.json", json.dumps(card(), indent=4).encode()),
    ]


def test_a_risu_laid_out_archive_is_claimed_above_plain_charx(no_table):
    adapter, _decoded, _media = read(zip_of(members(b"\x6f\x00\x00\x00\x00\x00\x00")), "ada.charx")
    assert adapter.format_id == "risu.charx"
    plain = [("card.json", json.dumps(card()).encode()), ("assets/icon/images/main.png", ICON)]
    assert read(zip_of(plain), "ada.charx")[0].format_id == "charx"


def test_the_module_book_wins_and_its_scripts_become_sealed_scripts(table):
    module = dict(MODULE, lorebook=[dict(LORE[0], content="The module's glade.")])
    _adapter, decoded, _media = read(zip_of(members(module_bytes(module, table))), "ada.charx")
    character = decoded.pieces[0]
    assert character.body.book.entries[0].content == "The module's glade."
    assert decoded.pieces[1].body.entries[0].content == "The module's glade."
    assert [(s.format, s.name) for s in character.body.behavior_scripts] == [
        ("risu.customscript", "caps"),
        ("risu.trigger", "start"),
    ]
    assert character.body.extensions["risuai"]["viewScreen"] == "none"
    assert character.assets[1].asset is not None  # the dangling `no:te` uri resolves by sanitized basename


def test_without_a_table_the_module_is_kept_and_not_decoded(no_table, table=None):
    items = members(b"\x6f\x00\x02\x00\x00\x00{}\x00")
    _adapter, decoded, _media = read(zip_of(items), "ada.charx")
    assert any(w.startswith("not_decoded:") for w in decoded.warnings)
    crossing = cross(zip_of(items), "ada.charx")
    assert dict(opened(crossing.data))["module.risum"] == items[4][1]


def test_a_same_format_round_trip_keeps_order_members_and_card_json(table):
    items = members(module_bytes(MODULE, table))
    crossing = cross(zip_of(items), "ada.charx")
    written = opened(crossing.data)
    assert [name for name, _ in written] == [name for name, _ in items]
    assert json.loads(dict(written)["card.json"]) == card()
    assert {n: d for n, d in written if n != "card.json"} == {n: d for n, d in items if n != "card.json"}
    assert crossing.losses == []


def test_an_edited_script_re_encodes_the_module(table):
    _adapter, decoded, media = read(zip_of(members(module_bytes(MODULE, table))), "ada.charx")
    piece = decoded.pieces[0]
    scripts = [
        s.model_copy(update={"payload": dict(s.payload, out="AA")}) if s.name == "caps" else s
        for s in piece.body.behavior_scripts
    ]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"behavior_scripts": scripts})})
    crossing = convert_piece(piece, "risu.charx", media)
    again = read_bytes(crossing.data, "ada.charx")[1].pieces[0]
    assert again.body.behavior_scripts[0].payload["out"] == "AA"
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_a_jpeg_polyglot_reads(no_table):
    adapter, decoded, _media = read(JPEG + zip_of(members(b"\x6f\x00\x00\x00\x00\x00\x00")), "ada.jpg")
    assert adapter.format_id == "risu.charx" and decoded.pieces[0].name == "Ada"


def test_a_crossing_from_a_plain_card_writes_risu_layout_and_names_losses(table):
    from bunzai.model.character import Character

    piece = Character(
        id="ada",
        name="Ada",
        body={
            "behavior_scripts": [
                {
                    "format": "risu.customscript",
                    "name": "caps",
                    "payload": {"comment": "caps", "in": "a", "out": "A", "type": "editoutput"},
                },
                {"format": "lua", "name": "x", "payload": "print()"},
            ]
        },
        assets=[{"role": "emotion", "name": "joy", "ext": "png", "asset": {"sha256": "0" * 64, "ext": "png"}}],
    )
    crossing = convert_piece(piece, "risu.charx", lambda ref: ICON)
    names = [name for name, _ in opened(crossing.data)]
    assert names == ["x_meta/joy.json", "assets/emotion/image/joy.png", "module.risum", "card.json"]
    assert ("/body/behavior_scripts/1", "card.scripts.not_carried") in {
        (loss.pointer, loss.code) for loss in crossing.losses
    }
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_an_asset_uri_naming_no_file_of_the_archive_is_written_empty_and_reported(no_table):
    """RisuAI's import throws 'asset not found' on an embeded:// or __asset: uri with no file
    behind it, failing the whole card; an empty uri is skipped."""
    from bunzai.model.character import Character

    piece = Character(
        id="bo",
        name="Bo",
        assets=[
            {"role": "emotion", "name": "happy", "ext": "png", "uri": "__asset:0"},
            {"role": "background", "name": "bg", "ext": "png", "uri": "embeded://assets/background/image/bg.png"},
        ],
    )
    crossing = convert_piece(piece, "risu.charx", lambda ref: ICON)
    card = json.loads(dict(opened(crossing.data))["card.json"])
    assert [asset["uri"] for asset in card["data"]["assets"] if asset["name"] != "main"] == ["", ""]
    missing = [loss.pointer for loss in crossing.losses if loss.code == "risu.import.asset_missing"]
    assert missing == ["/assets/0", "/assets/1"]
    assert not [loss for loss in crossing.losses if loss.code == "crossing.not_carried"]


def test_a_v2_card_s_risu_emotions_with_no_file_and_its_voices_crossing_to_charx_are_named(no_table):
    """RisuAI reads extensions.risuai only from a V2 card; a CHARX is V3. An emotion whose chunk
    is nowhere cannot become an asset, and RisuAI's own CHARX export drops the voices (vits: {})."""
    from bunzai.model.character import Character

    risu = {"emotions": [["happy", "__asset:1"]], "vits": {"voice": "__asset:2"}}
    piece = Character(id="vee", name="Vee", body={"extensions": {"risuai": risu}})
    crossing = convert_piece(piece, "risu.charx", lambda ref: ICON)
    named = {(loss.pointer, loss.code) for loss in crossing.losses}
    assert ("/body/extensions/risuai/emotions", "risu.import.v2_assets") in named
    assert ("/body/extensions/risuai/vits", "risu.import.v2_assets") in named
    assert "charx.risu_v2.as_assets" not in {code for _pointer, code in named}


@pytest.mark.filterwarnings("ignore:Duplicate name")
@pytest.mark.parametrize(
    "items",
    [
        [("../card.json", b"{}"), ("card.json", b"{}")],
        [("/abs/x.png", b"x"), ("card.json", b"{}")],
        [("card.json", b"{}"), ("card.json", b"{}")],
    ],
)
def test_hostile_archives_give_coded_errors(items, no_table):
    with pytest.raises(BunzaiError) as raised:
        read_bytes(zip_of(items), "bad.charx", "risu.charx")
    assert raised.value.code == "unsafe_archive"


def test_a_jpeg_without_a_zip_is_refused(no_table):
    with pytest.raises(BunzaiError) as raised:
        read_bytes(JPEG, "photo.jpg", "risu.charx")
    assert raised.value.code in ("unrecognized_file", "corrupt_file")


def test_new_assets_get_the_x_meta_note_risuai_writes_and_kept_ones_keep_theirs(no_table):
    from bunzai.model.base import AssetLink

    _adapter, decoded, media = read(zip_of(members(b"\x6f\x00\x00\x00\x00\x00\x00")), "ada.charx")
    piece = decoded.pieces[0]
    tagged = png.replace_text(png.read_png(ICON), set(), [("Software", b"Paint"), ("Comment", b"caf\xc3\xa9")])
    photo = JPEG
    extra = {"tagged": tagged, "photo": photo}
    links = [
        AssetLink.model_validate(
            {
                "role": "emotion",
                "name": name,
                "ext": "png" if name == "tagged" else "jpg",
                "asset": {"sha256": f"{index:064x}", "ext": "png"},
            }
        )
        for index, name in enumerate(extra, 1)
    ]
    stored = {f"{index:064x}": data for index, data in enumerate(extra.values(), 1)}
    piece = piece.model_copy(update={"assets": list(piece.assets) + links})
    crossing = convert_piece(piece, "risu.charx", lambda ref: stored.get(ref.sha256) or media(ref))
    written = opened(crossing.data)
    names = [name for name, _data in written]
    files = dict(written)
    assert json.loads(files["x_meta/tagged.json"]) == {"Software": "Paint", "Comment": "café"}
    assert files["x_meta/tagged.json"].startswith(b'{\n    "Software"')  # JSON.stringify(x, null, 4)
    assert files["x_meta/photo.json"] == b'{"type":"JPEG"}'
    assert names.index("x_meta/tagged.json") == names.index("assets/emotion/image/tagged.png") - 1
    assert files["x_meta/main.json"] == b'{"type":"PNG"}' and names.count("x_meta/main.json") == 1
    again = read_bytes(crossing.data, "ada.charx")[1].pieces[0]
    assert {link.name for link in again.assets} >= {"tagged", "photo"}


def test_a_same_format_round_trip_adds_no_x_meta(no_table):
    items = [item for item in members(b"\x6f\x00\x00\x00\x00\x00\x00") if item[0] != "x_meta/no_te.json"]
    crossing = cross(zip_of(items), "ada.charx")
    assert [name for name, _data in opened(crossing.data)] == [name for name, _data in items]


def test_a_jpeg_polyglot_keeps_its_jpeg_cover_on_the_way_back(table):
    import io
    import zipfile

    source = JPEG + zip_of(members(module_bytes(MODULE, table)))
    adapter, decoded, media = read(source, "ada.jpg")
    assert adapter.format_id == "risu.charx"
    piece = decoded.pieces[0]
    scripts = [
        s.model_copy(update={"payload": dict(s.payload, out="AA")}) if s.name == "caps" else s
        for s in piece.body.behavior_scripts
    ]
    edited = piece.model_copy(
        update={"name": "Ada B.", "body": piece.body.model_copy(update={"behavior_scripts": scripts})}
    )
    for candidate in (piece, edited):
        crossing = convert_piece(candidate, "risu.charx", media)
        assert crossing.data.startswith(JPEG) and crossing.data[len(JPEG) : len(JPEG) + 4] == b"PK\x03\x04"
        assert zipfile.ZipFile(io.BytesIO(crossing.data)).testzip() is None
        again = read_bytes(crossing.data, "again.jpg")[1].pieces[0]
        assert again.name == candidate.name and again.body.behavior_scripts == candidate.body.behavior_scripts
    unedited = convert_piece(piece, "risu.charx", media).data
    assert unedited[: len(JPEG)] == JPEG and opened(unedited) == opened(source)  # every member as it was
    assert not convert_piece(piece, "ccv3.json", media).data.startswith(JPEG)


def test_a_crossing_in_names_what_risuai_drops_on_import(no_table):
    from bunzai.model.character import Character

    piece = Character(
        id="deep",
        name="Deep",
        body={
            "depth_prompt": {"text": "IMPORTANT DEPTH NOTE", "depth": 3, "role": "system"},
            "creator_notes_multilingual": {"fr": "Une note."},
        },
        assets=[
            {"role": "background", "name": "glade", "ext": "png", "uri": "https://example.org/glade.png"},
            {"role": "icon", "name": "main", "ext": "png", "uri": "ccdefault:"},
        ],
    )
    crossing = convert_piece(piece, "risu.charx", lambda ref: ICON)
    found = {(loss.pointer, loss.code, loss.action) for loss in crossing.losses}
    assert {
        ("/body/depth_prompt", "risu.import.depth_prompt", "dropped"),
        ("/body/creator_notes_multilingual", "risu.import.not_read", "dropped"),
        ("/assets/0", "risu.import.asset_skipped", "dropped"),
    } <= found
    assert not [pointer for pointer, _code, _action in found if pointer == "/assets/1"]  # ccdefault: is read
    data = json.loads(dict(opened(crossing.data))["card.json"])["data"]
    assert data["extensions"]["depth_prompt"]["prompt"] == "IMPORTANT DEPTH NOTE"  # still in the file


def test_a_piece_read_from_a_risu_charx_reports_no_import_losses(no_table):
    document = card()
    document["data"]["extensions"]["depth_prompt"] = {"depth": 2, "prompt": "kept"}
    document["data"]["creator_notes_multilingual"] = {"fr": "x"}
    items = [
        (name, json.dumps(document, indent=4).encode() if name == "card.json" else data)
        for name, data in members(b"\x6f\x00\x00\x00\x00\x00\x00")
    ]
    crossing = cross(zip_of(items), "ada.charx", edit=lambda piece: piece)
    assert not [loss for loss in crossing.losses if loss.code.startswith("risu.import.")]
