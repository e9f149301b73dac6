"""The belt's tools, called through the dispatcher in-process (the wire is tested in test_client/test_protocol)."""

from __future__ import annotations

import json

import pytest

from bunzai.mcp.dispatch import Dispatcher
from bunzai.mcp.handles import Handles
from bunzai.mcp.protocol import ProtocolError
from bunzai.store.studio import Studio
from bunzai.tools.contract import WRITING_EFFECTS, Context
from bunzai.tools.discovery import all_tools
from testkit import v2_card_png

VERSION = "2025-06-18"


class Session:
    def __init__(self, studio_root, *, read_only=False) -> None:
        self.ctx = Context(studio=Studio(studio_root), read_only=read_only, handles=Handles())
        self.dispatcher = Dispatcher(self.ctx, read_only=read_only)

    def raw(self, tool, **arguments) -> dict:
        return self.dispatcher.call(tool, arguments, VERSION)

    def __call__(self, tool, **arguments):
        result = self.raw(tool, **arguments)
        assert not result["isError"], result["content"][0]["text"]
        assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
        return result["structuredContent"]

    def error(self, tool, **arguments) -> dict:
        result = self.raw(tool, **arguments)
        assert result["isError"], result
        return result["structuredContent"]["error"]


@pytest.fixture
def session(bunzai, tmp_path):
    card = tmp_path / "cards" / "Ada.png"
    card.parent.mkdir()
    card.write_bytes(v2_card_png("Ada", description="Ada keeps the lighthouse."))
    bunzai("apply", "--yes", input=bunzai("import", str(card), check=True).stdout, check=True)
    return Session(bunzai.studio)


def test_every_tool_has_a_description_a_schema_and_an_effect():
    tools = all_tools()
    assert len({tool.name for tool in tools}) == len(tools)
    for tool in tools:
        described = tool.describe()
        assert described["description"].endswith(".") and len(described["description"]) >= 40, tool.name
        assert described["inputSchema"]["type"] == "object"
        assert described["inputSchema"].get("additionalProperties") is False, tool.name
        assert set(described["annotations"]) == {
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        } | ({"title"} if tool.title else set())
        assert described["annotations"]["readOnlyHint"] == (tool.effect == "read")


def test_read_only_leaves_out_every_writing_tool(bunzai):
    names = {tool.name for tool in Session(bunzai.studio, read_only=True).dispatcher.belt()}
    writing = {tool.name for tool in all_tools() if tool.effect in WRITING_EFFECTS}
    assert writing and not names & writing
    assert "studio_read" in names and "ask_choice" not in names  # no elicitation declared


def test_a_read_only_server_says_why_it_reveals_no_writing_capability(bunzai):
    session = Session(bunzai.studio, read_only=True)
    found = session("capability_find", describe="character.identity.update")
    assert found["tools"] == [] and "read-only" in found["note"]
    assert "narrow the search" in session("capability_find", query="zzzz qqqq")["note"]


def test_unknown_tool_and_bad_arguments_are_invalid_params(session):
    with pytest.raises(ProtocolError) as raised:
        session.raw("no_such_tool")
    assert raised.value.code == -32602
    with pytest.raises(ProtocolError) as raised:
        session.raw("studio_read", ref="ada", offset=-1)
    assert raised.value.code == -32602 and raised.value.data["argument"] == "offset"


def test_list_search_and_art(session):
    listed = session("studio_list", kind="character")
    assert listed["count"] == 1 and listed["items"]["data"][0]["id"] == "ada"
    hits = session("studio_search", query="lighthouse")
    assert hits["count"] == 1 and hits["items"]["untrusted"] is True
    art = session("studio_art", ref="character/ada")
    assert art["count"] >= 1
    portrait = art["items"]["data"][0]
    assert portrait["ext"] == "png" and portrait["stored"] and portrait["path"].startswith("assets/")
    assert "base64" not in json.dumps(art)


