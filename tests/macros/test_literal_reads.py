"""A RisuAI literal body crossing into SillyTavern stays text in a field SillyTavern reads more
than once: MacroEngine.js drops one `\\` before a brace at the end of every pass
(core:unescape-braces, `text.replace(/\\\\([{}])/g, '$1')`), so the body carries one escape per
pass (bunzai.macros.crossing.MACRO_READS). And a variable name's edge spaces, which RisuAI keeps,
are said to be lost where SillyTavern's legacy engine trims them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bunzai.macros.crossing import translate_piece
from bunzai.macros.translate import translate_text
from bunzai.validate import validate_piece

_LITERALS = ("#pure", "#puredisplay", "#escape")
_BODY = st.lists(st.sampled_from(["{{char}}", "{{getvar::x}}", "(a)", "{", "}", "\\", "a", " ", "::"]), max_size=8)
_UNESCAPE = re.compile(r"\\([{}])")  # SillyTavern's own post-processor, written again here as its model


def _block(name: str, body: str) -> str:
    return "{{" + name + "}}" + body + "{{/" + name.lstrip("#") + "}}"


def _printed_by_risu(name: str, body: str) -> str:
    """What RisuAI prints for the block (parser.svelte.ts): trimmed, `{{` backslashed in #puredisplay."""
    body = body.strip()
    return body.replace("{{", "\\{\\{").replace("}}", "\\}\\}") if name == "#puredisplay" else body


def _passes(text: str, reads: int) -> tuple[str, list[str]]:
    """`text` after `reads` SillyTavern passes, and each text a pass was given (where macros run)."""
    given_to = []
    for _ in range(reads):
        given_to.append(text)
        text = _UNESCAPE.sub(r"\1", text)
    return text, given_to


@given(_BODY, st.sampled_from(_LITERALS), st.integers(min_value=1, max_value=4))
def test_a_literal_body_read_n_times_reaches_the_prompt_as_the_text_risu_prints(
    pieces: list[str], name: str, reads: int
) -> None:
    body = "".join(pieces)
    result = translate_text(_block(name, body), "risuai", "sillytavern", reads)
    [verdict] = result.verdicts
    comment = verdict.get("to", "")
    assert result.text.startswith(comment)
    out, given_to = _passes(result.text[len(comment) :], reads)
    assert out == _printed_by_risu(name, body)
    assert not any("{{" in text for text in given_to)  # no pass is given a macro to run
    assert "runs" not in verdict


def test_one_escape_a_pass_and_no_claim_that_macros_run() -> None:
    done = translate_text(_block("#pure", "Hi {{char}}"), "risuai", "sillytavern", 2)
    assert done.text.endswith("Hi \\\\{\\\\{char\\\\}\\\\}")
    [verdict] = done.verdicts
    assert "runs" not in verdict and "each of the 2 macro passes" in verdict["note"]


def test_a_text_of_no_known_field_keeps_one_escape_and_says_where_more_passes_run() -> None:
    done = translate_text(_block("#pure", "Hi {{char}}"), "risuai", "sillytavern")
    assert done.text.endswith("Hi \\{\\{char\\}\\}")
    [verdict] = done.verdicts
    assert verdict["runs"] == ["{{char}}"] and "reads a text again" in verdict["note"]


_FIELDS = {  # pointer -> escapes a brace carries there (the passes SillyTavern runs over it)
    "/body/description": 2,
    "/body/personality": 3,
    "/body/scenario": 3,
    "/body/system_prompt": 2,
    "/body/post_history_instructions": 2,
    "/body/depth_prompt/text": 2,
    "/body/book/entries/0/content": 2,
    "/body/example_messages": 1,
    "/body/first_message": 1,
}
_PURE = _block("#pure", "Hi {{char}}")


def _card():
    return validate_piece(
        {
            "kind": "character",
            "id": "ada",
            "name": "Ada",
            "body": {
                **{f: _PURE for f in ("description", "personality", "scenario", "system_prompt")},
                **{f: _PURE for f in ("post_history_instructions", "example_messages", "first_message")},
                "depth_prompt": {"text": _PURE},
                "book": {"entries": [{"content": _PURE, "keys": []}]},
            },
        }
    )


def _at(doc: dict, pointer: str) -> str:
    for part in pointer.strip("/").split("/"):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


@pytest.mark.parametrize("pointer", sorted(_FIELDS))
def test_a_crossing_escapes_each_field_for_the_passes_sillytavern_runs_over_it(pointer: str) -> None:
    piece, report = translate_piece(_card(), "risuai", "sillytavern")
    text = _at(piece.body.model_dump(mode="json", by_alias=False), pointer.removeprefix("/body/"))
    escape = "\\" * _FIELDS[pointer]
    assert text.endswith(f"Hi {escape}{{{escape}{{char{escape}}}{escape}}}")
    [verdict] = [v for v in report.verdicts if v["pointer"] == pointer]
    # A chat's first message is substituted again at each generation: no escape count holds, and it says so
    assert ("runs" in verdict) == (pointer == "/body/first_message")


def test_a_lorebook_entry_is_escaped_for_its_two_passes() -> None:
    book = validate_piece({"kind": "lorebook", "id": "b", "name": "B", "body": {"entries": [{"content": _PURE}]}})
    piece, _ = translate_piece(book, "risuai", "sillytavern")
    assert piece.body.entries[0].content.endswith("Hi \\\\{\\\\{char\\\\}\\\\}")


# --- a variable name's edge spaces --------------------------------------------------------------


@pytest.mark.parametrize("text", ["{{getvar::name }}", "{{setvar::name ::v}}", "{{addvar:: name::1}}"])
def test_a_spaced_name_the_legacy_engine_trims_is_said_to_lose_its_spaces(text: str) -> None:
    # RisuAI's getChatVar/setChatVar key `$name ` as written; variables.js calls name.trim()
    [verdict] = translate_text(text, "risuai", "sillytavern-legacy").verdicts
    assert verdict["verdict"] == "portable"
    assert "trims a variable's name" in verdict["note"] and "another variable" in verdict["note"]


def test_a_spaced_value_the_legacy_engine_keeps_says_nothing() -> None:
    [verdict] = translate_text("{{setvar::name::v }}", "risuai", "sillytavern-legacy").verdicts
    assert "note" not in verdict


def test_the_loss_of_a_literal_body_says_what_became_of_it_not_that_a_branch_was_kept() -> None:
    from bunzai.adapters.registry import get_adapter
    from bunzai.convert import _translated

    book = validate_piece({"kind": "lorebook", "id": "b", "name": "B", "body": {"entries": [{"content": _PURE}]}})
    _piece, _report, losses = _translated(book, get_adapter("sillytavern.world"), None, "risuai")
    [loss] = [loss for loss in losses if loss.code == "macro.flatten"]
    assert "prints this body as text" in loss.why and "first branch" not in loss.why
