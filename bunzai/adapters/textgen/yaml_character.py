"""text-generation-webui's YAML character: `{name, greeting, context}` (+ `your_name`/`user`).

textgen loads `user_data/characters/<name>.yaml` (or `.yml`, `.json`; modules/chat.py
`load_character`): the name from `name` (or `bot`, `<|bot|>`, `char_name`; without one, the
name set in its settings), the first message from `greeting`, and one `context` string that
holds everything else the model reads.

Mapping: `context` <-> description, `greeting` <-> first_message. Writing folds what has no
key of its own into the context, as textgen's own Pygmalion import does: the scenario as a
`Scenario: ...` paragraph and the example messages as a last paragraph. An old file's
`example_dialogue` key reads as the example messages (textgen appended it to the context
until August 2023, and ignores it since), and is folded into the context on write. Reading
does not unfold: the context is the description, as written. `<USER>`/`<BOT>` read as
`{{user}}`/`{{char}}` (see names.py). `your_name`/`user` is the user's name: kept in the
escrow. Written with ruamel.yaml, keys in order, multi-line strings as `|` blocks.
"""

from __future__ import annotations

import copy
import datetime
from typing import Any

from bunzai.adapters.common.drift import MISSING, as_str
from bunzai.adapters.common.fieldmap import put
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.common.yamltext import load_yaml_bytes
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.registry import register
from bunzai.adapters.textgen.character_losses import (
    CONTEXT_FOLDED,
    PORTRAIT_BESIDE,
    not_carried,
    respelled,
    unfilled_macros,
)
from bunzai.adapters.textgen.names import read_text
from bunzai.adapters.textgen.yaml_out import yaml_bytes
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.model.character import Character

FORMAT_ID = "textgen.character.yaml"
NAME_KEYS = ("name", "bot", "<|bot|>", "char_name")
# Every key textgen's loader reads from a character file (besides the Pygmalion ones).
KNOWN_KEYS = frozenset((*NAME_KEYS, "your_name", "user", "<|user|>", "greeting", "context", "example_dialogue"))


def name_key(document: dict) -> str:
    """The key the character's name is read from: the first non-empty of NAME_KEYS, else `name`."""
    return next((key for key in NAME_KEYS if as_str(document.get(key))), "name")


def fold_context(description: str, scenario: str, examples: str | None) -> str:
    """The context for a character: the description, then the scenario and the examples as paragraphs."""
    parts = [description, f"Scenario: {scenario}" if scenario else "", (examples or "").strip()]
    return "\n\n".join(part for part in parts if part)


def _jsonable(value: Any, where: str) -> Any:
    """The YAML document as JSON values: dates as ISO text, keys as text; other tags refused."""
    if isinstance(value, dict):
        return {str(key): _jsonable(item, where) for key, item in value.items()}
    if isinstance(value, list):
        return [_jsonable(item, where) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise BunzaiError(
        "unsupported",
        f"{where} holds a YAML {type(value).__name__}, which a character file does not",
        "keep to text, numbers, lists and mappings",
    )


class TextgenYamlCharacter(Adapter):
    format_id = FORMAT_ID
    label = "text-generation-webui character (YAML)"
    kinds = ("character",)
    extensions = (".yaml", ".yml")
    container = "text"
    portrait_beside = PORTRAIT_BESIDE

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        if not isinstance(parsed, dict):
            return 0.0
        has_name = any(key in parsed for key in NAME_KEYS)
        has_text = "context" in parsed or "greeting" in parsed
        only_textgen = all(key in KNOWN_KEYS for key in parsed)
        if not name.lower().endswith((".yaml", ".yml")):
            # textgen loads `characters/<name>.json` of the same keys (and uploads them) too,
            # reading its context before any Pygmalion field
            if not name.lower().endswith(".json") or not has_name:
                return 0.0
            return 0.85 if "context" in parsed else 0.6 if has_text and only_textgen else 0.0
        if has_name and has_text:
            return 0.8
        # textgen loads a file without a name (its settings name the character), and writes
        # one without a greeting or context when they are empty
        return 0.6 if (has_text or has_name) and only_textgen else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        if parsed is None:
            parsed = load_yaml_bytes(data, what=name or "the YAML character")
        if not isinstance(parsed, dict):
            raise BunzaiError(
                "corrupt_file",
                f"{name or 'the file'} is not a textgen character: it holds a YAML "
                f"{type(parsed).__name__}, not a mapping",
                "give the character's .yaml file",
            )
        document = _jsonable(copy.deepcopy(parsed), name or "the file")
        char_name = as_str(document.get(name_key(document)))
        body = {
            "description": read_text(document.get("context", MISSING)),
            "first_message": read_text(document.get("greeting", MISSING)),
            "example_messages": read_text(document.get("example_dialogue", MISSING)),
        }
        original = {"format": FORMAT_ID, "document": document}
        hint = "fix the value in the character's .yaml file"
        return Decoded([read_piece(Character, char_name, name, "character", body, original, hint)])

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        original = piece.original
        base = original.document if original is not None and original.format == FORMAT_ID else None
        document = copied(base) if isinstance(base, dict) else {"name": "", "greeting": "", "context": ""}
        body = piece.body
        put(document, name_key(document), piece.name, as_str)
        put(document, "greeting", body.first_message, read_text)
        # textgen has read only the context since August 2023, ignoring `example_dialogue`:
        # the examples are folded into the context, as it used to append them
        if read_text(document.get("example_dialogue")):
            del document["example_dialogue"]
        put(document, "context", fold_context(body.description, body.scenario, body.example_messages), read_text)
        carried = {"description", "first_message", "example_messages", "scenario"}
        losses = not_carried(piece, frozenset(carried), "A textgen YAML character")
        folded = self._folded(body)
        # a folded description is reported as such; its respelled names go with it
        losses += folded + respelled(body, ("first_message",) if folded else ("first_message", "description"))
        losses += unfilled_macros(piece, ("description", "first_message", "scenario", "example_messages"))
        return Encoded(yaml_bytes(document), losses)

    @staticmethod
    def _folded(body: Any) -> list[Loss]:
        folded = [field for field in ("scenario", "example_messages") if getattr(body, field)]
        losses = [CONTEXT_FOLDED.at(f"/body/{field}") for field in folded]
        if folded:
            why = (
                "the context holds the description followed by the "
                f"{' and '.join(folded)}; reading it back gives them all as the description"
            )
            losses.append(CONTEXT_FOLDED.at("/body/description", why))
        return losses


register(TextgenYamlCharacter())
