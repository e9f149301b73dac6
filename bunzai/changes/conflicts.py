"""Import drafts against ids already taken: refuse (as apply does), skip, or suffix.

`import --on-conflict` passes the stream of import results (file, drafts | error | skipped)
through `ConflictPolicy`. It reads the studio's ids once, and remembers every id the stream
has claimed, so two files of one import that give the same id are treated as if the first
were already stored.

- `refuse` changes nothing: `apply` answers `stale` / `occupied` for a taken id.
- `skip` drops every draft whose id is taken. A group whose primary piece (the card) is
  taken is dropped whole; a carried piece that is taken (a card's book whose world is
  already there) is dropped from its group, and the card keeps linking to the stored one.
  Re-importing a folder therefore drafts nothing.
- `suffix` gives a taken id the next free `-2`, `-3` ... and updates the links between the
  pieces of the group, so a card follows its renamed book.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from bunzai.changes.draft import new_draft
from bunzai.changes.imports import relink_ids
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.limits import ID_MAX_LENGTH
from bunzai.store.pieces import list_stored

POLICIES = ("refuse", "skip", "suffix")


def check_policy(policy: str) -> str:
    if policy not in POLICIES:
        raise BunzaiError(
            "usage",
            f"--on-conflict {policy!r} is not one of {', '.join(POLICIES)}",
            "refuse (the default) lets apply refuse taken ids; skip drops them; suffix renames them",
        )
    return policy


class ConflictPolicy:
    """Transforms import results under one policy; counts what it skipped and renamed."""

    def __init__(self, policy: str, taken: Iterable[tuple[str, str]]) -> None:
        self.policy = check_policy(policy)
        self.taken: set[tuple[str, str]] = set(taken)
        self.skipped: list[str] = []  # kind/id of every draft dropped
        self.renamed: list[tuple[str, str]] = []  # (kind/old-id, new id), in stream order

    def apply(self, results: Iterable[tuple[Path, object]]) -> Iterator[tuple[Path, object]]:
        for path, result in results:
            if self.policy == "refuse" or not isinstance(result, list) or not result:
                yield path, result
                continue
            yield path, self.settle(result)

    def settle(self, drafts: list[dict]) -> list[dict]:
        """One file's drafts (a group or a single draft) under the policy."""
        refs = [(draft["target"]["kind"], draft["target"]["id"]) for draft in drafts]
        if self.policy == "skip":
            if refs[0] in self.taken:
                self.skipped += [f"{kind}/{piece_id}" for kind, piece_id in refs]
                return []
            kept = [draft for draft, ref in zip(drafts, refs) if ref not in self.taken]
            self.skipped += [f"{kind}/{piece_id}" for kind, piece_id in refs if (kind, piece_id) in self.taken]
            self.taken.update(refs)
            return _regrouped(kept) if len(kept) != len(drafts) else drafts
        mapping: dict[tuple[str, str], str] = {}
        for kind, piece_id in refs:
            if (kind, piece_id) in self.taken:
                mapping[(kind, piece_id)] = self._free(kind, piece_id)
                self.renamed.append((f"{kind}/{piece_id}", mapping[(kind, piece_id)]))
            self.taken.add((kind, mapping.get((kind, piece_id), piece_id)))
        if not mapping:
            return drafts
        docs = [copied(draft["proposed"]) for draft in drafts]
        relink_ids(docs, mapping)
        return [_with_proposed(draft, doc) for draft, doc in zip(drafts, docs)]

    def _free(self, kind: str, piece_id: str) -> str:
        number = 2
        while True:
            suffix = f"-{number}"
            candidate = piece_id[: ID_MAX_LENGTH - len(suffix)].rstrip("-._") + suffix
            if (kind, candidate) not in self.taken:
                return candidate
            number += 1

    def summary(self) -> str | None:
        """One line for stderr saying what the policy did, or None when it did nothing."""
        parts = []
        if self.skipped:
            parts.append(f"skipped {len(self.skipped)} piece(s) whose id is taken")
        if self.renamed:
            shown = ", ".join(f"{old} -> {new}" for old, new in self.renamed[:5])
            more = f" and {len(self.renamed) - 5} more" if len(self.renamed) > 5 else ""
            parts.append(f"renamed {len(self.renamed)} piece(s) whose id is taken: {shown}{more}")
        return "bunzai: " + "; ".join(parts) if parts else None


def _with_proposed(draft: dict, doc: dict) -> dict:
    fresh = new_draft(mode="create", proposed=doc, operations=[])
    out = dict(draft)
    out["proposed"], out["target"], out["changes"] = doc, fresh["target"], fresh["changes"]
    return out


def _regrouped(drafts: list[dict]) -> list[dict]:
    """The drafts left of a group, renumbered; one left alone is no group."""
    if len(drafts) <= 1:
        return [{key: value for key, value in draft.items() if key != "group"} for draft in drafts]
    out = []
    for index, draft in enumerate(drafts):
        group = dict(draft["group"]) | {"index": index, "size": len(drafts)}
        out.append(dict(draft) | {"group": group})
    return out


def studio_ids(studio) -> set[tuple[str, str]]:
    """(kind, id) of every piece in the studio, read once."""
    return set(list_stored(studio))
