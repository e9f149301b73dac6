"""preset.samplers.update refuses `"extra": null` (it would remove every native-only sampler in
one slip) and says so in its description; a null under one native name removes that one only."""

from __future__ import annotations

import pytest

from bunzai.capabilities.discovery import find_capability
from bunzai.capabilities.runner import run_capability
from bunzai.changes.create import create_draft
from bunzai.errors import BunzaiError

CAP = "preset.samplers.update"
EXTRA = {"mirostat_tau": 5, "dry_base": 1.75}


def _preset() -> dict:
    return create_draft("preset", {"name": "Story", "samplers": {"temperature": 1, "extra": EXTRA}})["proposed"]


def test_a_null_extra_is_refused_and_removes_nothing() -> None:
    piece = _preset()
    with pytest.raises(BunzaiError) as caught:
        run_capability(find_capability(CAP), piece, {"extra": None}, baseline="r0")
    assert caught.value.code == "invalid_input" and "'extra'" in caught.value.message and caught.value.hint
    assert piece["body"]["samplers"]["extra"] == EXTRA


def test_a_null_under_one_name_removes_that_sampler_only() -> None:
    draft = run_capability(find_capability(CAP), _preset(), {"extra": {"dry_base": None}}, baseline="r0")
    assert draft["proposed"]["body"]["samplers"]["extra"] == {"mirostat_tau": 5}


def test_the_description_says_extra_cannot_be_null() -> None:
    schema = find_capability(CAP).input_model.model_json_schema()
    assert "null" not in str(schema["properties"]["extra"].get("anyOf", ""))
    assert "`extra` itself cannot be null" in " ".join(schema["description"].split())
