"""import --on-conflict: refuse (apply says stale), skip (nothing drafted), suffix (-2, -3)."""

from __future__ import annotations

import json

from testkit import corpus_path


def card(name: str) -> str:
    data = {
        "name": name,
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
        "character_version": "",
        "extensions": {},
    }
    return json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data})


def test_three_snow_names_import_as_three_pieces(bunzai, tmp_path):
    for index, name in enumerate(("雪乃", "雪", "ゆき")):
        (tmp_path / f"card{index}.json").write_text(card(name), encoding="utf-8")
    drafts = bunzai("import", str(tmp_path), check=True).stdout
    done = bunzai("apply", "--yes", input=drafts)
    assert done.code == 0, done.stdout
    ids = {line["target"]["id"] for line in done.lines}
    assert len(ids) == 3 and all(line["status"] == "applied" for line in done.lines)
    assert {piece_id.split("-")[0] for piece_id in ids} == {"xuenai", "xue", "yuki"}


def test_skip_makes_a_reimport_write_nothing(bunzai):
    png = str(corpus_path("sillytavern", "characters", "default_Seraphina.png"))
    bunzai("apply", "--yes", input=bunzai("import", png, check=True).stdout, check=True)
    again = bunzai("import", "--on-conflict", "skip", png)
    assert again.code == 0 and again.stdout == ""
    assert "skipped 2 piece(s)" in again.stderr


def test_skip_drops_a_carried_book_whose_world_is_stored_and_keeps_the_card(bunzai):
    world = str(corpus_path("sillytavern", "worlds", "Eldoria.json"))
    png = str(corpus_path("sillytavern", "characters", "default_Seraphina.png"))
    bunzai("apply", "--yes", input=bunzai("import", world, check=True).stdout, check=True)
    drafts = bunzai("import", "--on-conflict", "skip", png, check=True).lines
    assert [d["target"] for d in drafts] == [{"kind": "character", "id": "seraphina"}]
    assert "group" not in drafts[0]
    done = bunzai("apply", "--yes", input="\n".join(json.dumps(d) for d in drafts))
    assert done.code == 0, done.stdout
    assert bunzai("read", "seraphina", "--pointer", "/body/links/lorebooks", check=True).json["value"] == ["eldoria"]


def test_suffix_takes_the_next_free_id_and_links_follow(bunzai):
    png = str(corpus_path("sillytavern", "characters", "default_Seraphina.png"))
    bunzai("apply", "--yes", input=bunzai("import", png, check=True).stdout, check=True)
    drafts = bunzai("import", "--on-conflict", "suffix", png, png, check=True)
    targets = [d["target"]["id"] for d in drafts.lines]
    assert targets == ["seraphina-2", "eldoria-2", "seraphina-3", "eldoria-3"]
    assert drafts.lines[0]["proposed"]["body"]["links"]["lorebooks"] == ["eldoria-2"]
    assert drafts.lines[2]["proposed"]["body"]["links"]["lorebooks"] == ["eldoria-3"]
    done = bunzai("apply", "--yes", input=drafts.stdout)
    assert done.code == 0, done.stdout


def test_refuse_is_the_default_and_apply_says_occupied(bunzai):
    png = str(corpus_path("sillytavern", "characters", "default_Seraphina.png"))
    first = bunzai("import", png, check=True).stdout
    bunzai("apply", "--yes", input=first, check=True)
    assert bunzai("import", png, check=True).stdout == first
    assert bunzai("apply", "--yes", input=first).code == 1


def test_an_unknown_policy_is_a_usage_error(bunzai, tmp_path):
    (tmp_path / "a.json").write_text(card("Ada"), encoding="utf-8")
    wrong = bunzai("import", "--on-conflict", "merge", str(tmp_path / "a.json"))
    assert wrong.code == 2 and wrong.json["error"]["code"] == "usage"
