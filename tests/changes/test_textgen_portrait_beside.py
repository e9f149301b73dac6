"""A text-generation-webui character's portrait, `characters/<name>.png` (or `.jpg`,
`.jpeg`, first found) beside its `<name>.yaml` or `.json`, is imported with it."""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import v2_card_png

from bunzai.adapters.common.png import PNG_SIGNATURE
from bunzai.changes import imports
from bunzai.changes.imports import Skipped, drafts_from_path

YAML = "name: Chiharu Yamada\ngreeting: Hello.\ncontext: A computer engineer.\n"
PYGMALION = json.dumps({"char_name": "Ada", "char_persona": "A mathematician.", "char_greeting": "Hi."})
ORDER = (".png", ".jpg", ".jpeg")  # textgen's order (modules/chat.py generate_pfp_cache)


def plain_png(seed: int = 0) -> bytes:
    """A small PNG image without card chunks, as textgen saves a character's picture."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rgb = bytes(((seed * 37) % 256, (seed * 91) % 256, (seed * 53) % 256))
    image = zlib.compress(b"".join(b"\0" + rgb * 4 for _ in range(4)))
    header = struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0)
    return PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", image) + chunk(b"IEND", b"")


def plain_jpeg(seed: int = 0) -> bytes:
    return b"\xff\xd8\xff\xe0" + bytes([seed % 256]) * 64 + b"\xff\xd9"


def image_for(suffix: str, seed: int) -> bytes:
    return plain_png(seed) if suffix == ".png" else plain_jpeg(seed)


def characters(tmp_path: Path, files: dict[str, bytes | str]) -> Path:
    folder = tmp_path / "characters"
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return folder


def walked(path: Path) -> dict[str, object]:
    return {file.name: result for file, result in drafts_from_path(path)}


def only_draft(result) -> dict:
    assert isinstance(result, list) and len(result) == 1, result
    return result[0]


def portrait_sha(draft: dict) -> str | None:
    portrait = draft["proposed"]["body"].get("portrait")
    return portrait["sha256"] if portrait else None


def warnings_of(draft: dict) -> list[str]:
    return draft["operations"][0]["warnings"]


# --- end to end: the command ------------------------------------------------------------


def test_folder_import_brings_the_png_beside_the_yaml_and_passes_no_file_over(bunzai, tmp_path):
    png = plain_png(3)
    folder = characters(tmp_path, {"Example.yaml": YAML, "Example.png": png})
    result = bunzai("import", str(folder))
    assert result.code == 0, result.stderr
    [draft] = result.lines
    assert portrait_sha(draft) == hashlib.sha256(png).hexdigest()
    attachment = draft["attachments"][portrait_sha(draft)]
    assert attachment["from"] == {"path": str((folder / "Example.png").absolute())}
    assert attachment["mime"] == "image/png" and attachment["ext"] == "png"
    assert "skipped" not in result.stderr and "Example.png" not in result.stderr


def test_importing_the_yaml_alone_brings_its_portrait_and_apply_stores_its_bytes(bunzai, tmp_path):
    png = plain_png(5)
    folder = characters(tmp_path, {"Example.yaml": YAML, "Example.png": png})
    drafts = bunzai("import", str(folder / "Example.yaml"), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    out = tmp_path / "art.png"
    bunzai("art", "chiharu-yamada", "--out", str(out), check=True)
    assert out.read_bytes() == png


def test_export_back_to_textgen_reports_the_portrait_a_single_file_cannot_carry(bunzai, tmp_path):
    folder = characters(tmp_path, {"Example.yaml": YAML, "Example.png": plain_png(1)})
    drafts = bunzai("import", str(folder), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    receipt = bunzai("export", "chiharu-yamada", "--to", "textgen.character.yaml", check=True).json
    codes = [loss["code"] for loss in receipt["losses"]]
    assert codes == ["textgen.portrait.not_carried"]
    assert [p.suffix for p in (bunzai.studio / receipt["path"]).parent.iterdir()] == [".yaml"]


# --- which image, in textgen's order ------------------------------------------------------


@settings(max_examples=20)
@given(present=st.lists(st.sampled_from(ORDER), unique=True), text=st.sampled_from(["Example.yaml", "Example.json"]))
def test_the_first_image_textgen_looks_for_is_the_portrait_and_the_others_are_passed_over(present, text):
    with tempfile.TemporaryDirectory() as tmp:
        images = {f"Example{suffix}": image_for(suffix, seed) for seed, suffix in enumerate(present)}
        folder = characters(Path(tmp), {text: YAML if text.endswith(".yaml") else PYGMALION} | images)
        results = walked(folder)
        draft = only_draft(results[text])
        chosen = next((suffix for suffix in ORDER if suffix in present), None)
        expected = hashlib.sha256(images[f"Example{chosen}"]).hexdigest() if chosen else None
        assert portrait_sha(draft) == expected
        assert sorted(results) == sorted([text] + [name for name in images if name != f"Example{chosen}"])
        assert all(isinstance(results[name], Skipped) for name in results if name != text)


def test_an_image_of_another_stem_is_no_ones_portrait(tmp_path):
    folder = characters(tmp_path, {"Example.yaml": YAML, "Other.png": plain_png()})
    results = walked(folder)
    assert portrait_sha(only_draft(results["Example.yaml"])) is None
    assert isinstance(results["Other.png"], Skipped)


def test_a_card_json_keeps_its_own_sibling_image_a_loose_image():
    # Only formats whose platform shows an image beside the file take one.
    with tempfile.TemporaryDirectory() as tmp:
        card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Ada", "description": "x"}}
        folder = characters(Path(tmp), {"Ada.json": json.dumps(card), "Ada.png": plain_png()})
        results = walked(folder)
        assert portrait_sha(only_draft(results["Ada.json"])) is None
        assert isinstance(results["Ada.png"], Skipped)


# --- what is not a portrait ---------------------------------------------------------------


def test_a_card_png_beside_the_yaml_is_its_own_piece_and_not_the_portrait(tmp_path):
    folder = characters(tmp_path, {"Example.yaml": YAML, "Example.png": v2_card_png("Nova")})
    results = walked(folder)
    draft = only_draft(results["Example.yaml"])
    assert portrait_sha(draft) is None
    assert any("Example.png" in warning and "piece of its own" in warning for warning in warnings_of(draft))
    assert results["Example.png"][0]["proposed"]["name"] == "Nova"


def test_a_link_beside_the_yaml_is_not_followed(tmp_path):
    outside = tmp_path / "secret.png"
    outside.write_bytes(plain_png())
    folder = characters(tmp_path, {"Example.yaml": YAML})
    os.symlink(outside, folder / "Example.png")
    results = walked(folder)
    draft = only_draft(results["Example.yaml"])
    assert portrait_sha(draft) is None and not draft.get("attachments")
    assert any("not a regular file" in warning for warning in warnings_of(draft))
    assert "Example.png" not in results  # a walk lists no links


def test_a_link_stops_the_search_as_textgen_would_show_it(tmp_path):
    # textgen shows the first name found; the link is not read, and no later image stands in.
    folder = characters(tmp_path, {"Example.yaml": YAML, "Example.jpg": plain_jpeg()})
    os.symlink(folder / "Example.jpg", folder / "Example.png")
    results = walked(folder)
    assert portrait_sha(only_draft(results["Example.yaml"])) is None
    assert isinstance(results["Example.jpg"], Skipped)


def test_an_image_over_the_asset_limit_is_told_once_on_the_character(tmp_path, monkeypatch):
    png = plain_png()
    monkeypatch.setattr(imports, "ASSET_MAX_BYTES", len(png) - 1)
    folder = characters(tmp_path, {"Example.yaml": YAML, "Example.png": png})
    results = walked(folder)
    draft = only_draft(results["Example.yaml"])
    assert portrait_sha(draft) is None
    assert any("Example.png" in warning and "limit" in warning for warning in warnings_of(draft))
    assert "Example.png" not in results


def test_a_file_that_is_no_image_is_not_the_portrait_and_is_passed_over_as_before(tmp_path):
    folder = characters(tmp_path, {"Example.yaml": YAML, "Example.png": "not an image\n"})
    results = walked(folder)
    draft = only_draft(results["Example.yaml"])
    assert portrait_sha(draft) is None
    assert any("not a PNG, JPEG" in warning for warning in warnings_of(draft))
    assert isinstance(results["Example.png"], Skipped)


def test_a_damaged_png_is_reported_by_the_walk_as_damaged(tmp_path):
    folder = characters(tmp_path, {"Example.yaml": YAML, "Example.png": plain_png()[:40]})
    results = walked(folder)
    assert portrait_sha(only_draft(results["Example.yaml"])) is None
    assert getattr(results["Example.png"], "code", None) == "corrupt_file"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_beside_the_yaml_is_never_opened(tmp_path):
    folder = characters(tmp_path, {"Example.yaml": YAML})
    os.mkfifo(folder / "Example.png")
    [(_, result)] = list(drafts_from_path(folder / "Example.yaml"))
    draft = only_draft(result)
    assert portrait_sha(draft) is None
    assert any("not a regular file" in warning for warning in warnings_of(draft))
