"""import --on-conflict: refuse (apply says stale), skip (nothing drafted), suffix (-2, -3)."""

from __future__ import annotations

import base64
import json
import shutil
import struct
import zlib

from testkit import corpus_path

from bunzai.adapters.common.png import PNG_SIGNATURE, text_chunk


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


def test_an_occupied_receipt_names_the_file_and_how_to_keep_both(bunzai, tmp_path):
    """Two cards of one library with one name: the second's receipt says which file it is."""
    for name in ("ada.json", "ada-again.json"):
        (tmp_path / name).write_text(card("Ada"), encoding="utf-8")
    done = bunzai("apply", "--yes", input=bunzai("import", str(tmp_path), check=True).stdout)
    assert done.code == 1
    applied, refused = done.lines
    assert applied["status"] == "applied" and "hint" not in applied
    assert (refused["status"], refused["reason"], refused["source"]) == ("stale", "occupied", "ada.json")
    assert "--on-conflict suffix" in refused["hint"]
    assert "1 draft(s) not applied because their id is taken: character/ada;" in done.stderr
    kept = bunzai("import", "--on-conflict", "suffix", str(tmp_path / "ada.json"), check=True).stdout
    assert bunzai("apply", "--yes", input=kept, check=True).lines[0]["target"]["id"] == "ada-2"


def test_the_taken_ids_on_stderr_are_named_once_each_with_their_count(bunzai, tmp_path):
    """A library holding Ada six times and Bob twice: stderr names each taken id once, so the
    first five names it shows are five ids, not the same Ada five times."""
    names = ["Ada"] * 7 + ["Bob"] * 3 + [f"Cy{n}" for n in "abcdef" for _ in range(2)]
    for number, name in enumerate(names):
        (tmp_path / f"{number:02}.json").write_text(card(name), encoding="utf-8")
    done = bunzai("apply", "--yes", input=bunzai("import", str(tmp_path), check=True).stdout)
    assert done.code == 1
    assert (
        "14 draft(s) not applied because their id is taken: character/ada (6 drafts), character/bob (2 drafts), "
        "character/cya, character/cyb, character/cyc and 3 more id(s);" in done.stderr
    )


def test_an_occupied_receipt_of_a_draft_made_here_has_no_source(bunzai):
    made = bunzai("create", "character", "--input", '{"name": "Grace Hopper"}', check=True).stdout
    bunzai("apply", "--yes", input=made, check=True)
    again = bunzai("apply", "--yes", input=made)
    assert again.code == 1 and again.json["reason"] == "occupied" and "source" not in again.json
    assert again.json["hint"].startswith("the id is taken")
    assert again.stderr.rstrip().endswith("character/grace-hopper; give them other ids to keep both")


def test_a_held_back_card_and_its_taken_book_both_name_the_file(bunzai, tmp_path):
    """Only the book's id is taken: the book is refused (occupied) and its card held back
    (group); both receipts name the card's file, the book by its import operation."""
    stored = json.loads(card("Ada"))
    stored["data"]["character_book"] = {"name": "Shared Lore", "entries": []}
    (tmp_path / "ada.json").write_text(json.dumps(stored), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "ada.json"), check=True).stdout, check=True)
    bea = json.loads(card("Bea"))
    bea["data"]["character_book"] = {"name": "Shared Lore", "entries": []}
    (tmp_path / "bea.json").write_text(json.dumps(bea), encoding="utf-8")
    done = bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "bea.json"), check=True).stdout)
    assert done.code == 1
    by_kind = {line["target"]["kind"]: line for line in done.lines}
    assert (by_kind["lorebook"]["reason"], by_kind["lorebook"]["source"]) == ("occupied", "bea.json")
    assert (by_kind["character"]["reason"], by_kind["character"]["source"]) == ("group", "bea.json")


def test_a_draft_from_stdin_is_refused_without_a_source(bunzai, tmp_path):
    data = card("Ada").encode("utf-8")
    first = bunzai("import", "-", input=data, check=True).stdout
    bunzai("apply", "--yes", input=first, check=True)
    again = bunzai("apply", "--yes", input=first)
    assert again.code == 1 and again.json["reason"] == "occupied" and "source" not in again.json