def test_outline_and_page(session):
    outline = session("studio_read", ref="ada", outline=True, pointer="/body")
    assert outline["as"] == "outline" and any(
        row["pointer"] == "/body/description" for row in outline["outline"]["data"]["children"]
    )
    page = session("studio_read", ref="ada", pointer="/body/description", offset=4, limit=5)
    assert page["page"]["data"]["value"] == "keeps"


def test_draft_compose_discard_and_cut_values_refused(session):
    session("capability_find", describe="character.identity.update")
    made = session("cap_character_identity_update", ref="ada", input={"nickname": "Addie"})
    more = session("cap_character_identity_update", draft=made["draft"], input={"name": "Ada L."})
    assert more["draft"] == made["draft"] and len(more["operations"]) == 2
    shown = session("change_query", draft=made["draft"])
    assert shown["validation"]["data"][0]["would_apply"] is True
    assert session("change_discard", draft=made["draft"])["status"] == "discarded"
    assert session("change_query")["session"] == []
    session.ctx.cut_values = True  # as after a truncated result
    error = session.error("cap_character_identity_update", ref="ada", input={"name": "…"})
    assert error["code"] == "invalid_input" and "/input/name" in error["message"]


def test_saved_draft_applies_by_name(session):
    session("capability_find", query="rename character")
    made = session("cap_character_identity_update", ref="ada", input={"name": "Ada S."}, save=True, name="ada-rename")
    assert made["saved"]
    assert any(row.get("name") == "ada-rename" for row in session("change_query")["items"]["data"])
    session.ctx.drafts.clear()  # a new session: only the saved draft is left
    assert session("change_apply", draft="ada-rename")["status"] == "applied"
    assert session("studio_read", ref="ada")["piece"]["data"]["name"] == "Ada S."


def test_stale_apply_is_refused_with_a_code(session, bunzai):
    session("capability_find", query="rename character")
    made = session("cap_character_identity_update", ref="ada", input={"name": "First"})
    piped = bunzai("cap", "run", "character.identity.update", "ada", "--input", '{"name": "Other"}', check=True)
    bunzai("apply", "--yes", input=piped.stdout, check=True)
    error = session.error("change_apply", draft=made["draft"])
    assert error["code"] == "stale" and error["hint"]


def test_transfer_export_bury_graveyard_delete(session, bunzai):
    crossing = session("studio_transfer", ref="ada", to="ccv3.json")
    assert crossing["ref"] == "character/ada" and crossing["losses"]["untrusted"] is True
    exported = session("studio_export", ref="ada", to="ccv3.json")
    assert exported["status"] == "applied" and exported["path"].startswith("Export/")
    assert (bunzai.studio / exported["path"]).is_file()
    bunzai("apply", "--yes", input=bunzai("duplicate", "ada", "ada-2", check=True).stdout, check=True)
    assert session("studio_graveyard_bury", ref="ada-2")["status"] == "applied"
    assert session("studio_graveyard")["count"] == 1
    assert session("studio_delete", ref="ada")["status"] == "applied"
    assert session("studio_list")["count"] == 0
    assert session.error("studio_transfer", ref="ada", to="ccv3.json")["code"] == "not_found"


def test_granted_folders_only(session, bunzai, tmp_path):
    outside = session.error("folder_import", paths=[str(tmp_path / "cards" / "Ada.png")])
    assert outside["code"] == "not_granted" and outside["hint"]
    assert session("folder_search", query="ada")["count"] == 0
    bunzai("folder", "grant", str(tmp_path / "cards"), check=True)
    found = session("folder_search", query="ada png")
    assert found["count"] == 1
    (tmp_path / "cards" / "Bea.png").write_bytes(v2_card_png("Bea"))
    imported = session("folder_import", paths=[str(tmp_path / "cards" / "Bea.png")])
    assert len(imported["drafts"]) == 1 and imported["failed"]["data"] == []
    assert session("change_apply", draft=imported["drafts"][0]["draft"])["status"] == "applied"
    assert session("studio_read", ref="character/bea")["piece"]["data"]["name"] == "Bea"


