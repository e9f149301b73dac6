"""`bunzai preset-verify`: render a preset and report what would go wrong in a chat.

Findings (each with a `kind`, a `pointer` into the piece it is about, and a message):

- `unknown_macro` / `unresolved_macro`: a token the engine would not resolve, with its line
  and column and a did-you-mean from the catalog (in text completion, in the piece its text was
  written in: the card's field, persona, template or lorebook entry, see `_source`);
- `empty_block`: a user block, enabled in the active order, with no text (SillyTavern's
  built-in slots `main`, `nsfw`, `jailbreak`, `enhanceDefinitions` are empty by design
  and only noted);
- `marker_without_source`: a marker nothing fills;
- `unreachable_block`: a block with text that the active order (the one render sends,
  chat_completion.prompt_manager) does not hold, or an item of that order naming no block;
- `order_not_used`: the preset has prompt orders but not the one SillyTavern uses (its global
  order, character_id 100001; a file with only the 100000 list), so SillyTavern sends its
  default order instead;
- `lore_never_activates`: an enabled entry with no usable key (none, only empty keys, a
  regex key that does not compile, or probability 0);
- `lore_blank_key`: a key of only whitespace, which SillyTavern trims to nothing and so finds
  in every message: the key always matches;
- `lore_over_budget`: an entry whose text alone is over the book's token budget;
- `regex_never_applies`: a rule that runs on nothing at its placement (regex lab lint);
- `engine_divergence`: with `--engine`, a macro that the other engine reads differently
  (bunzai.macros.translate verdicts other than portable).
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.sillytavern.presets_chat_prompts import MARKERS
from bunzai.jstext import JS_WHITESPACE as JS_SPACE
from bunzai.macros.translate import translate_text
from bunzai.regexlab.lint import lint_set
from bunzai.render import lore as lore_mod
from bunzai.render.chat_completion import (
    BUILT_IN_SLOTS,
    PromptManager,
    order_label,
    passed_over_note,
    prompt_manager,
)
from bunzai.render.render import render


def verify(
    loaded: dict,
    *,
    seed: int = 0,
    engine: str | None = None,
    authors_note: str = "",
    st_root: str | None = None,
    macro_engine: str = "sillytavern",
    sysprompt_enabled: bool = True,
) -> dict[str, Any]:
    """`engine`: another platform whose reading of the macros is compared; `macro_engine`: the
    SillyTavern macro engine the render follows (its catalog id); `sysprompt_enabled` as render's."""
    doc = render(
        loaded,
        seed=seed,
        stage="final",
        authors_note=authors_note,
        st_root=st_root,
        engine=macro_engine,
        sysprompt_enabled=sysprompt_enabled,
    )
    preset = loaded["preset"].get("body") or {}
    pid = f"preset/{loaded['preset_id']}"
    findings: list[dict] = []
    notes: list[str] = list(doc["notes"])
    for problem in doc["unresolved"]:
        piece, pointer = _source(problem["where"], loaded, doc.get("templates") or {}, pid)
        finding = {
            "kind": f"{problem['kind']}_macro",
            "piece": piece,
            "pointer": pointer,
            "block": problem.get("block"),
            "token": problem["token"],
            "line": problem["line"],
            "column": problem["column"],
            "message": problem["message"],
        }
        if "did_you_mean" in problem:
            finding["did_you_mean"] = problem["did_you_mean"]
        findings.append(finding)
    manager = prompt_manager(preset)
    if doc["mode"] == "chat_completion":  # a text-completion template has no prompt manager
        findings += _manager_findings(manager, preset, pid, notes)
    findings += _lore_findings(loaded["books"], doc["lore"]["budget"])
    findings += _regex_findings(loaded["regex"])
    if engine and doc["mode"] == "chat_completion":
        findings += _engine_findings(manager, pid, engine)
    result = {
        "preset": pid,
        "character": doc["character"],
        "clean": not findings,
        "count": len(findings),
        "findings": findings,
        "notes": notes,
        "engine": engine,
        "seed": seed,
    }
    if "real_engine" in doc:
        result["real_engine"] = doc["real_engine"]  # bunzai's own agreement, not a finding about the preset
    return result


