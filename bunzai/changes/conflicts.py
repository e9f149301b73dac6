"""Import drafts against ids already taken: refuse (as apply does), skip, or suffix.

`import --on-conflict` passes the stream of import results (file, drafts | error | skipped)
of every path it is given, chained into one stream, through `ConflictPolicy`. It reads the
studio's ids once, and remembers every id the stream has claimed, so two files of one import
that give the same id are treated as if the first were already stored.

- `refuse` leaves ids as they are: `apply` answers `stale` / `occupied` for a taken id. One
  thing is settled here: cards bound to one world by name (`data.extensions.world`) each
  carry a copy of it, and SillyTavern keeps one world per name (checkEmbeddedWorld). A card
  whose copy has the same name and entries as the copy an earlier bound card carries (or a
  world file read earlier) links to that book, and its copy is not drafted again (unless
  the studio holds an id of that earlier file: apply refuses both then, as before). A copy
  that differs is left for apply to refuse (its hint is a general one), and stderr says what
  to do here (`clashes`). The default policy thus opens the studio, lazily, for these
  cards only.
- `skip` drops every draft whose id is taken. A group whose primary piece (the card) is
  taken is dropped whole. A carried book that is taken is dropped from its group, and the
  card links to the piece holding its id, only when that piece is the same book: the card's
  world by name (the card is bound to the world of that name: SillyTavern would use that
  world, not the copy), or a book of the same name and entries. Any other carried book (two
  cards' unbound books both called "Lore") keeps its content under an id of its own, the next
  free `-2`, `-3` ..., as suffix gives it, and the card links to it; the report says so
  (`apart`). Dropping it would link the card to another book, whose entries every export of
  the card would then embed. Re-importing a folder therefore still drafts nothing (its cards
  are taken).
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
print nothing until the walk is over. To tell books apart, refuse and skip keep, per
lorebook id read, its name and a digest of its entries (`read`; under refuse only for world
files and bound cards' copies, the only books it compares), and read a stored book only when
a carried book meets its id. A sprite pack a card links to (a user folder's
`characters/<name>/`) is its own file: skip drops it when taken and the card links to the
stored pack, as it does for a world file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from bunzai.changes.draft import new_draft
from bunzai.changes.imports import bound_world, links_of, relink_ids
from bunzai.errors import BunzaiError
from bunzai.jsondoc.values import copied
from bunzai.limits import ID_MAX_LENGTH
from bunzai.store.pieces import list_stored, try_read

# (kind, id) -> the stored piece's data, or None when there is none
StoredReader = Callable[[str, str], dict | None]
# A book as the policies compare books: its name and a digest of its entries.
Print = tuple[str, bytes]

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
    """Transforms import results under one policy; counts what it skipped and renamed.

    `stored` reads a piece of the studio ((kind, id) -> its data, or None): asked only when a
    carried book meets a taken id, to tell whether the piece holding it is the same book."""

    def __init__(self, policy: str, taken: Iterable[tuple[str, str]], stored: StoredReader | None = None) -> None:
        self.policy = check_policy(policy)
        self.taken: set[tuple[str, str]] = set(taken)
        self.stored = stored
        self.skipped: list[str] = []  # kind/id of every draft dropped
        self.renamed: list[tuple[str, str]] = []  # (kind/old-id, new id), in stream order
        # (kind, id as read) -> the id it was given, for the last piece of the stream read with it
        self.became: dict[tuple[str, str], str] = {}
        self.read: dict[str, Print] = {}  # lorebook id -> the book this import gave it (refuse, skip)
        self._studio: dict[tuple[str, str], dict | None] = {}  # (kind, id) -> the stored piece, read once
        self.apart: list[tuple[str, str]] = []  # skip: (lorebook/id, new id) of carried books kept apart
        self._apart_by_print: dict[tuple[str, Print], str] = {}  # skip: (id read, book) -> the id it got
        self.shared: list[str] = []  # refuse: kind/id of carried copies left out for an earlier same copy
        self._copy_groups: dict[str, list[tuple[str, str]]] = {}  # refuse: world id -> the group of its copy
        self.clashes: list[tuple[str, str]] = []  # refuse: (card kind/id, world) whose copy differs
        self._tried: dict[tuple[str, str], int] = {}  # (kind, id) -> the first -N not yet found taken

    def apply(self, results: Iterable[tuple[Path, object]]) -> Iterator[tuple[Path, object]]:
        waiting: list[tuple[Path, list[dict], dict[tuple[str, str], str]]] = []
        failure = None
        try:
            for path, result in results:
                if not isinstance(result, list) or not result:
                    yield path, result
                elif self.policy != "suffix":
                    yield path, self.settle(result)
                else:
                    own = self._claim(result)
                    if self._waits(result, own):
                        waiting.append((path, result, own))
                    else:
                        yield path, self._relinked(result, own)
        except BunzaiError as error:  # a path named that cannot be read at all: what waits is printed first
            failure = error
        for path, drafts, own in waiting:  # every name of the import is known now
            yield path, self._relinked(drafts, own)
        if failure is not None:
            raise failure

    def settle(self, drafts: list[dict]) -> list[dict]:
        """One file's drafts (a group or a single draft) under the policy, at once."""
        if self.policy == "refuse":
            return self._one_world(drafts)
        if self.policy == "suffix":
            return self._relinked(drafts, self._claim(drafts))
        return self._skip(drafts)

    def _skip(self, drafts: list[dict]) -> list[dict]:
        refs = [(draft["target"]["kind"], draft["target"]["id"]) for draft in drafts]
        if refs[0] in self.taken:
            self.skipped += [f"{kind}/{piece_id}" for kind, piece_id in refs]
            return []
        world = bound_world(drafts[0]["proposed"])
        kept: list[tuple[dict, Print | None]] = []  # each with its book, where it is one
        own: dict[tuple[str, str], str] = {}  # ids given, and links to follow
        for draft, ref in zip(drafts, refs):
            book = _print(draft["proposed"]) if ref[0] == "lorebook" else None
            if ref not in self.taken:
                kept.append((draft, book))
                continue
            same = self._same_book(ref[1], book, world) if book is not None else ref[1]
            if same is not None:  # the piece holding the id is this book: the card links to it
                self.skipped.append(f"{ref[0]}/{ref[1]}")
                if same != ref[1]:
                    own[ref] = same
                continue
            own[ref] = self._free(*ref)  # another book holds the id: this one keeps its content apart
            self.apart.append((f"{ref[0]}/{ref[1]}", own[ref]))
            self._apart_by_print[(ref[1], book)] = own[ref]
            self.taken.add((ref[0], own[ref]))
            kept.append((draft, book))
        self.taken.update(refs)
        out = [draft for draft, _ in kept]
        if own:
            docs = [copied(draft["proposed"]) for draft in out]
            relink_ids(docs, own)
            out = [_with_proposed(draft, doc) for draft, doc in zip(out, docs)]
        for draft, (_, book) in zip(out, kept):
            if book is not None:
                self.read.setdefault(draft["target"]["id"], book)
        return _regrouped(out) if len(out) != len(drafts) else out

    def _same_book(self, book_id: str, book: Print, world: str) -> str | None:
        """The id of the piece that is the same book as a carried `book` whose id is taken, or
        None: the piece holding the id, where it is the card's world by name or has the same
        name and entries; else a book of the same name and entries that an earlier card of
        this import carried under this id and skip kept apart."""
        holder = self._holder(book_id)
        if holder is not None and ((world and holder[0] == world) or holder == book):
            return book_id
        return self._apart_by_print.get((book_id, book))

    def _holder(self, book_id: str) -> Print | None:
        """The book holding a taken lorebook id: given earlier in this import, else stored."""
        if book_id in self.read:
            return self.read[book_id]
        data = self._stored("lorebook", book_id)
        return _print(data) if data is not None else None

    def _stored(self, kind: str, piece_id: str) -> dict | None:
        """The studio's piece of that id (read once), or None."""
        if self.stored is None:
            return None
        if (kind, piece_id) not in self._studio:
            try:
                self._studio[(kind, piece_id)] = self.stored(kind, piece_id)
            except BunzaiError:  # a damaged piece file: not the same book (doctor tells of it)
                self._studio[(kind, piece_id)] = None
        return self._studio[(kind, piece_id)]

    def _one_world(self, drafts: list[dict]) -> list[dict]:
        """refuse: a card's copy of its world left out where an earlier file of the import gave
        the world's id to the same copy (same name and entries), which the card then links to;
        a copy that differs is noted (`clashes`) and left for apply to refuse. Not where apply
        will refuse the earlier copy (an id of its file is stored): then both are refused, as
        before, rather than the card linking to a book that is not written."""
        world = bound_world(drafts[0]["proposed"]) if len(drafts) > 1 else ""
        refs = [(draft["target"]["kind"], draft["target"]["id"]) for draft in drafts]
        kept = drafts
        for index, draft in enumerate(drafts):
            doc = draft["proposed"]
            if index and world and doc["kind"] == "lorebook" and doc["id"] in self.read:
                earlier = self._copy_groups.get(doc["id"], [("lorebook", doc["id"])])
                if any(self._stored(*ref) is not None for ref in earlier):
                    continue  # apply refuses the earlier copy, and this one alike
                # A world file of that name is the world, as SillyTavern takes it (checkEmbeddedWorld
                # goes by name: a card saved there differs in details, use_group_scoring false for null);
                # an earlier card's copy must be the same copy.
                from_file = doc["id"] not in self._copy_groups and self.read[doc["id"]][1] != b""  # not a card's book
                if self.read[doc["id"]][0] == world and (from_file or self.read[doc["id"]] == _print(doc)):
                    self.shared.append(f"lorebook/{doc['id']}")
                    kept = [other for other in kept if other is not draft]
                else:
                    self.clashes.append((f"{refs[0][0]}/{refs[0][1]}", world))
            elif doc["kind"] == "lorebook" and doc["id"] not in self.read:
                # A world file, or a bound card's copy, may be the copy a later card carries;
                # another card's own book is never taken for one (nor its entries digested).
                if index and world:
                    self._copy_groups[doc["id"]] = refs
                self.read[doc["id"]] = _print(doc) if world or not index else (doc["name"], b"")
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
        """The next free `-N` of an id. Ids are only ever taken, never freed, so the numbers found
        taken are not tried again: a library holding one name thousands of times costs a step
        per copy, not a search from -2 each time."""
        number = self._tried.get((kind, piece_id), 2)
        while True:
            suffix = f"-{number}"
            candidate = piece_id[: ID_MAX_LENGTH - len(suffix)].rstrip("-._") + suffix
            if (kind, candidate) not in self.taken:
                self._tried[(kind, piece_id)] = number  # tried again next time: the caller may not take it
                return candidate
            number += 1

    def summary(self, option: str = "--on-conflict {}") -> str | None:
        """What the policy did, for stderr (a line, or two where cards carry clashing copies of
        a world), or None when it did nothing. `option` spells a policy as the caller takes it
        (the CLI's flag; folder_import's argument), so no caller rewrites the lines, which quote
        pieces' and worlds' names."""
        parts = []
        if self.skipped:
            parts.append(f"skipped {len(self.skipped)} piece(s) whose id is taken")
        if self.apart:
            parts.append(
                f"kept {len(self.apart)} card book(s) under an id of their own, as another book holds theirs "
                f"(leaving them out would link the card to that book): {_shown(self.apart)}"
            )
        if self.renamed:
            parts.append(f"renamed {len(self.renamed)} piece(s) whose id is taken: {_shown(self.renamed)}")
        if self.shared:
            shown = ", ".join(dict.fromkeys(self.shared[:5]))
            parts.append(
                f"left out {len(self.shared)} card copy(ies) of a world an earlier file of this import gives (the "
                f"same copy, or the world's own file; SillyTavern keeps one world per name): the cards link to {shown}"
            )
        lines = ["bunzai: " + "; ".join(parts)] if parts else []
        if self.clashes:
            shown = ", ".join(f"{card} ({world!r})" for card, world in self.clashes[:5])
            more = f" and {len(self.clashes) - 5} more" if len(self.clashes) > 5 else ""
            lines.append(
                f"bunzai: {len(self.clashes)} card(s) carry a copy of their world other than the one an earlier file "
                f"of this import gives that world's id: {shown}{more}; apply refuses them (stale). SillyTavern "
                "keeps one world per name: to link them to the earlier copy, as it would, import with "
                f"{option.format('skip')}; to keep each copy as a lorebook of its own, {option.format('suffix')}; or "
                "add the world's own file (worlds/<name>.json of the user folder), which the cards then all link to"
            )
        return "\n".join(lines) if lines else None


