"""Card assets that cross into a PNG card or a CHARX arrive where RisuAI and SillyTavern read them.

- A PNG card's `chara` and `ccv3` chunks carry the same asset list (SillyTavern writes `ccv3`
  as `chara` relabelled), also after an asset is removed.
- A stored asset (a `data:` uri of a V3 JSON card, a CHARX member) crossing to a PNG card goes
  in a `chara-ext-asset_:N` chunk named `__asset:N`, as RisuAI's V3 PNG export writes it.
- No asset member of a written CHARX ends in `.json`: RisuAI's import skips such members, then
  refuses the card because the asset's `embeded://` uri names nothing it loaded.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile

from cards_support import card_png, cross, read
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cards_png_assets import v3

from bunzai import limits
from bunzai.adapters.common import png
from bunzai.adapters.common.charx_members import EMBEDDED
from bunzai.convert import convert_piece

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MIME = {"png": "image/png", "mp3": "audio/mpeg", "json": "application/json", "webp": "image/webp"}

ASSET = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["emotion", "background", "x-risu-asset", "user_icon", "x_custom"]),
        "name": st.text(alphabet="ab.json_-", min_size=1, max_size=10),
        "ext": st.sampled_from(sorted(MIME)),
        "data": st.binary(min_size=1, max_size=40),
    }
)


def data_uri(asset: dict) -> dict:
    uri = f"data:{MIME[asset['ext']]};base64," + base64.b64encode(asset["data"]).decode()
    return {"type": asset["type"], "uri": uri, "name": asset["name"], "ext": asset["ext"]}


def json_card(assets: list[dict]) -> bytes:
    return json.dumps(v3([data_uri(asset) for asset in assets])).encode()


def png_documents(data: bytes) -> dict[str, dict]:
    """The card chunks' documents (the asset chunks hold files, not JSON)."""
    image = png.read_png(data)
    return {
        text.keyword: json.loads(base64.b64decode(text.text))
        for text in image.text_chunks()
        if text.keyword in ("chara", "ccv3")
    }


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def stored(data: bytes, name: str) -> list[str | None]:
    """The sha256 of each asset's stored bytes, as bunzai reads the file back."""
    _adapter, decoded, media = read(data, name)
    return [sha(media(link.asset)) if link.asset is not None else None for link in decoded.pieces[0].assets]


# --- 1. both chunks of a PNG card carry one asset list -----------------------------------


def st_png(assets: list[dict]) -> bytes:
    """A PNG card as SillyTavern saves a V3 card it imported: `chara` and `ccv3` the same object."""
    ccv3 = v3(assets)
    chara = json.loads(json.dumps(ccv3)) | {"spec": "chara_card_v2", "spec_version": "2.0"}
    return card_png({"chara": chara, "ccv3": ccv3})


@SETTINGS
@given(assets=st.lists(ASSET, min_size=1, max_size=4), kept=st.lists(st.booleans(), min_size=4, max_size=4))
def test_removing_assets_from_a_png_card_changes_both_chunks(assets, kept):
    entries = [{"type": "icon", "uri": "ccdefault:", "name": "main", "ext": "png"}] + [data_uri(a) for a in assets]
    keep = [True] + kept[: len(assets)]

    def remove(piece):
        return piece.model_copy(update={"assets": [link for link, k in zip(piece.assets, keep) if k]})

    crossing = cross(st_png(entries), "ada.png", edit=remove)
    documents = png_documents(crossing.data)
    assert documents["chara"]["data"]["assets"] == documents["ccv3"]["data"]["assets"]
    assert [entry["name"] for entry in documents["ccv3"]["data"]["assets"]] == [
        entry["name"] for entry, k in zip(entries, keep) if k
    ]
    assert crossing.losses == []


def test_a_card_without_assets_left_has_none_in_either_chunk():
    entries = [{"type": "emotion", "uri": "https://x.test/joy.png", "name": "joy", "ext": "png"}]
    crossing = cross(st_png(entries), "ada.png", edit=lambda piece: piece.model_copy(update={"assets": []}))
    documents = png_documents(crossing.data)
    assert documents["chara"]["data"].get("assets") == documents["ccv3"]["data"].get("assets") == []


# --- 2. stored assets crossing to a PNG card go in asset chunks --------------------------


