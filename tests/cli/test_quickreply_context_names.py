"""A quick-reply set's context links cross to SillyTavern by the linked set's name: SillyTavern
finds the set a context menu offers by its name (contextList[].set), not by bunzai's id."""

from __future__ import annotations

import json


def _set(name: str, links: list[str]) -> dict:
    item = {
        "id": 1,
        "label": "Go",
        "message": "/echo go",
        "contextList": [{"set": s, "isChained": False} for s in links],
    }
    return {"version": 2, "name": name, "qrList": [item], "idIndex": 1}


def _exported(bunzai, ref: str) -> dict:
    done = bunzai("export", ref, "--to", "sillytavern.quickreply", check=True).json
    return json.loads((bunzai.studio / done["path"]).read_text(encoding="utf-8"))


def test_a_link_made_in_the_studio_names_the_set_by_its_name(bunzai):
    moods = {"id": "moods", "name": "Mood Menu", "items": [{"id": 1, "label": "Happy", "message": "/echo happy"}]}
    main = {"id": "main", "name": "Main", "items": [{"id": 1, "label": "Go", "context_list": [{"set": "moods"}]}]}
    for made in (moods, main):
        draft = bunzai("cap", "run", "studio.quickreply.create", "--input", json.dumps(made), check=True)
        bunzai("apply", "--yes", input=draft.stdout, check=True)
    report = bunzai("transfer", "quickreply/main", "--to", "sillytavern.quickreply", check=True).json
    assert report["losses"] == []
    assert _exported(bunzai, "quickreply/main")["qrList"][0]["contextList"] == [
        {"set": "Mood Menu", "isChained": False}
    ]


def test_a_link_read_from_sillytavern_follows_its_set_renamed_since(bunzai, tmp_path):
    for name, links in (("Main", ["Mood Menu"]), ("Mood Menu", [])):
        (tmp_path / f"{name}.json").write_text(json.dumps(_set(name, links)), encoding="utf-8")
        bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / f"{name}.json"), check=True).stdout, check=True)
    assert _exported(bunzai, "quickreply/main") == _set("Main", ["Mood Menu"])  # as read, while nothing changed
    rename = bunzai("cap", "run", "quickreply.settings.update", "mood-menu", "--input", '{"name": "Feelings"}')
    bunzai("apply", "--yes", input=rename.stdout, check=True)
    report = bunzai("transfer", "quickreply/main", "--to", "sillytavern.quickreply", check=True).json
    assert report["losses"] == []
    assert _exported(bunzai, "quickreply/main")["qrList"][0]["contextList"] == [{"set": "Feelings", "isChained": False}]
