"""Writing `.risum`: a lorebook piece (with the module it came from) or a regex set, as a RisuAI module.

A lorebook read from a module goes back into that module: its name, description and lore
entries replace the module's, everything else of the module (regex scripts as they were
read, triggers, Lua/cjs code, toggles, namespace, assets) is written back as it was. A
lorebook from elsewhere becomes a new module holding its entries; a regex set becomes a
module holding its scripts. RPack needs the table of a RisuAI checkout (see rpack): with
none, the only module written is one never decoded and unchanged (its bytes as they
were); anything else is refused with the setting to make. RisuAI gives every imported
module a new id, so the id written is only a placeholder (the piece's id).
"""

from __future__ import annotations

from typing import Any

from bunzai.adapters.common.losses import LossRule
from bunzai.adapters.contract import Encoded, Loss, MediaSource
from bunzai.adapters.risu import rpack
from bunzai.adapters.risu.lorebook import book_losses, write_entries
from bunzai.adapters.risu.module import (
    FORMAT_ID,
    JSON_FORMAT_ID,
    MODULE_MEMBER,
    REGEX_SUFFIX,
    decode_module,
    encode_module,
    module_of,
)
from bunzai.adapters.risu.regex import set_losses, write_scripts
from bunzai.adapters.risu.shared_losses import ASSETS, PROFILES
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied

ASSET_NAMES = LossRule(
    "/original",
    "dropped",
    "risu.module.asset_names",
    "a .risum holds an asset with its bytes, and the module JSON this lorebook was read from named its assets "
    "without them",
)
REGEX_NAME = LossRule(
    "/name",
    "translated",
    "risu.module.regex_name",
    'a module\'s scripts read back as a regex set named after the module, with " regex" after its name',
)


def _need_table(what: str) -> rpack.Table:
    table, why = rpack.current_table()
    if table is None:
        raise BunzaiError(
            "unsupported",
            f"writing {what} as a RisuAI module (.risum) needs the RPack table, and {why}",
            rpack.NOT_DECODED_HINT,
        )
    return table


def _escrowed(piece: Any, media: MediaSource) -> tuple[dict | None, list[bytes], bytes | None]:
    """(the module document, its asset blocks, the module's bytes) a piece read from a module keeps."""
    original = piece.original
    if original is None or original.format != FORMAT_ID:
        return None, [], None
    raw_ref = original.files.get(MODULE_MEMBER)
    raw = media(raw_ref) if raw_ref is not None else None
    document = original.document
    if isinstance(document, dict) and isinstance(document.get("module"), dict):
        slots = sorted(
            (
                (int(key.split("/")[1].split(".")[0]), ref)
                for key, ref in original.files.items()
                if key.startswith("assets/") and key.split("/")[1].split(".")[0].isdigit()
            )
        )
        return copied(document), [media(ref) for _index, ref in slots], raw
    return None, [], raw


def escrowed_module(piece: Any, media: MediaSource) -> tuple[dict | None, list[bytes]]:
    """The module document (a copy) and asset blocks of a lorebook read from a `.risum`; one
    read without the RPack table is decoded now (refused without it). (None, []) when the
    escrow holds neither."""
    document, assets, raw = _escrowed(piece, media)
    if document is None and raw is not None:
        document, assets = decode_module(raw, _need_table(f"the lorebook {piece.id!r}"), "the escrowed module")
    return document, assets


def _common_losses(piece: Any) -> list[Loss]:
    losses = []
    if piece.assets:
        why = "a RisuAI module's assets are the ones it was read with; a piece's media links are not written into it"
        losses.append(ASSETS.at("/assets", why))
    if piece.profiles:
        losses.append(PROFILES.at("/profiles", "a RisuAI module has no per-platform profiles"))
    return losses


