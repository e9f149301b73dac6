"""RisuAI module JSON (RisuRealm's modules; RisuAI's module import takes it as `.json`) <-> a lorebook and a regex set.

RisuAI shares a module on RisuRealm as the module object itself with `type: "risuModule"`
added (`JSON.stringify`, compact: RealmFrame.svelte), and its module import
(modules.ts importModule) reads any `.json` of that type that has a `name` and an `id`. It
is the module JSON of a `.risum` without the RPack framing, so it needs no RisuAI checkout
to read or write, and it holds no asset bytes: `assets` names each asset by its path in the
exporter's own RisuAI storage. It reads as the `.risum` does (see module.read_module):
pieces[0] a lorebook whose escrow is the whole document (triggers, `cjs`, toggles, asset
names sealed in it), pieces[1] the regex scripts as a set. The wrapped form
`{"type": "risuModule", "module": {...}}` (the JSON inside a `.risum`, as some tools save
it) reads the same; it is written in the flat form, the one RisuAI imports.
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.jsjson import stringify
from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Adapter, Decoded, Encoded, MediaSource
from bunzai.adapters.registry import register
from bunzai.adapters.risu import module as risum
from bunzai.adapters.risu.module_write import book_module, book_module_losses, escrowed_module, regex_module
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied

FORMAT_ID = risum.JSON_FORMAT_ID
ASSET_BYTES = LossRule(
    "/original",
    "dropped",
    "risu.module.json.asset_bytes",
    "a JSON module names its assets but holds none of their bytes",
)


def _falsy(value: Any) -> bool:
    """Whether JavaScript's `!value` holds for a parsed JSON value, as importModule tests
    `name` and `id` (a JSON document holds no NaN)."""
    return value in (None, False, "", 0)


def _read_warnings(module: dict, what: str) -> list[str]:
    warnings = []
    missing = [key for key in ("name", "id") if _falsy(module.get(key))]
    if missing:
        warnings.append(
            f"{what}: the module has no {' and no '.join(missing)}, and RisuAI's import refuses such a file "
            "(bunzai writes both)"
        )
    assets = module.get("assets")
    if isinstance(assets, list) and assets:
        warnings.append(
            f"{what}: it names {len(assets)} asset(s) but holds none of their bytes (a JSON module points at "
            "the exporter's own RisuAI storage); their names are kept in the escrow"
        )
    return warnings


class RisuModuleJson(Adapter):
    format_id = FORMAT_ID
    label = "RisuAI module JSON (RisuRealm)"
    kinds = ("lorebook", "regex")
    extensions = (".json",)
    container = "text"
    engine = "risuai"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 0.95 if risum.module_of(parsed) is not None else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        module = risum.module_of(parsed)
        if module is None:
            raise BunzaiError(
                "unsupported",
                f"{name or 'the file'} is not a RisuAI module JSON",
                'a RisuAI module JSON is {"type": "risuModule", "name": ..., "id": ..., "lorebook": [...]}',
            )
        what = name or "the module"
        stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0] if name else ""
        pieces, warnings = risum.read_module(module, {"format": FORMAT_ID, "document": parsed}, stem, name)
        return Decoded(pieces, warnings=_read_warnings(module, what) + warnings)

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        if piece.kind == "regex":
            module, losses = regex_module(piece)
            return Encoded(_text(module), losses)
        if piece.kind != "lorebook":
            raise BunzaiError(
                "unsupported",
                f"a RisuAI module holds a lorebook or regex scripts, not a {piece.kind}",
                "export it in a format of its kind (see `bunzai formats`)",
            )
        body = piece.body.model_dump(mode="json")
        base, asset_blocks = _escrowed(piece, media)
        module = book_module(base, piece, body)
        if _falsy(module.get("id")):
            module["id"] = piece.id  # RisuAI's import refuses a module without one (and gives it a new id anyway)
        losses = book_module_losses(piece, body, module)
        if asset_blocks:
            losses.append(
                ASSET_BYTES.at(
                    "/original",
                    f"the {asset_blocks} asset block(s) of the .risum this lorebook was read from are not written: "
                    "a JSON module names its assets but holds none of their bytes",
                )
            )
        return Encoded(_text(module), losses)


def _escrowed(piece: Any, media: MediaSource) -> tuple[dict | None, int]:
    """The module object a lorebook read from a module keeps (a copy), and how many asset
    blocks its `.risum` held; (None, 0) for a lorebook from elsewhere."""
    original = piece.original
    if original is not None and original.format == FORMAT_ID:
        module = risum.module_of(original.document)
        return (copied(module) if module is not None else None), 0
    if original is not None and original.format == risum.FORMAT_ID:
        document, assets = escrowed_module(piece, media)
        return (document["module"] if document is not None else None), len(assets)
    return None, 0


def _text(module: dict) -> bytes:
    """The flat module document as RisuAI shares it (`module.type = "risuModule"`: added after
    the module's keys, or set where the module already has it)."""
    module["type"] = risum.MODULE_TYPE
    return stringify(module).encode("utf-8")


register(RisuModuleJson())
