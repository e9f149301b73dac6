"""CHARX `data.assets` <-> AssetLinks over archive members.

Reading: an `embeded://` entry that resolves becomes a link with `asset` set (the member's
bytes); any other uri reads as the card spokes read it (data: decoded, the rest kept).
Writing plans the asset entries and the members together: an escrowed entry that still
reads as the same link is kept as written (its original uri, its member byte for byte, under
its name); every other stored asset is written once under assets/{type}/{folder}/{name}.{ext}. A member
an asset names never ends in `.json`, which RisuAI's import skips (charx_members.loadable):
an escrowed one is renamed, and its entries' uris follow.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate

from bunzai.adapters.common.charx_members import (
    CARD_MEMBER,
    EMBEDDED,
    asset_member,
    embedded_path,
    file_type,
    loadable,
    resolver,
    unique,
)
from bunzai.adapters.common import card_assets
from bunzai.adapters.common.drift import as_object, as_str
from bunzai.adapters.contract import Loss, MediaSource
from bunzai.jsondoc.values import copied
from bunzai.model.base import AssetRef

_ENTRY_KEYS = ("type", "uri", "name", "ext")  # the spec's order, for entries written anew


def link_entries(
    raw: object, names: list[str], sha_of: Callable[[str], str]
) -> tuple[list[dict], list[str | None], list]:
    """Native asset entries -> link dicts, the member each resolved to (or None), and the blobs of data: uris."""
    links: list[dict] = []
    members: list[str | None] = []
    blobs: list = []
    resolve = resolver(names)
    for item in raw if isinstance(raw, list) else []:
        entry = as_object(item)
        path = embedded_path(entry.get("uri"))
        member = resolve(path) if path is not None else None
        if member is None:
            read, decoded = card_assets.read_assets([entry])
            links += read
            blobs += decoded
        else:
            ext, mime = file_type(entry.get("ext"), member)
            links.append(
                {
                    "role": as_str(entry.get("type")),
                    "name": as_str(entry.get("name")),
                    "ext": as_str(entry.get("ext")),
                    "uri": None,
                    "asset": {"sha256": sha_of(member), "ext": ext, "mime": mime},
                }
            )
        members.append(member)
    return links, members, blobs


@dataclass
class AssetPlan:
    """The asset entries to write, and the archive members that go with them."""

    entries: list = field(default_factory=list)
    members: dict[str, bytes] = field(default_factory=dict)  # new members, in order
    kept: dict[str, str] = field(default_factory=dict)  # escrow member -> name written
    losses: list[Loss] = field(default_factory=list)


def plan_assets(
    base: object,
    links: list[dict],
    files: dict[str, dict],
    media: MediaSource,
    member_for: Callable[[str, str, str, str, int], str] = asset_member,
) -> AssetPlan:
    """Entries and members for `links`, over the escrowed entries `base` and members `files`."""
    old = base if isinstance(base, list) else []
    names = [name for name in files if name != CARD_MEMBER]
    old_links, old_members, _blobs = link_entries(old, names, lambda name: files[name]["sha256"])
    asset_members = {member for member in old_members if member is not None}
    plan = AssetPlan()
    pending: list[int] = []
    held: dict[int, str] = {}  # index of a kept entry -> the escrow member it names
    for index, link in enumerate(links):
        previous = old[index] if index < len(old) and isinstance(old[index], dict) else None
        if previous is not None and old_links[index] == link:
            plan.entries.append(copied(previous))
            if old_members[index] is not None and link["asset"] is not None:
                held[index] = old_members[index]
            continue
        plan.entries.append(copied(previous) if previous is not None else dict.fromkeys(_ENTRY_KEYS, ""))
        pending.append(index)
    by_sha = {files[name]["sha256"]: name for name in sorted(asset_members)}
    for name in names:
        if name not in asset_members or name in held.values():
            plan.kept[name] = ""
    taken: set[str] = set()

    def kept_name(name: str) -> str:
        return unique(loadable(name) if name in asset_members else name, taken | {CARD_MEMBER})

    for name in plan.kept:
        plan.kept[name] = kept_name(name)
        taken.add(plan.kept[name])
    written: dict[str, str] = {}  # sha256 -> member path of the stored assets written here
    numbers = list(accumulate(int(link["asset"] is not None) for link in links))  # RisuAI's count of files, from 1
    for index in pending:
        link, entry = links[index], plan.entries[index]
        entry["type"], entry["name"], entry["ext"] = link["role"], link["name"], link["ext"]
        if link["asset"] is None:
            entry["uri"] = link["uri"] if link["uri"] is not None else ""
            continue
        ref = AssetRef.model_validate(link["asset"])
        member = written.get(ref.sha256)
        if member is None and ref.sha256 in by_sha:  # the same bytes are an escrowed asset member: reuse it
            source = by_sha[ref.sha256]
            member = plan.kept.setdefault(source, kept_name(source))
            taken.add(member)
        if member is None:
            member = member_for(link["role"], link["name"], link["ext"], ref.ext, numbers[index])
            member = unique(loadable(member), taken | {CARD_MEMBER})
            taken.add(member)
            plan.members[member] = media(ref)
        written[ref.sha256] = member
        entry["uri"] = EMBEDDED + member
    for index, member in held.items():  # a kept entry follows its member when it was renamed (.json, taken)
        if plan.kept[member] != member:
            plan.entries[index]["uri"] = EMBEDDED + plan.kept[member]
    return plan
