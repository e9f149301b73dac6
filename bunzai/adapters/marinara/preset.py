"""Marinara Engine prompt presets (`.marinara.json`, type `marinara_preset`) <-> a chat-completion preset.

Read: the envelope's sections, groups, order and samplers (preset_rows.py) become the
canonical preset; the envelope exactly as read is the escrow (choice blocks, variables,
wrap format, ids, dates, the parameters no sampler names ...).
Write: over the escrowed envelope when it is this format's, row by row: a value is written
only where the canonical one differs from what the escrowed row reads as, and a nested
JSON string is re-encoded only when its decoded value was edited, so an unedited preset
goes back byte for byte. A preset from elsewhere gets a new envelope. The written file is
read back and every canonical difference is named by a loss rule below.
"""

from __future__ import annotations

from typing import Any


from bunzai.adapters.common.drift import as_str
from bunzai.adapters.common.losses import LossRule, readback_losses, same
from bunzai.adapters.common.preset_family import nothing_kept
from bunzai.adapters.common.read_piece import read_piece
from bunzai.adapters.contract import Adapter, Decoded, Encoded, Loss, MediaSource
from bunzai.adapters.marinara import preset_rows as pr
from bunzai.adapters.marinara.envelope import (
    FIXED_EXPORTED_AT,
    decode_nested,
    encode_nested,
    envelope_of,
    envelope_type,
    file_bytes,
    new_envelope,
    put_bool,
    row_id,
)
from bunzai.adapters.registry import register
from bunzai.jsondoc.values import copied
from bunzai.model import dump_piece
from bunzai.model.preset import Preset, PresetBody, active_order_index

FORMAT_ID = "marinara.preset"
TYPE = "marinara_preset"
FAMILY = "chat_completion"  # what a Marinara preset reads as (preset_rows.body_of)

LOSS_RULES = (
    LossRule(
        "/body/family",
        "translated",
        "marinara.preset.family.changed",
        "Marinara presets are chat-completion prompt presets, so the preset reads back as one",
    ),
    LossRule(
        "/body/source",
        "dropped",
        "marinara.preset.source.dropped",
        "a Marinara preset names no API; the connection chooses it",
    ),
    LossRule(
        "/body/model",
        "dropped",
        "marinara.preset.model.dropped",
        "a Marinara preset names no model; the connection chooses it",
    ),
    LossRule(
        "/body/samplers/(?:extra/)?[^/]+",
        "dropped",
        "marinara.preset.sampler.dropped",
        "Marinara's generation parameters have no such sampler",
    ),
    LossRule(
        r"/body/prompts/\d+/enabled",
        "translated",
        "marinara.preset.enabled.from_order",
        "a Marinara section is on or off once; the file takes the value of the order it writes",
    ),
    LossRule(
        r"/body/prompts/\d+/depth",
        "translated",
        "marinara.preset.block.depth_zero",
        "Marinara injects a section into the chat only from depth 1 (at 0 it is sent in its place in the "
        "order), so a block at depth 0 is written at depth 1, just before the last message",
    ),
    LossRule(
        r"/body/prompts/\d+/system_prompt",
        "dropped",
        "marinara.preset.block.system_flag",
        "Marinara sections have no built-in/user distinction",
    ),
    LossRule(
        r"/body/prompts/\d+/triggers",
        "dropped",
        "marinara.preset.block.triggers",
        "Marinara sections apply to every generation type",
    ),
    LossRule(
        r"/body/prompts(?:/\d+/[^/]+)?",
        "dropped",
        "marinara.preset.block.not_carried",
        "Marinara sections do not carry this part of the block",
    ),
    LossRule(
        "/body/orders",
        "translated",
        "marinara.preset.orders.single",
        "a Marinara preset has one global section order; the file gets the global one (or the last)",
    ),
    LossRule(
        r"/body/groups(?:/\d+/blocks)?",
        "translated",
        "marinara.preset.groups.by_section",
        "a Marinara group holds the sections that name it, in section order",
    ),
    LossRule(
        "/body/utility_prompts/[^/]+",
        "dropped",
        "marinara.preset.utility_prompt.dropped",
        "Marinara presets have no such helper prompt",
    ),
    LossRule(
        "/body/media/[^/]+",
        "dropped",
        "marinara.preset.media.dropped",
        "media inlining is a connection setting in Marinara, not a preset one",
    ),
    LossRule(
        "/body/attachments",
        "dropped",
        "marinara.preset.attachments.dropped",
        "Marinara presets carry no attached files",
    ),
    LossRule(
        "/body/templates",
        "dropped",
        "marinara.preset.templates.dropped",
        "Marinara presets have no instruct/context templates",
    ),
    LossRule(
        "/body/extensions",
        "dropped",
        "marinara.preset.extensions.dropped",
        "Marinara presets keep no extensions object",
    ),
    LossRule(
        "/profiles", "dropped", "marinara.preset.profiles.dropped", "a Marinara preset has no per-platform profiles"
    ),
    LossRule("/assets", "dropped", "marinara.preset.assets.dropped", "a Marinara preset carries no media"),
)
FALLBACK = LossRule(
    "", "dropped", "marinara.preset.not_carried", "a Marinara preset does not carry this value as it is"
)
# What the writer names itself; the read-back rules above name the rest.
UNORDERED = LossRule(
    r"/body/prompts/\d+",
    "translated",
    "marinara.preset.section.unordered",
    "the block is in no prompt order, so it is never sent; Marinara's editor shows only the sections in its "
    "order, so it is written at the end of the order, switched off",
)
MARKER_UNMAPPED = LossRule(
    r"/body/prompts/\d+",
    "dropped",
    "marinara.preset.marker.unmapped",
    "Marinara Engine has no slot for this marker: the section is written as a marker naming it, "
    "which Marinara leaves empty",
)