@SETTINGS
@given(assets=st.lists(ASSET, min_size=1, max_size=5))
def test_data_uri_assets_cross_to_a_png_card_in_asset_chunks(assets):
    crossing = cross(json_card(assets), "ada.json", "sillytavern.card.png")
    assert [loss.code for loss in crossing.losses if loss.pointer.startswith("/assets")] == []
    image = png.read_png(crossing.data)
    texts = {text.keyword: text.text for text in image.text_chunks()}
    documents = png_documents(crossing.data)
    entries = documents["ccv3"]["data"]["assets"]
    assert documents["chara"]["data"]["assets"] == entries
    for entry, asset in zip(entries, assets, strict=True):
        # RisuAI's import: `__asset:K` is the chunk `chara-ext-asset_:K` (a missing one stops the card).
        assert entry["uri"].startswith("__asset:")
        chunk = texts["chara-ext-asset_:" + entry["uri"].removeprefix("__asset:")]
        assert base64.b64decode(chunk) == asset["data"]
    assert len([k for k in texts if k.startswith("chara-ext-asset_")]) == len({a["data"] for a in assets})
    assert stored(crossing.data, "ada.png") == [sha(asset["data"]) for asset in assets]


def test_an_asset_that_would_pass_the_png_size_limit_is_a_declared_loss(monkeypatch):
    small, large = b"s" * 10, b"L" * 4000
    card = json_card(
        [
            {"type": "emotion", "name": "small", "ext": "png", "data": small},
            {"type": "emotion", "name": "large", "ext": "png", "data": large},
        ]
    )
    monkeypatch.setattr(limits, "PNG_MAX_BYTES", len(png.default_portrait()) + 3000)
    crossing = cross(card, "ada.json", "sillytavern.card.png")
    assert [(loss.pointer, loss.code) for loss in crossing.losses if loss.pointer.startswith("/assets")] == [
        ("/assets/1", "card.png.asset_not_written")
    ]
    entries = png_documents(crossing.data)["ccv3"]["data"]["assets"]
    assert [(entry["name"], entry["uri"]) for entry in entries] == [("small", "__asset:0"), ("large", "")]


def test_an_asset_whose_type_only_its_bytes_keep_is_a_declared_translation():
    card = json.loads(json_card([{"type": "x-risu-asset", "name": "note", "ext": "png", "data": b"hi"}]))
    card["data"]["assets"][0] |= {"uri": "data:text/plain;base64,aGk=", "ext": "txt"}
    crossing = cross(json.dumps(card).encode(), "ada.json", "sillytavern.card.png")
    assert [(loss.pointer, loss.code) for loss in crossing.losses if loss.pointer.startswith("/assets")] == [
        ("/assets/0", "card.png.asset_type_inferred")  # text/plain is not in a chunk: the ext types it
    ]


# --- 3. no CHARX asset member ends in .json ----------------------------------------------


def members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def risu_loaded(files: dict[str, bytes]) -> dict[str, bytes]:
    """The members RisuAI's CHARX import keeps as assets (processzip.ts CharXReader)."""
    return {
        name: data
        for name, data in files.items()
        if name not in ("card.json", "module.risum") and not name.endswith(".json")
    }


@SETTINGS
@given(assets=st.lists(ASSET, min_size=1, max_size=5), target=st.sampled_from(["charx", "risu.charx"]))
def test_every_charx_asset_uri_names_a_member_risuai_loads(assets, target):
    crossing = cross(json_card(assets), "ada.json", target)
    files = members(crossing.data)
    loaded = risu_loaded(files)
    entries = json.loads(files["card.json"])["data"]["assets"]
    for entry, asset in zip(entries, assets, strict=True):
        assert entry["uri"].startswith(EMBEDDED) and entry["ext"] == asset["ext"]
        assert loaded[entry["uri"].removeprefix(EMBEDDED)] == asset["data"]
    assert stored(crossing.data, "ada.charx") == [sha(asset["data"]) for asset in assets]
    assert [loss.code for loss in crossing.losses if loss.pointer.startswith("/assets")] == []