def test_lookups_docs_and_regex(session):
    assert session("docs_query", action="search", query="export")["items"]
    assert session("macro_lookup", name="random")["items"]
    assert session("block_lookup")["items"]
    tried = session("regex_lab", action="try", pattern=r"/\*(.+?)\*/g", text="Hi *waves*", replace="<i>$1</i>")
    assert tried["untrusted"] is True and tried["data"]["matches"]
    on_piece = session("regex_lab", action="try", pattern="/light\\w+/g", ref="ada", pointer="/body/description")
    assert on_piece["data"]["matches"][0]["match"] == "lighthouse"
    assert session("regex_lab", action="explain", pattern="/a+/g")["data"]
    risu = session("regex_lab", action="try", pattern="a", text="aA", platform="risuai", flags="gi<order 1>")["data"]
    assert risu["flags"] == "gi" and risu["count"] == 2 and "<order 1>" in " ".join(risu["notes"])
    moves = {"pattern": r"\[(\w+)\]", "text": "a [x] b [y] c [z]", "replace": "@@move_top $1", "platform": "risuai"}
    moved = session("regex_lab", action="try", flags="gg", **moves)["data"]  # the OUT's move drops one g
    assert moved["flags"] == "g" and moved["result"] == "z\ny\na  b  c "  # every match after the test's
    cbs = {"pattern": "{{user}}", "text": "Ann Bob", "platform": "risuai", "flags": "<cbs>"}
    expanded = session("regex_lab", action="try", macros={"user": "Ann"}, **cbs)["data"]
    assert [match["match"] for match in expanded["matches"]] == ["Ann"]  # <cbs> expands the pattern's macros
    raced = session(
        "regex_lab", action="race", patterns=["{{user}}", "Bob"], text="Ann Bob", platform="risuai", flags="<cbs>"
    )
    assert "taken as written" in " ".join(raced["data"]["notes"])  # race takes no macro values
    assert session("regex_lab", action="recipes")
    drawn = session("html_will_draw", markup='<div onclick="x()"><script>1</script>hi</div>')
    assert drawn["untrusted"] is True
    rule = session("regex_from_drawing", markup="<b>{{mood}}</b>", pattern=r"/\[mood:(\w+)\]/g", slots={"mood": 1})
    assert rule["data"]["rules"]
    assert session.error("regex_lab", action="try", pattern="/a/", text="a", ref="ada")["code"] == "invalid_input"


def test_preset_tools_refuse_missing_pieces(session):
    assert session.error("preset_verify", preset="nope", character="ada")["code"] == "not_found"
    assert session.error("preset_copy_blocks", ref="preset/nope", input={})["code"] == "not_found"


def test_a_tool_that_fails_is_an_internal_error_result(session, monkeypatch):
    import bunzai.tools.studio_list as studio_list

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(studio_list, "list_shelf", broken)
    error = session.error("studio_list")
    assert error["code"] == "internal" and "boom" in error["message"]
    assert session("studio_read", ref="ada")["id"] == "ada"  # the session goes on


def test_a_piece_too_large_for_a_handle_is_cut_to_fit(session, bunzai):
    huge = "word " * 300_000  # 1,500,000 characters: more than one handle holds
    drafts = bunzai(
        "create", "character", "--input", "-", input=json.dumps({"name": "Huge", "description": huge}), check=True
    )
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    held = session("studio_read", ref="character/huge")
    envelope = held["piece"]  # the one value too large is cut, so the rest fits inline
    assert envelope["truncated"] is True and envelope["data"]["body"]["description"] == "…"
    assert envelope["data"]["name"] == "Huge"
    assert envelope["omitted"]["cut_chars"] >= len(huge)
    assert session.ctx.cut_values
    part = session("studio_read", ref="character/huge", pointer="/body/description", offset=1_000, limit=50)
    assert part["page"]["data"]["value"] == huge[1_000:1_050]