def _bound_card(name: str, world: str) -> str:
    """A V2 card bound to a world by name, without a copy of it."""
    data = json.loads(card(name))
    data["data"]["extensions"] = {"world": world}
    return json.dumps(data)


def _world(content: str) -> str:
    return json.dumps({"entries": {"0": {"uid": 0, "key": ["glade"], "content": content}}})


def test_suffix_a_user_folder_card_links_to_its_renamed_world_and_exports_it(bunzai, tmp_path):
    """The world is its own file in a SillyTavern user folder: its rename reaches the card."""
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "Eldoria.json").write_text(_world("A DIFFERENT world"), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "other" / "Eldoria.json"), check=True).stdout)
    root = tmp_path / "ST"
    (root / "characters").mkdir(parents=True)
    (root / "worlds").mkdir()
    shutil.copyfile(corpus_path("sillytavern", "characters", "default_Seraphina.png"), root / "characters" / "s.png")
    shutil.copyfile(corpus_path("sillytavern", "worlds", "Eldoria.json"), root / "worlds" / "Eldoria.json")
    drafts = bunzai("import", "--on-conflict", "suffix", str(root), check=True)
    assert "lorebook/eldoria -> eldoria-2" in drafts.stderr
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    links = bunzai("read", "character/seraphina", "--pointer", "/body/links/lorebooks", check=True).json
    assert links["value"] == ["eldoria-2"]
    report = bunzai("export", "character/seraphina", "--to", "ccv3.json", check=True).json
    assert report["book"]["ref"] == "lorebook/eldoria-2"
    exported = json.loads((bunzai.studio / report["path"]).read_text(encoding="utf-8"))
    contents = [entry["content"] for entry in exported["data"]["character_book"]["entries"]]
    assert len(contents) == 4 and "A DIFFERENT world" not in contents


def test_suffix_a_card_read_before_its_world_file_follows_the_rename(bunzai, tmp_path):
    """A plain folder walks its files before its subfolders: the card waits for the world."""
    bunzai("apply", "--yes", input=bunzai("create", "lorebook", "--id", "eldoria", "--input", '{"name": "X"}').stdout)
    (tmp_path / "lib" / "lore").mkdir(parents=True)
    (tmp_path / "lib" / "mira.json").write_text(_bound_card("Mira", "Eldoria"), encoding="utf-8")
    (tmp_path / "lib" / "lore" / "Eldoria.json").write_text(_world("A glade."), encoding="utf-8")
    drafts = bunzai("import", "--on-conflict", "suffix", str(tmp_path / "lib"), check=True)
    assert [(d["target"]["kind"], d["target"]["id"]) for d in drafts.lines] == [
        ("lorebook", "eldoria-2"),
        ("character", "mira"),
    ]
    assert drafts.lines[1]["proposed"]["body"]["links"]["lorebooks"] == ["eldoria-2"]
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    assert bunzai("read", "character/mira", "--pointer", "/body/links/lorebooks", check=True).json["value"] == [
        "eldoria-2"
    ]


def _card_png(name: str, *, book: dict | None = None, world: str = "") -> bytes:
    """A V2 card PNG (a `chara` chunk), with an embedded book and a world binding where given."""
    data = json.loads(card(name))
    data["data"]["extensions"] = {"world": world} if world else {}
    if book is not None:
        data["data"]["character_book"] = book
    text = base64.b64encode(json.dumps(data).encode("utf-8"))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
    image = chunk(b"IDAT", zlib.compress(b"\0\0\0\0"))
    return PNG_SIGNATURE + header + image + text_chunk("chara", text) + chunk(b"IEND", b"")


def _book(name: str, content: str) -> dict:
    entry = {"keys": ["k"], "content": content, "extensions": {}, "enabled": True, "insertion_order": 100}
    return {"name": name, "entries": [entry], "extensions": {}}


def _exported_book(bunzai, ref: str) -> list[str]:
    report = bunzai("export", ref, "--to", "ccv3.json", check=True).json
    exported = json.loads((bunzai.studio / report["path"]).read_text(encoding="utf-8"))
    return [entry["content"] for entry in exported["data"]["character_book"]["entries"]]


