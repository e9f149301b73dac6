"""A persona bound to a lorebook crosses to SillyTavern bound by the world's name, as a card is:
SillyTavern finds a persona's world by its name (worlds/<name>.json), not by bunzai's id."""

from __future__ import annotations

import json

PERSONA = {
    "personas": {"ada.png": "Ada"},
    "persona_descriptions": {"ada.png": {"description": "Ada.", "position": 0, "depth": 2, "role": 0, "lorebook": ""}},
    "default_persona": None,
}


def _world(content: str) -> str:
    return json.dumps({"entries": {"0": {"uid": 0, "key": ["glade"], "content": content}}})


def _bound(bunzai, tmp_path, book_id: str) -> None:
    (tmp_path / "personas.json").write_text(json.dumps(PERSONA), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "personas.json"), check=True).stdout, check=True)
    edit = bunzai("cap", "run", "persona.injection.update", "ada", "--input", json.dumps({"lorebook": book_id}))
    bunzai("apply", "--yes", input=edit.stdout, check=True)


def test_a_persona_bound_by_hand_names_its_world_by_the_world_s_name(bunzai, tmp_path):
    (tmp_path / "Old Forest.json").write_text(_world("Moss."), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "Old Forest.json"), check=True).stdout, check=True)
    _bound(bunzai, tmp_path, "old-forest")
    report = bunzai("transfer", "persona/ada", "--to", "sillytavern.personas", check=True).json
    assert report["losses"] == []
    done = bunzai("export", "persona/ada", "--to", "sillytavern.personas", check=True).json
    backup = json.loads((bunzai.studio / done["path"]).read_text(encoding="utf-8"))
    assert backup["persona_descriptions"]["ada.png"]["lorebook"] == "Old Forest"


def test_a_persona_is_bound_to_the_file_its_world_is_written_under_when_another_took_the_name(bunzai, tmp_path):
    for folder, content in (("a", "Moss."), ("b", "Ferns.")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "Old Forest.json").write_text(_world(content), encoding="utf-8")
        drafts = bunzai("import", "--on-conflict", "suffix", str(tmp_path / folder / "Old Forest.json"), check=True)
        bunzai("apply", "--yes", input=drafts.stdout, check=True)
    _bound(bunzai, tmp_path, "old-forest-2")
    out = tmp_path / "out"
    refs = ("lorebook/old-forest", "lorebook/old-forest-2", "persona/ada")
    done = bunzai("export", "--into", str(out), "--layout", "sillytavern", *refs, check=True).json
    paths = {row["ref"]: row["path"] for row in done["written"]}
    assert paths["lorebook/old-forest-2"] == "worlds/Old Forest1.json"
    backup = json.loads((out / paths["persona/ada"]).read_text(encoding="utf-8"))
    assert backup["persona_descriptions"]["ada.png"]["lorebook"] == "Old Forest1"


def test_a_persona_read_from_sillytavern_follows_its_world_renamed_since(bunzai, tmp_path):
    (tmp_path / "Eldoria.json").write_text(_world("Moss."), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "Eldoria.json"), check=True).stdout, check=True)
    bound = json.loads(json.dumps(PERSONA))
    bound["persona_descriptions"]["ada.png"]["lorebook"] = "Eldoria"
    (tmp_path / "personas.json").write_text(json.dumps(bound), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "personas.json"), check=True).stdout, check=True)
    unchanged = bunzai("export", "persona/ada", "--to", "sillytavern.personas", check=True).json
    assert json.loads((bunzai.studio / unchanged["path"]).read_text(encoding="utf-8")) == bound
    rename = bunzai("cap", "run", "lorebook.settings.update", "eldoria", "--input", '{"name": "Old Forest"}')
    bunzai("apply", "--yes", input=rename.stdout, check=True)
    report = bunzai("transfer", "persona/ada", "--to", "sillytavern.personas", check=True).json
    assert report["losses"] == []
    done = bunzai("export", "persona/ada", "--to", "sillytavern.personas", check=True).json
    backup = json.loads((bunzai.studio / done["path"]).read_text(encoding="utf-8"))
    assert backup["persona_descriptions"]["ada.png"]["lorebook"] == "Old Forest"
