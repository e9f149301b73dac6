"""A damaged .risum is corrupt_file, with or without the RPack table; never invalid_json, never kept."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from risu_support import fake_checkout, module_bytes
from test_risu_binary import MODULE

from bunzai.adapters.inspect import read_bytes
from bunzai.adapters.risu import rpack
from bunzai.errors import BunzaiError


def module(tmp_path) -> bytes:
    return module_bytes(MODULE, fake_checkout(tmp_path / "table"), [b"\x89PNG sky" * 40])


def refusal(data: bytes) -> str:
    with pytest.raises(BunzaiError) as raised:
        read_bytes(data, "weather.risum")
    return raised.value.code


@pytest.mark.parametrize("cut", [3, 6, 20, -300, -2, -1])
def test_a_cut_module_is_corrupt_without_a_table(no_table, tmp_path, cut):
    data = module(tmp_path)
    assert read_bytes(data, "weather.risum")[0].format_id == "risu.module"  # whole, it is taken (not decoded)
    assert refusal(data[:cut]) == "corrupt_file"


@pytest.mark.parametrize("cut", [3, 6, 20, -300, -2, -1])
def test_a_cut_module_is_corrupt_with_a_table(table, cut):
    data = module_bytes(MODULE, table, [b"\x89PNG sky" * 40])
    assert refusal(data[:cut]) == "corrupt_file"


@settings(max_examples=60, deadline=None)
@given(cut=st.integers(2, 10_000), mark=st.integers(2, 255))
def test_any_cut_or_bad_block_mark_is_corrupt(cut, mark):
    table = rpack.Table(bytes(range(256)), bytes(range(256)))  # frame checks only: no table is configured
    rpack.configure_risu_root(None)
    data = module_bytes(MODULE, table, [b"sky" * 30, b"rain"])
    assert refusal(data[: 2 + cut % (len(data) - 2)]) == "corrupt_file"  # a cut of 2 to len - 1 bytes
    end = len(data) - 1
    assert refusal(data[:end] + bytes([mark])) == "corrupt_file"  # an end mark RisuAI would refuse