def test_skip_gives_a_card_book_its_own_id_where_another_cards_book_took_it(bunzai, tmp_path):
    """Two cards' unbound books both called Lore: Bob keeps his own, and exports it."""
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "Ann.png").write_bytes(_card_png("Ann", book=_book("Lore", "ANN SECRET")))
    (folder / "Bob.png").write_bytes(_card_png("Bob", book=_book("Lore", "BOB SECRET")))
    drafts = bunzai("import", "--on-conflict", "skip", str(folder), check=True)
    assert "card book(s) under an id of their own" in drafts.stderr and "lorebook/lore -> lore-2" in drafts.stderr
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    assert bunzai("read", "character/bob", "--pointer", "/body/links/lorebooks", check=True).json["value"] == ["lore-2"]
    assert _exported_book(bunzai, "character/bob") == ["BOB SECRET"]
    assert _exported_book(bunzai, "character/ann") == ["ANN SECRET"]
    again = bunzai("import", "--on-conflict", "skip", str(folder), check=True)
    assert again.stdout == "" and "skipped 4 piece(s)" in again.stderr


def test_skip_keeps_a_card_book_apart_from_an_unrelated_stored_book_of_its_id(bunzai, tmp_path):
    bunzai("apply", "--yes", input=bunzai("create", "lorebook", "--id", "lore", "--input", '{"name": "Lore"}').stdout)
    (tmp_path / "Bob.png").write_bytes(_card_png("Bob", book=_book("Lore", "BOB SECRET")))
    drafts = bunzai("import", "--on-conflict", "skip", str(tmp_path / "Bob.png"), check=True)
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    assert _exported_book(bunzai, "character/bob") == ["BOB SECRET"]


def test_skip_links_a_card_to_the_stored_book_with_its_name_and_entries(bunzai, tmp_path):
    (tmp_path / "Ann.png").write_bytes(_card_png("Ann", book=_book("Lore", "THE SAME")))
    (tmp_path / "Cid.png").write_bytes(_card_png("Cid", book=_book("Lore", "THE SAME")))
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "Ann.png"), check=True).stdout, check=True)
    drafts = bunzai("import", "--on-conflict", "skip", str(tmp_path / "Cid.png"), check=True)
    assert [d["target"]["id"] for d in drafts.lines] == ["cid"] and "skipped 1 piece(s)" in drafts.stderr
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    assert bunzai("read", "character/cid", "--pointer", "/body/links/lorebooks", check=True).json["value"] == ["lore"]


def _shared_world_folder(tmp_path, ann: str, bob: str):
    """A user folder whose two cards are bound to one world, its file not there (a card pack)."""
    root = tmp_path / "ST"
    (root / "characters").mkdir(parents=True)
    (root / "settings.json").write_text("{}", encoding="utf-8")
    for name, content in (("Ann", ann), ("Bob", bob)):
        png = _card_png(name, book=_book("Shared World", content), world="Shared World")
        (root / "characters" / f"{name}.png").write_bytes(png)
    return root


def test_cards_bound_to_one_world_carrying_the_same_copy_link_to_one_book(bunzai, tmp_path):
    root = _shared_world_folder(tmp_path, "the same", "the same")
    drafts = bunzai("import", str(root), check=True)
    assert [(d["target"]["kind"], d["target"]["id"]) for d in drafts.lines] == [
        ("character", "ann"),
        ("lorebook", "shared-world"),
        ("character", "bob"),
    ]
    assert "the cards link to lorebook/shared-world" in drafts.stderr
    done = bunzai("apply", "--yes", input=drafts.stdout)
    assert done.code == 0 and {line["status"] for line in done.lines} == {"applied"}, done.stdout
    for ref in ("character/ann", "character/bob"):
        links = bunzai("read", ref, "--pointer", "/body/links/lorebooks", check=True).json["value"]
        assert links == ["shared-world"]
    assert _exported_book(bunzai, "character/bob") == ["the same"]


