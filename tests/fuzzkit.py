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

import atexit
import base64
import gzip
import io
import json
import os
import random
import re
import shutil
import struct
import tempfile
import traceback
import zipfile
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from testkit import CORPUS, assert_valid_as_built, v2_card_png

from bunzai.adapters.common import png
from bunzai.adapters.common.zipsafe import write_archive
from bunzai.convert import convert_piece
from bunzai.errors import BunzaiError

# Values put where a document had something else: every JSON type, edge numbers, text that
# broke readers before (a lone surrogate, written as an escape so the JSON stays valid).
WRONG = [
    None,
    True,
    False,
    0,
    -1,
    2**63,
    10**400,
    1.5,
    -0.0,
    1e308,
    "",
    "x",
    "\ud800",
    "../../etc/passwd",
    [],
    [None],
    [[[]]],
    {},
    {"": None},
    {"name": 5},
]


@dataclass
class Seed:
    family: str
    name: str
    data: bytes
    format_id: str | None = None  # the format the seed is written in: sometimes forced on read
    doc: object = None  # the structured document the bytes carry (JSON, a card's chunk, archive members)
    encode: Callable | None = field(default=None, repr=False)  # a mutated doc -> bytes


# Small documents of the formats no corpus file holds (shapes from ../shared/reference).
PERSONAS = {
    "personas": {"user-default.png": "User", "1712345678901-Ada.png": "Ada"},
    "persona_descriptions": {
        "user-default.png": {"description": "I am {{user}}.", "position": 0, "depth": 2, "role": 0},
        "1712345678901-Ada.png": {
            "description": "Ada.",
            "position": 4,
            "depth": 3,
            "role": 1,
            "lorebook": "Engine",
            "title": "Countess",
            "connections": [{"type": "character", "id": "C.png"}],
        },
    },
    "default_persona": "user-default.png",
}
ST_REGEX = [
    {
        "id": "0b7e3f52-7a4c-4f0e-9d7a-3f1c2b9d8e11",
        "scriptName": "Strip OOC",
        "findRegex": "/\\(OOC:.*?\\)/gi",
        "replaceString": "",
        "trimStrings": [],
        "placement": [2],
        "disabled": False,
        "markdownOnly": True,
        "promptOnly": False,
        "runOnEdit": True,
        "substituteRegex": False,
        "minDepth": None,
        "maxDepth": None,
    },
    {
        "id": "a1b2c3d4-0000-4000-8000-000000000001",
        "scriptName": "Hide",
        "findRegex": "<think>[\\s\\S]*?</think>",
        "replaceString": "{{match}}",
        "trimStrings": ["<think>"],
        "placement": [6, 1],
        "disabled": True,
        "markdownOnly": False,
        "promptOnly": True,
        "runOnEdit": False,
        "substituteRegex": 2,
        "minDepth": -1,
        "maxDepth": 3,
    },
]
RISU_MODULE = {
    "name": "Weather",
    "description": "rain and sun",
    "id": "m-1",
    "lorebook": [
        {
            "key": "rain",
            "secondkey": "",
            "insertorder": 100,
            "comment": "Rain",
            "content": "Wet.",
            "mode": "normal",
            "alwaysActive": False,
            "selective": False,
        }
    ],
    "regex": [{"comment": "caps", "in": "rain", "out": "RAIN", "type": "editdisplay"}],
    "trigger": [{"comment": "start", "type": "start", "conditions": [], "effect": []}],
    "assets": [["sky", "", "png"]],
}
RISU_PRESET = {
    "name": "Warm",
    "mainPrompt": "Be {{char}}.",
    "jailbreak": "Stay.",
    "globalNote": "Note.",
    "temperature": 80,
    "frequencyPenalty": 30,
    "PresensePenalty": 20,
    "maxContext": 8000,
    "maxResponse": 300,
    "top_p": 0.9,
    "aiModel": "gpt",
    "promptTemplate": [
        {"type": "plain", "type2": "main", "text": "Main", "role": "system"},
        {"type": "chat", "rangeStart": 0, "rangeEnd": "end"},
    ],
}
SPRITE_PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(13)

