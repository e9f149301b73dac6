"""`bunzai doctor`'s checks of the media (the rows `orphan_asset`, `missing_asset` and
`damaged_asset`; `store.doctor` runs them). A medium is missing when a live or buried piece, or
a revision kept for revert, names it and it has no file to be read from (none, or a splice
whose header does not read or whose base is gone).

What is in use is read from the text of every file that may name media: every file under the
kind folders, the graveyard and the saved drafts (subfolders, damaged and hand-renamed files
included), and the revisions kept for revert (any JSON string of 64 hex digits). A splice in
use keeps its base, and so does any file of assets/ that begins as a splice (one renamed by
hand).

Repair removes an orphan only where nothing it could stand for is astray. While a piece, a
graveyard entry or the log shows a file doctor cannot read or a hand edit it cannot explain
(`hold_orphans`); while a medium named as a `sha256` by a piece, a graveyard file or a kept
revision has no file; while a file of assets/ is not named as `store.assets` names them (an
operating system's leftover aside); while a splice's header does not read, names a base that
is not there or not of the size its spans give, or disagrees with the splice's own length, or
a splice stands under a plain name; while an asset is found damaged; or while a file that may
name media was not read, or (not a piece file or an entry, which those checks read) does not
parse: every orphan is kept, and its row says why. It may be that medium, renamed or moved by
hand, or that base. A person puts things back; doctor never guesses. (A damaged revision kept
for revert is not read: `revert` cannot read it either.)
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.files import is_junk_file
from bunzai.jsondoc.reading import load_json_bytes
from bunzai.model import KIND_NAMES
from bunzai.model.ids import is_safe_id
from bunzai.store.assets import (
    SPLICE_SUFFIX,
    asset_damage,
    splice_part,
    starts_as_splice,
    why_unreadable,
)
from bunzai.store.atomic import is_temp_name
from bunzai.store.doctor_rows import problem, regular_files
from bunzai.store.graveyard import is_entry_file
from bunzai.store.history import kept_revisions
from bunzai.store.pieces import read_raw
from bunzai.store.studio import Studio
from bunzai.validate import validate_piece

Media = list[tuple[Path, str, list[tuple[str, str]]]]  # (the file, who it is, its (sha256, ext) media)

_HEX64 = re.compile(rb"[0-9a-f]{64}")
# A JSON string of exactly 64 lowercase hex digits: an AssetRef's sha256, or the key of an
# attachment (keyed by hash). Found in the text, as no parse is needed to see one; a file
# writing a hex digit as an escape (\u0030-\u0039, \u0061-\u0066) is parsed instead.
_QUOTED_HEX64 = re.compile(rb'"([0-9a-f]{64})"')
_HEX_ESCAPE = re.compile(rb"\\u00[36]", re.IGNORECASE)
# An AssetRef's hash as bunzai writes it: a medium the file wants in assets/.
_SHA256_PAIR = re.compile(rb'"sha256"\s*:\s*"([0-9a-f]{64})"')
_BLOCK = 1 << 20  # bytes read at a time from a file too large to read whole
_ASSET_NAME = re.compile(r"[0-9a-f]{64}\.[a-z0-9]{1,10}(\.splice)?", re.ASCII)  # as store.assets names them


def check_assets(
    studio: Studio, problems: list[dict], verified: dict[tuple[str, str], list[tuple[str, str]]] | None
) -> tuple[int, list[str], Media]:
    """Count the assets and note those nothing uses; with `verified` (the media of each valid
    piece), read every asset in use and note those that do not give their name's bytes. Returns
    the count, what it found astray (for `hold_orphans`), and the media of the kept revisions
    that name one not there (for `check_media`)."""
    used, wanted, unread, revisions = _referenced(studio)
    entries = [
        entry
        for entry in regular_files(studio.assets_dir)
        if not is_temp_name(entry.name) and not is_junk_file(entry.name)
    ]
    names = {entry.name for entry in entries}
    bases, astray = _splice_bases(studio, entries, names, used)
    in_use, whole, orphans = [], set(), []
    for entry in entries:
        if entry.name.endswith(SPLICE_SUFFIX) and entry.name.removesuffix(SPLICE_SUFFIX) in names:
            row = _shadowed(studio, entry)
            whole.update([entry.name.removesuffix(SPLICE_SUFFIX)] if row["fixable"] else [])
            orphans.append(row)
        elif entry.name.partition(".")[0] in used:
            in_use.append(entry)
        else:
            orphans.append(_orphan(entry))
    if verified is not None:
        astray += _check_bytes(in_use, bases, whole, _users(verified, bases), problems)
    stored = {name.partition(".")[0] for name in names if _ASSET_NAME.fullmatch(name)}
    kept = _kept_media(revisions, _readable(names, bases))
    astray += [
        f"assets/{sha256}… is named by a piece, a buried piece or a kept revision and is not there"
        for sha256 in sorted(wanted - stored)[:1]
    ]
    astray += [
        f"assets/{name} is not named as bunzai names assets"
        for name in sorted(names)
        if not _ASSET_NAME.fullmatch(name)
    ][:1]
    astray += [unread] if unread else []
    problems += orphans
    return len(entries), astray, kept


def _readable(names: set[str], bases: dict[str, str]) -> set[str]:
    """The hashes assets/ has a file to read from: a plain file, or a splice whose header reads
    and whose base is there (its bytes are not read)."""
    readable = set()
    for name in names:
        if not _ASSET_NAME.fullmatch(name):
            continue
        if not name.endswith(SPLICE_SUFFIX) or bases.get(name) in names:
            readable.add(name.partition(".")[0])
    return readable


def _kept_media(revisions: list[tuple[str, Path, set[str]]], readable: set[str]) -> Media:
    """The media of each kept revision that names one with no file in assets/ to read it from
    (for `check_media`, which says why): `bunzai revert` of the change that replaced the
    revision would fail, or put back a piece whose medium cannot be read. A revision whose
    media all have a file is not validated (they are many)."""
    kept = []
    for ref, path, asked in revisions:
        if asked <= readable:
            continue
        media, invalid = piece_media(path, f"a revision of {ref}")
        if invalid is None:
            kept.append((path, f"a revision of {ref} kept for revert ({path.stem[:12]}…)", media))
    return kept


# Problems that say a file bunzai reads for the media it names is not as bunzai wrote it: a
# piece or a graveyard entry that does not read (cut short, another encoding), a change the
# log does not explain (a piece made, edited, moved or deleted by hand), a medium missing.
_HOLDING = ("missing_asset", "piece", "graveyard", "log")


def hold_orphans(problems: list[dict], astray: list[str]) -> None:
    """While something an orphan may stand for is astray (`astray`, from `check_assets`), or a
    piece, a buried piece or the log shows a file doctor cannot read or a hand edit it cannot
    explain, or a piece's medium is missing, repair removes no orphan asset: one of them may be
    what that file named, or that medium, renamed or moved by hand. Each row says why."""
    found = next((row for row in problems if row["check"] in _HOLDING), None)
    if found is not None:
        astray = [
            *astray,
            f"assets/{found['asset']} is missing"
            if found["check"] == "missing_asset"
            else f"the {found['check']} problem of {Path(found['path']).name} stands",
        ]
    for row in problems if astray else ():
        if row["check"] == "orphan_asset" and row.get("fixable"):
            row["fixable"] = False
            row["message"] += f"; it is kept while {astray[0]}: it may stand for that"


def _splice_bases(
    studio: Studio, entries: list[os.DirEntry], names: set[str], used: set[str]
) -> tuple[dict[str, str], list[str]]:
    """Add to `used` the base of every splice in use (one level: a base is never a splice),
    shadowed ones too (while one is kept, so is its base), and of every file that begins as a
    splice under another name (renamed by hand). Returns each splice's base file name, and why
    a splice's base may be astray: a header that does not read, a base not there or not of the
    size its spans give, a splice whose length disagrees with its header, a splice under a
    plain name."""
    bases: dict[str, str] = {}
    astray: list[str] = []
    for entry in entries:
        spliced = entry.name.endswith(SPLICE_SUFFIX)
        if spliced and entry.name.partition(".")[0] not in used:
            continue  # an orphan splice: it goes with its base, unless something else keeps them
        if not spliced and not starts_as_splice(entry.path):
            continue
        part = splice_part(entry.path)
        if part is None:
            used |= _hashes_in_file(Path(entry.path), limits.ASSET_SPLICE_HEADER_MAX_BYTES)[0]
            astray.append(f"assets/{entry.name} has a damaged header")
            continue
        (sha256, ext), size, agrees = part
        used.add(sha256)
        bases[entry.name] = f"{sha256}.{ext}"
        base = studio.assets_dir / bases[entry.name]
        if not spliced:
            astray.append(f"assets/{entry.name} holds a splice under a plain file's name")
        elif not agrees or bases[entry.name] not in names or base.stat().st_size != size:
            astray.append(f"assets/{entry.name} has lost its base")
    return bases, astray


def _orphan(entry: os.DirEntry) -> dict:
    return problem(
        "orphan_asset",
        entry.path,
        f"assets/{entry.name} is referred to by no piece, buried piece, saved draft "
        "or revision kept for revert, and is the base of no splice in use",
        fixable=True,
    )


def _shadowed(studio: Studio, entry: os.DirEntry) -> dict:
    """A splice beside the plain file of its own asset, which every reader reads in its place:
    an orphan, removed by repair only where that plain file is whole (it is read to know)."""
    plain = entry.name.removesuffix(SPLICE_SUFFIX)
    whole = not asset_damage(studio.assets_dir / plain)
    return problem(
        "orphan_asset",
        entry.path,
        f"assets/{entry.name} is never read: assets/{plain}, the same asset stored plain, is read in its place"
        + ("" if whole else f"; it is kept, as assets/{plain} is damaged"),
        fixable=whole,
    )


def _check_bytes(
    entries: list[os.DirEntry],
    bases: dict[str, str],
    proven: set[str],
    users: dict[str, list[str]],
    problems: list[dict],
) -> list[str]:
    """Every asset of `entries` read whole and hashed (but those `proven` already); those that
    do not give their name's bytes noted, with the pieces they hurt. Splices first: one that
    rebuilds to its name proves its base (`bases`) too (a splice is made only where its base's
    bytes are the file's at its spans), so a card's portrait is not read and hashed twice.
    Returns a reason for each damaged asset (its base, or what it stands for, may be astray)."""
    proven = set(proven)
    damaged = []
    for entry in sorted(entries, key=lambda entry: not entry.name.endswith(SPLICE_SUFFIX)):
        if entry.name in proven:
            continue
        why = asset_damage(Path(entry.path))
        if not why:
            proven.update([bases[entry.name]] if entry.name in bases else [])
            continue
        damaged.append(f"assets/{entry.name} is damaged")
        problems.append(
            problem(
                "damaged_asset",
                entry.path,
                f"assets/{entry.name} is damaged: {why}",
                code="corrupt_asset",
                pieces=users.get(entry.name.partition(".")[0], []),
            )
        )
    return damaged


def _users(media: dict[tuple[str, str], list[tuple[str, str]]] | None, bases: dict[str, str]) -> dict[str, list[str]]:
    """sha256 -> the pieces (`kind/id`) that refer to it, in the order they were read; a
    splice's base is used by the pieces that use the splice."""
    users: dict[str, list[str]] = {}
    for (kind, piece_id), refs in (media or {}).items():
        for sha256 in dict.fromkeys(sha256 for sha256, _ext in refs):
            users.setdefault(sha256, []).append(f"{kind}/{piece_id}")
    for splice, base in bases.items():
        through = users.get(splice.partition(".")[0], [])
        if through:
            have = users.setdefault(base.partition(".")[0], [])
            have += [piece for piece in through if piece not in have]
    return users


def check_media(studio: Studio, media: Media, problems: list[dict]) -> None:
    """Every medium of each (file, who, its media) has a file in assets/: the plain file, or a
    splice whose base is there. Their bytes are not read: a damaged file is found when it is
    read (corrupt_asset), or by --verify-assets."""
    missing: dict[tuple[str, str], str] = {}  # (sha256, ext) -> why it cannot be read, or ""
    for path, who, refs in media:
        for ref in refs:
            if ref not in missing:
                missing[ref] = why_unreadable(studio, *ref)
            if missing[ref]:
                problems.append(
                    problem("missing_asset", path, f"{who} refers to {missing[ref]}", asset=f"{ref[0]}.{ref[1]}")
                )


def piece_media(path: Path, entry: str) -> tuple[list[tuple[str, str]], BunzaiError | None]:
    """The media (sha256, ext) the piece file at `path` refers to (a graveyard entry, or the
    piece a restore put back), or why it does not validate: for a graveyard entry a `graveyard`
    problem, as a restore would bring back a piece that does not validate, and the hashes read
    from it may be damaged. Its name and JSON are checked already (`graveyard.entry_problem`)."""
    try:
        raw = read_raw(path, what=entry)
        if raw is None:
            return [], None
        piece = validate_piece(load_json_bytes(raw, what=entry, max_depth=limits.WRAPPED_JSON_MAX_DEPTH))
    except BunzaiError as error:
        return [], BunzaiError(
            error.code, f"{entry} does not validate: {error.message}", hint="mend it, or move it out of the graveyard"
        )
    return [(ref.sha256, ref.ext) for ref in piece.asset_refs()], None


def _referenced(studio: Studio) -> tuple[set[str], set[str], str, list[tuple[str, Path, set[str]]]]:
    """(every hash named anywhere in the kind folders, the graveyard and the saved drafts (any
    file, in subfolders too: moved by hand) and the kept revisions; the hashes those but the
    drafts name as a `sha256`, which should be in assets/ (a draft carries its own media); why
    a file that may name media was not read, or ''; each kept revision naming media, with its
    piece, its file and the hashes it names as a `sha256`)."""
    used: set[str] = set()
    wanted: set[str] = set()
    files, why = [], []
    for folder, wants in [(studio.root / kind, True) for kind in KIND_NAMES] + [
        (studio.graveyard_dir, True),
        (studio.drafts_dir, False),
    ]:
        found, unread = _files_under(folder)
        files += [(path, wants) for path in found]
        why += [unread] if unread else []
    for path, wants in files:
        if is_temp_name(path.name):
            continue
        try:
            raw = read_raw(path, what=path.name)
        except BunzaiError:  # too large to read whole: read block by block
            named, asked = _hashes_in_file(path)
            raw = None
        else:
            named, asked = _hashes_named(raw or b"", path.name)
        used |= named
        wanted |= asked if wants else set()
        if is_junk_file(path.name):
            continue  # an editor's backup or swap file: read for its hashes, never held to parse
        if raw is not None and (_checked_elsewhere(studio, path) or _parses(raw, path.name)):
            continue
        why.append(f"{_shown(studio, path)} does not read as JSON")
    revisions = []
    for ref, path, raw in kept_revisions(studio):
        named, asked = _hashes_named(raw, "a kept revision")
        used |= named
        wanted |= asked
        revisions += [(ref, path, asked)] if asked else []
    return used, wanted, why[0] if why else "", revisions


def _checked_elsewhere(studio: Studio, path: Path) -> bool:
    """Whether doctor's piece or graveyard check reads the file whole (a piece file, named
    `<id>.json`, of a kind folder; a graveyard entry, `<id>@<stamp>.json`): a file it cannot
    parse is a problem there, which holds repair (`hold_orphans`). Any other file (a copy or a
    move by hand, a draft) is parsed here, as hashes read from a file cut short may be missing."""
    parent = path.parent
    if parent.name not in KIND_NAMES:
        return False
    if parent.parent == studio.root:
        return path.name.endswith(".json") and is_safe_id(path.name.removesuffix(".json"))
    return parent.parent == studio.graveyard_dir and is_entry_file(path.name)


def _parses(raw: bytes, what: str) -> bool:
    try:
        load_json_bytes(raw, what=what, max_depth=limits.WRAPPED_JSON_MAX_DEPTH)
    except BunzaiError:
        return False
    return True


def _shown(studio: Studio, path: Path) -> str:
    try:
        return path.relative_to(studio.root).as_posix()
    except ValueError:
        return str(path)


def _files_under(folder: Path) -> tuple[list[Path], str]:
    """The regular files anywhere under `folder` (links not followed), within the walk's
    bounds; and why some were not listed, or ''."""
    found: list[Path] = []
    stack = [(folder, 0)]
    while stack:
        where, depth = stack.pop()
        try:
            with os.scandir(where) as listing:
                entries = list(listing)
        except (FileNotFoundError, NotADirectoryError):
            continue
        for entry in entries:
            if len(found) >= limits.WALK_MAX_ENTRIES:
                return found, f"{folder.name}/ holds more than {limits.WALK_MAX_ENTRIES} files, not all read"
            if entry.is_dir(follow_symlinks=False):
                if depth >= limits.FOLDER_WALK_MAX_DEPTH:
                    return found, f"{folder.name}/ nests past {limits.FOLDER_WALK_MAX_DEPTH} folders, not all read"
                stack.append((Path(entry.path), depth + 1))
            elif entry.is_file(follow_symlinks=False):
                found.append(Path(entry.path))
    return found, ""


def _hashes_named(raw: bytes, what: str) -> tuple[set[str], set[str]]:
    """(every hash a JSON file names as a string or a key, those it names as a `sha256`); a
    file that does not parse gives every run of 64 hex digits in it, and its `sha256` pairs."""
    if not _HEX_ESCAPE.search(raw):
        return _strings_of(_QUOTED_HEX64.findall(raw)), _strings_of(_SHA256_PAIR.findall(raw))
    try:
        parsed = load_json_bytes(raw, what=what, max_depth=limits.WRAPPED_JSON_MAX_DEPTH)
    except BunzaiError:
        return _strings_of(_HEX64.findall(raw)), _strings_of(_SHA256_PAIR.findall(raw))
    named, asked = set(), set()
    stack = [parsed]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(item)
            sha256 = item.get("sha256")
            asked |= {sha256} if isinstance(sha256, str) and _is_hash(sha256) else set()
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and _is_hash(item):
            named.add(item)
    return named, asked


def _is_hash(text: str) -> bool:
    return len(text) == 64 and _HEX64.fullmatch(text.encode("ascii", "replace")) is not None


def _strings_of(found: list[bytes]) -> set[str]:
    return {match.decode("ascii") for match in found}


def _hashes_in_file(path: Path, most: int | None = None) -> tuple[set[str], set[str]]:
    """(every run of 64 hex digits in the file, its `sha256` pairs), in its first `most` bytes,
    read block by block (the end of a block carried into the next, so a run across the seam is
    found)."""
    named: set[str] = set()
    asked: set[str] = set()
    carried, left = b"", most
    try:
        with open(path, "rb") as handle:
            while block := handle.read(_BLOCK if left is None else min(_BLOCK, left)):
                text = carried + block
                named |= _strings_of(_HEX64.findall(text))
                asked |= _strings_of(_SHA256_PAIR.findall(text))
                carried = text[-256:]
                left = None if left is None else left - len(block)
    except OSError:
        pass
    return named, asked