def _manager_findings(manager: PromptManager, preset: dict, pid: str, notes: list[str]) -> list[dict]:
    """The findings about the prompt manager's blocks and order; `notes` gets the empty built-in slots."""
    findings: list[dict] = []
    blocks, target, items = manager.blocks, manager.target, manager.items
    ordered = {item.get("identifier") for item in items}
    label = order_label(manager)
    if manager.passed_over:
        note = passed_over_note(manager)
        notes[:] = [kept for kept in notes if kept != note]  # the finding says it
        findings.append(
            {
                "kind": "order_not_used",
                "piece": pid,
                "pointer": "/body/orders",
                "orders": list(manager.passed_over),
                "message": note,
            }
        )
    for number, item in enumerate(items):
        identifier = item.get("identifier")
        if identifier not in blocks:
            findings.append(
                {
                    "kind": "unreachable_block",
                    "piece": pid,
                    "pointer": f"/body/orders/{_order_index(preset, target)}/items/{number}",
                    "block": identifier,
                    "message": f"{label} names {identifier!r}, which no block has",
                }
            )
            continue
        index, block = blocks[identifier]
        if not item.get("enabled", True):
            continue
        if block.get("marker"):
            if identifier not in MARKERS:
                findings.append(
                    {
                        "kind": "marker_without_source",
                        "piece": pid,
                        "pointer": _block_pointer(index, identifier),
                        "block": identifier,
                        "message": f"marker {identifier!r} is enabled but nothing fills it",
                    }
                )
            continue
        if not (block.get("content") or "").strip():
            if identifier in BUILT_IN_SLOTS or block.get("system_prompt") and identifier in BUILT_IN_SLOTS:
                notes.append(
                    f"built-in block {identifier!r} is enabled and empty (SillyTavern's default; it sends nothing)"
                )
                continue
            findings.append(
                {
                    "kind": "empty_block",
                    "piece": pid,
                    "pointer": manager.pointer(identifier),
                    "block": identifier,
                    "message": f"block {block.get('name') or identifier!r} is enabled in {label} but empty",
                }
            )
    for identifier, (index, block) in blocks.items():
        if index is None or identifier in ordered or block.get("marker") or not (block.get("content") or "").strip():
            continue  # SillyTavern's own defaults the preset lacks are not the preset's blocks
        name = block.get("name") or identifier
        held = any(identifier == i.get("identifier") for o in preset.get("orders") or [] for i in o.get("items") or [])
        where = f"only in other prompt orders, not {label}" if held else f"not in {label}"
        findings.append(
            {
                "kind": "unreachable_block",
                "piece": pid,
                "pointer": f"/body/prompts/{index}",
                "block": identifier,
                "message": f"block {name!r} is {where}, so it is never sent",
            }
        )
    return findings


def _source(where: str, loaded: dict, templates: dict[str, str], pid: str) -> tuple[str, str]:
    """The piece a macro problem's text belongs to, and a pointer into it. A text-completion render names
    its templates by family (`sysprompt:/body/templates/sequences/content`) and its lorebook entries
    by uid; those become the template's preset and the entry's index."""
    family, _, inside = where.partition(":")
    if family in templates:
        return templates[family], inside
    if templates and family == "lorebook":
        found = _lore_entry(inside, loaded["books"])
        if found:
            return found
    return _piece_of(where, loaded, _template_owner(where, loaded, pid)), _pointer(where)


def _lore_entry(inside: str, books: list[dict]) -> tuple[str, str] | None:
    """(piece, pointer to the content) of the entry `BOOK#UID`, as the lore findings name it."""
    book_id, _, uid = inside.partition("#")
    for book in books:
        if book["id"] != book_id:
            continue
        ref, _, within = book.get("ref", f"lorebook/{book_id}").partition("#")
        for number, entry in enumerate(book["body"].get("entries") or []):
            if str(entry.get("uid")) == uid:
                return ref, f"{within or '/body'}/entries/{number}/content"
    return None


def _template_owner(where: str, loaded: dict, pid: str) -> str:
    """The context template holding a story string or chat start (else the preset itself)."""
    templates = loaded.get("templates") or {}
    if where.startswith("/body/templates/") and "context" in templates:
        return f"preset/{templates['context'][0]}"
    return pid


def _block_pointer(index: int | None, identifier: str) -> str:
    return f"/body/prompts/{index}" if index is not None else f"default:{identifier}"


def _order_index(preset: dict, target: str) -> int:
    for number, order in enumerate(preset.get("orders") or []):
        if order.get("target") == target:
            return number
    return 0


def _piece_of(where: str, loaded: dict, pid: str) -> str:
    if where.startswith("character:"):
        return f"character/{loaded['character_id']}"
    if where.startswith("persona:"):
        return f"persona/{loaded['persona_id']}"
    if where.startswith("lorebook:"):
        return where.split("#", 1)[0].replace(":", "/")
    if where.startswith("chat:"):
        return "chat"
    return pid


def _pointer(where: str) -> str:
    if where.startswith(("character:", "persona:")):
        return where.split(":", 1)[1]
    return where


