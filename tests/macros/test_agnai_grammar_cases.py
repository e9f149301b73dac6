"""Agnai reads each text's blocks as its own grammar does (agnai_grammar_cases.json).

Each case is a text of Agnai macros drawn at random (conditions on each loop's fields and on
other words, loops, inserts, lowpriority blocks, else blocks in their spellings, fields,
placeholders, stray closers, spaces and case), and the blocks Agnai's grammar (common/grammar.ts
at agnai 2421510e, compiled with peggy 3.0.2) reads in it, counted by kind: conditions (a field
condition among them), else blocks, loops of any kind, inserts and lowpriority blocks. The table
keeps, of 60,000 such texts, every shape of answer with a few texts of each, and every text that
an earlier reading got wrong (51: a field condition read to an `{{/if}}` past an insert's closer,
or one on another loop's field in a loop's condition; a closer inside a loop in an else); bunzai
agrees on all 60,000. It was made by parsing the texts with that grammar outside the test suite
(it needs node): the parser is not part of bunzai or of its tests.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bunzai.macros.catalog import catalog_in
from bunzai.macros.translate import _Translator

CASES = json.loads((Path(__file__).parent / "agnai_grammar_cases.json").read_text(encoding="utf-8"))
_KINDS = {"loop.each_char": "loop", "loop.each_history": "loop", "x.agnai.each_chat_embed": "loop"}


def _blocks_read(text: str) -> dict[str, int]:
    agnai = catalog_in("agnai", None)
    reading = _Translator(agnai, agnai).reading(text)
    found = Counter(
        _KINDS.get(entry.op, entry.op)
        for token, entry in zip(reading.tokens, reading.entries, strict=True)
        if entry is not None and token.paired and not token.closing and entry.block in ("block", "optional")
    )
    return dict(found)


def test_the_table_holds_every_kind_of_block() -> None:
    kinds = {kind for case in CASES for kind in case["blocks"]}
    assert kinds == {"cond.if", "cond.else", "loop", "block.insert_at_depth", "block.lowpriority"}
    assert any(not case["blocks"] for case in CASES)  # texts where Agnai reads no block at all


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["text"][:60])
def test_agnai_reads_the_blocks_its_grammar_reads(case: dict) -> None:
    assert _blocks_read(case["text"]) == case["blocks"]
