"""A Marinara preset with many marker sections writes in a bounded number of passes over its
sections: the escrowed file's identifiers are read once per write, not once per marker block."""

from __future__ import annotations

import json

from marinara_support import envelope, no_media, read

from bunzai.adapters.marinara import preset_rows
from bunzai.convert import convert_piece


def marker_preset(count: int) -> bytes:
    sections = [
        {
            "id": f"s{index}",
            "presetId": "p1",
            "identifier": f"agent{index}",
            "name": f"Agent {index}",
            "content": "",
            "role": "system",
            "enabled": "true",
            "isMarker": "true",
            "groupId": None,
            "markerConfig": json.dumps({"type": "agent_data", "agentType": f"agent{index}"}),
            "injectionPosition": "ordered",
            "injectionDepth": 0,
            "injectionOrder": 100,
            "forbidOverrides": "false",
        }
        for index in range(count)
    ]
    preset = {"id": "p1", "name": "Agents", "sectionOrder": json.dumps([row["id"] for row in sections])}
    return envelope("marinara_preset", {"preset": preset, "sections": sections, "groups": [], "choiceBlocks": []})


def test_the_sections_are_read_a_bounded_number_of_times_per_write(monkeypatch):
    raw = marker_preset(300)
    _adapter, decoded = read(raw)
    piece = decoded.pieces[0]
    calls = []
    real = preset_rows.identifiers_of
    monkeypatch.setattr(preset_rows, "identifiers_of", lambda sections: calls.append(1) or real(sections))
    crossing = convert_piece(piece, "marinara.preset", no_media)
    assert json.loads(crossing.data) == json.loads(raw) and crossing.losses == []
    assert len(calls) < 10  # a pass per marker block made 300 more