def test_many_values_past_a_handle_are_cut_and_the_rest_held(session, bunzai):
    from bunzai.limits import MCP_HANDLE_MAX_BYTES

    greetings = [f"{n:03d} " + "g" * 9_996 for n in range(150)]  # 1,500,000 characters in 150 values
    drafts = bunzai(
        "create",
        "character",
        "--input",
        "-",
        input=json.dumps({"name": "Many", "alternate_greetings": greetings}),
        check=True,
    )
    bunzai("apply", "--yes", input=drafts.stdout, check=True)
    held = session("studio_read", ref="character/many")
    assert held["bytes"] <= MCP_HANDLE_MAX_BYTES
    whole, offset = [], 0
    while offset is not None:
        page = session("result_query", handle=held["handle"], offset=offset)
        whole.append(page["text"]["data"])
        offset = page["next_offset"]
    envelope = json.loads("".join(whole))["piece"]
    kept = envelope["data"]["body"]["alternate_greetings"]
    assert len(kept) == 150 and kept[0] == greetings[0] and kept[-1] == "…"
    cut = kept.count("…")
    assert envelope["truncated"] and envelope["omitted"]["cut"] == cut and 40 <= cut < 150
    assert kept[: 150 - cut] == greetings[: 150 - cut]  # values are kept whole or cut whole, in order


def test_the_server_session_is_the_change_log_session(bunzai, monkeypatch):
    from bunzai.mcp.server import Server

    monkeypatch.setenv("BUNZAI_SESSION", "agent-7")
    server = Server(Studio(bunzai.studio), stdin=None, stdout=None)
    assert server.ctx.session_id == "agent-7"


def test_the_cli_and_the_tools_give_the_same_answers(session, bunzai):
    listed = bunzai("list", check=True).json
    tool = session("studio_list")
    assert tool["items"]["data"] == listed["items"] and tool["count"] == listed["count"]
    read = bunzai("read", "ada", check=True).json
    piece = session("studio_read", ref="ada")
    assert piece["piece"]["data"] == read["piece"] and piece["revision"] == read["revision"]
    hits = bunzai("search", "lighthouse", check=True).json
    assert session("studio_search", query="lighthouse")["items"]["data"] == hits["items"]
    crossing = bunzai("transfer", "ada", "--to", "ccv3.json", check=True).json
    assert session("studio_transfer", ref="ada", to="ccv3.json")["losses"]["data"] == crossing["losses"]


# The tools that answer a list, with arguments that give a non-empty one: each answers
# {"count", "items"} as its CLI command does (tests/cli/test_list_shape.py walks the commands).
_LIST_TOOLS = [
    ("studio_list", {}),
    ("studio_search", {"query": "lighthouse"}),
    ("studio_art", {"ref": "character/ada"}),
    ("studio_changes", {"since": 0}),
    ("capability_find", {"query": "rename character"}),
    ("capability_find", {"browse": "content/character"}),
    ("docs_query", {"action": "search", "query": "export"}),
    ("docs_query", {"action": "browse"}),
    ("macro_lookup", {"name": "random"}),
    ("block_lookup", {}),
    ("regex_lab", {"action": "recipes"}),
]


@pytest.mark.parametrize("tool,arguments", [pytest.param(t, a, id=f"{t} {sorted(a)}") for t, a in _LIST_TOOLS])
def test_a_list_tool_answers_count_and_items(session, tool, arguments):
    doc = session(tool, **arguments)
    doc = doc["data"] if doc.get("untrusted") is True else doc  # a whole answer may come enveloped
    items = doc["items"]["data"] if isinstance(doc["items"], dict) else doc["items"]  # enveloped: authors' text
    assert isinstance(items, list) and items and doc["count"] == len(items)


def test_graveyard_and_saved_drafts_answer_count_and_items(session):
    session("capability_find", describe="character.identity.update")
    session("cap_character_identity_update", ref="ada", input={"nickname": "Addie"}, save=True, name="ada-nick")
    saved = session("change_query")
    assert saved["count"] == len(saved["items"]["data"]) == 1
    assert session("studio_graveyard") == {"count": 0, "items": []}


