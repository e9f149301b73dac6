"""The card family is one shape: every ordered pair of card formats, on the corpus cards and
on a generated card with non-default SillyTavern extensions and unknown keys at every level.

The check reads the files itself (PNG text chunks, the CHARX's card.json, the JSON), never
through bunzai's model: every JSON pointer under the source card's `data` is either in the
target's `data` with the same value, or named by a loss of the crossing at that pointer
(under /original/document), and never only by the generic escrow loss. Every written card
passes a validator implemented from the V2 and V3 specs' required fields.
"""

from __future__ import annotations

import base64
import io
import json
import struct
import zipfile

import pytest
from cards_support import read
from testkit import corpus_path

from bunzai.convert import convert_piece

FAMILY = [
    "sillytavern.card.png",
    "sillytavern.card.json",
    "ccv2.json",
    "ccv3.json",
    "charx",
    "risu.charx",
    "agnai.tavern.json",
]
EXTENSION = {"sillytavern.card.png": ".png", "charx": ".charx", "risu.charx": ".charx"}


# --- reading the files without bunzai ----------------------------------------------------


def png_text_chunks(data: bytes) -> dict[str, bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, offset = {}, 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        if kind == b"tEXt":
            keyword, _, text = body.partition(b"\0")
            chunks[keyword.decode("latin-1")] = text
        offset += 12 + length
    return chunks


def card_documents(data: bytes, format_id: str) -> dict[str, dict]:
    """{where: card document}: a PNG's chunks by keyword, else the one document under ""."""
    if format_id == "sillytavern.card.png":
        return {
            f"/{key}": json.loads(base64.b64decode(text))
            for key, text in png_text_chunks(data).items()
            if key in ("chara", "ccv3")
        }
    if format_id in ("charx", "risu.charx"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return {"": json.loads(archive.read("card.json"))}
    return {"": json.loads(data)}


def primary(documents: dict[str, dict]) -> tuple[str, dict]:
    """The document an app reads: a PNG's ccv3 chunk wins over chara (the V3 spec)."""
    for where in ("/ccv3", "/chara", ""):
        if where in documents:
            return where, documents[where]
    raise AssertionError("no card document")


def leaves(value, pointer: str = ""):
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from leaves(item, f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from leaves(item, f"{pointer}/{index}")
    else:
        yield pointer, value


def at(document, pointer: str):
    for raw in pointer.split("/")[1:]:
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(document, list) and key.isdigit() and int(key) < len(document):
            document = document[int(key)]
        elif isinstance(document, dict) and key in document:
            document = document[key]
        else:
            return KeyError
    return document


# --- a validator from the specs' required fields -------------------------------------------

_V2_STRINGS = (
    "name",
    "description",
    "personality",
    "scenario",
    "first_mes",
    "mes_example",
    "creator_notes",
    "system_prompt",
    "post_history_instructions",
    "creator",
    "character_version",
)


def spec_errors(document: dict, version: str) -> list[str]:
    """What a card document lacks of the V2 or V3 spec's required fields (an empty list: valid)."""
    errors = []
    spec, spec_version = ("chara_card_v2", "2.0") if version == "v2" else ("chara_card_v3", "3.0")
    if document.get("spec") != spec:
        errors.append(f"spec is not {spec}")
    if version == "v2" and document.get("spec_version") != spec_version:
        errors.append("spec_version is not 2.0")
    if version == "v3" and not isinstance(document.get("spec_version"), str):
        errors.append("spec_version is not a string")
    data = document.get("data")
    if not isinstance(data, dict):
        return errors + ["no data object"]
    errors += [f"data.{key} is not a string" for key in _V2_STRINGS if not isinstance(data.get(key), str)]
    for key in ("alternate_greetings", "tags") + (("group_only_greetings",) if version == "v3" else ()):
        if not isinstance(data.get(key), list) or not all(isinstance(item, str) for item in data[key]):
            errors.append(f"data.{key} is not a list of strings")
    if not isinstance(data.get("extensions"), dict):
        errors.append("data.extensions is not an object")
    book = data.get("character_book")
    if book is not None:
        if (
            not isinstance(book, dict)
            or not isinstance(book.get("extensions"), dict)
            or not isinstance(book.get("entries"), list)
        ):
            return errors + ["character_book lacks extensions or entries"]
        for index, entry in enumerate(book["entries"]):
            required = {
                "keys": list,
                "content": str,
                "extensions": dict,
                "enabled": bool,
                "insertion_order": (int, float),
            }
            if version == "v3":
                required["use_regex"] = bool
            errors += [
                f"entry {index}: {key}" for key, kind in required.items() if not isinstance(entry.get(key), kind)
            ]
    return errors


def validate(data: bytes, format_id: str) -> list[str]:
    documents = card_documents(data, format_id)
    if format_id == "sillytavern.card.png":
        return spec_errors(documents["/chara"], "v2") + spec_errors(documents["/ccv3"], "v3")
    version = "v3" if format_id in ("ccv3.json", "charx", "risu.charx") else "v2"
    return spec_errors(documents[""], version)


# --- the seeds --------------------------------------------------------------------------


def generated_card() -> bytes:
    """A V2 card with non-default SillyTavern extensions and unknown keys at every level."""
    entry = {
        "keys": ["eldoria", "forest"],
        "content": "The forest of Eldoria.",
        "extensions": {
            "position": 4,
            "depth": 2,
            "role": 1,
            "probability": 70,
            "useProbability": True,
            "x_entry_app": {"w": 3},
        },
        "enabled": True,
        "insertion_order": 40,
        "case_sensitive": True,
        "name": "Eldoria entry",
        "priority": 7,
        "id": 0,
        "comment": "the forest",
        "selective": True,
        "secondary_keys": ["glade"],
        "constant": False,
        "position": "after_char",
        "use_regex": False,
        "x_unknown_entry": [1, {"deep": True}],
    }
    book = {
        "name": "Eldoria",
        "description": "The book of the forest.",
        "scan_depth": 5,
        "token_budget": 300,
        "recursive_scanning": True,
        "extensions": {"x_book_app": "kept"},
        "entries": [entry],
        "x_unknown_book": {"level": "book"},
    }
    data = {
        "name": "Lyra",
        "description": "{{char}} keeps the glade.",
        "personality": "calm",
        "scenario": "a glade",
        "first_mes": "Hello.",
        "mes_example": "<START>\n{{char}}: Hi.",
        "creator_notes": "notes",
        "system_prompt": "sys",
        "post_history_instructions": "phi",
        "alternate_greetings": ["Hi again."],
        "tags": ["forest"],
        "creator": "tests",
        "character_version": "2",
        "extensions": {
            "talkativeness": 0.9,
            "fav": True,
            "world": "Eldoria",
            "depth_prompt": {"prompt": "Remember the glade.", "depth": 2, "role": "user"},
            "x_card_app": {"colour": "green", "list": [1, 2]},
        },
        "character_book": book,
        "x_unknown_data": {"level": "data"},
    }
    return json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}).encode("utf-8")


def _seeds() -> list[tuple[str, str]]:
    seeds = [("generated", "ccv2.json")]
    for parts, fmt in [
        (("sillytavern", "characters", "default_Seraphina.png"), "sillytavern.card.png"),
        (("sillytavern", "characters", "default_Seraphina.v2-only.png"), "sillytavern.card.png"),
        (("card-architect", "test-ccv2-amanda.json"), "ccv2.json"),
        (("card-architect", "test-ccv3-jem.json"), "ccv3.json"),
    ]:
        seeds.append(("/".join(parts), fmt))
    return seeds


def _seed_bytes(seed: str) -> bytes:
    if seed == "generated":
        return generated_card()
    return corpus_path(*seed.split("/")).read_bytes()


def _cross(data: bytes, name: str, source: str, target: str):
    _adapter, decoded, media = read(data, name, source)
    piece = decoded.pieces[0]
    return convert_piece(piece, target, media)


_FILES: dict[tuple[str, str], bytes] = {}


def file_as(seed: str, fmt: str) -> bytes:
    """The seed card as a file of `fmt`: the seed itself, or the seed crossed to `fmt`."""
    seed_format = dict(_seeds())[seed]
    if (seed, fmt) not in _FILES:
        data = _seed_bytes(seed)
        _FILES[(seed, fmt)] = (
            data if fmt == seed_format else _cross(data, "seed" + _ext(seed_format), seed_format, fmt).data
        )
    return _FILES[(seed, fmt)]


def _ext(fmt: str) -> str:
    return EXTENSION.get(fmt, ".json")


CASES = [(seed, a, b) for seed, _fmt in _seeds() for a in FAMILY for b in FAMILY if a != b]


@pytest.mark.parametrize(
    ("seed", "source", "target"), CASES, ids=[f"{s.rsplit('/', 1)[-1]}:{a}->{b}" for s, a, b in CASES]
)
def test_every_pointer_of_the_source_card_arrives_or_is_named(seed, source, target):
    data = file_as(seed, source)
    crossing = _cross(data, "card" + _ext(source), source, target)
    where, before = primary(card_documents(data, source))
    _, after = primary(card_documents(crossing.data, target))
    named = [loss.pointer for loss in crossing.losses if loss.code != "escrow.other_format"]
    prefix = f"/original/document{where}/data"
    missing = []
    for pointer, value in leaves(before.get("data", {})):
        if at(after.get("data", {}), pointer) == value:
            continue
        full = prefix + pointer
        if not any(full == p or full.startswith(p + "/") for p in named):
            missing.append(pointer)
    assert missing == [], f"{source} -> {target} lost without naming: {missing[:10]}"
    assert validate(crossing.data, target) == []


def test_the_generated_card_keeps_sillytavern_extensions_and_unknown_keys_in_every_json_target():
    for target in ("ccv2.json", "ccv3.json", "sillytavern.card.json", "agnai.tavern.json"):
        data = json.loads(_cross(generated_card(), "lyra.json", "ccv2.json", target).data)["data"]
        assert data["extensions"]["world"] == "Eldoria", target
        assert data["extensions"]["depth_prompt"] == {"prompt": "Remember the glade.", "depth": 2, "role": "user"}
        assert data["x_unknown_data"] == {"level": "data"}, target
        assert data["character_book"]["x_unknown_book"] == {"level": "book"}, target
        entry = data["character_book"]["entries"][0]
        assert (entry["name"], entry["case_sensitive"], entry["x_unknown_entry"]) == (
            "Eldoria entry",
            True,
            [1, {"deep": True}],
        ), target


def test_v3_only_keys_crossing_to_v2_are_named_at_their_pointer():
    v3 = json.loads(file_as("generated", "ccv3.json"))
    v3["data"]["nickname"] = "Ly"
    v3["data"]["source"] = ["https://example.org/lyra"]
    crossing = _cross(json.dumps(v3).encode(), "lyra.json", "ccv3.json", "ccv2.json")
    pointers = {loss.pointer: loss.code for loss in crossing.losses}
    assert pointers["/original/document/data/nickname"] == "card.key.not_carried"
    assert pointers["/original/document/data/source"] == "card.key.not_carried"
    assert "nickname" not in json.loads(crossing.data)["data"]


@pytest.mark.parametrize("fmt", FAMILY)
def test_a_card_written_from_a_plain_character_is_spec_complete(fmt):
    from bunzai.crossings import rich_character

    piece, blobs = rich_character()
    store = {blob.sha256: blob.data for blob in blobs}
    crossing = convert_piece(piece.model_copy(update={"original": None}), fmt, lambda ref: store[ref.sha256])
    assert validate(crossing.data, fmt) == []


def test_a_same_format_round_trip_of_a_card_lacking_required_fields_stays_identical():
    sparse = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Sparse", "description": "d"}}
    data = json.dumps(sparse).encode()
    crossing = _cross(data, "sparse.json", "ccv2.json", "ccv2.json")
    assert json.loads(crossing.data) == sparse
    assert validate(crossing.data, "ccv2.json") != []  # the validator can fail


# --- SillyTavern's own validator, where a checkout is configured -----------------------

_ST_VALIDATOR_RUNNER = r"""
const fs = require('fs');
const source = fs.readFileSync(process.argv[1], 'utf8');  // node -e: argv[1] is the first argument
const mod = { exports: {} };
new Function('module', 'exports', source)(mod, mod.exports);
const cases = JSON.parse(fs.readFileSync(0, 'utf8'));
const out = cases.map(([version, card]) => {
    const validator = new mod.exports.TavernCardValidator(card);
    const ok = version === 'v2' ? validator.validateV2() : validator.validateV3();
    return ok ? null : validator.lastValidationError;
});
process.stdout.write(JSON.stringify(out));
"""


def _st_validator() -> str:
    import os
    import shutil
    from pathlib import Path

    root = os.environ.get("BUNZAI_ST_ROOT")
    if not root:
        pytest.skip("no SillyTavern checkout configured for the tests (set BUNZAI_ST_ROOT to one)")
    script = Path(root) / "src" / "validator" / "TavernCardValidator.js"
    if not script.is_file():
        pytest.skip(f"{script} is missing: BUNZAI_ST_ROOT is not a SillyTavern checkout")
    if shutil.which("node") is None:
        pytest.skip("node is not installed: SillyTavern's validator runs in node")
    return str(script)


def _versioned_documents(data: bytes, fmt: str) -> list[tuple[str, dict]]:
    documents = card_documents(data, fmt)
    if fmt == "sillytavern.card.png":
        return [("v2", documents["/chara"]), ("v3", documents["/ccv3"])]
    return [("v3" if fmt in ("ccv3.json", "charx", "risu.charx") else "v2", documents[""])]


def test_every_export_passes_sillytavern_s_own_validator():
    """Where a SillyTavern checkout and node are present: every card the crossings write (each
    seed into every other family format, and a plain character into each) passes
    TavernCardValidator's validateV2 / validateV3, the checks SillyTavern's import runs."""
    import subprocess

    from bunzai.crossings import rich_character

    script = _st_validator()
    cases, names = [], []
    for seed, seed_format in _seeds():
        for fmt in FAMILY:
            if fmt == seed_format:
                continue  # a same-format round trip keeps the file as it was, valid or not
            for version, document in _versioned_documents(file_as(seed, fmt), fmt):
                cases.append([version, document])
                names.append(f"{seed} -> {fmt} ({version})")
    piece, blobs = rich_character()
    store = {blob.sha256: blob.data for blob in blobs}
    for fmt in FAMILY:
        crossing = convert_piece(piece.model_copy(update={"original": None}), fmt, lambda ref: store[ref.sha256])
        for version, document in _versioned_documents(crossing.data, fmt):
            cases.append([version, document])
            names.append(f"plain character -> {fmt} ({version})")
    control = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": "Sparse", "description": "d"}}
    done = subprocess.run(
        ["node", "-e", _ST_VALIDATOR_RUNNER, script],
        input=json.dumps(cases + [["v2", control]]),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    *verdicts, refused = json.loads(done.stdout)
    assert refused == "data.personality"  # the validator can fail: a card lacking V2's required fields
    assert len(verdicts) == len(cases) >= 40
    failed = [f"{name}: {error}" for name, error in zip(names, verdicts) if error is not None]
    assert failed == []