# Families whose seeds are JSON files in the corpus; pieces of these are also written into
# the formats below, so every writable format has seeds.
CORPUS_GLOBS = {
    "card-png": ["sillytavern/characters/*.png"],
    "card-json": ["card-architect/*.json", "sillytavern/characters/extracted/*.json"],
    "world": ["sillytavern/worlds/*.json"],
    "preset": [
        "sillytavern/presets/openai/*.json",
        "sillytavern/presets/kobold/*.json",
        "sillytavern/presets/novel/*.json",
        "sillytavern/presets/textgen/*.json",
    ],
    "st-template": [
        "sillytavern/presets/instruct/*.json",
        "sillytavern/presets/context/*.json",
        "sillytavern/presets/sysprompt/*.json",
        "sillytavern/presets/reasoning/*.json",
    ],
    "marinara": ["marinara-engine/*.json"],
    "quickreply": ["sillytavern/quick-replies/*.json"],
    "backyard": ["backyard-byaf/*.byaf", "backyard-byaf/*.png"],
    "textgen": ["text-generation-webui/*"],
}
# (family, format) written from the corpus (or made) pieces of each kind.
WRITTEN = {
    "character": [
        ("charx", "charx"),
        ("risu-charx", "risu.charx"),
        ("backyard", "backyard.byaf"),
        ("agnai", "agnai.character.json"),
        ("agnai", "agnai.card.v3.json"),
        ("agnai", "agnai.tavern.json"),
        ("textgen", "textgen.character.yaml"),
        ("card-json", "ccv3.json"),
        ("marinara", "marinara.character"),
    ],
    "persona": [("marinara", "marinara.persona")],
    "lorebook": [
        ("risu-lorebook", "risu.lorebook"),
        ("risu-module-json", "risu.module.json"),
        ("agnai", "agnai.memory.json"),
        ("world", "lorebook_v3.json"),
        ("marinara", "marinara.lorebook"),
    ],
    "regex": [("risu-regex", "risu.regex"), ("risu-module-json", "risu.module.json")],
}


def seeds() -> list[Seed]:
    """Real files from ../shared/corpus (where present), files the tests make, and their
    pieces written by bunzai into every format that holds them (RisuAI, Agnai, CHARX, BYAF,
    ... ship no sample files)."""
    from bunzai.adapters.inspect import read_bytes

    made = v2_card_png("Made Card", description="a card the tests make")
    found = [
        Seed("card-png", "made.png", made),
        Seed("native", "made.bunzai.json", _native_of(made)),
        Seed("persona", "personas.json", json.dumps(PERSONAS, indent=2).encode(), "sillytavern.personas"),
        Seed("st-regex", "script.json", json.dumps(ST_REGEX[0], indent=4).encode(), "sillytavern.regex"),
        Seed("st-regex", "scripts.json", json.dumps(ST_REGEX, indent=4).encode(), "sillytavern.regex"),
        Seed("risu-module-json", "weather.json", _dumps(RISU_MODULE | {"type": "risuModule"}), "risu.module.json"),
        Seed(
            "sprites",
            "Ada.zip",
            write_archive(
                [
                    ("joy.png", SPRITE_PNG + b"joy"),
                    ("joy-1.png", SPRITE_PNG),
                    ("smug.png", SPRITE_PNG + b"s"),
                    ("_e.json", b'{"x": 1}'),
                ]
            ),
            "sillytavern.sprites",
        ),
    ]
    found += _risu_binary_seeds()
    for family, globs in CORPUS_GLOBS.items():
        for pattern in globs:
            for path in sorted(CORPUS.glob(pattern)):
                if path.is_file() and path.name != "SOURCES.md" and "schema" not in path.name:
                    found.append(Seed(family, path.name, path.read_bytes()))
    # Written from the small made card and the corpus card JSON (no image): archives holding
    # a 500 KB portrait would make each input of their family a hundred times slower to try.
    sources = [
        seed
        for seed in found
        if seed.name in ("made.png", "seraphina.v2-only.chara.json") or seed.family in ("world", "st-regex", "persona")
    ]
    for seed in sources:
        try:
            _adapter, decoded = read_bytes(seed.data, seed.name)
        except BunzaiError:
            continue
        blobs = {blob.sha256: blob.data for blob in decoded.blobs}
        for piece in decoded.pieces[:1]:
            for family, format_id in WRITTEN.get(piece.kind, []):
                try:
                    crossing = convert_piece(piece, format_id, lambda ref, blobs=blobs: blobs[ref.sha256])
                except BunzaiError:
                    continue
                found.append(Seed(family, f"{Path(seed.name).stem}-{crossing.file_name}", crossing.data, format_id))
    found += [_with_sprites(seed) for seed in found if seed.format_id in ("marinara.character", "marinara.persona")]
    for seed in found:
        if seed.format_id is None:
            try:
                seed.format_id = read_bytes(seed.data, seed.name)[0].format_id
            except BunzaiError:
                pass
        _carry(seed)
    return found


