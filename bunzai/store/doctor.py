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
                 piece its name does, a piece that validates; and `Graveyard/` holds only kind
                 folders;
- `orphan_asset`, `missing_asset`, `damaged_asset` (this one only with `verify_assets`, as
                 it reads every byte): the media, checked in `store.doctor_assets`;
- `lock_file`    no lock file is left by a writer that is gone.

`repair` removes temp files of dead writers, orphan assets and stray lock files, and nothing
else: a damaged piece or asset, a hand edit, a damaged graveyard entry or a foreign line in the
log is for a person to look at (doctor moves nothing aside: each is reported where it is), and
an orphan asset stays while something it may stand for is astray (`store.doctor_assets`). It
first takes the studio's writers lock exclusively (`store.batch`), so it never sweeps what a
running apply staged.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import time
from pathlib import Path

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.files import is_exact_temp_name, is_junk_file
from bunzai.model import KIND_NAMES
from bunzai.store.atomic import is_temp_name, temp_writer, writer_gone
from bunzai.store.batch import writers_lock
from bunzai.store.changelog import is_torn, log_lines, well_formed
from bunzai.store.doctor_assets import piece_media, check_assets, check_media, hold_orphans
from bunzai.store.doctor_rows import problem as _problem
from bunzai.store.doctor_rows import regular_files as _entries
from bunzai.store.graveyard import entry_problem
from bunzai.store.history import history_folders
from bunzai.store.locks import LOCK_SUFFIX
from bunzai.store.pieces import list_stored, read_stored, scan_kind_folders
from bunzai.store.studio import Studio
from bunzai.validate import validate_piece

_WRITTEN = ("create", "update", "restore")  # ops after which the piece is at `revision`


def examine(studio: Studio, *, repair: bool = False, verify_assets: bool = False) -> dict:
    """The doctor's report (and, with `repair`, what it removed; with `verify_assets`, every
    asset in use read and checked against its hash)."""
    writers = writers_lock(studio.root, fcntl.LOCK_EX) if repair else None
    try:
        problems: list[dict] = []
        notes: list[str] = []
        pieces, damaged, media = _check_pieces(studio, problems)
        records = _check_log(studio, pieces, damaged, problems, notes)
        assets, astray, kept = check_assets(studio, problems, media if verify_assets else None)
        buried = _check_graveyard(studio, problems)
        live = [(studio.piece_path(*key), "/".join(key), refs) for key, refs in media.items()]
        check_media(studio, live + buried + kept, problems)
        hold_orphans(problems, astray)
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
        entry = f"{kind}/{item.name.removesuffix('.json')}"
        refs, invalid = piece_media(Path(item.path), entry)
        if invalid is not None:
            problems.append(_problem("graveyard", item.path, invalid.message, code=invalid.code))
        elif refs:
            media.append((Path(item.path), f"buried {entry}", refs))
    return media


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
