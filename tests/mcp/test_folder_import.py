"""folder_import as the CLI's `folder import`: one conflict policy over the stream, and a walk
larger than the session's drafts answered with what it made."""

from __future__ import annotations

import json
import shutil

from bunzai.limits import MCP_SESSION_DRAFTS_MAX
from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.store.studio import Studio
from bunzai.tools.contract import Context
from testkit import corpus_path, v2_card_png


class Session:
    def __init__(self, studio_root) -> None:
        self.ctx = Context(studio=Studio(studio_root), handles=Handles())
        self.dispatcher = Dispatcher(self.ctx)

    def __call__(self, tool, **arguments):
        result = self.dispatcher.call(tool, arguments, "2025-06-18")
        assert not result["isError"], result["content"][0]["text"]
        doc = json.loads(result["content"][0]["text"])
        return self.whole(doc["handle"]) if "handle" in doc and tool != "result_query" else doc

    def whole(self, handle: str):
        """A result held as a handle, read back page by page."""
        parts, offset = [], 0
        while offset is not None:
            page = self("result_query", handle=handle, offset=offset)
            parts.append(page["text"]["data"])
            offset = page["next_offset"]
        return json.loads("".join(parts))


def _granted(bunzai, folder):
    bunzai("folder", "grant", str(folder), check=True)
    return Session(bunzai.studio)


def test_a_card_bound_to_a_world_the_import_gives_links_to_it_and_applies(bunzai, tmp_path):
    folder = tmp_path / "st"
    folder.mkdir()
    shutil.copy(corpus_path("sillytavern", "worlds", "Eldoria.json"), folder)
    shutil.copy(corpus_path("sillytavern", "characters", "default_Seraphina.png"), folder)
    session = _granted(bunzai, folder)
    imported = session("folder_import", paths=[str(folder)])
    assert imported["failed"]["data"] == [] and len(imported["drafts"]) == 2
    assert any("lorebook/eldoria" in note for note in imported["notes"]["data"])
    for made in imported["drafts"]:  # the world, then the card without a second copy of it
        assert session("change_apply", draft=made["draft"])["status"] == "applied"
    assert {(row["kind"], row["id"]) for row in session("studio_list")["items"]["data"]} == {
        ("lorebook", "eldoria"),
        ("character", "seraphina"),
    }


def test_on_conflict_suffix_and_skip_as_the_cli(bunzai, tmp_path):
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "Ada.png").write_bytes(v2_card_png("Ada"))
    session = _granted(bunzai, folder)
    first = session("folder_import", paths=[str(folder)])
    assert session("change_apply", draft=first["drafts"][0]["draft"])["status"] == "applied"
    skipped = session("folder_import", paths=[str(folder)], on_conflict="skip")
    assert skipped["drafts"] == [] and any("skipped 1" in note for note in skipped["notes"]["data"])
    renamed = session("folder_import", paths=[str(folder)], on_conflict="suffix")
    assert renamed["drafts"][0]["target"] == {"kind": "character", "id": "ada-2"}
    assert all("--on-conflict" not in note for note in renamed["notes"]["data"])  # the agent has no flags


def test_a_walk_past_the_session_drafts_answers_the_drafts_it_made(bunzai, tmp_path):
    folder = tmp_path / "library"
    folder.mkdir()
    for n in range(MCP_SESSION_DRAFTS_MAX + 3):
        (folder / f"card{n:03d}.png").write_bytes(v2_card_png(f"Card {n}", seed=n))
    session = _granted(bunzai, folder)
    imported = session("folder_import", paths=[str(folder)])
    assert len(imported["drafts"]) == MCP_SESSION_DRAFTS_MAX == len(session.ctx.drafts)
    assert "on_conflict skip" in imported["stopped"]["hint"]
    for made in imported["drafts"]:
        session("change_apply", draft=made["draft"])
    rest = session("folder_import", paths=[str(folder)], on_conflict="skip")
    assert len(rest["drafts"]) == 3 and "stopped" not in rest