class MarinaraPreset(Adapter):
    format_id = FORMAT_ID
    label = "Marinara Engine preset"
    family = FAMILY  # named among the chat-completion formats by a refusal's hint (common.preset_family)
    kinds = ("preset",)
    extensions = (".marinara.json", ".json")
    container = "text"
    engine = "marinara"

    def sniff(self, data: bytes, name: str, parsed: Any) -> float:
        return 0.95 if envelope_type(parsed) == TYPE and isinstance(parsed["data"].get("preset"), dict) else 0.0

    def read(self, data: bytes, name: str, parsed: Any) -> Decoded:
        envelope = envelope_of(data, name, parsed, TYPE)
        preset = envelope["data"].get("preset")
        title = as_str(preset.get("name")) if isinstance(preset, dict) else ""
        title = title if title.strip() else "Marinara preset"
        original = {"format": FORMAT_ID, "document": envelope}
        hint = "check that value in the file"
        return Decoded([read_piece(Preset, title, name, "preset", pr.body_of(envelope), original, hint)])

    def write(self, piece: Any, media: MediaSource) -> Encoded:
        prior = (
            piece.original.document
            if piece.original is not None
            and piece.original.format == FORMAT_ID
            and isinstance(piece.original.document, dict)
            and envelope_type(piece.original.document) == TYPE
            else None
        )
        if piece.body.family != FAMILY and _keeps_nothing(piece):
            raise nothing_kept(FORMAT_ID, self.label, piece.body.family)
        document, switched_off = _written(piece, copied(prior) if prior is not None else None)
        data = file_bytes(document)
        back = _unimplied(piece, dump_piece(self.read(data, piece.id + self.extensions[0], None).pieces[0]))
        declared = _marker_losses(piece) + _unordered_losses(piece, switched_off)
        return Encoded(data, declared + readback_losses(dump_piece(piece), back, LOSS_RULES, FALLBACK, declared))


