"""`bunzai doctor`: what a studio holds that it should not, and the safe repairs.

Checks, each a row in `problems` when it fails:

- `piece`        every piece file parses, names its own kind and id, and validates;
- `log`          the change log and the pieces agree: every piece's revision on disk is the
                 one its latest record wrote, or that record's write never landed (a writer
                 killed between logging its intent and its rename: noted, not a problem);
- `log_line`     every line of the change log is a record, or one a killed writer left torn
                 (noted, not a problem); readers skip any other line, so it is reported with
                 its line number, and left for a person (the log is append-only);
- `temp_file`    no temp file is left by a writer that is gone (in the kind folders, the
                 graveyard, assets, drafts, cursors, revert history and `.bunzai/`, and
                 anywhere under `Export/`, where only names exactly as bunzai makes them
                 count, since the folders there hold the user's own files too);
- `graveyard`    every file of `Graveyard/<kind>/` is an entry `graveyard restore` takes: named
                 `<id>@<stamp>.json`, a regular file bunzai reads, a JSON object naming the
                 piece its name does; and `Graveyard/` holds only kind folders;
- `orphan_asset` every asset is referred to by a piece, a buried piece, a saved draft, a
                 splice in use (its base: `store.assets`) or a
                 revision kept for revert (`.bunzai/history/`); and no splice is shadowed by
                 the plain file of its own asset, which readers read in its place. Repair
                 keeps orphans that may be needed: plain ones while a splice in use has lost
                 its base, all while a medium is missing (renamed or moved by hand);
- `missing_asset` every medium a piece or a buried piece refers to has a file in `assets/`: its
                 own, or a splice whose base is there (bytes are not read: damage is found on
                 reading, or by `verify_assets`);
- `damaged_asset` (only with `verify_assets`, as it reads every byte) every asset in use
                 gives the bytes its name's hash promises: a plain file hashes to its name, a
                 splice's header reads, its base is there and whole, and it rebuilds to its name;
- `lock_file`    no lock file is left by a writer that is gone.

`repair` removes temp files of dead writers, orphan assets and stray lock files, and nothing
else: a damaged piece or asset, a hand edit, a damaged graveyard entry or a foreign line in the log is
for a person to look at (doctor moves nothing aside: each is reported where it is). It first takes the studio's
writers lock exclusively (`store.batch`), so it never sweeps what a running apply staged.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.files import is_exact_temp_name, is_junk_file
from bunzai.jsondoc.reading import load_json_bytes
from bunzai.model import KIND_NAMES
from bunzai.store.assets import SPLICE_SUFFIX, asset_damage, asset_file, splice_base, splice_path
from bunzai.store.atomic import is_temp_name, temp_writer, writer_gone
from bunzai.store.batch import writers_lock
from bunzai.store.changelog import is_torn, log_lines, well_formed
from bunzai.store.graveyard import entry_problem
from bunzai.store.history import history_folders, kept_revisions
from bunzai.store.locks import LOCK_SUFFIX
from bunzai.store.pieces import list_stored, read_raw, read_stored, scan_kind_folders
from bunzai.store.studio import Studio
from bunzai.validate import validate_piece

_WRITTEN = ("create", "update", "restore")  # ops after which the piece is at `revision`
_HEX64 = re.compile(rb"[0-9a-f]{64}")


def examine(studio: Studio, *, repair: bool = False, verify_assets: bool = False) -> dict:
    """The doctor's report (and, with `repair`, what it removed; with `verify_assets`, every
    asset in use read and checked against its hash)."""
    writers = writers_lock(studio.root, fcntl.LOCK_EX) if repair else None
    try:
        problems: list[dict] = []
        notes: list[str] = []
        pieces, damaged, media = _check_pieces(studio, problems)
        records = _check_log(studio, pieces, damaged, problems, notes)
        assets = _check_assets(studio, problems, media if verify_assets else None)
        buried = _check_graveyard(studio, problems)
        live = [(studio.piece_path(*key), "/".join(key), refs) for key, refs in media.items()]
        _check_media(studio, live + buried, problems)
        _hold_orphans_while_missing(problems)
        _check_temps(studio, problems)
        _check_export_temps(studio, problems, notes)
        _check_locks(studio, problems)
        repaired = _repair(problems) if repair else []
        left = [p for p in problems if not p.get("repaired")]
        for problem in problems:
            problem.pop("repaired", None)
            problem.pop("fixable", None)
        return {
            "studio": str(studio.root),
            "clean": not left,
            "pieces": len(pieces),
            "assets": assets,
            "log_records": records,
            "problems": left,
            "notes": notes,
            "repaired": repaired,
        }
    finally:
        if writers is not None:
            os.close(writers)


def _problem(check: str, path: Path | str, message: str, **extra: Any) -> dict:
    return {"check": check, "path": str(path), "message": message, **extra}


def _check_pieces(
    studio: Studio, problems: list[dict]
) -> tuple[dict[tuple[str, str], str], set[tuple[str, str]], dict[tuple[str, str], list[tuple[str, str]]]]:
    """{(kind, id): revision} of every piece file, the files that do not read, and the media
    (sha256, ext) each valid piece refers to, its escrow's included; the files that do not read
    and the pieces that do not validate are noted as problems."""
    pieces, damaged, media = {}, set(), {}
    for kind, piece_id in list_stored(studio):
        path = studio.piece_path(kind, piece_id)
        try:
            stored = read_stored(studio, kind, piece_id)
        except BunzaiError as error:
            problems.append(_problem("piece", path, error.message, code=error.code))
            damaged.add((kind, piece_id))
            continue
        pieces[(kind, piece_id)] = stored.revision
        try:
            piece = validate_piece(stored.data)
        except BunzaiError as error:
            problems.append(
                _problem("piece", path, f"{kind}/{piece_id} does not validate: {error.message}", code=error.code)
            )
            continue
        media[(kind, piece_id)] = [(ref.sha256, ref.ext) for ref in piece.asset_refs()]
    return pieces, damaged, media


def _check_media(studio: Studio, media: list[tuple[Path, str, list[tuple[str, str]]]], problems: list[dict]) -> None:
    """Every medium of each (file, who, its media) has a file in assets/: the plain file, or a
    splice whose base is there. Their bytes are not read: a damaged file is found when it is
    read (corrupt_asset), or by --verify-assets."""
    missing: dict[tuple[str, str], str] = {}  # (sha256, ext) -> why it cannot be read, or ""
    for path, who, refs in media:
        for ref in refs:
            if ref not in missing:
                missing[ref] = _unreadable(studio, *ref)
            if missing[ref]:
                problems.append(
                    _problem("missing_asset", path, f"{who} refers to {missing[ref]}", asset=f"{ref[0]}.{ref[1]}")
                )


def _hold_orphans_while_missing(problems: list[dict]) -> None:
    """While a piece's medium is missing, repair removes no orphan asset: one of them may be
    that medium, renamed or moved by hand (a person puts it back)."""
    if any(problem["check"] == "missing_asset" for problem in problems):
        for problem in problems:
            if problem["check"] == "orphan_asset" and problem.get("fixable"):
                problem["fixable"] = False
                problem["message"] += "; it is kept while a medium a piece refers to is missing: it may be that one"


def _unreadable(studio: Studio, sha256: str, ext: str) -> str:
    """Why the asset has no file to be read from, or ''."""
    found = asset_file(studio, sha256, ext)
    path = studio.asset_path(sha256, ext)
    for there in (path, splice_path(path)) if found is None else ():
        if os.path.lexists(there):
            return f"assets/{there.name}, which is not a file (a folder or a link stands there)"
    if found is None:
        return f"assets/{sha256}.{ext}, which is not in the studio"
    if not found.name.endswith(SPLICE_SUFFIX):
        return ""
    base = splice_base(found)
    if base is None:
        return f"assets/{found.name}, whose header is damaged"
    base_path = studio.asset_path(*base)
    if not base_path.is_file():
        where = "is not a file" if os.path.lexists(base_path) else "is not in the studio"
        return f"assets/{found.name}, whose base assets/{base_path.name} {where}"
    return ""


def _check_log(
    studio: Studio,
    pieces: dict[tuple[str, str], str],
    damaged: set[tuple[str, str]],
    problems: list[dict],
    notes: list[str],
) -> int:
    """Compare each piece with its latest record. A file that does not read (`damaged`) is
    already a `piece` problem: it has no revision to compare, and is no sign of a lost write."""
    latest: dict[tuple[str, str], dict] = {}
    count = 0
    for number, line, record in log_lines(studio):
        if not well_formed(record):  # what the readers of the log (`store.feed`) skip
            _check_line(studio, number, line, problems, notes)
            continue
        count += 1
        latest[(record["kind"], record["id"])] = record
    for key in sorted((set(latest) | set(pieces)) - damaged):
        on_disk = pieces.get(key)
        record = latest.get(key)
        ref = f"{key[0]}/{key[1]}"
        if record is None:
            problems.append(
                _problem(
                    "log",
                    studio.root / key[0] / f"{key[1]}.json",
                    f"{ref} is on disk but the change log has no record of it (made by hand, "
                    "or before this studio kept a log)",
                )
            )
            continue
        landed, unlanded = _states(record)
        if on_disk == landed:
            continue
        if on_disk == unlanded:
            notes.append(
                f"{ref}: the {record.get('op')} logged as seq {record.get('seq')} never landed "
                "(its writer stopped first); the piece is as it was before it"
            )
            continue
        what = "is gone" if on_disk is None else f"is at revision {on_disk[:12]}…"
        problems.append(
            _problem(
                "log",
                studio.root / key[0] / f"{key[1]}.json",
                f"{ref} {what}, which its latest change-log record (seq {record.get('seq')}) "
                "does not explain: it was changed outside bunzai",
            )
        )
    return count


def _check_line(studio: Studio, number: int, line: bytes, problems: list[dict], notes: list[str]) -> None:
    """A line that is no record: torn by a writer that stopped mid-append (a note), or foreign."""
    where = f"line {number} of .bunzai/changes.jsonl"
    if is_torn(line):
        notes.append(f"{where} is a record its writer did not finish (stopped mid-append); readers skip it")
        return
    try:
        json.loads(line)
        code, what = "invalid_input", "is JSON but not a change record"
    except ValueError:
        code, what = "invalid_json", "is not JSON"
    excerpt = line.rstrip(b"\n").decode("utf-8", "replace")[: limits.DOCTOR_LINE_EXCERPT_CHARS]
    problems.append(
        _problem(
            "log_line",
            studio.changes_log,
            f"{where} {what} ({excerpt!r}): bunzai did not write it; `changes`, `revert` and `wait` skip it",
            code=code,
            line=number,
        )
    )


def _states(record: dict) -> tuple[str | None, str | None]:
    """(revision on disk if the record's write landed, revision on disk if it did not)."""
    op, revision = record.get("op"), record.get("revision")
    if op in _WRITTEN:
        return revision, record.get("base") if op == "update" else None
    return None, revision  # delete, bury


def _check_assets(
    studio: Studio, problems: list[dict], verified: dict[tuple[str, str], list[tuple[str, str]]] | None
) -> int:
    """Count the assets, and note those nothing uses; with `verified` (the media of each valid
    piece), read every asset in use and note those that do not give their name's bytes."""
    used = _referenced_hashes(studio)
    entries = [entry for entry in _entries(studio.assets_dir) if not is_temp_name(entry.name)]
    names = {entry.name for entry in entries}
    bases, lost = _splice_bases(entries, names, used)
    in_use, whole = [], set()
    for entry in entries:
        if entry.name.endswith(SPLICE_SUFFIX) and entry.name.removesuffix(SPLICE_SUFFIX) in names:
            problem = _shadowed(studio, entry)
            whole.update([entry.name.removesuffix(SPLICE_SUFFIX)] if problem["fixable"] else [])
            problems.append(problem)
        elif entry.name.partition(".")[0] in used:
            in_use.append(entry)
        else:
            problems.append(_orphan(entry, lost))
    if verified is not None:
        _check_bytes(in_use, bases, whole, _users(verified, bases), problems)
    return len(entries)


def _splice_bases(entries: list[os.DirEntry], names: set[str], used: set[str]) -> tuple[dict[str, str], list[str]]:
    """Add to `used` the base of every splice in use (one level: a base is never a splice),
    shadowed ones too (while one is kept, so is its base). Returns each such splice's base file
    name, and the splices whose base is not found: their header names a file that is not
    there, or does not read and holds no stored hash. While there is one, no plain orphan is
    removed (`_orphan`): a damaged header says nothing sure of its base, its size included."""
    bases: dict[str, str] = {}
    lost: list[str] = []
    stored = {name.partition(".")[0] for name in names if not name.endswith(SPLICE_SUFFIX)}
    for entry in entries:
        if not entry.name.endswith(SPLICE_SUFFIX) or entry.name.partition(".")[0] not in used:
            continue
        base = splice_base(entry.path)
        if base is not None:
            used.add(base[0])
            bases[entry.name] = f"{base[0]}.{base[1]}"
            if bases[entry.name] not in names:  # a base gone, or a header naming another hash
                lost.append(entry.name)
            continue
        named = _hashes_in_file(Path(entry.path), limits.ASSET_SPLICE_HEADER_MAX_BYTES)
        used |= named  # its header does not read: whatever hash is in it may name its base
        if not named & stored:
            lost.append(entry.name)
    return bases, lost


def _orphan(entry: os.DirEntry, lost: list[str]) -> dict:
    """An asset nothing uses: removed by repair, unless it is a plain file while a splice in use
    has lost its base (it may be that base)."""
    message = (
        f"assets/{entry.name} is referred to by no piece, buried piece, saved draft "
        "or revision kept for revert, and is the base of no splice in use"
    )
    if lost and not entry.name.endswith(SPLICE_SUFFIX):
        message += f"; it is kept, as it may be the base of assets/{lost[0]}, whose own base is not found"
        return _problem("orphan_asset", entry.path, message)
    return _problem("orphan_asset", entry.path, message, fixable=True)


def _shadowed(studio: Studio, entry: os.DirEntry) -> dict:
    """A splice beside the plain file of its own asset, which every reader reads in its place:
    an orphan, removed by repair only where that plain file is whole (it is read to know)."""
    plain = entry.name.removesuffix(SPLICE_SUFFIX)
    whole = not asset_damage(studio.assets_dir / plain)
    return _problem(
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
) -> None:
    """Every asset of `entries` read whole and hashed (but those `proven` already); those that
    do not give their name's bytes noted, with the pieces they hurt. Splices first: one that
    rebuilds to its name proves its base (`bases`) too (a splice is made only where its base's
    bytes are the file's at its spans), so a card's portrait is not read and hashed twice."""
    proven = set(proven)
    for entry in sorted(entries, key=lambda entry: not entry.name.endswith(SPLICE_SUFFIX)):
        if entry.name in proven:
            continue
        why = asset_damage(Path(entry.path))
        if not why:
            proven.update([bases[entry.name]] if entry.name in bases else [])
            continue
        problems.append(
            _problem(
                "damaged_asset",
                entry.path,
                f"assets/{entry.name} is damaged: {why}",
                code="corrupt_asset",
                pieces=users.get(entry.name.partition(".")[0], []),
            )
        )


def _users(media: dict[tuple[str, str], list[tuple[str, str]]], bases: dict[str, str]) -> dict[str, list[str]]:
    """sha256 -> the pieces (`kind/id`) that refer to it, in the order they were read; a
    splice's base is used by the pieces that use the splice."""
    users: dict[str, list[str]] = {}
    for (kind, piece_id), refs in media.items():
        for sha256 in dict.fromkeys(sha256 for sha256, _ext in refs):
            users.setdefault(sha256, []).append(f"{kind}/{piece_id}")
    for splice, base in bases.items():
        through = users.get(splice.partition(".")[0], [])
        if through:
            have = users.setdefault(base.partition(".")[0], [])
            have += [piece for piece in through if piece not in have]
    return users


def _referenced_hashes(studio: Studio) -> set[str]:
    """Every sha256 named anywhere in pieces, graveyard entries, saved drafts (damaged files
    included: their media are never taken from them) and the revisions history keeps (`bunzai
    revert` puts their media back in place). Read from their text, not parsed (`_hashes_named`)."""
    used: set[str] = set()
    folders = [studio.root / kind for kind in KIND_NAMES] + [studio.graveyard_dir / kind for kind in KIND_NAMES]
    folders.append(studio.drafts_dir)
    for folder in folders:
        for entry in _entries(folder):
            if is_temp_name(entry.name) or not entry.name.endswith(".json"):
                continue
            try:
                raw = read_raw(Path(entry.path), what=entry.name)
            except BunzaiError:  # too large to read whole: every 64-hex run in it, block by block
                used.update(_hashes_in_file(Path(entry.path)))
                continue
            used.update(_hashes_named(raw or b"", entry.name))
    for raw in kept_revisions(studio):
        used.update(_hashes_named(raw, "a kept revision"))
    return used


# A JSON string of exactly 64 lowercase hex digits: an AssetRef's sha256, or the key of an
# attachment (keyed by hash). Found in the text, as no parse is needed to see one; a file
# writing a hex digit as an escape (\u0030-\u0039, \u0061-\u0066) is parsed instead.
_QUOTED_HEX64 = re.compile(rb'"([0-9a-f]{64})"')
_HEX_ESCAPE = re.compile(rb"\\u00[36]", re.IGNORECASE)


def _hashes_named(raw: bytes, what: str) -> set[str]:
    """Every hash a JSON file names as a string or a key; a file that does not parse gives
    every run of 64 hex digits in it."""
    if not _HEX_ESCAPE.search(raw):
        return {match.decode("ascii") for match in _QUOTED_HEX64.findall(raw)}
    try:
        parsed = load_json_bytes(raw, what=what, max_depth=limits.WRAPPED_JSON_MAX_DEPTH)
    except BunzaiError:
        return _hashes_in_text(raw)
    found: set[str] = set()
    stack = [parsed]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and len(item) == 64 and _HEX64.fullmatch(item.encode("ascii", "replace")):
            found.add(item)
    return found


def _hashes_in_text(raw: bytes) -> set[str]:
    return {match.decode("ascii") for match in _HEX64.findall(raw)}


_BLOCK = 1 << 20  # bytes read at a time from a file too large to read whole


def _hashes_in_file(path: Path, most: int | None = None) -> set[str]:
    """Every run of 64 hex digits in the file (in its first `most` bytes), read block by block
    (the last 63 bytes of a block carried into the next, so a run across the seam is found)."""
    found: set[str] = set()
    carried, left = b"", most
    try:
        with open(path, "rb") as handle:
            while block := handle.read(_BLOCK if left is None else min(_BLOCK, left)):
                text = carried + block
                found |= _hashes_in_text(text)
                carried = text[-63:]
                left = None if left is None else left - len(block)
    except OSError:
        pass
    return found


def _check_temps(studio: Studio, problems: list[dict]) -> None:
    folders = [studio.root / kind for kind in KIND_NAMES] + [studio.graveyard_dir / kind for kind in KIND_NAMES]
    folders += [studio.assets_dir, studio.drafts_dir, studio.root, studio.cursors_dir, studio.state_dir]
    folders += [folder for _, _, folder in history_folders(studio)]
    for folder in folders:
        for entry in _entries(folder):
            if not is_temp_name(entry.name):
                continue
            pid = temp_writer(entry.name)
            if pid is None:
                continue  # bunzai names its temp files after their writer: a user's own `.notes.tmp` stays
            written = entry.stat(follow_symlinks=False).st_mtime
            if not writer_gone(pid, written) and time.time() - written < limits.DOCTOR_TEMP_GRACE_SECONDS:
                continue  # a live writer's file, mid-write
            problems.append(
                _problem("temp_file", entry.path, f"{entry.name} is a temp file its writer left behind", fixable=True)
            )


def _check_graveyard(studio: Studio, problems: list[dict]) -> list[tuple[Path, str, list[tuple[str, str]]]]:
    """Files of the graveyard a restore would refuse or not see (`graveyard.entry_problem`), and
    anything beside the kind folders; reported only: they are the user's buried pieces. Returns
    the media of each buried piece that validates (its file, who it is, its media), which a
    restore brings back with it."""
    for entry in _listing(studio.graveyard_dir):
        if is_junk_file(entry.name) or (entry.name in KIND_NAMES and entry.is_dir(follow_symlinks=False)):
            continue
        problems.append(
            _problem(
                "graveyard",
                entry.path,
                f"Graveyard/{entry.name} is not a kind folder (a link is not one); bunzai does not look inside it",
                code="invalid_input",
            )
        )
    media = []
    for kind, item in scan_kind_folders(
        studio.graveyard_dir, KIND_NAMES, what="the graveyard", hint="empty old graveyard entries"
    ):
        if is_junk_file(item.name) or is_temp_name(item.name):
            continue
        error = entry_problem(kind, item)
        if error is not None:
            problems.append(_problem("graveyard", item.path, error.message, code=error.code))
            continue
        refs = _buried_media(Path(item.path))
        if refs:
            media.append((Path(item.path), f"buried {kind}/{item.name.removesuffix('.json')}", refs))
    return media


def _buried_media(path: Path) -> list[tuple[str, str]]:
    """The media (sha256, ext) a graveyard entry's piece refers to, where it validates: read
    only where its text names a hash (most buried lorebooks and presets have no media)."""
    try:
        raw = read_raw(path, what=path.name)
        if raw is None or b'"sha256"' not in raw:
            return []
        piece = validate_piece(load_json_bytes(raw, what=path.name, max_depth=limits.WRAPPED_JSON_MAX_DEPTH))
    except BunzaiError:
        return []  # a restore brings it back as it is; the piece check then reports it
    return [(ref.sha256, ref.ext) for ref in piece.asset_refs()]


def _check_export_temps(studio: Studio, problems: list[dict], notes: list[str]) -> None:
    """Temp files an export left under `Export/` when it was stopped: named exactly as
    `atomic.write_temp` names them, regular files, their writer gone (as `atomic.sweep_stale_temps`
    judges them). A bounded walk: the kits of years of exports may be many."""
    if os.path.islink(studio.export_dir):
        return  # a linked Export/ leads outside the studio; exports refuse to write through it
    seen = 0
    stack = [(studio.export_dir, 0)]
    while stack:
        folder, depth = stack.pop()
        for entry in _listing(folder):
            seen += 1
            if seen > limits.WALK_MAX_ENTRIES:
                notes.append(
                    f"Export/ holds more than {limits.WALK_MAX_ENTRIES} files; temp files past them were not looked for"
                )
                return
            if entry.is_dir(follow_symlinks=False):
                if depth < limits.FOLDER_WALK_MAX_DEPTH:
                    stack.append((Path(entry.path), depth + 1))
            elif (
                is_exact_temp_name(entry.name)
                and entry.is_file(follow_symlinks=False)
                and writer_gone(temp_writer(entry.name), entry.stat(follow_symlinks=False).st_mtime)
            ):
                where = Path(entry.path).relative_to(studio.root).as_posix()
                problems.append(
                    _problem("temp_file", entry.path, f"{where} is a temp file an export left behind", fixable=True)
                )


def _listing(folder: Path) -> list[os.DirEntry]:
    """The entries of `folder`, none when it is missing or not a folder."""
    try:
        with os.scandir(folder) as listing:
            return list(listing)
    except (FileNotFoundError, NotADirectoryError):
        return []


def _check_locks(studio: Studio, problems: list[dict]) -> None:
    for entry in _entries(studio.locks_dir):
        if entry.name.endswith(LOCK_SUFFIX) and not _held(Path(entry.path)):
            problems.append(
                _problem("lock_file", entry.path, f"{entry.name} is a lock file no process holds", fixable=True)
            )


def _held(path: Path) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def _repair(problems: list[dict]) -> list[dict]:
    """Remove what is safe to remove; returns what was removed."""
    repaired = []
    for problem in problems:
        if not problem.get("fixable"):
            continue
        path = Path(problem["path"])
        if problem["check"] == "lock_file" and _held(path):
            continue
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError as error:
            if error.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise
            continue
        problem["repaired"] = True
        repaired.append({"check": problem["check"], "path": problem["path"], "action": "removed"})
    return repaired


def _entries(folder: Path) -> Iterator[os.DirEntry]:
    """Regular files directly in `folder` (none when it is missing), symlinks left out."""
    try:
        listing = os.scandir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return
    with listing:
        for entry in listing:
            if entry.is_file(follow_symlinks=False):
                yield entry
