"""What a path outside the grants is told. An agent over MCP is told nothing it could not read from
the path as given: not where a link inside a grant leads (that is a path outside the grants), not
which folders exist (the words are the same whether or not anything is there), and the folder to
grant is phrased so it is right either way. A person at a shell is told where the path really leads
and the nearest folder that exists (granting one that does not is refused as not_found)."""

from __future__ import annotations

import json
import os

import pytest

from bunzai.folders import grant
from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.store.pieces import create_piece
from bunzai.store.studio import init_studio
from bunzai.tools.contract import Context
from testkit import v2_card_png


@pytest.fixture
def place(tmp_path):
    studio, _ = init_studio(tmp_path / "studio")
    granted, secret = tmp_path / "granted", tmp_path / "secret-place"
    granted.mkdir()
    secret.mkdir()
    (secret / "Bea.png").write_bytes(v2_card_png("Bea"))
    os.symlink(secret, granted / "escape")
    os.symlink(secret / "Bea.png", granted / "Bea-link.png")
    grant(studio, granted)
    return studio, granted, secret


def _error(studio, tool: str, **arguments) -> dict:
    result = Dispatcher(Context(studio=studio, handles=Handles())).call(tool, arguments, "2025-06-18")
    assert result["isError"], result
    return json.loads(result["content"][0]["text"])["error"]


def test_a_link_out_of_a_grant_is_refused_without_naming_where_it_leads(place) -> None:
    studio, granted, secret = place
    for path in (granted / "Bea-link.png", granted / "escape" / "Bea.png"):
        error = _error(studio, "folder_import", paths=[str(path)])
        assert error["code"] == "not_granted"
        assert str(secret) not in json.dumps(error), error
        assert error["message"] == f"{path} leads out of the studio and every granted folder through a link"
        assert "ask the person to grant the folder the link leads to" in error["hint"]


def test_a_media_link_out_of_a_grant_is_refused_without_naming_where_it_leads(place) -> None:
    studio, granted, secret = place
    create_piece(studio, {"kind": "character", "id": "ada", "name": "Ada", "body": {}})
    dispatcher = Dispatcher(Context(studio=studio, handles=Handles()))
    dispatcher.call("capability_find", {"describe": "character.media.update"}, "2025-06-18")
    result = dispatcher.call(
        "cap_character_media_update",
        {"ref": "character/ada", "input": {"portrait": "@" + str(granted / "Bea-link.png")}},
        "2025-06-18",
    )
    text = result["content"][0]["text"]
    assert result["isError"] and json.loads(text)["error"]["code"] == "not_granted", text
    assert str(secret) not in text, text


def test_a_path_outside_is_told_the_same_whether_its_folder_exists(place, tmp_path) -> None:
    studio, _, _ = place
    said = []
    for folder in (tmp_path / "secret-place", tmp_path / "no-such-place"):
        error = _error(studio, "folder_import", paths=[str(folder / "Bea.png")])
        assert error["code"] == "not_granted"
        said.append(json.dumps(error).replace(folder.name, "X"))
        assert error["hint"] == (
            f"only the person can grant a folder: ask them to grant {folder}, the folder it is in "
            "(or the nearest one above it, if that folder does not exist)"
        )
    assert said[0] == said[1]


def test_a_person_is_told_where_a_link_leads_and_the_nearest_folder_to_grant(bunzai, tmp_path) -> None:
    granted, secret = tmp_path / "granted", tmp_path / "secret-place"
    granted.mkdir()
    secret.mkdir()
    (secret / "key.txt").write_text("no", encoding="utf-8")
    os.symlink(secret / "key.txt", granted / "key-link.txt")
    bunzai("folder", "grant", str(granted), check=True)
    linked = bunzai("folder", "read", str(granted / "key-link.txt")).json["error"]
    assert f"(it is really {secret / 'key.txt'})" in linked["message"]
    assert linked["hint"] == f"grant the folder that really holds it first: `bunzai folder grant {secret}`"
    missing = bunzai("folder", "read", str(tmp_path / "gone" / "deeper" / "x.png")).json["error"]
    assert missing["code"] == "not_granted"
    assert missing["hint"] == (
        f"no folder {tmp_path / 'gone' / 'deeper'} exists: grant the nearest one above it first: "
        f"`bunzai folder grant {tmp_path}`"
    )
    assert bunzai("folder", "grant", str(tmp_path)).code == 0  # the folder named can be granted


def test_a_grant_spelled_through_a_link_is_still_the_grant(tmp_path) -> None:
    # A symlinked home: the grant is kept as its real path, the agent spells it through the link.
    studio, _ = init_studio(tmp_path / "studio")
    home, secret = tmp_path / "real-home", tmp_path / "secret-place"
    (home / "granted").mkdir(parents=True)
    secret.mkdir()
    (secret / "Bea.png").write_bytes(v2_card_png("Bea"))
    os.symlink(secret, home / "granted" / "escape")
    os.symlink(home, tmp_path / "home")
    grant(studio, tmp_path / "home" / "granted")
    path = tmp_path / "home" / "granted" / "escape" / "Bea.png"
    error = _error(studio, "folder_import", paths=[str(path)])
    assert error["code"] == "not_granted" and str(secret) not in json.dumps(error)
    assert error["message"] == f"{path} leads out of the studio and every granted folder through a link"
    outside = tmp_path / "home" / "elsewhere" / "Bea.png"  # spelled through the link, but outside the grant
    error = _error(studio, "folder_import", paths=[str(outside)])
    assert error["message"] == f"{outside} is outside the studio and every granted folder"