def _lore_findings(books: list[dict], budget: int) -> list[dict]:
    found = []
    for book in books:
        ref, _, inside = book.get("ref", f"lorebook/{book['id']}").partition("#")
        for number, entry in enumerate(book["body"].get("entries") or []):
            if not entry.get("enabled", True):
                continue
            pointer = f"{inside or '/body'}/entries/{number}"
            uid = entry.get("uid")
            decorators, text = lore_mod.parse_decorators(entry.get("content") or "")
            if "@@dont_activate" in decorators and "@@activate" not in decorators:
                continue  # kept out on purpose, as a disabled entry is (the scan tests @@activate first)
            if not entry.get("constant") and not entry.get("vectorized") and "@@activate" not in decorators:
                found += _blank_key_findings(entry, ref, pointer)
                keys = [k for k in entry.get("keys") or [] if k.get("text")]  # SillyTavern skips only ""
                broken = [
                    k for k in keys if k.get("regex") and lore_mod.regex_key_error(k["text"], k.get("flags") or "")
                ]
                if not keys or len(broken) == len(keys):
                    why = "it has no key" if not keys else "none of its regex keys compiles"
                    found.append(
                        {
                            "kind": "lore_never_activates",
                            "piece": ref,
                            "pointer": pointer,
                            "uid": uid,
                            "message": f"entry {uid} ({entry.get('title', '')}) can never activate: {why}",
                        }
                    )
                    continue
            if entry.get("use_probability", True) and entry.get("probability", 100) == 0:
                found.append(
                    {
                        "kind": "lore_never_activates",
                        "piece": ref,
                        "pointer": f"{pointer}/probability",
                        "uid": uid,
                        "message": f"entry {uid} has probability 0, so it never inserts",
                    }
                )
                continue
            tokens = lore_mod.estimate_tokens(text)
            if tokens > budget and not entry.get("ignore_budget"):
                found.append(
                    {
                        "kind": "lore_over_budget",
                        "piece": ref,
                        "pointer": f"{pointer}/content",
                        "uid": uid,
                        "message": (
                            f"entry {uid} is about {tokens} tokens, over the whole budget of {budget}: it never fits"
                        ),
                    }
                )
    return found


def _blank_key_findings(entry: dict, ref: str, pointer: str) -> list[dict]:
    """A plain key of only whitespace: SillyTavern trims it to "", which it finds in every text."""
    found = []
    for kind, label in (("keys", "key"), ("secondary_keys", "secondary key")):
        for number, key in enumerate(entry.get(kind) or []):
            text = key.get("text") or ""
            if text and not key.get("regex") and not text.strip(JS_SPACE):
                message = (
                    f"entry {entry.get('uid')} ({entry.get('title', '')}) has a {label} of only whitespace: "
                    "SillyTavern trims it to nothing and finds that in every message (with whole words too: its "
                    "scan text begins with \\x01, a non-word character), so it always matches"
                )
                found.append(
                    {
                        "kind": "lore_blank_key",
                        "piece": ref,
                        "pointer": f"{pointer}/{kind}/{number}",
                        "uid": entry.get("uid"),
                        "message": message,
                    }
                )
    return found


def _regex_findings(regex_sets: list[dict]) -> list[dict]:
    found = []
    for regex_set in regex_sets:
        report = lint_set({"kind": "regex", "id": regex_set["id"], "body": regex_set["body"]})
        for finding in report.get("findings") or []:
            if finding.get("kind") == "runs_on_nothing":
                found.append(
                    {
                        "kind": "regex_never_applies",
                        "piece": f"regex/{regex_set['id']}",
                        "pointer": f"/body/rules/{finding.get('rule')}",
                        "message": finding.get("message", ""),
                    }
                )
    return found


def _engine_findings(manager: PromptManager, pid: str, engine: str) -> list[dict]:
    found = []
    for item in manager.items:
        identifier = item.get("identifier")
        if not item.get("enabled", True) or identifier not in manager.blocks:
            continue
        index, block = manager.blocks[identifier]
        if index is None:
            continue  # a SillyTavern default, not text of the preset's
        text = block.get("content") or ""
        if "{{" not in text:
            continue
        translation = translate_text(text, "sillytavern", engine)
        if not translation.checked:
            found.append(
                {
                    "kind": "engine_divergence",
                    "piece": pid,
                    "pointer": manager.pointer(identifier),
                    "block": identifier,
                    "message": translation.reason,
                }
            )
            continue
        for verdict in translation.verdicts:
            if verdict["verdict"] == "portable":
                continue
            found.append(
                {
                    "kind": "engine_divergence",
                    "piece": pid,
                    "pointer": manager.pointer(identifier),
                    "block": identifier,
                    "token": verdict.get("token"),
                    "verdict": verdict["verdict"],
                    "message": f"{verdict.get('token')} is {verdict['verdict']} on {engine}",
                }
            )
    return found
