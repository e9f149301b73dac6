"""Finding capabilities: ranked search, browse by domain/kind/area, describe with the schema; hidden never shown."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bunzai.capabilities import discovery
from bunzai.capabilities.browse import browse
from bunzai.capabilities.search import rank


def test_rename_character_puts_identity_update_first() -> None:
    matches = rank(discovery.visible_capabilities(), "rename character")
    assert matches[0]["id"] == "character.identity.update"
    assert any("alias" in why for why in matches[0]["why"])
    assert len(matches) <= 5


def test_edit_the_wireframe_finds_the_htmldoc_update() -> None:
    ids = {cap.id for cap in discovery.visible_capabilities()}
    if "htmldoc.document.update" not in ids:
        pytest.skip("htmldoc.document.update is not written yet (htmldoc bundle)")
    assert "htmldoc.document.update" in [m["id"] for m in rank(discovery.visible_capabilities(), "edit the wireframe")]


def test_kind_filter_keeps_to_the_kind() -> None:
    matches = rank(discovery.visible_capabilities(), "disable entry", kind="lorebook")
    assert matches and all(m["id"].startswith("lorebook.") for m in matches)
    assert matches[0]["id"] == "lorebook.entries.enable"


def test_ranking_is_stable_across_runs(bunzai) -> None:
    first = bunzai("cap", "find", "add", "greeting", check=True).json
    second = bunzai("cap", "find", "add", "greeting", check=True).json
    assert first == second
    assert first["items"][0]["id"] == "character.greetings.update"


def test_browse_walks_domain_kind_area_without_schemas() -> None:
    caps = discovery.visible_capabilities()
    top = browse(caps)
    assert "content" in [d["domain"] for d in top["items"]]
    by_path = browse(caps, "content/character")
    assert by_path == browse(caps, "character")
    areas = {a["area"] for a in by_path["items"]}
    assert {"identity", "greetings", "variants"} <= areas
    assert "input_schema" not in str(by_path)
    leaf = browse(caps, "content/lorebook/entries")
    assert {a["id"] for a in leaf["items"]} >= {"lorebook.entries.update", "lorebook.entries.remove"}


def test_describe_gives_the_full_schema_with_descriptions(bunzai) -> None:
    doc = bunzai("cap", "describe", "character.greetings.update", check=True).json
    props = doc["input_schema"]["properties"]
    assert "variant" in props and props["first_message"]["description"]


def test_compact_forms_browse_describe_and_search(bunzai) -> None:
    assert bunzai("cap", check=True).json["level"] == "domains"
    assert bunzai("cap", "character.identity.update", check=True).json["id"] == "character.identity.update"
    found = bunzai("cap", "rename", "character", check=True).json
    assert found["items"][0]["id"] == "character.identity.update"
    unknown = bunzai("cap", "describe", "character.nothing.update")
    assert unknown.code == 1 and unknown.json["error"]["code"] == "not_found"


def test_hidden_capabilities_never_appear(monkeypatch) -> None:
    real = discovery.all_capabilities()
    secret = replace(real[0], id="character.secret.update", exposure="hidden", aliases=("rename character",))
    monkeypatch.setattr(discovery, "_registry", lambda: {c.id: c for c in real + [secret]})
    visible = discovery.visible_capabilities()
    assert secret not in visible
    assert "character.secret.update" not in [m["id"] for m in rank(visible, "secret rename character")]
    assert "character.secret.update" not in str(browse(visible, "content/character"))
    from bunzai.errors import BunzaiError

    with pytest.raises(BunzaiError):
        discovery.find_capability("character.secret.update", include_hidden=False)


def test_a_compact_path_browses_instead_of_searching(bunzai) -> None:
    walked = bunzai("cap", "content/character", check=True).json
    assert walked["path"] == "content/character"
    assert "character.identity.update" in {a["id"] for area in walked["items"] for a in area["actions"]}
    assert bunzai("cap", "studio", check=True).json["path"] == "studio"
