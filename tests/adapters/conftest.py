"""Fixtures the RisuAI adapter tests share: the RPack table configured from a fake checkout, or none."""

from __future__ import annotations

import pytest
from risu_support import configured_checkout

from bunzai.adapters.risu import rpack


@pytest.fixture
def table(tmp_path, monkeypatch):
    """A RisuAI checkout's RPack table, configured for the test (risu_support.configured_checkout)."""
    yield from configured_checkout(tmp_path, monkeypatch)


@pytest.fixture
def no_table(monkeypatch):
    """No RisuAI checkout configured: the RPack formats are unavailable."""
    monkeypatch.delenv(rpack.ENV_ROOT, raising=False)
    rpack.configure_risu_root(None)
    yield
    rpack.configure_risu_root(None)  # a test that configured one leaves none behind