def _with_sprites(seed: Seed) -> Seed:
    """A Marinara character or persona export with sprites (today's Marinara writes them beside
    the card or row: marinara/sprites.py), so the mutations reach the sprites' reading and writing."""
    envelope = json.loads(seed.data)
    url = "data:image/png;base64," + base64.b64encode(SPRITE_PNG).decode()
    envelope["data"]["sprites"] = [
        {"filename": "joy.png", "data": url},
        {"filename": "joy.png", "data": url},
        {"filename": "sad!.png", "data": url},
    ]
    return Seed(seed.family, f"sprites-{seed.name}", json.dumps(envelope).encode(), seed.format_id)


def _risu_binary_seeds() -> list[Seed]:
    """A .risum module and .risup/.risupreset presets, made with the fuzz table (see risu_table)."""
    from bunzai.adapters.risu import aesgcm
    from bunzai.adapters.risu.preset import IV, KEY

    table = risu_table()[1]

    def module(doc) -> bytes:
        main = table.encode(_dumps({"module": doc, "type": "risuModule"}))
        asset = b"\x89PNG sky"
        return (
            bytes([111, 0])
            + struct.pack("<I", len(main))
            + main
            + b"\x01"
            + struct.pack("<I", len(asset))
            + table.encode(asset)
            + b"\x00"
        )

    def risupreset(doc) -> bytes:
        sealed = aesgcm.encrypt(KEY, IV, _packb(doc))
        return gzip.compress(_packb({"presetVersion": 2, "type": "preset", "preset": sealed}), mtime=0)

    def risup(doc) -> bytes:
        return table.encode(risupreset(doc))

    return [
        Seed("risu-module", "weather.risum", module(RISU_MODULE), "risu.module", RISU_MODULE, module),
        Seed("risu-preset", "warm.risupreset", risupreset(RISU_PRESET), "risu.preset", RISU_PRESET, risupreset),
        Seed("risu-preset", "warm.risup", risup(RISU_PRESET), "risu.preset", RISU_PRESET, risup),
    ]


_TABLE: list = []


def risu_table():
    """(folder, table): a RisuAI checkout layout holding a substitution table of our own
    (RisuAI's is not shipped). Reads name it with `risu_decoding()`."""
    if not _TABLE:
        from bunzai.adapters.risu import rpack

        encode = list(range(256))
        random.Random(7).shuffle(encode)
        decode = [0] * 256
        for plain, packed in enumerate(encode):
            decode[packed] = plain
        root = Path(tempfile.mkdtemp(prefix="bunzai-fuzz-risu-"))
        atexit.register(shutil.rmtree, root, ignore_errors=True)
        path = root / rpack.TABLE_PATH
        path.parent.mkdir(parents=True)
        path.write_bytes(bytes(encode) + bytes(decode))
        _TABLE[:] = [root, rpack.Table(bytes(encode), bytes(decode))]
    return _TABLE[0], _TABLE[1]


