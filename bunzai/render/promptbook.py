"""Promptbooks without a model: `try-line` (which phases' conditions fire on a line, and why)
and `rehearse` (each enabled phase's preset rendered through bunzai.render).

A phase condition is read as:
- `/pattern/flags`: a JavaScript regex, run in the regex lab's engine, matched against the line;
- anything else: keywords separated by `,` or `|`; the condition fires when the line holds
  one of them as a whole word (only ASCII letters, digits and `_` join words), ignoring case.
A phase with no condition always runs. Nothing is generated: cards' behaviour, tools and
model-picked skills are not simulated, and a private phase's output is a placeholder.

Both commands check what each phase `uses` (bunzai.render.promptbook_uses): every id found
is listed, every id missing is a `missing_reference` finding. A rehearsal also reports a
card or preset a phase names but the studio lacks as a `missing_piece` finding, applies a
phase's regex pieces in its render, and rolls its dice as a seeded forecast.
"""

from __future__ import annotations

import re
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.model import dump_piece
from bunzai.regexlab import engine
from bunzai.render.promptbook_uses import phase_uses, present_regex_ids
from bunzai.render.render import gather, load_piece, read_chat, render
from bunzai.store.pieces import try_read
from bunzai.validate import validate_piece

NOT_SIMULATED = (
    "cards, tools and model-picked skills are not simulated; script sheets, skills, tools and "
    "trackers a phase uses are listed, not applied; no model is called, so a phase's output is a placeholder"
)


def load_promptbook(studio, ref: str) -> tuple[str, dict]:
    """(id, the stored promptbook validated, defaults filled in). A hand-edited file breaking
    the model (a condition that is not text, dice notation `1d0`, a phase without an id) is
    refused with the model's words, as a capability on it would be, never read half-way."""
    book_id, data = load_piece(studio, ref, "promptbook")
    try:
        return book_id, dump_piece(validate_piece(data))
    except BunzaiError as error:
        raise BunzaiError(
            error.code,
            f"promptbook/{book_id} as stored: {error.message}",
            "the file was edited by hand: fix it; `bunzai schema promptbook` shows what a promptbook holds",
            **error.details,
        ) from None


def condition_fires(condition: str | None, line: str) -> tuple[bool, str]:
    """(fires, why) of one phase condition on one line."""
    if condition is None or not condition.strip():
        return True, "no condition: the phase always runs"
    text = condition.strip()
    literal = re.fullmatch(r"/(.+)/([dgimsuvy]*)", text, re.S)
    if literal:
        try:
            answer = engine.call(
                {"op": "test", "pattern": literal.group(1), "flags": literal.group(2).replace("g", ""), "texts": [line]}
            )
        except BunzaiError as error:
            # Like a pattern that does not compile, one that runs away (or is over the engine's
            # size) is this phase's fault alone: it never fires, and every other phase is tried.
            # A line over the engine's size is the caller's, and refused.
            if error.code != "regex_timeout" and len(literal.group(1)) <= limits.REGEX_PATTERN_MAX_CHARS:
                raise
            return False, f"the condition was stopped: {error.message}; {error.hint}"
        if "error" in answer:
            return False, f"the condition {text} does not compile: {answer['error']}"
        fired = bool(answer["results"][0])
        return fired, f"the regex {text} {'matches' if fired else 'does not match'} the line"
    keywords = [k.strip() for k in re.split(r"[,|]", text) if k.strip()]
    for keyword in keywords:
        # Words join only on [A-Za-z0-9_], as in SillyTavern's "match whole words" (JavaScript's
        # \W): Chinese, Japanese and Thai write no spaces, so a keyword there sits between letters.
        if re.search(r"(?<![0-9A-Z_a-z])" + re.escape(keyword) + r"(?![0-9A-Z_a-z])", line, re.I):
            return True, f"the line holds the keyword {keyword!r}"
    return False, f"the line holds none of the keywords {keywords}"


def try_line(studio, book_id: str, book: dict, line: str) -> dict[str, Any]:
    rows = []
    findings: list[dict] = []
    for index, phase in enumerate((book.get("body") or {}).get("phases") or []):
        row = {"phase": phase["id"], "stage": phase.get("stage", "private"), "condition": phase.get("condition")}
        if not phase.get("enabled", True):
            row.update(runs=False, why="disabled")
        else:
            fires, why = condition_fires(phase.get("condition"), line)
            row.update(runs=fires, why=why)
        row["uses"], found = phase_uses(studio, book_id, book, index)
        findings += found
        rows.append(row)
    return {
        "promptbook": f"promptbook/{book_id}",
        "line": line,
        "phases": rows,
        "findings": findings,
        "not_simulated": NOT_SIMULATED,
    }