def _unimplied(piece: Any, back: dict) -> dict:
    """The read-back without the order a piece with none implies. Every Marinara preset has a section
    order (prompts.storage.ts starts each with `[]`; the assembler sends only the sections it lists), so
    a piece with no order is written with its blocks in listed order, each on where it is: that global
    order reads back, and is no order lost (a text-completion preset's `[]` included)."""
    body = piece.body
    implied = [
        {"target": "global", "items": [{"identifier": b.identifier, "enabled": b.enabled} for b in body.prompts]}
    ]
    if body.orders or back["body"]["orders"] != implied:
        return back
    return back | {"body": back["body"] | {"orders": []}}


def _keeps_nothing(piece: Any) -> bool:
    """Whether a new file of the piece is the file a preset holding its name alone writes: none of
    its settings (a SillyTavern template's strings) has a place in a Marinara preset (its
    description, parameters, sections, groups). Judged on a new file, not over an escrow, whose
    rows are not the piece's."""
    bare = piece.model_copy(update={"body": PresetBody(), "original": None})
    return _written(piece, None)[0] == _written(bare, None)[0]


def _marker_losses(piece: Any) -> list[Loss]:
    losses = []
    own = _own_identifiers(piece)
    for index, block in enumerate(piece.body.prompts):
        if block.marker and _slot(block.identifier) is None and block.identifier not in own:
            why = (
                f"Marinara Engine has no slot for the marker {block.identifier!r}: the section is "
                "written as a marker naming it, which Marinara leaves empty"
            )
            losses.append(MARKER_UNMAPPED.at(f"/body/prompts/{index}", why))
    return losses


def _unordered_losses(piece: Any, switched_off: set[str]) -> list[Loss]:
    """The blocks written as sections switched off at the end of the order, and the order they join."""
    body = piece.body.model_dump(mode="json")
    losses = []
    for index, block in enumerate(body["prompts"]):
        if block["identifier"] in switched_off:
            why = (
                f"the block {block['identifier']!r} is in no prompt order, so it is never sent; Marinara's "
                "editor shows only the sections in its order, so it is written at the end of the order, "
                "switched off"
            )
            losses.append(UNORDERED.at(f"/body/prompts/{index}", why))
    order = _chosen_order(body["orders"])
    if losses and order is not None:
        where = f"/body/orders/{body['orders'].index(order)}/items"
        losses.append(UNORDERED.at(where, "blocks in no prompt order are added at its end, switched off"))
    return losses


def _kept_out(twin: dict) -> set[str]:
    """The escrowed file's sections outside its section order (hidden in Marinara, never sent): kept so."""
    if not twin["orders"]:
        return set()
    listed = {item["identifier"] for item in twin["orders"][0]["items"]}
    return {block["identifier"] for block in twin["prompts"]} - listed


def _own_identifiers(piece: Any) -> set[str]:
    """The block identifiers of the escrowed file's sections (once per write: a pass per block was
    quadratic in the sections)."""
    original = piece.original
    if original is None or original.format != FORMAT_ID or not isinstance(original.document, dict):
        return set()
    data = original.document.get("data")
    return set(pr.identifiers_of(pr.rows(data.get("sections")))) if isinstance(data, dict) else set()


def _slot(identifier: str) -> str | None:
    if identifier in pr.MARINARA_SLOTS:
        return identifier
    return pr.SLOT_FOR_ST_MARKER.get(identifier)