def charx_with_a_json_asset() -> bytes:
    card = v3(
        [
            {
                "type": "x-risu-asset",
                "uri": "embeded://assets/other/other/config.json",
                "name": "config",
                "ext": "json",
            },
            {"type": "emotion", "uri": "embeded://assets/emotion/image/joy.png", "name": "joy", "ext": "png"},
        ]
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("x_meta/config.json", '{"type":"Unknown"}')
        archive.writestr("assets/other/other/config.json", '{"volume": 3}')
        archive.writestr("assets/emotion/image/joy.png", png.default_portrait())
        archive.writestr("card.json", json.dumps(card, indent=4))
    return buffer.getvalue()


def test_an_escrowed_json_asset_member_is_renamed_and_its_uri_follows():
    data = charx_with_a_json_asset()
    for target in ("charx", "risu.charx"):
        _adapter, decoded, media = read(data, "ada.charx", target)
        crossing = convert_piece(decoded.pieces[0], target, media)  # the same format, nothing edited
        files = members(crossing.data)
        entries = json.loads(files["card.json"])["data"]["assets"]
        assert entries[0]["uri"] == "embeded://assets/other/other/config.json.bin", target
        assert files["assets/other/other/config.json.bin"] == b'{"volume": 3}'
        assert "x_meta/config.json" in files  # named by no asset: kept as it was
        assert risu_loaded(files)[entries[1]["uri"].removeprefix(EMBEDDED)] == png.default_portrait()
        assert [(loss.pointer, loss.code) for loss in crossing.losses] == [
            ("/original/files/assets~1other~1other~1config.json", "charx.member.renamed")
        ]
        assert "RisuAI" in crossing.losses[0].why
        _adapter, back, back_media = read(crossing.data, "ada.charx", target)
        assert back_media(back.pieces[0].assets[0].asset) == b'{"volume": 3}'
        assert back.pieces[0].assets[0].asset.mime == "application/json"  # typed by the entry's ext


# --- end to end, through the real command ------------------------------------------------


def test_replacing_an_expression_then_exporting_a_png_card(bunzai):
    """`character.media.update` replaces the joy sprite (the old one removed, the new appended);
    the exported PNG's two chunks list the same assets and the new sprite is in a chunk."""
    old_joy, new_joy = png.default_portrait() + b"old", png.default_portrait() + b"new"
    entries = [
        {"type": "icon", "uri": "ccdefault:", "name": "main", "ext": "png"},
        data_uri({"type": "emotion", "name": "joy", "ext": "png", "data": old_joy}),
        data_uri({"type": "background", "name": "beach", "ext": "png", "data": b"beach"}),
    ]
    (bunzai.cwd / "risa.png").write_bytes(st_png(entries))
    (bunzai.cwd / "joy.png").write_bytes(new_joy)
    drafts = bunzai("import", "risa.png", check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    given = json.dumps({"additional_media": [{"role": "expression", "name": "joy", "media": "@joy.png"}]})
    draft = bunzai("cap", "run", "character.media.update", "character/risa", "--input", given, check=True).stdout
    bunzai("apply", "--yes", input=draft, check=True)
    exported = bunzai("export", "risa", "--to", "sillytavern.card.png", check=True).json
    data = (bunzai.studio / exported["path"]).read_bytes()
    documents = png_documents(data)
    assert documents["chara"]["data"]["assets"] == documents["ccv3"]["data"]["assets"]
    assert [entry["name"] for entry in documents["ccv3"]["data"]["assets"]] == ["main", "beach", "joy"]
    assert stored(data, "risa.png")[1:] == [sha(b"beach"), sha(new_joy)]
    assert not [loss for loss in exported["losses"] if loss["pointer"].startswith("/assets")]


def test_convert_a_json_card_with_a_json_asset_to_a_risu_charx(bare_bunzai):
    (bare_bunzai.cwd / "ada.json").write_bytes(
        json_card([{"type": "x-risu-asset", "name": "config", "ext": "json", "data": b'{"volume": 3}'}])
    )
    report = bare_bunzai("convert", "ada.json", "--to", "risu.charx", "-o", "ada.charx", check=True).json
    files = members((bare_bunzai.cwd / "ada.charx").read_bytes())
    uri = json.loads(files["card.json"])["data"]["assets"][0]["uri"]
    assert uri == "embeded://assets/other/other/config.json.bin"
    assert risu_loaded(files)["assets/other/other/config.json.bin"] == b'{"volume": 3}'
    assert [loss["code"] for loss in report["losses"] if loss["pointer"].startswith("/assets")] == []