def test_refused_deletes_burials_and_reverts_are_error_results(session, bunzai, monkeypatch):
    missing = session.error("studio_delete", ref="persona/nobody")
    assert missing["code"] == "not_found" and missing["hint"]
    assert missing["details"]["receipts"][0]["status"] == "stale"  # the receipt the CLI prints, exit 1
    wrong = "0" * 64
    for tool in ("studio_delete", "studio_graveyard_bury"):
        stale = session.error(tool, ref="ada", revision=wrong)
        assert stale["code"] == "stale" and stale["hint"], tool
        assert stale["details"]["receipts"][0]["reason"] == "changed"
    assert session.error("studio_graveyard_bury", ref="persona/nobody")["code"] == "not_found"
    assert session("studio_read", ref="ada")["id"] == "ada"  # nothing was written

    monkeypatch.setenv("BUNZAI_SESSION", "agent")  # the server's session: its writes and its revert
    session.ctx.session_id = "agent"
    session("capability_find", query="rename character")
    made = session("cap_character_identity_update", ref="ada", input={"name": "Ada (agent)"})
    assert session("change_apply", draft=made["draft"])["status"] == "applied"
    piped = bunzai("cap", "run", "character.identity.update", "ada", "--input", '{"name": "Ada (person)"}')
    bunzai("apply", "--yes", input=piped.stdout, check=True)  # another session's later change
    forbidden = session.error("studio_revert")
    assert forbidden["code"] == "revert_forbidden" and forbidden["hint"]
    report = forbidden["details"]["report"]
    assert report["forbidden"] == 1 and report["reverted"] == 0
    [row] = report["changes"]["data"]  # rows name other sessions' labels: inside the envelope
    assert report["changes"]["untrusted"] is True and row["code"] == "revert_forbidden"
    assert session("studio_read", ref="ada")["piece"]["data"]["name"] == "Ada (person)"


def test_a_capability_composed_onto_a_group_of_drafts_is_refused_with_a_code(session, bunzai, tmp_path):
    card = {
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {
            "name": "Sera",
            "description": "A guardian.",
            "first_mes": "Hello.",
            "character_book": {"name": "Sera's book", "entries": [{"keys": ["glade"], "content": "A glade."}]},
        },
    }
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "sera.json").write_text(json.dumps(card))
    bunzai("folder", "grant", str(tmp_path / "book"), check=True)
    imported = session("folder_import", paths=[str(tmp_path / "book" / "sera.json")])
    [group] = imported["drafts"]
    assert len(group["group"]) == 2  # the card and its book
    session("capability_find", query="rename character")
    error = session.error(
        "cap_character_identity_update", ref="character/sera", draft=group["draft"], input={"nickname": "Sera"}
    )
    assert error["code"] == "invalid_draft" and "one draft" in error["message"] and error["hint"]