def test_cards_bound_to_one_world_carrying_other_copies_are_told_what_to_do(bunzai, tmp_path):
    root = _shared_world_folder(tmp_path, "one copy", "another copy")
    drafts = bunzai("import", str(root), check=True)
    assert len(drafts.lines) == 4
    told = drafts.stderr
    assert "character/bob ('Shared World')" in told and "--on-conflict skip" in told and "worlds/" in told
    done = bunzai("apply", "--yes", input=drafts.stdout)
    assert done.code == 1 and [line["status"] for line in done.lines][2:] == ["stale", "stale"]
    skipped = bunzai("import", "--on-conflict", "skip", str(root), check=True)  # as SillyTavern: one world
    assert [d["target"]["id"] for d in skipped.lines] == ["bob"] and "skipped 3 piece(s)" in skipped.stderr
    bunzai("apply", "--yes", input=skipped.stdout, check=True)
    assert bunzai("read", "character/bob", "--pointer", "/body/links/lorebooks", check=True).json["value"] == [
        "shared-world"
    ]


def test_several_paths_are_one_import_a_card_follows_a_world_named_after_it(bunzai, tmp_path):
    """`import card.json Eldoria.json`: the card waits for the world of the next path."""
    bunzai("apply", "--yes", input=bunzai("create", "lorebook", "--id", "eldoria", "--input", '{"name": "X"}').stdout)
    (tmp_path / "mira.json").write_text(_bound_card("Mira", "Eldoria"), encoding="utf-8")
    (tmp_path / "Eldoria.json").write_text(_world("A glade."), encoding="utf-8")
    drafts = bunzai("import", "--on-conflict", "suffix", str(tmp_path / "mira.json"), str(tmp_path / "Eldoria.json"))
    assert drafts.code == 0, drafts.stderr
    assert [(d["target"]["kind"], d["target"]["id"]) for d in drafts.lines] == [
        ("lorebook", "eldoria-2"),
        ("character", "mira"),
    ]
    assert drafts.lines[1]["proposed"]["body"]["links"]["lorebooks"] == ["eldoria-2"]
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    assert bunzai("read", "character/mira", "--pointer", "/body/links/lorebooks", check=True).json["value"] == [
        "eldoria-2"
    ]


def test_a_path_that_cannot_be_read_still_lets_the_waiting_card_out(bunzai, tmp_path):
    bunzai("apply", "--yes", input=bunzai("create", "lorebook", "--id", "eldoria", "--input", '{"name": "X"}').stdout)
    (tmp_path / "mira.json").write_text(_bound_card("Mira", "Eldoria"), encoding="utf-8")
    drafts = bunzai("import", "--on-conflict", "suffix", str(tmp_path / "mira.json"), str(tmp_path / "gone.json"))
    assert drafts.code != 0
    assert [d["target"]["id"] for d in drafts.lines if "target" in d] == ["mira"]


def test_a_card_saved_by_sillytavern_shares_the_world_file_read_before_it(bunzai) -> None:
    """SillyTavern writes use_group_scoring false into a card's copy where the world file holds
    null; its checkEmbeddedWorld goes by name, so the card links to the world file's book."""
    world = corpus_path("sillytavern", "worlds", "Eldoria.json")
    card = corpus_path("sillytavern", "characters", "default_Seraphina.png")
    drafts = bunzai("import", str(world), str(card), check=True)
    assert "left out 1 card copy" in drafts.stderr
    receipts = bunzai("apply", "--yes", input=drafts.stdout, check=True).stdout.splitlines()
    assert [json.loads(line)["target"]["id"] for line in receipts] == ["eldoria", "seraphina"]
    assert bunzai("read", "character/seraphina", "--pointer", "/body/links/lorebooks", check=True).json["value"] == [
        "eldoria"
    ]


def test_another_card_s_own_book_of_the_world_s_name_is_not_taken_for_the_world(bunzai, tmp_path) -> None:
    """Only a world file is matched by name alone; another card's own (unbound) book is not the world."""
    alpha, beta = tmp_path / "alpha.png", tmp_path / "beta.png"
    alpha.write_bytes(_card_png("Alpha", book=_book("Eldoria", "ALPHA")))
    beta.write_bytes(_card_png("Beta", book=_book("Eldoria", "BETA"), world="Eldoria"))
    drafts = bunzai("import", str(alpha), str(beta), check=True)
    assert "left out" not in drafts.stderr


# --- a card binds its world by the world's name, whatever id the import gave the lorebook ----------