@contextmanager
def risu_decoding():
    """RisuAI binaries decode with the fuzz table for the duration (other tests see no checkout)."""
    from bunzai.adapters import registry
    from bunzai.adapters.contract import EngineSettings
    from bunzai.adapters.risu import rpack

    registry.configure(EngineSettings(risu=risu_table()[0], risu_verify_hash=False))
    try:
        yield
    finally:
        rpack.configure_risu_root(None)  # forgetting is the spoke's own (a None setting changes nothing)


def _packb(value) -> bytes:
    """MessagePack for the preset fixtures (maps, arrays, str, bin, ints, floats, bool, nil)."""
    if value is None:
        return b"\xc0"
    if value is True or value is False:
        return b"\xc3" if value else b"\xc2"
    if isinstance(value, int):
        if 0 <= value < 128:
            return bytes([value])
        if -(2**63) <= value < 2**63:
            return b"\xd3" + struct.pack(">q", value)
        return b"\xcf" + struct.pack(">Q", value % 2**64)  # out of range: wrapped, still a number
    if isinstance(value, float):
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        raw = value.encode("utf-8", "surrogatepass")
        return b"\xdb" + struct.pack(">I", len(raw)) + raw
    if isinstance(value, bytes):
        return b"\xc6" + struct.pack(">I", len(value)) + value
    if isinstance(value, list):
        return b"\xdd" + struct.pack(">I", len(value)) + b"".join(_packb(item) for item in value)
    if isinstance(value, dict):
        return b"\xdf" + struct.pack(">I", len(value)) + b"".join(_packb(k) + _packb(v) for k, v in value.items())
    raise TypeError(type(value))


def _native_of(card: bytes) -> bytes:
    """The card as a bunzai.native file (the piece with its assets inline)."""
    from bunzai.adapters.inspect import read_bytes

    _, decoded = read_bytes(card, "made.png")
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    return convert_piece(decoded.pieces[0], "bunzai.native", lambda ref: blobs[ref.sha256]).data


