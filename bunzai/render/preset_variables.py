"""A Marinara preset's variables, as Marinara's assembler fills them before it builds a prompt
(packages/server/src/services/prompt/assembler.ts): the preset's variable values, then each
choice block's choice: the one made (render has no chat, so the preset's default choices, which
Marinara's choice dialog starts from), else the block's first option. A multi-select choice
joins its values with the block's separator, or, with random pick, gives one of them.

Marinara's macro engine gives a bare `{{name}}` that nothing else resolved the variable of that
name (macro-engine.ts, the catch-all `{{(\\w+)}}`), from the store its getvar and setvar use;
render puts these in the chat's variables, and MacroEvaluator's bare name reads them there.
Only a Marinara preset has them: the choices live in its escrow (adapters/marinara/preset.py).
"""

from __future__ import annotations

import json
import random
from typing import Any

FORMAT = "marinara.preset"


def _decoded(value: Any, empty: Any) -> Any:
    """A nested value the envelope may hold as a JSON string (as Marinara writes it) or decoded."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return empty
    return value if isinstance(value, type(empty)) else empty


def preset_variables(preset_piece: dict, seed: int = 0) -> dict[str, tuple[str, str]]:
    """name -> (value as written, pointer into the piece where it is written), for a Marinara preset."""
    original = preset_piece.get("original") or {}
    if original.get("format") != FORMAT:
        return {}
    data = _decoded((original.get("document") or {}).get("data"), {})
    preset = _decoded(data.get("preset"), {})
    at = "/original/document/data"
    out = {
        str(name): (str(value), f"{at}/preset/variableValues")
        for name, value in _decoded(preset.get("variableValues"), {}).items()
        if isinstance(value, str | int | float)
    }
    chosen = _decoded(preset.get("defaultChoices"), {})
    for number, block in enumerate(_decoded(data.get("choiceBlocks"), [])):
        if not isinstance(block, dict) or not isinstance(block.get("variableName"), str):
            continue
        name = block["variableName"]
        choice = chosen.get(name)
        if isinstance(choice, list) and choice and str(block.get("multiSelect")) == "true":
            if str(block.get("randomPick")) == "true":  # Marinara picks at random each generation: seeded here
                value = str(random.Random(f"{seed}\x00{name}").choice(choice))
            else:
                value = str(block.get("separator") or ", ").join(str(item) for item in choice)
            out[name] = (value, f"{at}/preset/defaultChoices")
        elif isinstance(choice, str | list) and choice != []:
            out[name] = (str(choice[0] if isinstance(choice, list) else choice), f"{at}/preset/defaultChoices")
        else:
            options = _decoded(block.get("options"), [])
            if options and isinstance(options[0], dict) and "value" in options[0]:
                out[name] = (str(options[0]["value"]), f"{at}/choiceBlocks/{number}/options")
    return out