def _shown(pairs: list[tuple[str, str]]) -> str:
    shown = ", ".join(f"{old} -> {new}" for old, new in pairs[:5])
    return shown + (f" and {len(pairs) - 5} more" if len(pairs) > 5 else "")


def _print(doc: dict) -> Print:
    """A book as the policies compare it: its name, and a digest of its entries as written in
    the canonical order (a draft's, and a stored piece's as `stored_reader` gives it: keys
    are not sorted here, which would double the cost for every book of a library)."""
    body = doc.get("body") if isinstance(doc.get("body"), dict) else {}
    entries = json.dumps(body.get("entries"), ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(entries.encode("utf-8", "surrogatepass")).digest()
    return (doc.get("name") if isinstance(doc.get("name"), str) else "", digest)


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


def policy_for(studio, policy: str) -> ConflictPolicy:
    """The policy `policy` over `studio`: skip and suffix read its ids once; refuse leaves a
    taken id to apply, and reads a piece only when a card's copy of its world meets it."""
    taken = () if check_policy(policy) == "refuse" else studio_ids(studio)
    return ConflictPolicy(policy, taken, stored_reader(studio))


def studio_ids(studio) -> set[tuple[str, str]]:
    """(kind, id) of every piece in the studio, read once."""
    return set(list_stored(studio))


def stored_reader(studio) -> StoredReader:
    """Reads a piece of `studio` by kind and id: its data as a draft proposes it (the model's
    key order, which `_print` relies on), None when there is none."""

    def read(kind: str, piece_id: str) -> dict | None:
        from bunzai.model import dump_piece
        from bunzai.validate import validate_piece

        found = try_read(studio, kind, piece_id)
        return dump_piece(validate_piece(found.data)) if found is not None else None

    return read
