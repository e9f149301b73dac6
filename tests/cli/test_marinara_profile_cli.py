"""A Marinara Engine profile backup through the commands: one import drafts every piece as one
group, apply writes them all (or, on a refusal, none), list shows them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adapters"))
from marinara_profile_support import persona_row, profile, profile_bytes  # noqa: E402
from marinara_support import lorebook_export, persona_export  # noqa: E402

from bunzai import limits  # noqa: E402


def _listed(bunzai) -> list[tuple[str, str]]:
    return sorted((item["kind"], item["id"]) for item in bunzai("list", check=True).json["items"])


def _receipts(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def test_a_profile_imports_applies_and_lists_its_pieces_linked(bunzai, tmp_path):
    path = tmp_path / "marinara-profile.json"
    path.write_bytes(profile_bytes())
    drafts = bunzai("import", str(path), check=True).stdout
    groups = {json.loads(line)["group"]["id"] for line in drafts.splitlines()}
    assert len(groups) == 1  # all-or-none: a character never lands without the books it links
    receipts = _receipts(bunzai("apply", "--yes", input=drafts, check=True).stdout)
    assert {receipt["status"] for receipt in receipts} == {"applied"}
    assert _listed(bunzai) == [
        ("character", "mari"),
        ("lorebook", "italy"),
        ("persona", "luca"),
        ("preset", "trattoria"),
    ]
    character = bunzai("read", "character/mari", check=True).json["piece"]
    assert character["body"]["links"]["lorebooks"] == ["italy"] and character["body"]["portrait"]["ext"] == "png"
    receipt = bunzai("export", "persona/luca", "--to", "marinara.persona", check=True).json
    written = json.loads((bunzai.studio / receipt["path"]).read_bytes())
    assert written["data"] == json.loads(persona_export())["data"]  # as Marinara's own persona export


def test_a_refused_piece_leaves_the_studio_as_it_was(bunzai, tmp_path):
    book = tmp_path / "Italy.marinara.json"
    book.write_bytes(lorebook_export())
    bunzai("apply", "--yes", input=bunzai("import", str(book), check=True).stdout, check=True)
    before = _listed(bunzai)
    path = tmp_path / "marinara-profile.json"
    path.write_bytes(profile_bytes())
    result = bunzai("apply", "--yes", input=bunzai("import", str(path), check=True).stdout)
    statuses = {receipt["target"]["id"]: receipt["status"] for receipt in _receipts(result.stdout)}
    assert statuses["italy"] == "stale" and "applied" not in statuses.values()
    assert _listed(bunzai) == before


def test_a_profile_over_the_group_limit_is_refused_with_a_code_and_nothing_drafted(bunzai, tmp_path):
    path = tmp_path / "marinara-profile.json"
    rows = [persona_row(f"p{n}", name=f"Guest {n}") for n in range(limits.DRAFT_GROUP_MAX + 1)]
    path.write_text(json.dumps(profile(personas=rows)), encoding="utf-8")
    result = bunzai("import", str(path))
    assert result.code == 1 and json.loads(result.stdout)["error"]["code"] == "too_large"
    assert _listed(bunzai) == []
