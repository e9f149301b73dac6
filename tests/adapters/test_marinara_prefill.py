"""The assistant prefill: SillyTavern's `assistant_prefill` and Marinara Engine's
`parameters.assistantPrefill` (generate.routes.ts ends the prompt with it as an assistant
message) are the canonical utility prompt `assistant_prefill`, both ways."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from marinara_support import no_media, read

from bunzai.adapters.inspect import read_bytes
from bunzai.convert import convert_piece
from testkit import corpus_path


def st_preset(prefill: str) -> bytes:
    prompts = [{"identifier": "main", "name": "Main", "role": "system", "content": "Be kind."}]
    order = [{"identifier": "main", "enabled": True}]
    preset = {
        "assistant_prefill": prefill,
        "prompts": prompts,
        "prompt_order": [{"character_id": 100001, "order": order}],
    }
    return json.dumps(preset).encode()


def parameters(data: bytes) -> dict:
    return json.loads(json.loads(data)["data"]["preset"]["parameters"])


@given(prefill=st.text(max_size=40))
def test_a_sillytavern_prefill_crosses_to_marinara_and_back(prefill):
    _adapter, decoded = read_bytes(st_preset(prefill), "p.json", "sillytavern.preset.chat")
    crossing = convert_piece(decoded.pieces[0], "marinara.preset", no_media)
    assert parameters(crossing.data)["assistantPrefill"] == prefill
    assert not [loss for loss in crossing.losses if loss.pointer == "/body/utility_prompts/assistant_prefill"]
    _adapter, back = read(crossing.data)
    to_st = convert_piece(back.pieces[0], "sillytavern.preset.chat", no_media)
    assert json.loads(to_st.data)["assistant_prefill"] == prefill


def test_a_marinara_prefill_is_read_and_an_edit_rewrites_only_it():
    document = json.loads(corpus_path("marinara-engine", "default-preset.marinara.json").read_bytes())
    params = json.loads(document["data"]["preset"]["parameters"])
    params["assistantPrefill"] = "<thinking>"
    document["data"]["preset"]["parameters"] = json.dumps(params, separators=(",", ":"))
    _adapter, decoded = read(json.dumps(document).encode())
    piece = decoded.pieces[0]
    assert piece.body.utility_prompts == {"assistant_prefill": "<thinking>"}
    edited = piece.model_copy(
        update={"body": piece.body.model_copy(update={"utility_prompts": {"assistant_prefill": "Sure,"}})}
    )
    crossing = convert_piece(edited, "marinara.preset", no_media)
    assert parameters(crossing.data) == params | {"assistantPrefill": "Sure,"}
    assert crossing.losses == []
