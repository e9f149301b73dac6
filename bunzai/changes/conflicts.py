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
- `suffix` gives a taken id the next free `-2`, `-3` ... and updates the links, so a card
  follows its renamed book: the book of its own group, and a piece of another file of the
  same import too (a card of a SillyTavern user folder links to the world file beside it).

The links follow across files because the policy remembers, for the whole stream, what
each id read became (`became`, the last piece read with that id). The stream stays a
stream: a SillyTavern user folder is walked worlds first (imports.drafts_from_user_folder),
so a card's world is known before the card is, and settles at once. Only a draft linking
to an id the stream has not read yet, but that is taken (a card bound to a world whose file
comes later, or never: the stored one), waits for the end of the stream, when every name
is known; such drafts are rare (SillyTavern copies a bound world into its card, and a
copy travels in the card's own group), so memory stays flat for a library of any size.
Buffering every draft until the end instead would hold the whole import in memory and
print nothing until the walk is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from bunzai.changes.draft import new_draft
from bunzai.changes.imports import links_of, relink_ids
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
        # (kind, id as read) -> the id it was given, for the last piece of the stream read with it
        self.became: dict[tuple[str, str], str] = {}

    def apply(self, results: Iterable[tuple[Path, object]]) -> Iterator[tuple[Path, object]]:
        waiting: list[tuple[Path, list[dict], dict[tuple[str, str], str]]] = []
        for path, result in results:
            if self.policy == "refuse" or not isinstance(result, list) or not result:
                yield path, result
            elif self.policy == "skip":
                yield path, self.settle(result)
            else:
                own = self._claim(result)
                if self._waits(result, own):
                    waiting.append((path, result, own))
                else:
                    yield path, self._relinked(result, own)
        for path, drafts, own in waiting:  # every name of the import is known now
            yield path, self._relinked(drafts, own)

    def settle(self, drafts: list[dict]) -> list[dict]:
        """One file's drafts (a group or a single draft) under the policy, at once."""
        if self.policy == "refuse":
            return drafts
        if self.policy == "suffix":
            return self._relinked(drafts, self._claim(drafts))
        refs = [(draft["target"]["kind"], draft["target"]["id"]) for draft in drafts]
        if refs[0] in self.taken:
            self.skipped += [f"{kind}/{piece_id}" for kind, piece_id in refs]
            return []
        kept = [draft for draft, ref in zip(drafts, refs) if ref not in self.taken]
        self.skipped += [f"{kind}/{piece_id}" for kind, piece_id in refs if (kind, piece_id) in self.taken]
        self.taken.update(refs)
        return _regrouped(kept) if len(kept) != len(drafts) else drafts

    def _claim(self, drafts: list[dict]) -> dict[tuple[str, str], str]:
        """The ids one file's drafts get under `suffix` ((kind, id read) -> id given), claimed."""
        own: dict[tuple[str, str], str] = {}
        for draft in drafts:
            ref = (draft["target"]["kind"], draft["target"]["id"])
            given = self._free(*ref) if ref in self.taken else ref[1]
            if given != ref[1]:
                self.renamed.append((f"{ref[0]}/{ref[1]}", given))
            self.taken.add((ref[0], given))
            own[ref] = given
            self.became[ref] = given
        return own

    def _waits(self, drafts: list[dict], own: dict[tuple[str, str], str]) -> bool:
        """Whether a draft links to a piece of another file that the stream has not read yet
        and that a later file could still be renamed away from (its id is taken)."""
        return any(
            link not in own and link not in self.became and link in self.taken
            for draft in drafts
            for link in links_of(draft["proposed"])
        )

    def _relinked(self, drafts: list[dict], own: dict[tuple[str, str], str]) -> list[dict]:
        """The drafts with their own new ids, and every link following the ids given: to a
        piece of the same file first, else to the last piece of the import read with that id."""
        refs = [(draft["target"]["kind"], draft["target"]["id"]) for draft in drafts]
        renamed = any(own[ref] != ref[1] for ref in refs)
        if not renamed and not any(
            self.became.get(link, link[1]) != link[1]
            for draft in drafts
            for link in links_of(draft["proposed"])
            if link not in own
        ):
            return drafts
        docs = [copied(draft["proposed"]) for draft in drafts]
        relink_ids(docs, own, self.became)
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
