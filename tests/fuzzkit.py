"""Fuzzing every reader: seeds from real files, structured and byte-level mutations, and an
oracle that says whether an input crashed bunzai (issue 17).

A reader may refuse an input (a BunzaiError, a coded refusal): that is a clean answer. Any
other exception is a crash, grouped by its type and the innermost bunzai frame. An input a
reader accepts must also survive what follows a read: the pieces are dumped to canonical
bytes (as apply stores them), the drafts are encoded as JSON (as import prints them), and
each piece is written back to the format it came from (as export does).

`tests/test_fuzz_readers.py` runs a small budget through hypothesis on every CI run;
`bench/fuzz.py` runs a large one.
"""

from __future__ import annotations

import base64
import json
import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from testkit import CORPUS, v2_card_png

from bunzai.adapters.common import png
from bunzai.errors import BunzaiError

# Values put where a document had something else: every JSON type, edge numbers, text that
# broke readers before (a lone surrogate, written as an escape so the JSON stays valid).
WRONG = [None, True, False, 0, -1, 2**63, 10**400, 1.5, -0.0, 1e308, "", "x", "\ud800", "../../etc/passwd",
         [], [None], [[[]]], {}, {"": None}, {"name": 5}]


@dataclass
class Seed:
    family: str
    name: str
    data: bytes


def seeds() -> list[Seed]:
    """Real files from ../shared/corpus (where present) and files the tests make."""
    made = v2_card_png("Made Card", description="a card the tests make")
    found = [Seed("card-png", "made.png", made), Seed("native", "made.bunzai.json", _native_of(made))]
    patterns = {
        "card-png": ["sillytavern/characters/*.png"],
        "card-json": ["card-architect/*.json", "sillytavern/characters/extracted/*.json"],
        "world": ["sillytavern/worlds/*.json"],
        "preset": ["sillytavern/presets/*/*.json", "marinara-engine/*.json"],
        "quickreply": ["sillytavern/quick-replies/*.json"],
        "backyard": ["backyard-byaf/*.byaf", "backyard-byaf/*.png"],
        "textgen": ["text-generation-webui/*"],
    }
    for family, globs in patterns.items():
        for pattern in globs:
            for path in sorted(CORPUS.glob(pattern)):
                if path.is_file() and path.name != "SOURCES.md" and "schema" not in path.name:
                    found.append(Seed(family, path.name, path.read_bytes()))
    return found


def _native_of(card: bytes) -> bytes:
    """The card as a bunzai.native file (the piece with its assets inline)."""
    from bunzai.adapters.inspect import read_bytes
    from bunzai.convert import convert_piece

    _, decoded = read_bytes(card, "made.png")
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    return convert_piece(decoded.pieces[0], "bunzai.native", lambda ref: blobs[ref.sha256]).data


# --- mutations ---------------------------------------------------------------------------


def _pointers(value, path=()) -> list[tuple]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _pointers(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _pointers(item, path + (index,))
    return found


def _replace(doc, path: tuple, new):
    if not path:
        return new
    holder = doc
    for part in path[:-1]:
        holder = holder[part]
    holder[path[-1]] = new
    return doc


def wrong_type_at_a_key(doc, rng: random.Random):
    """The document with one value (anywhere) replaced by a value of another kind."""
    doc = json.loads(json.dumps(doc))
    path = rng.choice(_pointers(doc))
    return _replace(doc, path, json.loads(json.dumps(rng.choice(WRONG))) if rng.random() < 0.9 else rng.choice(WRONG))


def _json_of(seed: Seed):
    """(document, encode) when the seed carries JSON: a JSON file, or a card PNG's chunk."""
    if seed.data.startswith(png.PNG_SIGNATURE):
        try:
            image = png.read_png(seed.data)
            chunk = png.find_text(image, "chara") or png.find_text(image, "ccv3")
            if chunk is None:
                return None
            doc = json.loads(base64.b64decode(chunk.text))
        except (BunzaiError, ValueError):
            return None

        def encode(new) -> bytes:
            text = base64.b64encode(json.dumps(new).encode("utf-8", "surrogatepass"))
            return png.replace_text(image, {"chara", "ccv3"}, [(chunk.keyword, text)])

        return doc, encode
    try:
        doc = json.loads(seed.data)
    except ValueError:
        return None
    return doc, lambda new: json.dumps(new, ensure_ascii=False).encode("utf-8", "surrogatepass")


def byte_mutation(data: bytes, rng: random.Random) -> bytes:
    """Bit flips, a cut, an inserted run, a repeated slice, or a huge length field."""
    data = bytearray(data)
    choice = rng.randrange(5)
    if choice == 0 and data:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif choice == 1:
        data = data[: rng.randrange(len(data) + 1)]
    elif choice == 2:
        at = rng.randrange(len(data) + 1)
        data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    elif choice == 3 and data:
        start = rng.randrange(len(data))
        piece = data[start:start + rng.randint(1, 4096)]
        data[start:start] = piece * rng.randint(1, 4)
    elif data:
        at = rng.randrange(len(data))
        data[at:at + 4] = rng.choice([b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff", b"\x00\x00\x00\x00"])
    return bytes(data)


def mutate(seed: Seed, rng: random.Random) -> bytes:
    carried = _json_of(seed)
    if carried is not None and rng.random() < 0.6:
        doc, encode = carried
        return encode(wrong_type_at_a_key(doc, rng))
    return byte_mutation(seed.data, rng)


# --- the oracle --------------------------------------------------------------------------


@dataclass
class Outcome:
    tried: int = 0
    refused: int = 0
    accepted: int = 0
    crashes: dict[str, list] = field(default_factory=dict)  # group -> [count, smallest input, name, trace]

    def add_crash(self, group: str, data: bytes, name: str, trace: str) -> None:
        known = self.crashes.get(group)
        if known is None:
            self.crashes[group] = [1, data, name, trace]
        else:
            known[0] += 1
            if len(data) < len(known[1]):
                known[1], known[2] = data, name


def crash_group(error: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "/bunzai/" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "outside bunzai"
    return f"{type(error).__name__} at {where}"


def run_one(data: bytes, name: str, outcome: Outcome, check: Callable[[bytes, str], None]) -> None:
    outcome.tried += 1
    try:
        check(data, name)
    except BunzaiError:
        outcome.refused += 1
        return
    except RecursionError as error:
        outcome.add_crash(crash_group(error), data, name, "RecursionError")
        return
    except Exception as error:  # noqa: BLE001 - the oracle: anything but a coded refusal is a crash
        outcome.add_crash(crash_group(error), data, name, traceback.format_exc(limit=-6))
        return
    outcome.accepted += 1


def read_and_follow_through(data: bytes, name: str) -> None:
    """Read a file as import does, then do what follows a read: draft, store bytes, write back."""
    from bunzai.adapters.inspect import read_bytes
    from bunzai.changes.imports import _drafts
    from bunzai.convert import convert_piece
    from bunzai.model import dump_piece
    from bunzai.store.canon import canonical_bytes

    adapter, decoded = read_bytes(data, name)
    for draft in _drafts(adapter, decoded, name, "0" * 64, None):
        json.dumps(draft, ensure_ascii=False).encode("utf-8")
    for piece in decoded.pieces:
        canonical_bytes(dump_piece(piece))
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    if adapter.can_write and decoded.pieces and decoded.pieces[0].kind in adapter.kinds:
        convert_piece(decoded.pieces[0], adapter.format_id, lambda ref: blobs[ref.sha256])