def _card_json_world(bunzai, ref: str) -> tuple[str, list[dict]]:
    """The world a SillyTavern JSON export of `ref` is bound to, and the crossing's losses."""
    report = bunzai("export", ref, "--to", "sillytavern.card.json", check=True).json
    exported = json.loads((bunzai.studio / report["path"]).read_text(encoding="utf-8"))
    return exported["data"]["extensions"].get("world"), report["losses"]


def test_a_suffixed_card_keeps_its_world_binding_by_name(bunzai, tmp_path):
    seraphina = corpus_path("sillytavern", "characters", "default_Seraphina.png")
    bunzai("apply", "--yes", input=bunzai("import", str(seraphina), check=True).stdout, check=True)
    drafts = bunzai("import", "--on-conflict", "suffix", str(seraphina), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)
    links = bunzai("read", "character/seraphina-2", "--pointer", "/body/links/lorebooks", check=True).json
    assert links["value"] == ["eldoria-2"]
    world, losses = _card_json_world(bunzai, "character/seraphina-2")
    assert world == "Eldoria"  # SillyTavern's worlds/Eldoria.json, not a world named eldoria-2
    assert not [loss for loss in losses if loss["pointer"].startswith("/body/links")]


def test_a_suffixed_card_with_an_unbound_book_stays_unbound(bunzai, tmp_path):
    data = json.loads(card("Scribe"))
    data["data"]["extensions"] = {"world": ""}
    data["data"]["character_book"] = {"name": "Lore of Script", "extensions": {}, "entries": []}
    (tmp_path / "scribe.json").write_text(json.dumps(data), encoding="utf-8")
    for policy in ("refuse", "suffix"):
        drafts = bunzai("import", "--on-conflict", policy, str(tmp_path / "scribe.json"), check=True).stdout
        bunzai("apply", "--yes", input=drafts, check=True)
    world, losses = _card_json_world(bunzai, "character/scribe-2")
    assert world == ""
    assert not [loss for loss in losses if loss["pointer"].startswith("/body/links")]


def test_a_card_linked_by_hand_binds_the_world_file_sillytavern_gets(bunzai, tmp_path):
    (tmp_path / "Old Forest.json").write_text(_world("Moss."), encoding="utf-8")
    bunzai("apply", "--yes", input=bunzai("import", str(tmp_path / "Old Forest.json"), check=True).stdout, check=True)
    bunzai("apply", "--yes", input=bunzai("create", "character", "--input", '{"name": "Linker"}').stdout, check=True)
    edit = bunzai("cap", "run", "character.links.update", "linker", "--input", '{"lorebooks": {"add": ["old-forest"]}}')
    bunzai("apply", "--yes", input=edit.stdout, check=True)
    out = tmp_path / "out"
    bunzai(
        "export", "--into", str(out), "--layout", "sillytavern", "character/linker", "lorebook/old-forest", check=True
    )
    assert (out / "worlds" / "Old Forest.json").is_file()
    chunks = _card_chunks(out / "characters" / "Linker.png")
    assert {key: doc["data"]["extensions"]["world"] for key, doc in chunks.items()} == {
        b"chara": "Old Forest",
        b"ccv3": "Old Forest",
    }


def test_a_card_is_bound_to_the_file_its_world_is_written_under_when_another_took_the_name(bunzai, tmp_path):
    for folder, content in (("a", "Moss."), ("b", "Ferns.")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "Old Forest.json").write_text(_world(content), encoding="utf-8")
        drafts = bunzai("import", "--on-conflict", "suffix", str(tmp_path / folder / "Old Forest.json"), check=True)
        bunzai("apply", "--yes", input=drafts.stdout, check=True)
    bunzai("apply", "--yes", input=bunzai("create", "character", "--input", '{"name": "Linker"}').stdout, check=True)
    edit = bunzai(
        "cap", "run", "character.links.update", "linker", "--input", '{"lorebooks": {"add": ["old-forest-2"]}}'
    )
    bunzai("apply", "--yes", input=edit.stdout, check=True)
    out = tmp_path / "out"
    # the card first: the worlds are still written before it, so it knows the name its world got
    done = bunzai(
        "export",
        "--into",
        str(out),
        "--layout",
        "sillytavern",
        "character/linker",
        "lorebook/old-forest",
        "lorebook/old-forest-2",
        check=True,
    ).json
    paths = {row["ref"]: row["path"] for row in done["written"]}
    assert paths["lorebook/old-forest"] == "worlds/Old Forest.json"
    assert paths["lorebook/old-forest-2"] == "worlds/Old Forest1.json"
    assert "Ferns." in (out / "worlds" / "Old Forest1.json").read_text(encoding="utf-8")
    assert {
        key: doc["data"]["extensions"]["world"] for key, doc in _card_chunks(out / "characters" / "Linker.png").items()
    } == {
        b"chara": "Old Forest1",
        b"ccv3": "Old Forest1",
    }