def _written(piece: Any, document: dict | None) -> tuple[dict, set[str]]:
    """The envelope a piece writes as, and the blocks in no order it writes switched off."""
    body = piece.body.model_dump(mode="json")
    if document is None:
        preset_id = row_id("preset", piece.id)
        preset = {
            "id": preset_id,
            "name": piece.name,
            "description": body["description"],
            "sectionOrder": "[]",
            "groupOrder": "[]",
            "variableGroups": "[]",
            "variableValues": "{}",
            "parameters": "{}",
            "wrapFormat": "xml",
            "defaultChoices": "{}",
            "isDefault": "false",
            "author": "",
            "createdAt": FIXED_EXPORTED_AT,
            "updatedAt": FIXED_EXPORTED_AT,
        }
        document = new_envelope(TYPE, {"preset": preset, "sections": [], "groups": [], "choiceBlocks": []})
        twin = pr.body_of(document)
    else:
        if not isinstance(document["data"].get("preset"), dict):
            document["data"]["preset"] = {}
        twin = pr.body_of(document)
    data = document["data"]
    preset = data["preset"]
    preset_id = as_str(preset.get("id")) or row_id("preset", piece.id)
    if as_str(preset.get("name")) != piece.name:
        preset["name"] = piece.name
    if twin["description"] != body["description"]:
        preset["description"] = body["description"]
    _write_samplers(preset, body["samplers"], twin["samplers"])
    _write_prefill(preset, body["utility_prompts"].get("assistant_prefill"), twin["utility_prompts"])
    order = _chosen_order(body["orders"])
    group_of = {
        ident: group["id"] or row_id("group", piece.id, group["name"])
        for group in body["groups"]
        for ident in group["blocks"]
    }
    # With an order, a block it does not list is never sent: a section switched off at the end of
    # the order (Marinara's editor shows only the sections in it), unless the file kept it out.
    kept_out = _kept_out(twin) if order is not None else set()
    listed = {item["identifier"] for item in order["items"]} if order is not None else None
    switched_off = {
        block["identifier"]
        for block in body["prompts"]
        if listed is not None and block["identifier"] not in listed and block["identifier"] not in kept_out
    }
    sections = _write_sections(data, body["prompts"], twin, order, group_of, preset_id, piece.id, switched_off)
    _write_section_order(preset, sections, body["prompts"], order, twin, kept_out)
    _write_groups(data, preset, body["groups"], twin, preset_id, piece.id)
    return document, switched_off


def _write_samplers(preset: dict, samplers: dict, twin: dict) -> None:
    wanted = {name: samplers[name] for _, name, _ in pr.SAMPLERS if samplers.get(name) is not None}
    if same(wanted, {k: v for k, v in twin.items() if v is not None}):
        return
    params = decode_nested(preset.get("parameters"), {})
    for key, name, _ in pr.SAMPLERS:
        if name in wanted:
            params[key] = wanted[name]
        else:
            params.pop(key, None)
    preset["parameters"] = encode_nested(params)


def _write_prefill(preset: dict, prefill: str | None, twin: dict) -> None:
    if prefill == twin.get("assistant_prefill"):
        return
    params = decode_nested(preset.get("parameters"), {})
    if prefill is None:
        params.pop(pr.PREFILL, None)
    else:
        params[pr.PREFILL] = prefill
    preset["parameters"] = encode_nested(params)


def _chosen_order(orders: list[dict]) -> dict | None:
    active = active_order_index([order["target"] for order in orders])
    if active is not None:
        return orders[active]
    return orders[-1] if orders else None


def _write_sections(
    data: dict,
    blocks: list[dict],
    twin: dict,
    order: dict | None,
    group_of: dict,
    preset_id: str,
    piece_id: str,
    switched_off: set[str],
) -> list[dict]:
    old_rows = pr.rows(data.get("sections"))
    old = {ident: (row, block) for row, ident, block in zip(old_rows, pr.identifiers_of(old_rows), twin["prompts"])}
    enabled_in_order = {item["identifier"]: item["enabled"] for item in (order or {}).get("items", [])}
    written = []
    for block in blocks:
        ident = block["identifier"]
        row, was = old.get(ident, (None, None))
        if row is None:
            row = _new_section(block, preset_id, piece_id)
            was = pr.block_of(row, ident)
        enabled = enabled_in_order.get(ident, block["enabled"] and ident not in switched_off)
        _patch_section(row, block, was, enabled)
        wanted_group = group_of.get(ident)
        if (as_str(row.get("groupId")) or None) != wanted_group:
            row["groupId"] = wanted_group
        written.append(row)
    data["sections"] = written
    return written