def _carry(seed: Seed) -> None:
    """Find the structured document in a seed's bytes: a JSON or YAML file, a card PNG's chunk,
    the JSON members of an archive (card.json of a CHARX, BYAF's manifest and characters)."""
    if seed.doc is not None:
        return
    data = seed.data
    if data.startswith(png.PNG_SIGNATURE):
        try:
            image = png.read_png(data)
            chunk = png.find_text(image, "chara") or png.find_text(image, "ccv3")
            if chunk is None:
                return
            seed.doc = json.loads(base64.b64decode(chunk.text))
        except (BunzaiError, ValueError):
            return

        def encode_png(new) -> bytes:
            text = base64.b64encode(_dumps(new))
            return png.replace_text(image, {"chara", "ccv3"}, [(chunk.keyword, text)])

        seed.encode = encode_png
    elif data.startswith(b"PK\x03\x04"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [(info.filename, archive.read(info)) for info in archive.infolist()]
        docs = {}
        for name, member in members:
            if name.endswith(".json"):
                try:
                    docs[name] = json.loads(member)
                except ValueError:
                    pass
        if not docs:
            return
        seed.doc = docs

        def encode_zip(new) -> bytes:
            if not isinstance(new, dict):
                new = {}
            return _zip([(name, _dumps(new[name]) if name in new else member) for name, member in members])

        seed.encode = encode_zip
    elif seed.name.endswith((".yaml", ".yml")):
        from bunzai.adapters.common.yamltext import load_yaml_bytes

        try:
            seed.doc = json.loads(json.dumps(load_yaml_bytes(data, what=seed.name)))
        except (BunzaiError, ValueError, TypeError):
            return
        seed.encode = _encode_json  # JSON is YAML: the document stays a YAML file
    else:
        try:
            seed.doc = json.loads(data)
        except ValueError:
            return
        seed.encode = _encode_json


def _encode_json(doc) -> bytes:
    return _dumps(doc)  # looked up at each call, so a test can change how numbers are written


def _dumps(doc) -> bytes:
    """JSON as JavaScript writes it: UTF-8, with a lone surrogate as a \\udXXX escape."""
    text = json.dumps(doc, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text).encode("utf-8")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    """A zip as the platforms write one; unlike write_archive it takes any member name."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(zipfile.ZipInfo(name), data)
    return buffer.getvalue()


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
        piece = data[start : start + rng.randint(1, 4096)]
        data[start:start] = piece * rng.randint(1, 4)
    elif data:
        at = rng.randrange(len(data))
        data[at : at + 4] = rng.choice([b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff", b"\x00\x00\x00\x00"])
    return bytes(data)


_KEYS: list[str] = []


def reader_keys() -> list[str]:
    """Every name quoted in bunzai/adapters (the keys readers ask documents for, and some
    words besides): a seed lacks most of them, and a reader must not trust their type
    either (a v1 quick reply's `contextMenu` as a number crashed, though no seed had one)."""
    if not _KEYS:
        import bunzai.adapters as adapters

        found: set[str] = set()
        for path in Path(adapters.__file__).parent.rglob("*.py"):
            # every quoted name: keys are also listed in tuples and tables (samplers, v1 fields)
            found.update(re.findall(r"""["']([A-Za-z_$][\w$]{0,40})["']""", path.read_text()))
        _KEYS[:] = sorted(found)
    return _KEYS


def wrong_type_at_a_known_key(doc, rng: random.Random):
    """The document with a key some reader asks for added (or replaced) in one of its objects,
    holding a value of any kind."""
    doc = json.loads(json.dumps(doc))
    objects = [path for path in _pointers(doc) if isinstance(_at(doc, path), dict)]
    if not objects:
        return doc
    _at(doc, rng.choice(objects))[rng.choice(reader_keys())] = json.loads(json.dumps(rng.choice(WRONG)))
    return doc


def _at(doc, path: tuple):
    for part in path:
        doc = doc[part]
    return doc


def mutate(seed: Seed, rng: random.Random) -> bytes:
    if seed.doc is not None and rng.random() < 0.6:
        change = wrong_type_at_a_key if rng.random() < 0.6 else wrong_type_at_a_known_key
        return seed.encode(change(seed.doc, rng))
    return byte_mutation(seed.data, rng)


def forced_format(seed: Seed, rng: random.Random) -> str | None:
    """The format a read names (`--format`): mostly none (sniffed), sometimes the seed's own
    (so a mutated document reaches its reader even when sniffing would send it elsewhere),
    rarely any format at all (a YAML file forced to a regex script)."""
    roll = rng.random()
    if roll < 0.25 and seed.format_id:
        return seed.format_id
    if roll < 0.32:
        from bunzai.adapters.registry import all_adapters

        return rng.choice([adapter.format_id for adapter in all_adapters()])
    return None


# --- the oracle --------------------------------------------------------------------------


@dataclass
class Outcome:
    tried: int = 0
    refused: int = 0
    accepted: int = 0
    applied: int = 0  # accepted inputs whose drafts went through apply into the scratch studio
    studio_changes: int = 0  # changes an apply should not have made (see StudioWatch)
    crashes: dict[str, list] = field(default_factory=dict)  # group -> [count, smallest input, name, trace]

    def add_crash(self, group: str, data: bytes, name: str, trace: str) -> None:
        known = self.crashes.get(group)
        if known is None:
            self.crashes[group] = [1, data, name, trace]
        else:
            known[0] += 1
            if len(data) < len(known[1]):
                known[1], known[2] = data, name

    def add(self, other: Outcome) -> None:
        self.tried += other.tried
        self.refused += other.refused
        self.accepted += other.accepted
        self.applied += other.applied
        self.studio_changes += other.studio_changes
        for group, (count, data, name, trace) in other.crashes.items():
            known = self.crashes.setdefault(group, [0, data, name, trace])
            known[0] += count


def crash_group(error: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "/bunzai/" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "outside bunzai"
    return f"{type(error).__name__} at {where}"


def run_one(
    data: bytes,
    name: str,
    outcome: Outcome,
    check: Callable[..., object],
    format_id: str | None = None,
    studio: StudioWatch | None = None,
) -> None:
    """Try one input; with `studio`, an accepted input's drafts are also applied there."""
    outcome.tried += 1
    try:
        drafts = check(data, name, format_id)
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
    if studio is None or not drafts:
        return
    outcome.applied += 1
    try:
        stray = studio.apply(drafts)
    except BunzaiError:
        return
    except Exception as error:  # noqa: BLE001 - as above, for apply
        outcome.add_crash("apply: " + crash_group(error), data, name, traceback.format_exc(limit=-6))
        return
    if stray:
        outcome.studio_changes += len(stray)
        outcome.add_crash(f"studio changed: {sorted(stray)[0]}", data, name, "\n".join(sorted(stray)))


def read_and_follow_through(data: bytes, name: str, format_id: str | None = None) -> list[bytes]:
    """Read a file as import does, then do what follows a read: draft, store bytes, write back.
    Returns the drafts as `bunzai import` prints them (JSON text, for an apply)."""
    from bunzai.adapters.inspect import read_bytes
    from bunzai.changes.imports import _drafts
    from bunzai.model import dump_piece
    from bunzai.store.canon import canonical_bytes

    with risu_decoding():
        adapter, decoded = read_bytes(data, name, format_id)
    drafts = [
        json.dumps(draft, ensure_ascii=False).encode("utf-8")
        for draft in _drafts(adapter, decoded, name, "0" * 64, None)
    ]
    for piece in decoded.pieces:
        assert_valid_as_built(piece)  # readers build their pieces without validation (model/built.py)
        canonical_bytes(dump_piece(piece))
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}
    if adapter.can_write and decoded.pieces and decoded.pieces[0].kind in adapter.kinds:
        with risu_decoding():  # writing .risum/.risup needs the table as reading does
            convert_piece(decoded.pieces[0], adapter.format_id, lambda ref: blobs[ref.sha256])
    return drafts


class StudioWatch:
    """A scratch studio beside a folder it must never touch. Applying an input's drafts may
    change the studio only when some draft applied; a refused apply changes nothing; no write
    lands outside the studio and no temp file is left behind. Each stray path is a studio change."""

    def __init__(self) -> None:
        from bunzai.store.studio import init_studio

        self.parent = Path(tempfile.mkdtemp(prefix="bunzai-fuzz-studio-"))
        (self.parent / "outside").mkdir()
        self.studio, _ = init_studio(self.parent / "studio")

    def snapshot(self) -> dict[str, tuple]:
        found = {}
        for folder, _dirs, files in os.walk(self.parent):
            for file in files:
                path = os.path.join(folder, file)
                if file.endswith(".lock") and os.path.basename(folder) == "locks":
                    continue  # lock files are bookkeeping that outlives a write
                info = os.lstat(path)
                found[os.path.relpath(path, self.parent)] = (info.st_size, info.st_mtime_ns, info.st_ino)
        return found

    def apply(self, drafts: list[bytes]) -> list[str]:
        """Apply drafts (JSON texts, as import prints them); the paths changed that should not be."""
        from bunzai.changes.apply import apply_batch

        before = self.snapshot()
        receipts = apply_batch(self.studio, [json.loads(draft) for draft in drafts])
        after = self.snapshot()
        changed = {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}
        applied = any(receipt.get("status") == "applied" for receipt in receipts)
        return sorted(
            path for path in changed if not applied or not path.startswith("studio" + os.sep) or path.endswith(".tmp")
        )

    def close(self) -> None:
        shutil.rmtree(self.parent, ignore_errors=True)