def _card_chunks(path) -> dict[bytes, dict]:
    """The card documents of a PNG card, by chunk keyword."""
    chunks, raw, at = {}, path.read_bytes(), len(PNG_SIGNATURE)
    while at < len(raw):
        (size,) = struct.unpack(">I", raw[at : at + 4])
        kind, body = raw[at + 4 : at + 8], raw[at + 8 : at + 8 + size]
        if kind == b"tEXt":
            key, text = body.split(b"\0", 1)
            chunks[key] = json.loads(base64.b64decode(text))
        at += 12 + size
    return chunks


def _seraphina_twice(bunzai) -> None:
    seraphina = corpus_path("sillytavern", "characters", "default_Seraphina.png")
    bunzai("apply", "--yes", input=bunzai("import", str(seraphina), check=True).stdout, check=True)
    drafts = bunzai("import", "--on-conflict", "suffix", str(seraphina), check=True).stdout
    bunzai("apply", "--yes", input=drafts, check=True)


def test_a_card_bound_to_a_renamed_world_follows_it(bunzai, tmp_path):
    # SillyTavern moves a card's binding when its world is renamed (updateWorldInfoLinks)
    _seraphina_twice(bunzai)
    rename = bunzai("cap", "run", "lorebook.settings.update", "eldoria", "--input", '{"name": "Eldoria Reborn"}')
    bunzai("apply", "--yes", input=rename.stdout, check=True)
    world, losses = _card_json_world(bunzai, "character/seraphina")
    assert world == "Eldoria Reborn"
    assert not [loss for loss in losses if loss["pointer"].startswith("/body/links")]


def test_a_suffixed_cards_own_book_is_its_agnai_memory_book(bunzai, tmp_path):
    _seraphina_twice(bunzai)
    report = bunzai("transfer", "character/seraphina-2", "--to", "agnai.character.json", check=True).json
    assert not [loss for loss in report["losses"] if loss["pointer"].startswith("/body/links")]


def test_a_card_converted_with_no_studio_binds_the_world_its_book_copies(bunzai, tmp_path):
    # a native export of the suffixed card links to eldoria-2; with no shelf to look the name up,
    # the card's own copy of the world names it
    _seraphina_twice(bunzai)
    native = bunzai("export", "character/seraphina-2", "--to", "bunzai.native", check=True).json
    out = tmp_path / "out.json"
    bunzai("convert", str(bunzai.studio / native["path"]), "--to", "sillytavern.card.json", "-o", str(out), check=True)
    assert json.loads(out.read_text(encoding="utf-8"))["data"]["extensions"]["world"] == "Eldoria"


def test_a_library_export_binds_an_unchanged_card_to_its_renamed_world(bunzai, tmp_path):
    # the card's own fields are unchanged, so it would go out as its original file, bound to the old name
    seraphina = corpus_path("sillytavern", "characters", "default_Seraphina.png")
    bunzai("apply", "--yes", input=bunzai("import", str(seraphina), check=True).stdout, check=True)
    rename = bunzai("cap", "run", "lorebook.settings.update", "eldoria", "--input", '{"name": "Eldoria Reborn"}')
    bunzai("apply", "--yes", input=rename.stdout, check=True)
    out = tmp_path / "out"
    bunzai("export", "--into", str(out), "--layout", "sillytavern", check=True)
    assert (out / "worlds" / "Eldoria Reborn.json").is_file()
    chunks = _card_chunks(out / "characters" / "Seraphina.png")
    assert {key: doc["data"]["extensions"]["world"] for key, doc in chunks.items()} == {
        b"chara": "Eldoria Reborn",
        b"ccv3": "Eldoria Reborn",
    }
