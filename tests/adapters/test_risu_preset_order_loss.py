"""`risu.preset.order` names only an order RisuAI sends otherwise than the canonical one.

Written as a template, blocks are renamed (`template-<n>`, the markers as themselves): that is
`risu.preset.template`'s loss, in the blocks and in the order that names them. The order itself
differs only where a block is left out (disabled, a marker RisuAI has no item for) or an order other
than the global one is dropped.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from risu_support import fake_checkout
from test_risu_preset_sent import LEGACY
from test_risu_preset_template import TEMPLATED, no_media, templated_piece

from bunzai.adapters.risu import rpack
from bunzai.convert import convert_piece
from bunzai.model.preset import OrderItem, PromptBlock, PromptOrder


@pytest.fixture(scope="module", autouse=True)
def table(tmp_path_factory):
    root = tmp_path_factory.mktemp("risu")
    made = fake_checkout(root)
    rpack.configure_risu_root(root, verify_hash=False)
    yield made
    rpack.configure_risu_root(None)


def with_block(piece, block: PromptBlock, at: int):
    order = piece.body.orders[0]
    items = [*order.items[:at], OrderItem(identifier=block.identifier), *order.items[at:]]
    order = order.model_copy(update={"items": items})
    body = piece.body.model_copy(update={"prompts": [*piece.body.prompts, block], "orders": [order]})
    return piece.model_copy(update={"body": body})


def codes(piece) -> dict[str, str]:
    return {loss.code: loss.pointer for loss in convert_piece(piece, "risu.preset", no_media).losses}


EXTRA = PromptBlock(identifier="extra", name="Extra", content="More.", role="user")


@pytest.mark.parametrize("preset", [TEMPLATED, LEGACY], ids=["templated", "without-template"])
def test_a_block_only_added_is_no_order_loss(preset):
    found = codes(with_block(templated_piece(preset), EXTRA, 1))
    assert "risu.preset.order" not in found and "crossing.not_carried" not in found
    assert found["risu.preset.template"] in ("/body/prompts", "/body/orders")


def test_a_disabled_order_item_is_an_order_loss():
    piece = templated_piece()
    order = piece.body.orders[0]
    items = [item.model_copy(update={"enabled": index != 2}) for index, item in enumerate(order.items)]
    body = piece.body.model_copy(update={"orders": [order.model_copy(update={"items": items})]})
    assert codes(piece.model_copy(update={"body": body}))["risu.preset.order"] == "/body/orders"


def test_a_per_character_order_is_an_order_loss():
    piece = templated_piece()
    other = PromptOrder(target="100000", items=[OrderItem(identifier="template-0")])
    body = piece.body.model_copy(update={"orders": [*piece.body.orders, other]})
    assert codes(piece.model_copy(update={"body": body}))["risu.preset.order"] == "/body/orders"


def test_a_marker_risuai_has_no_item_for_is_an_order_loss():
    examples = PromptBlock(identifier="dialogueExamples", name="Examples", marker=True)
    assert codes(with_block(templated_piece(), examples, 3))["risu.preset.order"] == "/body/orders"


@given(
    at=st.integers(min_value=0, max_value=len(TEMPLATED["promptTemplate"])),
    count=st.integers(min_value=1, max_value=3),
    role=st.sampled_from(["system", "user", "assistant"]),
)
def test_blocks_added_anywhere_are_never_an_order_loss_and_one_left_out_always_is(at, count, role):
    piece = templated_piece()
    for n in range(count):
        piece = with_block(piece, PromptBlock(identifier=f"added-{n}", content=f"Text {n}.", role=role), at)
    assert "risu.preset.order" not in codes(piece)
    left_out = piece.body.prompts[3 + at % len(TEMPLATED["promptTemplate"])].identifier
    prompts = [b.model_copy(update={"enabled": b.identifier != left_out}) for b in piece.body.prompts]
    piece = piece.model_copy(update={"body": piece.body.model_copy(update={"prompts": prompts})})
    assert codes(piece)["risu.preset.order"] == "/body/orders"
