"""`bunzai render` and `bunzai preset-verify` end to end on the corpus SillyTavern Default
preset, Seraphina and her world Eldoria (issue 12 acceptance). Expectations are computed
from the corpus files, not from bunzai's own output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testkit import corpus_path

CHAT = [
    {"role": "assistant", "content": "Rest here a while."},
    {"role": "user", "content": "What lives in this forest?"},
    {"role": "assistant", "content": "Beasts roam beyond the glade."},
]


def _import(bunzai, path: Path, *, check: bool = True) -> None:
    drafts = bunzai("import", str(path), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=check)


@pytest.fixture
def seraphina(bunzai, tmp_path: Path):
    for parts in (("presets", "openai", "Default.json"), ("characters", "default_Seraphina.png")):
        _import(bunzai, corpus_path("sillytavern", *parts))
    # The card's book is bound to the world Eldoria, so it already holds the world's id
    # (docs/library.md); importing the world itself finds that id taken.
    _import(bunzai, corpus_path("sillytavern", "worlds", "Eldoria.json"), check=False)
    assert bunzai("read", "lorebook/eldoria").code == 0
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps(CHAT), encoding="utf-8")
    return bunzai, chat


def test_default_preset_renders_with_no_unresolved_macro_and_the_right_lore(seraphina) -> None:
    bunzai, chat = seraphina
    doc = bunzai(
        "render", "default", "--character", "seraphina", "--lorebook", "eldoria", "--chat", str(chat), check=True
    ).json
    assert doc["unresolved"] == []
    world = json.loads(corpus_path("sillytavern", "worlds", "Eldoria.json").read_text(encoding="utf-8"))
    text = " ".join(m["content"] for m in CHAT).lower()
    expected = {str(e["uid"]): any(k.lower() in text for k in e["key"]) for e in world["entries"].values()}
    assert set(expected.values()) == {True, False}  # the chat must tell firing from not firing
    verdicts = {str(e["uid"]): e for e in doc["lore"]["entries"] if e["book"] == "eldoria"}
    # a key in the chat fires its entry, or the entry is left out for the budget (the prompt's room
    # of the Default preset, 4,095 less 300 tokens, holds a quarter of that: 949)
    found = {uid: v["fired"] or v.get("reason", "").startswith("over the budget") for uid, v in verdicts.items()}
    assert found == expected and doc["lore"]["budget"] == 949
    fired = {uid: v["fired"] for uid, v in verdicts.items()}
    lore_text = " ".join(m["content"] for m in doc["stages"]["final"] if m["block"] == "worldInfoBefore")
    for entry in world["entries"].values():
        assert (
            entry["content"][:60].replace("{{user}}", "User").replace("{{char}}", "Seraphina")[:40] in lore_text
        ) == fired[str(entry["uid"])] or "{{" in entry["content"][:60]


def test_final_messages_follow_the_preset_prompt_order(seraphina) -> None:
    bunzai, chat = seraphina
    doc = bunzai(
        "render", "default", "--character", "seraphina", "--chat", str(chat), "--stage", "final", check=True
    ).json
    preset = json.loads(corpus_path("sillytavern", "presets", "openai", "Default.json").read_text(encoding="utf-8"))
    order = next(o["order"] for o in preset["prompt_order"] if o["character_id"] == 100001)
    enabled = [item["identifier"] for item in order if item["enabled"]]
    blocks = []
    for message in doc["messages"]:
        if not blocks or blocks[-1] != message["block"]:
            blocks.append(message["block"])
    assert blocks == [b for b in enabled if b in blocks]  # same relative order as the file
    with_text = {p["identifier"] for p in preset["prompts"] if (p.get("content") or "").strip() and not p.get("marker")}
    assert {b for b in enabled if b in with_text} <= set(blocks)
    assert [m["content"] for m in doc["messages"] if m["source"].startswith("chat:")] == [m["content"] for m in CHAT]
    # SillyTavern's fallback estimate: ceil(UTF-8 bytes / 3.35) (tokenizers.js guesstimate)
    assert all(m["tokens"] == -(-len(m["content"].encode()) * 100 // 335) for m in doc["messages"])


def test_verify_reports_exactly_the_typo_and_the_empty_block(seraphina, tmp_path: Path) -> None:
    bunzai, chat = seraphina
    clean = bunzai("preset-verify", "default", "--character", "seraphina", "--lorebook", "eldoria", "--chat", str(chat))
    assert clean.code == 0 and clean.json["findings"] == []
    preset = json.loads(corpus_path("sillytavern", "presets", "openai", "Default.json").read_text(encoding="utf-8"))
    main = next(p for p in preset["prompts"] if p["identifier"] == "main")
    assert "{{char}}" in main["content"]
    main["content"] = main["content"].replace("{{char}}", "{{charr}}", 1)
    preset["prompts"].append(
        {
            "identifier": "empty-note",
            "name": "Empty note",
            "role": "system",
            "content": "",
            "system_prompt": False,
            "marker": False,
        }
    )
    next(o for o in preset["prompt_order"] if o["character_id"] == 100001)["order"].insert(
        1, {"identifier": "empty-note", "enabled": True}
    )
    broken = tmp_path / "Broken.json"
    broken.write_text(json.dumps(preset), encoding="utf-8")
    _import(bunzai, broken)
    result = bunzai("preset-verify", "broken", "--character", "seraphina", "--lorebook", "eldoria", "--chat", str(chat))
    assert result.code == 1
    findings = result.json["findings"]
    assert sorted(f["kind"] for f in findings) == ["empty_block", "unknown_macro"]
    typo = next(f for f in findings if f["kind"] == "unknown_macro")
    assert typo["token"] == "{{charr}}" and typo["did_you_mean"][0] == "{{char}}"
    assert "did you mean {{char}}" in typo["message"]
    index = next(i for i, p in enumerate(preset["prompts"]) if p["identifier"] == "main")
    assert typo["pointer"] == f"/body/prompts/{index}/content" and typo["line"] >= 1
    empty = next(f for f in findings if f["kind"] == "empty_block")
    assert empty["block"] == "empty-note" and empty["pointer"] == f"/body/prompts/{len(preset['prompts']) - 1}/content"


def test_the_default_preset_sends_the_persona_as_sillytavern_does(seraphina, tmp_path: Path) -> None:
    # SillyTavern sends the 100001 list (openai.js dummyId 100001); of Default.json's lists only it
    # holds personaDescription, so a persona placed in the prompt is sent after main and world info.
    bunzai, chat = seraphina
    backup = tmp_path / "personas.json"
    description = "Ada maps the glade's paths."
    backup.write_text(
        json.dumps(
            {
                "personas": {"ada.png": "Ada"},
                "persona_descriptions": {"ada.png": {"description": description, "position": 0}},
            }
        ),
        encoding="utf-8",
    )
    _import(bunzai, backup)
    doc = bunzai(
        "render", "default", "-c", "seraphina", "--persona", "ada", "--chat", str(chat), "--stage", "final", check=True
    ).json
    assert doc["order"] == "global" and doc["persona"] == "persona/ada"
    persona = [m for m in doc["messages"] if m["block"] == "personaDescription"]
    assert [(m["content"], m["source"]) for m in persona] == [(description, "persona:ada/description")]
    blocks = [m["block"] for m in doc["messages"]]
    assert blocks.index("main") < blocks.index("personaDescription") < blocks.index("charDescription")


def test_a_preset_with_only_the_100000_list_renders_the_default_order_and_fails_verify(
    seraphina, tmp_path: Path
) -> None:
    bunzai, chat = seraphina
    preset = json.loads(corpus_path("sillytavern", "presets", "openai", "Default.json").read_text(encoding="utf-8"))
    preset["prompt_order"] = [o for o in preset["prompt_order"] if o["character_id"] == 100000]
    stale = tmp_path / "Stale.json"
    stale.write_text(json.dumps(preset), encoding="utf-8")
    _import(bunzai, stale)
    doc = bunzai("render", "stale", "-c", "seraphina", "--chat", str(chat), "--stage", "final", check=True).json
    assert doc["order"] == "default" and any("no global prompt order" in note for note in doc["notes"])
    result = bunzai("preset-verify", "stale", "--character", "seraphina", "--chat", str(chat))
    assert result.code == 1
    assert [(f["kind"], f["orders"]) for f in result.json["findings"]] == [("order_not_used", ["100000"])]


def test_seeded_renders_are_identical_and_a_sillytavern_jsonl_chat_reads(seraphina, tmp_path: Path) -> None:
    bunzai, _ = seraphina
    jsonl = tmp_path / "chat.jsonl"
    lines = [{"user_name": "Ann", "character_name": "Seraphina", "chat_metadata": {}}]
    lines += [
        {
            "name": "Ann" if m["role"] == "user" else "Seraphina",
            "is_user": m["role"] == "user",
            "is_system": False,
            "mes": m["content"],
        }
        for m in CHAT
    ]
    jsonl.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    first = bunzai("render", "default", "-c", "seraphina", "--chat", str(jsonl), "--seed", "7", check=True)
    second = bunzai("render", "default", "-c", "seraphina", "--chat", str(jsonl), "--seed", "7", check=True)
    assert first.stdout == second.stdout
    assert [m["content"] for m in first.json["stages"]["final"] if m["source"].startswith("chat:")] == [
        m["content"] for m in CHAT
    ]


def test_text_mode_prints_the_final_prompt(seraphina) -> None:
    bunzai, chat = seraphina
    result = bunzai("render", "default", "-c", "seraphina", "--chat", str(chat), "--text", check=True)
    assert result.stdout.startswith("--- system · main")
    assert "What lives in this forest?" in result.stdout


def test_bad_inputs_are_coded_refusals(seraphina, tmp_path: Path) -> None:
    bunzai, chat = seraphina
    assert bunzai("render", "nope", "-c", "seraphina").json["error"]["code"] == "not_found"
    assert bunzai("render", "default", "-c", "seraphina", "--stage", "cooked").code == 2
    bad = tmp_path / "bad.json"
    bad.write_text('[{"role": "narrator", "content": "x"}]', encoding="utf-8")
    refused = bunzai("render", "default", "-c", "seraphina", "--chat", str(bad))
    assert refused.code == 1 and refused.json["error"]["code"] == "invalid_input"
    assert (
        bunzai("render", "default", "-c", "seraphina", "--chat", str(tmp_path / "missing.json")).json["error"]["code"]
        == "not_found"
    )


def test_a_card_book_is_scanned_and_checked(bunzai, tmp_path: Path) -> None:
    _import(bunzai, corpus_path("sillytavern", "presets", "openai", "Default.json"))
    book = {
        "name": "Notes",
        "entries": [
            {"keys": ["tower"], "content": "The tower is old.", "enabled": True, "insertion_order": 100, "id": 0},
            {"keys": [], "content": "Never reached.", "enabled": True, "insertion_order": 100, "id": 1},
        ],
    }
    card = {
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {
            "name": "Ivo",
            "description": "A guard of {{user}}.",
            "first_message": "Halt.",
            "character_book": book,
        },
    }
    path = tmp_path / "ivo.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    _import(bunzai, path)
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "Who built the tower?"}]), encoding="utf-8")
    # The importer stores the card's book as a lorebook the card links (docs/library.md).
    [linked] = bunzai("read", "character/ivo", check=True).json["piece"]["body"]["links"]["lorebooks"]
    doc = bunzai("render", "default", "-c", "ivo", "--chat", str(chat), check=True).json
    assert doc["lorebooks"] == [f"lorebook/{linked}"]
    assert [e["fired"] for e in doc["lore"]["entries"]] == [True, False]
    verdict = bunzai("preset-verify", "default", "-c", "ivo", "--chat", str(chat))
    assert verdict.code == 1
    [finding] = verdict.json["findings"]
    assert finding["kind"] == "lore_never_activates" and finding["piece"] == f"lorebook/{linked}"
    assert finding["pointer"] == "/body/entries/1"


def test_random_and_roll_differ_across_seeds_in_a_render(seraphina, tmp_path: Path) -> None:
    bunzai, chat = seraphina
    preset = json.loads(corpus_path("sillytavern", "presets", "openai", "Default.json").read_text(encoding="utf-8"))
    main = next(p for p in preset["prompts"] if p["identifier"] == "main")
    main["content"] += " Mood: {{random::calm::wary::glad::tired::bold::shy}}. Luck: {{roll:1d1000000}}."
    dice = tmp_path / "Dice.json"
    dice.write_text(json.dumps(preset), encoding="utf-8")
    _import(bunzai, dice)

    def main_text(seed: int) -> str:
        doc = bunzai(
            "render",
            "dice",
            "-c",
            "seraphina",
            "--chat",
            str(chat),
            "--stage",
            "macros",
            "--seed",
            str(seed),
            check=True,
        ).json
        return next(m["content"] for m in doc["messages"] if m["block"] == "main")

    texts = {seed: main_text(seed) for seed in range(4)}
    assert main_text(2) == texts[2]
    assert len(set(texts.values())) > 1
    assert all("{{" not in text for text in texts.values())


def test_a_response_length_over_the_context_leaves_the_lorebook_no_room(seraphina, tmp_path: Path) -> None:
    # Generate hands checkWorldInfo the context less the response length, here 300 - 400: the
    # budget is Math.round(25 * -100 / 100), and every entry without ignore_budget is left out
    bunzai, chat = seraphina
    preset = json.loads(corpus_path("sillytavern", "presets", "openai", "Default.json").read_text(encoding="utf-8"))
    preset |= {"openai_max_context": 300, "openai_max_tokens": 400}
    path = tmp_path / "Cramped.json"
    path.write_text(json.dumps(preset), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(path), "--id", "cramped", check=True).stdout, check=True)
    doc = bunzai("render", "cramped", "--character", "seraphina", "--lorebook", "eldoria", "--chat", str(chat)).json
    assert doc["lore"]["budget"] == -25
    assert {v.get("reason") for v in doc["lore"]["entries"] if v["book"] == "eldoria"} >= {
        "over the budget of -25 tokens"
    }
    assert not any(v["fired"] for v in doc["lore"]["entries"])


def _persona_with_book(bunzai, book: str | None) -> None:
    if book:
        entry = {"uid": 0, "keys": [{"text": "forest"}], "content": "The moor lies east of the forest."}
        made = bunzai("create", "lorebook", "--input", json.dumps({"name": book, "body": {"entries": [entry]}}))
        bunzai("apply", "--yes", input=made.stdout, check=True)
    persona = {"name": "Ann", "body": {"description": "A traveller.", "lorebook": "moor"}}
    bunzai("apply", "--yes", input=bunzai("create", "persona", "--input", json.dumps(persona)).stdout, check=True)


def test_the_persona_s_bound_lorebook_is_scanned_first(seraphina) -> None:
    # getSortedEntries: persona lore, then the character's, then the global lore given besides
    bunzai, chat = seraphina
    _persona_with_book(bunzai, "Moor")
    doc = bunzai(
        "render", "default", "--character", "seraphina", "--persona", "ann", "--chat", str(chat), check=True
    ).json
    assert doc["lorebooks"][0] == "lorebook/moor"
    moor = [v for v in doc["lore"]["entries"] if v["book"] == "moor"]
    assert moor and moor[0]["fired"] and moor[0]["why"] == "key 'forest' in chat"
    assert doc["lore"]["entries"][0]["book"] == "moor"  # verdicts in the order the books are scanned
    lore_text = " ".join(m["content"] for m in doc["stages"]["final"] if m["block"] == "worldInfoBefore")
    assert "The moor lies east of the forest." in lore_text
    # given with --lorebook, it is global lore there, scanned once
    given = bunzai(
        "render", "default", "--character", "seraphina", "--persona", "ann", "--lorebook", "moor", "--chat", str(chat)
    ).json
    assert given["lorebooks"].count("lorebook/moor") == 1
    assert [v["book"] for v in given["lore"]["entries"]].count("moor") == 1


def test_a_persona_s_lorebook_missing_from_the_studio_is_noted(seraphina) -> None:
    bunzai, chat = seraphina
    _persona_with_book(bunzai, None)
    doc = bunzai("render", "default", "--character", "seraphina", "--persona", "ann", "--chat", str(chat)).json
    assert "lorebook/moor" not in doc["lorebooks"]
    assert "persona/ann binds lorebook/moor, which is not in the studio: not scanned" in doc["notes"]


def test_the_mcp_render_tool_answers_as_the_command(seraphina) -> None:
    from bunzai.mcp.dispatch import Dispatcher
    from bunzai.mcp.envelope import seal
    from bunzai.mcp.handles import Handles
    from bunzai.mcp.protocol import ProtocolError
    from bunzai.store.studio import Studio
    from bunzai.tools.contract import Context, untrusted

    def sealed(doc: dict) -> dict:
        return seal({"doc": untrusted(doc)}, 10**9)[0]["doc"]["data"]

    bunzai, chat = seraphina
    command = bunzai("render", "default", "-c", "seraphina", "-l", "eldoria", "--chat", str(chat), check=True).json
    final = bunzai("render", "default", "-c", "seraphina", "--chat", str(chat), "--stage", "final", check=True).json
    session = Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))
    arguments = {"preset": "default", "character": "seraphina", "chat": CHAT}
    called = session.call("preset_render", dict(arguments, lorebooks=["eldoria"], stage="all"), "2025-06-18")
    assert not called["isError"], called
    # the envelope takes out control characters (the card's \r), as it does from any author's text
    assert called["structuredContent"]["render"]["data"] == sealed(command)
    called = session.call("preset_render", arguments, "2025-06-18")  # the final stage by default
    assert called["structuredContent"]["render"]["data"] == sealed(final) and final["messages"]
    with pytest.raises(ProtocolError, match="invalid argument 'stage'"):
        session.call("preset_render", dict(arguments, stage="cooked"), "2025-06-18")


def test_an_outlet_holds_its_entries_higher_order_first(seraphina) -> None:
    # checkWorldInfo pushes outlet entries in its higher-order-first pass (the other lists are unshifted)
    bunzai, chat = seraphina
    entries = [
        {"uid": 0, "keys": [{"text": "forest"}], "content": "LOW", "order": 10, "position": "outlet", "outlet": "o"},
        {"uid": 1, "keys": [{"text": "forest"}], "content": "HIGH", "order": 20, "position": "outlet", "outlet": "o"},
        # an entry with no text is placed nowhere, an outlet neither (no blank line between the two)
        {"uid": 2, "keys": [{"text": "forest"}], "content": "", "order": 15, "position": "outlet", "outlet": "o"},
    ]
    for entry in entries:  # not left out by Eldoria's entries, which take the budget first
        entry["ignore_budget"] = True
    made = bunzai("create", "lorebook", "--input", json.dumps({"name": "Outs", "body": {"entries": entries}}))
    bunzai("apply", "--yes", input=made.stdout, check=True)
    doc = bunzai(
        "render", "default", "-c", "seraphina", "-l", "outs", "--chat", str(chat), "--authors-note", "[{{outlet::o}}]"
    ).json
    assert any("[HIGH\nLOW]" in m["content"] for m in doc["stages"]["final"]), doc["stages"]["final"]


def test_a_hidden_message_is_left_out_and_a_narrator_message_is_sent_as_system(seraphina, tmp_path: Path) -> None:
    # Generate's coreChat leaves out is_system messages (hidden with /hide); setOpenAIMessages sends a
    # narrator message (extra.type "narrator", from /sys) as system
    bunzai, _chat = seraphina
    lines = [
        {"user_name": "User", "character_name": "Seraphina", "chat_metadata": {}},
        {"name": "Seraphina", "is_user": False, "is_system": False, "mes": "Rest here a while."},
        {"name": "User", "is_user": True, "is_system": True, "mes": "A SECRET I hid."},
        {"name": "System", "is_user": False, "is_system": False, "mes": "Night falls.", "extra": {"type": "narrator"}},
        {"name": "User", "is_user": True, "is_system": False, "mes": "What lives here?"},
    ]
    chat = tmp_path / "chat.jsonl"
    chat.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    doc = bunzai("render", "default", "-c", "seraphina", "--chat", str(chat), "--stage", "final", check=True).json
    sent = [(m["role"], m["content"]) for m in doc["messages"] if m["source"].startswith("chat:")]
    assert sent == [("assistant", "Rest here a while."), ("system", "Night falls."), ("user", "What lives here?")]
    assert any("1 hidden message(s) of the chat (is_system; message 1" in note for note in doc["notes"])
    from bunzai.mcp.dispatch import Dispatcher
    from bunzai.mcp.handles import Handles
    from bunzai.store.studio import Studio
    from bunzai.tools.contract import Context

    session = Dispatcher(Context(studio=Studio(bunzai.studio), handles=Handles()))
    called = session.call("preset_render", {"preset": "default", "character": "seraphina", "chat": lines}, "2025-06-18")
    inline = called["structuredContent"]["render"]["data"]  # the same, with the chat given inline
    assert [(m["role"], m["content"]) for m in inline["messages"] if m["source"].startswith("chat:")] == sent
    assert inline["notes"] == doc["notes"]