def write_module(piece: Any, media: MediaSource) -> Encoded:
    if piece.kind == "regex":
        return _regex_module(piece)
    if piece.kind != "lorebook":
        raise BunzaiError(
            "unsupported",
            f"a RisuAI module holds a lorebook or regex scripts, not a {piece.kind}",
            "export it in a format of its kind (see `bunzai formats`)",
        )
    document, assets, raw = _escrowed(piece, media)
    body = piece.body.model_dump(mode="json")
    if document is None and raw is not None:  # read without a table: decode now, or give it back unchanged
        table, _why = rpack.current_table()
        if table is None and not body["entries"] and not body["description"]:
            return Encoded(raw, _common_losses(piece))
        document, assets = decode_module(raw, _need_table(f"the lorebook {piece.id!r}"), "the escrowed module")
    table = _need_table(f"the lorebook {piece.id!r}")
    module = book_module(document["module"] if document is not None else _json_module(piece), piece, body)
    names = module.get("assets") if isinstance(module.get("assets"), list) else []
    module["assets"] = names[: len(assets)] + [["", "", "bin"]] * (len(assets) - len(names))
    losses = book_module_losses(piece, body, module)
    if len(names) > len(assets):  # a module JSON names its assets without their bytes
        losses.append(ASSET_NAMES.at("/original", f"{ASSET_NAMES.why}: {len(names) - len(assets)} left out"))
    return Encoded(encode_module(module, assets, table), losses)


def _json_module(piece: Any) -> dict | None:
    """The module (a copy, without the JSON's own `type`) a lorebook read from a module JSON
    keeps: its triggers, scripts, code and toggles go into the `.risum` too."""
    original = piece.original
    module = module_of(original.document) if original is not None and original.format == JSON_FORMAT_ID else None
    return {key: copied(value) for key, value in module.items() if key != "type"} if module is not None else None


def book_module(module: dict | None, piece: Any, body: dict) -> dict:
    """`module` (a copy the caller owns; None for a new one) holding the lorebook piece's name,
    description and entries; everything else of it stays as it was."""
    if module is None:
        module = {"name": piece.name, "description": "", "id": piece.id, "lorebook": []}
    module["name"] = piece.name
    # a module that had no description or lorebook (a regex-only one from another tool) gets one
    # only when there is something to put in it, so an unedited module comes back as it was
    if "description" in module or body["description"]:
        module["description"] = body["description"]
    lorebook = write_entries(module.get("lorebook"), body["entries"])
    if "lorebook" in module or lorebook:
        module["lorebook"] = lorebook
    return module


def book_module_losses(piece: Any, body: dict, module: dict) -> list[Loss]:
    """What a module cannot carry of a lorebook piece (a module has a description: no loss for it);
    `module` is the one written for it."""
    written = module.get("lorebook") if isinstance(module.get("lorebook"), list) else None
    losses = [loss for loss in book_losses(body, "/body", written) if loss.code != "risu.book.description"]
    return losses + _common_losses(piece)


def _regex_module(piece: Any) -> Encoded:
    table = _need_table(f"the regex set {piece.id!r}")
    module, losses = regex_module(piece)
    return Encoded(encode_module(module, [], table), losses)


def regex_module(piece: Any) -> tuple[dict, list[Loss]]:
    """A new module holding a regex set's scripts, named so that its scripts read back under
    the set's name, and what it cannot carry of the set."""
    original = piece.original
    base = (
        original.document.get("data")
        if original is not None and original.format == "risu.regex" and isinstance(original.document, dict)
        else None
    )
    body = piece.body.model_dump(mode="json")
    # A module's scripts read as a set named "<module name> regex": the module is named so that this is the set's name
    name = piece.name.removesuffix(REGEX_SUFFIX) or piece.name
    module = {"name": name, "description": "", "id": piece.id, "regex": write_scripts(base, body["rules"])}
    losses = set_losses(body, "/body") + _common_losses(piece)
    if name + REGEX_SUFFIX != piece.name:
        losses.append(
            REGEX_NAME.at(
                "/name", f"the module is named {name!r}, and read back its scripts are {name + REGEX_SUFFIX!r}"
            )
        )
    return module, losses
