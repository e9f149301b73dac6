"""RisuAI's three literal blocks are three ops (parser.svelte.ts blockEndMatcher): `#pure` prints its
body's braces, `#puredisplay` prints `{{` as `\\{\\{`, `#escape` holds braces and parentheses as
private-use characters until the prompt is sent. A same-engine respelling never turns one into
another; and a block whose condition cannot be carried says so."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bunzai.macros.catalog import catalog_for
from bunzai.macros.translate import translate_text

_LITERALS = ("#pure", "#puredisplay", "#escape")
_BODY = st.lists(st.sampled_from(["{{char}}", "{{getvar::x}}", "(a)", "{", "}", "\\", "a", " ", "::"]), max_size=8)


def _block(name: str, body: str) -> str:
    return "{{" + name + "}}" + body + "{{/" + name.lstrip("#") + "}}"


def test_each_literal_block_has_its_own_op() -> None:
    risu = catalog_for("risuai")
    found = {name: risu.by_key[risu.fold(name)] for name in _LITERALS}
    ops = {name: [e.op for e in entries if e.block == "block"] for name, entries in found.items()}
    assert all(len(o) == 1 for o in ops.values())
    assert len({o[0] for o in ops.values()}) == len(_LITERALS)


@given(_BODY, st.sampled_from(_LITERALS))
def test_a_literal_block_crosses_risu_to_risu_unchanged(pieces: list[str], name: str) -> None:
    text = _block(name, "".join(pieces))
    result = translate_text(text, "risuai", "risuai")
    assert result.text == text
    assert [(v["verdict"], v["token"], v["to"]) for v in result.verdicts] == [
        ("portable", "{{" + name + "}}", "{{" + name + "}}")
    ]


def test_pure_display_reaches_agnai_as_the_backslashed_text_risu_prints() -> None:
    # Agnai has no brace escape; `\{\{char\}\}` holds no `{{`, so Agnai prints it as RisuAI does
    result = translate_text(_block("#puredisplay", " {{char}} "), "risuai", "agnai")
    assert result.text == "\\{\\{char\\}\\}"
    [verdict] = result.verdicts
    assert verdict["verdict"] == "flatten" and verdict["op"] == "x.risu.pure_display" and "runs" not in verdict


def test_escape_reaches_another_engine_as_the_text_the_model_reads() -> None:
    # request.ts gives the private-use characters back before sending: the model reads braces and parentheses
    result = translate_text(_block("#escape", "(a) {{char}}"), "risuai", "agnai")
    assert result.text == "(a) {{char}}"
    [verdict] = result.verdicts
    assert verdict["op"] == "x.risu.escape" and verdict["runs"] == ["{{char}}"]
    assert "private-use" in verdict["note"]


def test_the_cli_keeps_pure_as_pure_within_risu(bunzai) -> None:
    done = bunzai(
        "macro", "translate", "--from", "risuai", "--to", "risuai", input=_block("#pure", "{{char}}"), check=True
    )
    assert done.json["text"] == "{{#pure}}{{char}}{{/pure}}"


def test_a_condition_that_cannot_be_carried_is_said_to_be_so() -> None:
    result = translate_text("{{if description}}x{{/if}}", "sillytavern", "agnai")
    [verdict] = result.verdicts
    assert verdict["verdict"] == "flatten"
    assert verdict["note"].startswith("its condition cannot be carried into agnai")


def test_a_block_the_target_lacks_is_still_said_to_be_inexpressible() -> None:
    result = translate_text("{{#when 1}}x{{/when}}", "risuai", "marinara")
    assert result.verdicts[0]["note"].startswith("marinara cannot express cond.if as a block")


def test_into_sillytavern_the_escape_holds_one_pass_and_the_verdict_names_what_a_second_runs() -> None:
    # SillyTavern drops `\{` in each macro pass, and runs a card's description and lorebook
    # entries through its macros twice: a text of no known field gets one escape, and the
    # verdict says a later pass runs its macros (a crossing escapes each field for its passes)
    done = translate_text("{{#pure}}Hi {{char}}{{/pure}}", "risuai", "sillytavern")
    assert done.text.endswith("Hi \\{\\{char\\}\\}")
    [verdict] = [v for v in done.verdicts if v["verdict"] == "flatten"]
    assert verdict["runs"] == ["{{char}}"] and "reads a text again" in verdict["note"]