def rehearse(
    studio,
    book_id: str,
    book: dict,
    *,
    character: str | None,
    preset: str | None,
    persona: str | None = None,
    lorebooks: list[str] | tuple[str, ...] = (),
    chat_file: str | None = None,
    seed: int = 0,
    line: str | None = None,
) -> dict[str, Any]:
    """Every enabled phase rendered with its preset and card (or the ones given), in running order."""
    chat = read_chat(chat_file) if chat_file else []
    if line is None:
        line = next((m["content"] for m in reversed(chat) if m["role"] == "user"), "")
    rows = []
    findings: list[dict] = []
    ran: dict[str, bool] = {}
    for index, phase in enumerate((book.get("body") or {}).get("phases") or []):
        row: dict[str, Any] = {"phase": phase["id"], "stage": phase.get("stage", "private")}
        rows.append(row)
        if not phase.get("enabled", True):
            row.update(runs=False, why="disabled")
            row["uses"], found = phase_uses(studio, book_id, book, index)
            findings += found
            continue
        fires, why = condition_fires(phase.get("condition"), line)
        row.update(runs=fires, why=why)
        ran[phase["id"]] = fires
        row["uses"], found = phase_uses(studio, book_id, book, index, detail=True, seed=seed)
        findings += found
        missing = []
        for position, card in enumerate(phase.get("cards") or []):
            if try_read(studio, "character", card) is None:
                missing.append(f"character/{card}")
                findings.append(
                    _missing_piece(book_id, phase["id"], f"/body/phases/{index}/cards/{position}", f"character/{card}")
                )
        if phase.get("preset") and try_read(studio, "preset", phase["preset"]) is None:
            missing.append(f"preset/{phase['preset']}")
            findings.append(
                _missing_piece(book_id, phase["id"], f"/body/phases/{index}/preset", f"preset/{phase['preset']}")
            )
        if missing:
            row["missing"] = missing
            row["render"] = None
            row["why_not_rendered"] = "the phase names pieces the studio does not hold"
            continue
        card = (phase.get("cards") or [None])[0] or character
        chosen = phase.get("preset") or preset
        if card is None or chosen is None:
            raise BunzaiError(
                "usage",
                f"phase {phase['id']!r} names no {'card' if card is None else 'preset'}",
                "give --character and --preset for phases that use the chat's",
            )
        loaded = gather(
            studio,
            chosen,
            card,
            persona_ref=persona,
            lorebook_refs=lorebooks,
            chat_file=chat_file,
            regex_refs=[f"regex/{regex_id}" for regex_id in present_regex_ids(row["uses"])],
        )
        doc = render(loaded, seed=seed, stage="final")
        messages = doc["messages"]
        for read in phase.get("reads") or []:
            placeholder = (
                f"[output of phase {read!r}: not generated in a rehearsal]"
                if ran.get(read)
                else f"[phase {read!r} does not run on this line: no output]"
            )
            messages.append(
                {
                    "role": "system",
                    "content": placeholder,
                    "block": "phase_output",
                    "source": f"promptbook:{book_id}#{read}",
                    "tokens": 0,
                }
            )
        row["render"] = {
            "preset": doc["preset"],
            "character": doc["character"],
            "messages": messages,
            "tokens": doc["tokens"],
            "unresolved": doc["unresolved"],
            "regex": doc["regex"],
        }
        if row["stage"] == "private":
            row["output"] = f"[private output of phase {phase['id']!r}: not generated]"
        if row["stage"] == "reply":
            row["forecast"] = "reply-only: this render is what the model sees for the visible reply"
    return {
        "promptbook": f"promptbook/{book_id}",
        "line": line,
        "phases": rows,
        "findings": findings,
        "not_simulated": NOT_SIMULATED,
    }


def _missing_piece(book_id: str, phase_id: str, pointer: str, ref: str) -> dict:
    return {
        "kind": "missing_piece",
        "piece": f"promptbook/{book_id}",
        "pointer": pointer,
        "phase": phase_id,
        "ref": ref,
        "message": f"phase {phase_id!r} names {ref}, which the studio does not hold",
    }
