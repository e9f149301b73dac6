"""A preset with no prompt blocks written as `risu.preset` names RisuAI's default layout, not a renaming.

A text-completion preset or a SillyTavern template has no blocks, so preset_write writes it with no
template and none of mainPrompt, jailbreak and globalNote: RisuAI's import fills them from its preset
template and sends its default formatingOrder. Read back, those are blocks and an order the piece never
had, which were reported as `risu.preset.template` (blocks renamed template-<n>) and `risu.preset.order`
(disabled blocks left out, per-character orders dropped): neither happened. They are one
`risu.preset.default_layout` loss, at the blocks and at the order.
"""

from __future__ import annotations

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from bunzai.model.preset import Preset, PresetBody
from testkit import corpus_path


def no_media(ref):
    raise AssertionError("a preset has no media")


def by_pointer(crossing) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for loss in crossing.losses:
        found.setdefault(loss.pointer, set()).add(loss.code)
    return found


def test_a_text_completion_preset_names_the_default_layout(table):
    path = corpus_path("sillytavern", "presets", "textgen", "Default.json")
    piece = read_bytes(path.read_bytes(), path.name)[1].pieces[0]
    assert piece.body.prompts == [] and piece.body.orders == []
    found = by_pointer(convert_piece(piece, "risu.preset", no_media))
    assert found["/body/prompts"] == {"risu.preset.default_layout"}
    assert found["/body/orders"] == {"risu.preset.default_layout"}


def test_a_preset_with_blocks_names_no_default_layout(table):
    blocks = [{"identifier": "main", "content": "Be {{char}}."}, {"identifier": "style", "content": "Terse."}]
    piece = Preset(id="two", name="Two", body=PresetBody(prompts=blocks))
    crossing = convert_piece(piece, "risu.preset", no_media)
    assert "risu.preset.default_layout" not in {loss.code for loss in crossing.losses}