def _new_section(block: dict, preset_id: str, piece_id: str) -> dict:
    slot = _slot(block["identifier"]) or block["identifier"]
    return {
        "id": row_id("section", piece_id, block["identifier"]),
        "presetId": preset_id,
        "identifier": block["identifier"],
        "name": block["name"],
        "content": block["content"],
        "role": block["role"],
        "enabled": "true" if block["enabled"] else "false",
        "isMarker": "true" if block["marker"] else "false",
        "groupId": None,
        "markerConfig": encode_nested({"type": slot}) if block["marker"] else None,
        "injectionPosition": "depth" if block["position"] == "absolute" else "ordered",
        "injectionDepth": block["depth"],
        "injectionOrder": block["injection_order"],
        "wrapInXml": "false",
        "xmlTagName": "",
        "forbidOverrides": "true" if block["forbid_overrides"] else "false",
    }


def _patch_section(row: dict, block: dict, was: dict, enabled: bool) -> None:
    for key, native in (("name", "name"), ("content", "content"), ("role", "role")):
        if block[key] != was[key]:
            row[native] = block[key]
    if enabled != was["enabled"]:
        put_bool(row, "enabled", enabled, True)
    if block["marker"] != was["marker"]:
        put_bool(row, "isMarker", block["marker"], False)
        if block["marker"] and not decode_nested(row.get("markerConfig"), {}):
            row["markerConfig"] = encode_nested({"type": _slot(block["identifier"]) or block["identifier"]})
    if block["forbid_overrides"] != was["forbid_overrides"]:
        put_bool(row, "forbidOverrides", block["forbid_overrides"], False)
    if block["position"] != was["position"]:
        row["injectionPosition"] = "depth" if block["position"] == "absolute" else "ordered"
    # Marinara injects only from depth 1 (assembler.ts): a block at depth 0 goes just before the last message.
    depth = max(block["depth"], 1) if block["position"] == "absolute" else block["depth"]
    if depth != was["depth"]:
        row["injectionDepth"] = depth
        if block["position"] == "relative" and row.get("injectionPosition") == "depth":
            row["injectionPosition"] = "ordered"  # read as relative at depth 0; off 0 it would be injected
    if block["injection_order"] != was["injection_order"]:
        row["injectionOrder"] = block["injection_order"]


def _write_section_order(
    preset: dict, sections: list[dict], blocks: list[dict], order: dict | None, twin: dict, kept_out: set[str]
) -> None:
    id_of = {block["identifier"]: row["id"] for block, row in zip(blocks, sections) if isinstance(row.get("id"), str)}
    wanted = [item["identifier"] for item in order["items"] if item["identifier"] in id_of] if order else []
    wanted += [
        ident
        for ident in (block["identifier"] for block in blocks)
        if ident not in wanted and ident in id_of and ident not in kept_out
    ]
    before = [item["identifier"] for item in twin["orders"][0]["items"]] if twin["orders"] else None
    if wanted != before:
        preset["sectionOrder"] = encode_nested([id_of[ident] for ident in wanted])


def _write_groups(data: dict, preset: dict, groups: list[dict], twin: dict, preset_id: str, piece_id: str) -> None:
    old = {as_str(row.get("id")): row for row in pr.rows(data.get("groups"))}
    was = {group["id"]: group for group in twin["groups"]}
    written = []
    for index, group in enumerate(groups):
        gid = group["id"] or row_id("group", piece_id, group["name"])
        row = old.get(gid)
        if row is None:
            row = {
                "id": gid,
                "presetId": preset_id,
                "name": group["name"],
                "parentGroupId": None,
                "order": (index + 1) * 100,
                "enabled": "true" if group["enabled"] else "false",
                "createdAt": FIXED_EXPORTED_AT,
            }
        else:
            if group["name"] != was[gid]["name"]:
                row["name"] = group["name"]
            if group["enabled"] != was[gid]["enabled"]:
                put_bool(row, "enabled", group["enabled"], True)
        written.append(row)
    if written != pr.rows(data.get("groups")) or "groups" not in data:
        data["groups"] = written
    ids = [row["id"] for row in written]
    if decode_nested(preset.get("groupOrder"), None) != ids and (ids or "groupOrder" in preset):
        preset["groupOrder"] = encode_nested(ids)


register(MarinaraPreset())
