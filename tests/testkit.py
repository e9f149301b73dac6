"""Helpers test modules import (`from testkit import corpus_path`): paths to the shared
corpus and the installed command. They live here, not in conftest.py, because several
folders have a conftest.py and `from testkit import ...` would find whichever loaded first.
"""

from __future__ import annotations

import base64
import json
import os
import random
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from pydantic import BaseModel

from bunzai.adapters.common.png import PNG_SIGNATURE, text_chunk

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"


def corpus_path(*parts: str) -> Path:
    """A path in ../shared/corpus; the test is skipped, with the reason, where it is absent."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"corpus file {path} is absent (../shared/corpus is not beside this checkout)")
    return path


def bunzai_executable() -> list[str]:
    script = Path(sys.executable).with_name("bunzai")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bunzai"]


def v2_card_png(name: str, *, description: str = "", seed: int = 0, more: dict | None = None) -> bytes:
    """A Character Card V2 PNG as SillyTavern writes one: a small image whose colour comes from
    `seed`, and the card in a base64 `chara` tEXt chunk before IEND; `more` adds to its `data`
    (a `character_book`, `extensions`)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rgb = bytes(((seed * 37) % 256, (seed * 91) % 256, (seed * 53) % 256))
    image = zlib.compress(b"".join(b"\0" + rgb * 8 for _ in range(8)))
    data = {
        "name": name,
        "description": description or f"{name} keeps the lighthouse.",
        "personality": "",
        "scenario": "",
        "first_mes": f"Hello from {name}.",
        "mes_example": "",
        "creator_notes": "",
        "system_prompt": "",
        "post_history_instructions": "",
        "alternate_greetings": [],
        "tags": [],
        "creator": "tests",
        "character_version": "1",
        "extensions": {},
        **(more or {}),
    }
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": data}
    card.update(
        {key: data[key] for key in ("name", "description", "personality", "scenario", "first_mes", "mes_example")}
    )
    text = base64.b64encode(json.dumps(card, ensure_ascii=False).encode("utf-8"))
    return (
        PNG_SIGNATURE
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", image)
        + text_chunk("chara", text)
        + chunk(b"IEND", b"")
    )


def big_card(name: str, side: int = 64) -> bytes:
    """A V2 card whose `chara` chunk comes before a side x side image of noise (as some editors
    write it): its portrait, the file without the chunk, is big enough to be a splice's base."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    noise = random.Random(side)
    rows = b"".join(b"\0" + bytes(noise.randrange(256) for _ in range(side * 3)) for _ in range(side))
    card = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": name, "description": "big"}}
    text = base64.b64encode(json.dumps(card).encode("utf-8"))
    return (
        PNG_SIGNATURE
        + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
        + text_chunk("chara", text)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def start_writing_into(bunzai, args: list[str], stdout_fd: int, *, buffered: bool) -> subprocess.Popen:
    """Start `bunzai ARGS` (in the `bunzai` fixture's studio) with stdout the descriptor given,
    which is closed here once the child holds it; stderr is a pipe. `buffered` False runs Python
    unbuffered (PYTHONUNBUFFERED), where each write goes to the descriptor at once."""
    env = {key: value for key, value in bunzai.env().items() if key != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    try:
        return subprocess.Popen(
            bunzai_executable() + list(args),
            stdout=stdout_fd,
            stderr=subprocess.PIPE,
            env=env,
            cwd=bunzai.cwd,
            start_new_session=True,
        )
    finally:
        os.close(stdout_fd)


def node_asker(harness: str, script: Path):
    """A node process running `harness` on a platform's `script`, asked one JSON question a line:
    a module fixture's body, `yield from node_asker(_HARNESS, script)` (the process ends after)."""
    node = subprocess.Popen(
        ["node", "-e", harness, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )

    def ask(question: dict):
        node.stdin.write(json.dumps(question) + "\n")
        node.stdin.flush()
        return json.loads(node.stdout.readline())

    try:
        yield ask
    finally:
        node.stdin.close()
        node.wait(timeout=10)


def st_bob_library(tmp_path, book: dict, world: dict, *, bound: bool):
    """A SillyTavern data folder (`ST/`) holding `worlds/Lore.json` (`world`) and
    `characters/Bob.png`, a card whose own book is `book`, bound to Lore or to no world."""
    import json

    root = tmp_path / "ST"
    (root / "characters").mkdir(parents=True)
    (root / "worlds").mkdir()
    (root / "worlds" / "Lore.json").write_text(json.dumps(world), encoding="utf-8")
    more = {"character_book": book, "extensions": {"world": "Lore"} if bound else {}}
    (root / "characters" / "Bob.png").write_bytes(v2_card_png("Bob", more=more))
    return root


def text_loaded(story: str, card: dict, *, sequences: dict | None = None, templates: dict | None = None) -> dict:
    """What render.gather returns for a text-completion render, built in memory: a context template
    of `story` (and `sequences`), the card Sera holding `card`, a chat of one "Hello.", `templates`
    (family -> (id, preset)) beside it."""
    sequences = {"story_string": story, **(sequences or {})}
    return {
        "preset_id": "ctx",
        "preset": {"name": "Ctx", "body": {"family": "context", "templates": {"sequences": sequences, "options": {}}}},
        "character_id": "c",
        "character": {"name": "Sera", "body": card},
        "persona_id": None,
        "persona": None,
        "books": [],
        "regex": [],
        "chat": [{"role": "user", "content": "Hello."}],
        "templates": templates or {},
    }


def macro_read(engine: str, raw: str) -> tuple[str | None, list[str]] | None:
    """(op, arguments) as bunzai reads the token `raw` in `engine`'s catalog; None where it reads no macro."""
    from bunzai.macros.catalog import catalog_for
    from bunzai.macros.equivalence import resolve
    from bunzai.macros.syntax import parse_token

    cat = catalog_for(engine)
    token = parse_token(raw, 0, cat.syntax)
    entry = resolve(cat, token)
    return None if entry is None else (entry.op, token.args)


def fail_syncfs(monkeypatch, failing) -> None:
    """Make the store's syncfs raise EIO, as a failing disk does, on the calls `failing(n)` is
    true for (n counts this test's calls from 1); the others sync. Undone by `monkeypatch.undo()`."""
    import errno

    from bunzai.store import batch

    real, calls = batch._SYNCFS, []

    def syncfs(fd):
        calls.append(fd)
        if failing(len(calls)):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(fd)

    monkeypatch.setattr(batch, "_SYNCFS", syncfs)


def assert_valid_as_built(piece) -> None:
    """A piece a reader built without validation (bunzai/model/built.py) is what validating its
    own dump gives: the same values, of the same types; and none of its lists and dicts is one of
    its escrowed document's (validation made new ones, so an edit of the piece could never reach
    the document it was read from)."""
    again = type(piece).model_validate(piece.model_dump())
    assert again.model_dump_json() == piece.model_dump_json()
    assert again == piece  # a list where the model holds a tuple dumps alike, but is not equal
    escrowed = _containers(piece.original.document if piece.original is not None else None)
    assert not escrowed & _containers([getattr(piece, name) for name in type(piece).model_fields if name != "original"])


def _containers(value) -> set[int]:
    """The ids of the lists and dicts in `value`, models entered by their fields."""
    found, stack = set(), [value]
    while stack:
        item = stack.pop()
        if isinstance(item, BaseModel):
            stack.extend(item.__dict__.values())
        elif isinstance(item, (list, dict)):
            found.add(id(item))
            stack.extend(item.values() if isinstance(item, dict) else item)
        elif isinstance(item, tuple):
            stack.extend(item)
    return found