def test_a_refusal_whose_details_are_over_the_inline_size_is_held_whole_as_a_handle(session):
    from bunzai.errors import BunzaiError
    from bunzai.limits import MCP_RESULT_INLINE_MAX_CHARS

    rows = [{"seq": n, "note": "x" * 200} for n in range(MCP_RESULT_INLINE_MAX_CHARS // 150)]
    error = BunzaiError("revert_forbidden", "a large refusal", "see the rows", report={"rows": rows})
    result = session.dispatcher._error(error, VERSION)
    assert result["isError"] and len(result["content"][0]["text"]) <= MCP_RESULT_INLINE_MAX_CHARS
    refusal = result["structuredContent"]["error"]
    assert refusal["code"] == "revert_forbidden" and refusal["message"] == "a large refusal"
    held = refusal["details"]["held"]
    assert held["chars"] > MCP_RESULT_INLINE_MAX_CHARS  # nothing cut
    last = session("result_query", handle=held["handle"], action="read", offset=held["chars"] - 2000, limit=2000)
    assert f'"seq":{len(rows) - 1},' in last["text"]["data"]  # the last row is there to read


def test_a_capability_tool_refuses_arguments_it_would_ignore(session):
    session("capability_find", describe="character.identity.update")
    tool = "cap_character_identity_update"
    error = session.error(tool, ref="character/ada", input={"nickname": "Addie"}, name="later")
    assert error["code"] == "invalid_input" and "save" in error["hint"]
    error = session.error(tool, ref="character/ada", input={"nickname": "Addie"}, id="other")
    assert error["code"] == "invalid_input" and "ref" in error["hint"]
    assert session(tool, ref="character/ada", input={"nickname": "Addie"}, save=True, name="later")["saved"]


def test_a_media_reference_over_mcp_reads_only_the_studio_and_granted_folders(bunzai, session, tmp_path):
    # a person at a shell may name any file; an agent only what folder_import may read
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.png").write_bytes(v2_card_png("Secret"))
    session("capability_find", describe="character.media.update")
    tool = "cap_character_media_update"
    for ref in ("@" + str(outside / "secret.png"), "file:" + str(outside / "secret.png")):
        error = session.error(tool, ref="character/ada", input={"portrait": ref})
        assert error["code"] == "not_granted", error
    # the CLI is not held to the grants: the person's own account reads the file
    portrait = json.dumps({"portrait": "@" + str(outside / "secret.png")})
    assert bunzai("cap", "run", "character.media.update", "ada", "--input", portrait).code == 0
    bunzai("folder", "grant", str(outside), check=True)
    assert session(tool, ref="character/ada", input={"portrait": "@" + str(outside / "secret.png")})["draft"]


def test_a_capability_tool_that_reads_local_files_says_it_reaches_the_open_world(session):
    found = session("capability_find", describe="character.media.update")
    listed = {t["name"]: t for t in session.dispatcher.list_tools(VERSION)}
    assert listed[found["tools"][0]]["annotations"]["openWorldHint"] is True
    found = session("capability_find", describe="character.identity.update")
    listed = {t["name"]: t for t in session.dispatcher.list_tools(VERSION)}
    assert listed[found["tools"][0]]["annotations"]["openWorldHint"] is False


def test_nothing_outside_the_grants_is_looked_at_for_an_agent(session, tmp_path):
    # not_granted whether the place exists or not, and in the same words: an agent learns nothing there
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "o.txt").write_text("secret", encoding="utf-8")
    session("capability_find", describe="character.media.update")
    said = []
    for ref in (f"@{outside}/o.txt#m", f"@{outside}/nope.zip#m"):
        error = session.error("cap_character_media_update", ref="character/ada", input={"portrait": ref})
        assert error["code"] == "not_granted"
        said.append(error["message"].replace("o.txt", "X").replace("nope.zip", "X"))
    assert said[0] == said[1]
    session("capability_find", describe="studio.pack.create")
    for folder in (outside, tmp_path / "no-such-folder"):
        error = session.error("cap_studio_pack_create", input={"name": "P", "from_folder": str(folder)})
        assert error["code"] == "not_granted"


def test_an_attachment_tool_says_it_reaches_the_open_world(session):
    found = session("capability_find", describe="preset.attachments.manage")
    listed = {t["name"]: t for t in session.dispatcher.list_tools(VERSION)}
    assert listed[found["tools"][0]]["annotations"]["openWorldHint"] is True


def test_an_archive_members_name_is_no_path_outside_the_grants(bunzai, session, tmp_path):
    import zipfile

    granted = tmp_path / "granted"
    granted.mkdir()
    with zipfile.ZipFile(granted / "a.zip", "w") as archive:
        archive.writestr("x.png", v2_card_png("X"))
    bunzai("folder", "grant", str(granted), check=True)
    session("capability_find", describe="character.media.update")
    error = session.error(
        "cap_character_media_update", ref="character/ada", input={"portrait": f"@{granted}/a.zip#../../../x.png"}
    )
    assert error["code"] == "not_found" and "no member" in error["message"]
    assert session("cap_character_media_update", ref="character/ada", input={"portrait": f"@{granted}/a.zip#x.png"})[
        "draft"
    ]
