"""The studio index, `.bunzai/index.sqlite`: what `list` and `search` read instead of every file.

The piece files stay the only truth; the index is a cache of them that any reader brings up
to date before it answers. One row per piece file records the file's (inode, size, mtime,
ctime) as last read, its revision and name, and any error reading it gave; an FTS5 table
holds its text fields for search, ranked by BM25 with the name weighing most, then tags, then
short identity fields, then prose. A `links` table keeps the pieces each piece links to
(`bunzai.query.links`), written and dropped with its row: `list --links-to` and the referrers
of a delete or a burial read it instead of every linking file.

Bringing it up to date (`fresh_index`) lists the kind folders and stats each file (no file
is read): one `os.scandir` per kind folder and one `stat` per file, the least that notices a
piece edited in place (which changes no folder's mtime). A kind whose listing (names and
stats, as bytes) is the one recorded for it, taken when every file was already older than
the file system's clock at that moment (`_settled_before`), is fresh as it is. Otherwise the
rows of the files that differ from that listing (added, removed, another stat, or too young
to trust) are compared with their files (all rows, where that is most of them or there is no
listing): a file whose stat differs from its row, a new file, and a file changed in the same
tick of the file system's clock as its row was read, or later (a hand edit in that tick,
keeping the size, would otherwise go unseen) are read again; rows whose file is gone are
dropped. So a piece written by `apply`, by another program or by hand shows up in the next
`list` or `search`, and `apply` itself never waits on the index: a window of a thousand pieces
costs the next reader a thousand small reads once, not every apply an SQLite transaction.

A missing index is built from the files; one SQLite cannot open or read (damaged, another
format) is removed and built again; where the studio's `.bunzai/` folder cannot hold one (read
only), or while another process still holds it after the lock timeout (in use, not damaged),
the index is built in memory for the one command. Processes building a missing index at once
make its tables once (the check is asked again under the write lock). Deleting it never changes
an answer.
"""

from __future__ import annotations

import json
import marshal
import os
import re
import sys
import time
from array import array
from itertools import chain
from operator import itemgetter
from stat import S_ISREG

try:  # sqlite3's own C module: the package adds date adapters the index never uses, and imports
    # datetime for them (2 ms of an installed bunzai's `list`); its classes are the package's
    import _sqlite3 as sqlite3
except ImportError:  # an interpreter that builds the module under another name
    import sqlite3

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.model.ids import is_safe_id
from bunzai.query.search import DIACRITICS, SEGMENT_MARK, best_field, composed, fold, segmented, text_fields
from bunzai.store.studio import STATE_FOLDER

TYPE_CHECKING = False  # typing costs 3 ms to import; list, search and read never need it
if TYPE_CHECKING:
    from typing import Any

    from bunzai.store.studio import Studio

# Paths are strings here, joined by os.path: a fresh index answers without importing pathlib
# (5 ms of an installed bunzai's start, see `Studio.folder`).

# A fresh index answers without reading a piece: the modules that read, parse and index one
# are imported where a file has changed (`_pieces`, `_read_row`, `_columns`), not here.
PIECE_SUFFIX = ".json"  # bunzai.store.pieces.PIECE_SUFFIX (a test holds them equal)

INDEX_NAME = "index.sqlite"
INDEX_FORMAT = "12"  # 12: text and queries composed (NFC), Latin letters with two accents folded

# The BM25 weights of the FTS columns name, tags, short and prose (`_columns` fills them): a
# piece's name counts most, then its tags, then short identity fields, then every other text field.
_WEIGHTS = (8.0, 4.0, 3.0, 1.0)
_SHORT = ("/body/nickname", "/body/tagline", "/body/title")
_SHORT_CHILDREN = tuple(pointer + "/" for pointer in _SHORT)

PREFIXES = "2 3"  # the prefix lengths FTS5 keeps an index for (in characters)


# The text is composed (NFC, see `bunzai.query.search.composed`) before FTS5 reads it, and
# unicode61 folds case and the diacritics of Latin letters. `remove_diacritics 2` folds a Latin
# letter with two of them too (Vietnamese ế and ệ, ǖ): the default, 1, keeps those, which only
# their decomposed spelling lost, and `fold` (the snippet's) folds every Latin letter.
def tokenizer(sqlite_version: str) -> str:
    """The tokenizer of the text table: `remove_diacritics 2` came with SQLite 3.27 (2019), an
    older SQLite keeps the default (and its index names it, so a newer one builds its own)."""
    major, minor = (int(part) for part in sqlite_version.split(".")[:2])
    return "unicode61 remove_diacritics 2" if (major, minor) >= (3, 27) else "unicode61"


TOKENIZER = tokenizer(sqlite3.sqlite_version)
_FORMAT = f"{INDEX_FORMAT} {TOKENIZER}"  # what `meta` holds: the format and the tokenizer it was built with

# `files` holds one short row per piece file (what `list` prints, pre-rendered as `listed`),
# so listing 10,000 pieces reads a few hundred pages, not every piece's text. The text is
# kept once, in the FTS5 table: each column joins its fields' texts with newlines, and
# `layout` (not indexed) names each field's pointer, column and length, from which a hit's
# fields are cut back out for its snippet (see `_columns`, `_fields`). `listings` keeps each
# kind folder's listing as last seen (see `_refresh`). `links` holds one row per piece a piece
# links to (`bunzai.query.links`), keyed by the piece linked, so "who links here" reads a few
# rows; `source` is the linking piece's rowid in `files`, whose row and links go together.
_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE files (rowid INTEGER PRIMARY KEY, kind TEXT NOT NULL, id TEXT NOT NULL, ino INTEGER, "
    "size INTEGER, mtime_ns INTEGER, ctime_ns INTEGER, settled_ns INTEGER, revision TEXT, name TEXT, "
    "name_json TEXT, listed TEXT, error TEXT, UNIQUE (kind, id))",
    "CREATE TABLE listings (kind TEXT PRIMARY KEY, settled_ns INTEGER NOT NULL, newest_ns INTEGER NOT NULL, "
    "stats BLOB NOT NULL, packed BLOB NOT NULL)",
    "CREATE INDEX files_damaged ON files (kind, id) WHERE error IS NOT NULL",
    "CREATE TABLE links (kind TEXT NOT NULL, id TEXT NOT NULL, source INTEGER NOT NULL, "
    "PRIMARY KEY (kind, id, source)) WITHOUT ROWID",
    "CREATE INDEX links_source ON links (source)",
    # Prefix indexes for prefixes of 2 and 3 characters: `ka*` reads one list instead of merging
    # the lists of every word it starts, ten times faster at 10,000 pieces; they make the index a
    # fifth larger and its first build of the text table about twice as long. A longer prefix
    # starts few words, whose lists merge quickly.
    "CREATE VIRTUAL TABLE text USING fts5(name, tags, short, prose, layout UNINDEXED, "
    f"tokenize = '{TOKENIZER}', prefix = '{PREFIXES}')",
)
# FTS5 writes the words it holds in memory as a new segment when they pass `hashsize` bytes,
# and merges segments as they pile up (see `limits.INDEX_FTS_PENDING_BYTES`).
_HASHSIZE = f"INSERT INTO text (text, rank) VALUES ('hashsize', {int(limits.INDEX_FTS_PENDING_BYTES)})"

# A word of the query: letters and digits, and the accents unicode61 drops within a word (those
# NFC leaves uncomposed, such as Yoruba's ọ̀: a query word parted there found nothing). It begins
# at a letter or digit: `\w` also takes `_`, which unicode61 reads as a separator, so a query of
# `_` alone was searched and matched nothing (`a_b` is still the phrase "a b", as indexed).
_WORD_PATTERN = f"[^\\W_][\\w{DIACRITICS}]*"
_WORD = re.compile(_WORD_PATTERN)
_QUERY_PART = re.compile(f'"([^"]*)"?|({_WORD_PATTERN})(\\*?)')


class Query:
    """A search query as FTS5 MATCH text, and the words that pick each hit's snippet."""

    __slots__ = ("match", "words")

    def __init__(self, match: str, words: list[str]) -> None:
        self.match = match
        self.words = words


def parse_query(query: str) -> Query:
    """Words (all must appear), `"a phrase"` (those words in that order) and `pref*` (any
    word starting so). Everything else is a separator: no FTS5 syntax reaches SQLite. A
    word of CJK characters is the phrase of its characters, as the text was indexed (see
    `bunzai.query.search.segmented`).

    Each word reaches FTS5 as typed, in quotes, so the table's tokenizer folds it as it folded
    the text (case, and Latin diacritics: `ß` stays `ß` on both sides, where `casefold` would
    make it `ss` and never match); `words` holds them folded the same way, for the snippet,
    a prefix with its `*`. The query is composed first (NFC), as the text was indexed (see
    `bunzai.query.search.composed`): `ά` typed decomposed finds it written composed."""
    query = composed(query)
    parts: list[str] = []
    keys: list[str] = []
    words: list[str] = []
    for match in _QUERY_PART.finditer(query):
        phrase, word, star = match.groups()
        found = [word] if word is not None else _WORD.findall(phrase or "")
        if not found:
            continue
        spoken = " ".join(found)
        part = '"' + (segmented(spoken) or spoken) + '"' + ("*" if star else "")
        key = fold(part)
        if key not in keys and len(parts) < limits.SEARCH_MAX_TERMS:
            keys.append(key)
            parts.append(part)
            keyed = [fold(w) for w in found]
            if star:  # a prefix (a single word: a phrase takes no star)
                keyed[-1] += "*"
            words.extend(w for w in keyed if w not in words)
    return Query(" ".join(parts), words)


# --- keeping it fresh ----------------------------------------------------------------------


def _connect(path: str) -> sqlite3.Connection:
    connection = sqlite3.connect(path, timeout=limits.LOCK_TIMEOUT_SECONDS, isolation_level=None)
    connection.execute("PRAGMA synchronous = OFF")  # a cache: a torn index is rebuilt from the files
    return connection


def _ready(connection: sqlite3.Connection) -> bool:
    """Whether the database holds this index format (creating it when empty)."""
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables:
        connection.execute("BEGIN IMMEDIATE")
        # another process may have made it while this one waited for the lock: asked again under it
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables:
        for statement in _SCHEMA:
            connection.execute(statement)
        try:
            connection.execute(_HASHSIZE)
        except sqlite3.OperationalError:  # an SQLite without the setting builds as before
            pass
        connection.execute("INSERT INTO meta VALUES ('format', ?)", (_FORMAT,))
        connection.execute("COMMIT")
        return True
    if connection.in_transaction:
        connection.execute("COMMIT")
    row = connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone() if "meta" in tables else None
    return row is not None and row[0] == _FORMAT and {"files", "listings", "links", "text"} <= tables


def _index_path(studio: Studio) -> str:
    return os.path.join(studio.folder, STATE_FOLDER, INDEX_NAME)


def _remove(path: str) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        try:
            os.unlink(f"{path}{suffix}")
        except FileNotFoundError:
            pass


def _busy(error: sqlite3.DatabaseError) -> bool:
    """Whether SQLite gave up waiting for another process's lock (SQLITE_BUSY, SQLITE_LOCKED): the
    index is in use, not damaged."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error)


def _in_memory() -> sqlite3.Connection:
    connection = _connect(":memory:")
    _ready(connection)
    return connection


def _open(studio: Studio) -> sqlite3.Connection:
    """The studio's index database; rebuilt when damaged; in memory where it cannot be kept, or
    while another process holds it past the lock timeout (its work is left alone)."""
    path = _index_path(studio)
    for _ in range(2):
        try:
            if not os.access(os.path.dirname(path), os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
                break
            connection = _connect(path)
            if _ready(connection):
                return connection
            connection.close()
        except sqlite3.DatabaseError as error:
            if _busy(error):
                break
        _remove(path)  # damaged or another format: the files hold the truth, build it again
    return _in_memory()


def _marks(values) -> str:
    return ",".join("?" * len(values))


_CHUNK = 500  # names bound in one statement (older SQLite allows 999 parameters)

Stat = tuple[int, int, int, int]  # (inode, size, mtime_ns, ctime_ns)
_BY_DESCRIPTOR = os.scandir in os.supports_fd and hasattr(os, "O_DIRECTORY")


def _scan(studio: Studio, kinds: tuple[str, ...]) -> dict[str, list]:
    """kind -> the listing of every regular `*.json` file in its folder, in the folder's own
    order, as one flat list: name, inode, size, mtime_ns, ctime_ns, name, ... (`_stats` makes
    it a mapping; `_pieces` keeps the names `bunzai.store.pieces.list_stored` names).

    The loop is the floor of noticing an edit (one `stat` per file) with as little around it
    as Python allows; it bounds the walk as `scan_kind_folders` does. Where it can, it lists
    the folder by a descriptor, so each `stat` resolves the name from the folder (`fstatat`)
    rather than walking the whole path again: a seventh less time at 10,000 pieces. A flat
    list, not a mapping of stems to tuples, takes a tenth less: a fresh index needs only its
    bytes (`_listing`).
    """
    found: dict[str, list] = {}
    room = limits.WALK_MAX_ENTRIES
    for kind in kinds:
        found[kind] = []
        folder = os.path.join(studio.folder, kind)
        try:
            descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY) if _BY_DESCRIPTOR else None
        except (FileNotFoundError, NotADirectoryError):
            continue
        try:
            room = _stat_folder(folder if descriptor is None else descriptor, found[kind], room)
        finally:
            if descriptor is not None:
                os.close(descriptor)
    return found


def _stat_folder(folder: str | int, flat: list, room: int) -> int:
    """Add the name and stat of each regular `*.json` file in `folder` to `flat`; how many
    more entries the walk may see."""
    cut = -len(PIECE_SUFFIX)
    add = flat.append
    try:
        entries = os.scandir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return room
    with entries:
        for entry in entries:
            room -= 1
            if room < 0:
                raise BunzaiError(
                    "too_large",
                    f"the studio's kind folders hold more than {limits.WALK_MAX_ENTRIES} files",
                    hint="move files that are not pieces out of the studio",
                )
            name = entry.name
            if name[cut:] != PIECE_SUFFIX:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            if S_ISREG(st.st_mode):  # a linked file is not a piece
                add(name)
                add(st.st_ino)
                add(st.st_size)
                add(st.st_mtime_ns)
                add(st.st_ctime_ns)
    return room


def _stats(flat: list) -> dict[str, Stat]:
    """stem -> stat of a listing made by `_scan`."""
    cut = -len(PIECE_SUFFIX)
    return {flat[at][:cut]: tuple(flat[at + 1 : at + 5]) for at in range(0, len(flat), 5)}


def _pieces(stats: dict[str, Stat]) -> dict[str, Stat]:
    from bunzai.store.atomic import is_temp_name  # lazy: only a stale kind is listed again, not on a fresh index

    return {stem: stat for stem, stat in stats.items() if not is_temp_name(stem + PIECE_SUFFIX) and is_safe_id(stem)}


def _listing(flat: list) -> bytes:
    """A kind folder's listing made by `_scan` as bytes, to skip comparing row by row. The
    same folder lists in the same order; a new order (or another Python's marshal) only costs
    one comparison row by row."""
    return marshal.dumps(flat)


def _columns(kind: str, document: dict) -> tuple[str, str, str, str, str]:
    """The text table's columns for a piece: its text fields (not its settings: see
    `bunzai.query.not_text`) joined by column, and their layout, `[pointer, column, length]`
    for each field in the document's order (see `_fields`), with a fourth item, 1, where the
    field is held with marks between the characters made tokens (`segmented`).

    A field is held composed (`composed`: NFC), as queries are; where that is not the text as
    written (seldom: a decomposed accent), the layout keeps the text as written as a fifth item
    (after a fourth, 0 or 1), which `_fields` gives back, so that a snippet shows it."""
    from bunzai.query.not_text import tree

    buckets: tuple[list[str], ...] = ([], [], [], [])
    layout = []
    for pointer, text in text_fields(document, "", tree(kind)):
        if pointer == "/name":
            column = 0
        elif pointer == "/body/tags" or pointer.startswith("/body/tags/"):
            column = 1
        elif pointer in _SHORT or pointer.startswith(_SHORT_CHILDREN):
            column = 2
        else:
            column = 3
        normal = composed(text)
        marked = segmented(normal)
        held = normal if marked is None else marked  # with marks: `_fields` takes them out again
        buckets[column].append(held)
        if normal is not text:  # held composed: the text as written is kept beside it
            layout.append([pointer, column, len(held), 0 if marked is None else 1, text])
        elif marked is None:
            layout.append([pointer, column, len(text)])
        else:
            layout.append([pointer, column, len(held), 1])
    joined = ["\n".join(bucket) for bucket in buckets]
    return (*joined, json.dumps(layout, ensure_ascii=False))  # type: ignore[return-value]


def _fields(name: str, tags: str, short: str, prose: str, layout: str) -> list[tuple[str, str]]:
    """The (pointer, text) fields `_columns` joined into its columns, in the document's order."""
    columns = (name, tags, short, prose)
    starts = [0, 0, 0, 0]
    fields = []
    for pointer, column, length, *more in json.loads(layout):
        start = starts[column]
        if len(more) > 1:  # held composed: the text as written
            fields.append((pointer, more[1]))
        else:
            text = columns[column][start : start + length]
            fields.append((pointer, text.replace(SEGMENT_MARK, "") if more else text))
        starts[column] = start + length + 1  # past the newline that joined it to the next
    return fields


def _listed(kind: str, piece_id: str, name: Any, revision: str) -> str:
    """The piece's row of `list` as compact JSON, as `bunzai.cli.output` writes it in a pipe."""
    return json.dumps(
        {"kind": kind, "id": piece_id, "name": name, "revision": revision}, ensure_ascii=False, separators=(",", ":")
    )


def _read_row(studio: Studio, kind: str, piece_id: str) -> tuple | None:
    """(revision, name, name_json, error, columns, links) of a piece file (name_json holds a
    name that is not a string; columns are the text table's, see `_columns`; links the pieces
    it links to, see `bunzai.query.links`), None when it is gone."""
    # lazy: only a stale row reads its file; list and search on a fresh index read none
    from bunzai.query.links import links_in
    from bunzai.store.canon import revision_of
    from bunzai.store.pieces import parse_stored, read_raw, ref_of

    path = os.path.join(studio.folder, kind, piece_id + PIECE_SUFFIX)
    ref = ref_of(kind, piece_id)
    raw = None
    try:
        raw = read_raw(path, what=ref)
        if raw is None:
            return None
        stored = parse_stored(kind, piece_id, path, raw)
    except BunzaiError as error:
        return (
            None if raw is None else revision_of(raw),
            None,
            None,
            json.dumps(error.to_json()["error"]),
            ("", "", "", "", "[]"),
            [],
        )
    name = stored.data.get("name")
    name_json = None if name is None or isinstance(name, str) else json.dumps(name, ensure_ascii=False)
    columns = _columns(kind, stored.data)
    return (stored.revision, None if name_json else name, name_json, None, columns, links_in(stored.data))


def _refresh(connection: sqlite3.Connection, studio: Studio, kinds: tuple[str, ...]) -> None:
    """Bring the rows of `kinds` up to date with the files (see the module docstring).

    Each kind folder's listing is kept in `listings`, with the time its files had to be older
    than to be trusted (`_settled_before`) and its newest file time: when the listing is the
    same and its newest file was older than that, the kind's rows are fresh without comparing
    them one by one.
    """
    marks = ",".join("?" * len(kinds))
    recorded = {
        kind: (settled, newest, stats)
        for kind, settled, newest, stats in connection.execute(
            f"SELECT kind, settled_ns, newest_ns, stats FROM listings WHERE kind IN ({marks})", kinds
        )
    }
    on_disk = _scan(studio, kinds)
    changed: list[tuple[str, bytes]] = []  # (kind, listing)
    for kind in kinds:
        listing = _listing(on_disk[kind])
        known = recorded.get(kind)
        if known is not None and known[2] == listing and known[1] < known[0]:
            continue
        changed.append((kind, listing))
    if not changed:
        return
    # Taken after the scan and before any file is read: see `_settled_before`.
    settled = _settled_before(connection)
    connection.execute("BEGIN IMMEDIATE")
    try:
        for kind, listing in changed:
            stats = _stats(on_disk[kind])
            before = connection.execute("SELECT settled_ns, packed FROM listings WHERE kind = ?", (kind,)).fetchone()
            looks = None if before is None else _to_look_at(stats, before[0], _unpacked(before[1]))
            _refresh_kind(connection, studio, kind, stats, looks, settled)
            times = stats.values()
            newest = max(max(map(itemgetter(2), times), default=0), max(map(itemgetter(3), times), default=0))
            connection.execute(
                "INSERT OR REPLACE INTO listings VALUES (?, ?, ?, ?, ?)",
                (kind, settled, newest, listing, _packed(stats)),
            )
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def _settled_before(connection: sqlite3.Connection) -> int:
    """The time a file's mtime and ctime must both be before for its stat, taken now, to be
    trusted from now on: any later change of the file moves its stat.

    It is the file system's own clock, the clock that stamps the studio's piece files: the
    index file's mtime, set to the present. A piece last changed before it (a tick of that
    clock earlier at least) was changed before its row is read, so a later change gives it
    a later mtime; one changed in the same tick might not, and is read again by the next
    refresh, whose clock is later, as git treats a racily clean file. So a piece written by
    `apply` is trusted by the first reader after it, and only a piece changed while a reader
    ran is read twice. (File systems cut timestamps down to their resolution, FAT's two
    seconds included, so a change in the same tick as the index reads as too young.) Where the
    index is in memory or its file cannot be touched, it is the process's wall clock less
    `limits.INDEX_RACY_SECONDS`, which covers the coarsest clocks and a little skew."""
    path = connection.execute("PRAGMA database_list").fetchone()[2]
    if path:
        try:
            os.utime(path)
            return os.stat(path).st_mtime_ns
        except OSError:
            pass
    return time.time_ns() - int(limits.INDEX_RACY_SECONDS * 1e9)


LOOK_SHARE = 0.25  # past this share of a kind's files to look at, its rows are read all at once


def _to_look_at(stats: dict[str, Stat], settled: int, before: dict[str, Stat] | None) -> list[str] | None:
    """The names whose rows may be stale, against the kind's listing as last recorded
    (`before`, with its `settled` time, see `_settled_before`); None where that listing did
    not unpack, or where most rows need a look.

    A file with the stat it had then, changed before `settled`, was fresh then (its row was
    either checked against it or read after it) and still is: only the files added, removed,
    changed since, or younger than that need their rows. So after one `apply` or one hand edit
    in a kind of 10,000 pieces, one row is looked at, not all of them.
    """
    if before is None:
        return None
    looks = [
        name for name, stat in stats.items() if before.get(name) != stat or stat[2] >= settled or stat[3] >= settled
    ]
    looks += [name for name in before if name not in stats]
    return None if len(looks) > LOOK_SHARE * len(stats) else looks


def _packed(stats: dict[str, Stat]) -> bytes:
    """A kind folder's listing for `_to_look_at`: the length of its names, its names (as the
    file system spells them; they hold no NUL) and their stats as little-endian 64-bit
    integers; empty where one does not fit (that listing then does not unpack, and every row
    is looked at)."""
    try:
        numbers = array("q", chain.from_iterable(stats.values()))
        names = "\0".join(stats).encode("utf-8", "surrogateescape")
    except (OverflowError, UnicodeEncodeError):
        return b""
    if sys.byteorder == "big":
        numbers.byteswap()
    return len(names).to_bytes(8, "little") + names + numbers.tobytes()


def _unpacked(blob: bytes) -> dict[str, Stat] | None:
    """The listing `_packed` made; None where `blob` is not one."""
    if not isinstance(blob, bytes) or len(blob) < 8:
        return None
    size = int.from_bytes(blob[:8], "little")
    rest = blob[8 + size :]
    if 8 + size > len(blob) or len(rest) % 8:
        return None
    names = blob[8 : 8 + size].decode("utf-8", "surrogateescape").split("\0") if size else []
    numbers = array("q")
    numbers.frombytes(rest)
    if sys.byteorder == "big":
        numbers.byteswap()
    if len(numbers) != 4 * len(names):
        return None
    stat = iter(numbers)
    return dict(zip(names, zip(stat, stat, stat, stat)))


def _drop(connection: sqlite3.Connection, rowid: int) -> None:
    connection.execute("DELETE FROM files WHERE rowid = ?", (rowid,))
    connection.execute("DELETE FROM text WHERE rowid = ?", (rowid,))
    connection.execute("DELETE FROM links WHERE source = ?", (rowid,))


def _refresh_kind(
    connection: sqlite3.Connection,
    studio: Studio,
    kind: str,
    stats: dict[str, Stat],
    looks: list[str] | None,
    settled: int,
) -> None:
    """Bring the rows of `kind` up to date with `stats` (its folder as just listed), looking
    only at the rows of `looks` where it is given (see `_to_look_at`), at all of them else."""
    select = "SELECT rowid, id, ino, size, mtime_ns, ctime_ns, settled_ns, revision FROM files WHERE kind = ?"
    if looks is None:
        on_disk = _pieces(stats)
        rows = connection.execute(select, (kind,)).fetchall()
    else:
        on_disk = _pieces({name: stats[name] for name in looks if name in stats})
        rows = []
        for start in range(0, len(looks), _CHUNK):
            part = looks[start : start + _CHUNK]
            rows += connection.execute(select + f" AND id IN ({_marks(part)})", (kind, *part)).fetchall()
    known = {
        piece_id: (rowid, (ino, size, mtime, ctime), row_settled, revision)
        for rowid, piece_id, ino, size, mtime, ctime, row_settled, revision in rows
    }
    linked: list[tuple[str, str, int]] = []  # (kind, id) linked, by the rowid of the piece linking
    for piece_id, row in known.items():
        if piece_id not in on_disk:
            _drop(connection, row[0])
    for piece_id in sorted(on_disk):
        stat = on_disk[piece_id]
        row = known.get(piece_id)
        if row is not None and row[1] == stat and max(stat[2], stat[3]) < row[2]:
            continue
        read = _read_row(studio, kind, piece_id)
        if read is None:  # removed since the scan
            if row is not None:
                _drop(connection, row[0])
            continue
        revision, name, name_json, error, columns, links = read
        if row is not None and error is None and revision == row[3]:  # same bytes: only the stat moved
            connection.execute(
                "UPDATE files SET ino = ?, size = ?, mtime_ns = ?, ctime_ns = ?, settled_ns = ? WHERE rowid = ?",
                (*stat, settled, row[0]),
            )
            continue
        listed = (
            None
            if error is not None
            else _listed(kind, piece_id, name if name_json is None else json.loads(name_json), revision)
        )
        values = (*stat, settled, revision, name, name_json, listed, error)
        if row is None:
            rowid = connection.execute(
                "INSERT INTO files (kind, id, ino, size, mtime_ns, ctime_ns, settled_ns, revision, name, name_json, "
                "listed, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (kind, piece_id, *values),
            ).lastrowid
        else:
            rowid = row[0]
            connection.execute(
                "UPDATE files SET ino = ?, size = ?, mtime_ns = ?, ctime_ns = ?, settled_ns = ?, revision = ?, "
                "name = ?, name_json = ?, listed = ?, error = ? WHERE rowid = ?",
                (*values, rowid),
            )
            connection.execute("DELETE FROM text WHERE rowid = ?", (rowid,))
            connection.execute("DELETE FROM links WHERE source = ?", (rowid,))
        connection.execute(
            "INSERT INTO text (rowid, name, tags, short, prose, layout) VALUES (?, ?, ?, ?, ?, ?)", (rowid, *columns)
        )
        linked.extend((*link, rowid) for link in links)
    # one statement for the kind, in key order: one per piece made a build of 10,000 linking cards a tenth slower
    linked.sort()
    connection.executemany("INSERT INTO links (kind, id, source) VALUES (?, ?, ?)", linked)


def _answer(studio: Studio, kinds: tuple[str, ...], ask):
    """`ask(connection)` on a fresh index; an index SQLite fails to read is built again once."""
    for attempt in (1, 2):
        connection = fresh_index(studio, kinds)
        try:
            return ask(connection)
        except sqlite3.DatabaseError as error:
            if attempt == 2 or connection.execute("PRAGMA database_list").fetchone()[2] == "":
                raise
            if _busy(error):  # held by another process: answer from the files, in memory
                memory = _in_memory()
                try:
                    _refresh(memory, studio, kinds)
                    return ask(memory)
                finally:
                    memory.close()
            _remove(_index_path(studio))
        finally:
            connection.close()


def fresh_index(studio: Studio, kinds: tuple[str, ...]) -> sqlite3.Connection:
    """The studio's index with every piece of `kinds` as it is on disk now."""
    connection = _open(studio)
    try:
        _refresh(connection, studio, kinds)
    except sqlite3.DatabaseError as error:
        connection.close()
        if _busy(error):  # another process holds it past the lock timeout: in use, not damaged
            connection = _in_memory()
        else:
            _remove(_index_path(studio))
            connection = _open(studio)
        _refresh(connection, studio, kinds)
    return connection


def damaged_pieces(connection: sqlite3.Connection, kinds: tuple[str, ...]) -> list[dict]:
    """Every piece file of `kinds` that does not read as a piece: kind, id and the problem."""
    marks = ",".join("?" * len(kinds))
    rows = connection.execute(
        f"SELECT kind, id, error FROM files WHERE kind IN ({marks}) AND error IS NOT NULL ORDER BY kind, id", kinds
    ).fetchall()
    return [
        {"kind": kind, "id": piece_id, "code": json.loads(error)["code"], "problem": json.loads(error)["message"]}
        for kind, piece_id, error in rows
    ]


# --- answering -----------------------------------------------------------------------------


def list_pieces(studio: Studio, kinds: tuple[str, ...]) -> tuple[list[dict], list[dict]]:
    """(kind, id, name and revision of every piece of `kinds`, sorted by kind then id; the
    damaged piece files, each with its problem). One damaged file never hides the rest."""

    def ask(connection: sqlite3.Connection) -> tuple[list, list[dict]]:
        marks = ",".join("?" * len(kinds))
        rows = connection.execute(
            f"SELECT kind, id, name, name_json, revision FROM files WHERE kind IN ({marks}) AND error IS NULL "
            "ORDER BY kind, id",
            kinds,
        ).fetchall()
        return rows, damaged_pieces(connection, kinds)

    rows, damaged = _answer(studio, kinds, ask)
    return _listed_rows(rows), damaged


def _listed_rows(rows: list) -> list[dict]:
    """(kind, id, name, name_json, revision) rows as `list` prints them."""
    return [
        {
            "kind": kind,
            "id": piece_id,
            "name": name if name_json is None else json.loads(name_json),
            "revision": revision,
        }
        for kind, piece_id, name, name_json, revision in rows
    ]


def list_after(
    studio: Studio, kinds: tuple[str, ...], after: tuple[str, str] | None, limit: int
) -> tuple[list[dict], int, int, list[dict]]:
    """A keyset page of `list_pieces`: the first `limit` pieces sorting after `after` (kind, id;
    None for the first page), whether or not `after` itself is still there; with the count of
    every piece, of those left after the page, and the damaged files.

    Keyed on the piece, not on a position, a page never shifts when pieces are added or removed
    before it; and it reads `limit` rows through the (kind, id) index instead of every row."""
    marks = ",".join("?" * len(kinds))
    # every id sorts after the empty string: start at the first kind asked, or after `after`
    start = max(after or ("", ""), (min(kinds), ""))

    def ask(connection: sqlite3.Connection) -> tuple[list, int, int, list[dict]]:
        # one read transaction: another process's refresh cannot land between the page and its counts
        connection.execute("BEGIN")
        # `+kind` keeps SQLite from looking each kind up in the index, so it walks the index
        # from `start` to the last kind asked and stops after `limit` rows
        rows = connection.execute(
            "SELECT kind, id, name, name_json, revision FROM files WHERE (kind, id) > (?, ?) AND kind <= ? "
            f"AND +kind IN ({marks}) AND error IS NULL ORDER BY kind, id LIMIT ?",
            (*start, max(kinds), *kinds, limit),
        ).fetchall()
        total, after_start = connection.execute(
            "SELECT count(*), count(CASE WHEN (kind, id) > (?, ?) THEN 1 END) FROM files "
            f"WHERE kind IN ({marks}) AND error IS NULL",
            (*start, *kinds),
        ).fetchone()
        damaged = damaged_pieces(connection, kinds)
        connection.execute("COMMIT")
        return rows, total, after_start - len(rows), damaged

    rows, total, left, damaged = _answer(studio, kinds, ask)
    return _listed_rows(rows), total, max(left, 0), damaged


def listed_pieces(studio: Studio, kinds: tuple[str, ...]) -> tuple[list[str], list[dict]]:
    """`list_pieces` with each row as its compact JSON text, kept in the index: what `list`
    prints in a pipe, without making and encoding 10,000 dicts."""

    def ask(connection: sqlite3.Connection) -> tuple[list[str], list[dict]]:
        marks = ",".join("?" * len(kinds))
        rows = connection.execute(
            f"SELECT listed FROM files WHERE kind IN ({marks}) AND error IS NULL ORDER BY kind, id", kinds
        ).fetchall()
        return [row[0] for row in rows], damaged_pieces(connection, kinds)

    return _answer(studio, kinds, ask)


def linking_pieces(studio: Studio, kinds: tuple[str, ...], kind: str, piece_id: str) -> tuple[list[dict], list[dict]]:
    """(the pieces of `kinds` that link to kind/piece_id, as `list_pieces` rows; the damaged
    files of those of `kinds` whose pieces can link one, which could not be looked in). The
    piece linked need not exist: a removed piece's referrers are what a delete reports."""
    from bunzai.query.links import LINKING_KINDS

    linking = tuple(k for k in kinds if k in LINKING_KINDS.get(kind, ()))
    if not linking:
        return [], []

    def ask(connection: sqlite3.Connection) -> tuple[list, list[dict]]:
        rows = connection.execute(
            "SELECT f.kind, f.id, f.name, f.name_json, f.revision FROM links AS l "
            "JOIN files AS f ON f.rowid = l.source WHERE l.kind = ? AND l.id = ? "
            f"AND f.kind IN ({_marks(linking)}) AND f.error IS NULL ORDER BY f.kind, f.id",
            (kind, piece_id, *linking),
        ).fetchall()
        return rows, damaged_pieces(connection, linking)

    rows, damaged = _answer(studio, linking, ask)
    return _listed_rows(rows), damaged


def index_kept(studio: Studio) -> bool:
    """Whether the studio keeps an index on disk that this process may bring up to date: where
    it does not (none built yet, or a read-only state folder) a reader would build one for itself."""
    path = _index_path(studio)
    return os.path.isfile(path) and os.access(path, os.W_OK) and os.access(os.path.dirname(path), os.W_OK)


_WEIGHTED = ", ".join(str(w) for w in _WEIGHTS)


# Rows fetched past the last one kept, to see where a tie with it ends: words in most pieces
# score nearly alike (BM25 gives them almost no weight), so such ties are common.
TIE_ROOM = 64


def _ranked(connection: sqlite3.Connection, kinds: tuple[str, ...], match: str, limit: int) -> list:
    """The best `limit` rows for `match` among `kinds`: (kind, id, name, name_json, score,
    name, tags, short, prose, layout), by score, then kind and id.

    Where `kinds` holds every kind the index has rows of, FTS5 ranks alone and only the rows
    that can be kept are joined to their kind and id: a common word matches most pieces, and
    joining each costs a fifth of the query. Those are the rows scoring at least as much as
    the last row kept; the query fetches `TIE_ROOM` rows more to find them all, and where even
    those tie with it (seldom) the query that joins every match answers instead.
    """
    if all_kinds_asked(connection, kinds):
        fetch = limit + TIE_ROOM
        top = connection.execute(
            f"SELECT rowid, -bm25(text, {_WEIGHTED}) AS score FROM text WHERE text MATCH ? ORDER BY score DESC LIMIT ?",
            (match, fetch),
        ).fetchall()
        if not top:
            return []
        last = top[min(limit, len(top)) - 1][1]
        if len(top) < fetch or top[-1][1] != last:
            scores = {rowid: score for rowid, score in top if score >= last}
            kept = sorted(
                connection.execute(
                    f"SELECT rowid, kind, id, name, name_json FROM files WHERE rowid IN ({_marks(scores)})",
                    tuple(scores),
                ),
                key=lambda row: (-scores[row[0]], row[1], row[2]),
            )[:limit]
            texts = {
                row[0]: row[1:]
                for row in connection.execute(
                    f"SELECT rowid, name, tags, short, prose, layout FROM text WHERE rowid IN ({_marks(kept)})",
                    [row[0] for row in kept],
                )
            }
            return [
                (kind, piece_id, name, name_json, scores[rowid], *texts[rowid])
                for rowid, kind, piece_id, name, name_json in kept
            ]
    return ranked_joined(connection, kinds, match, limit)


def ranked_joined(connection: sqlite3.Connection, kinds: tuple[str, ...], match: str, limit: int) -> list:
    """`_ranked` by one query that joins every match to its kind and id."""
    # Rank in an inner query over the short rows, then fetch the text of the hits kept: a
    # common word matches most pieces, and their text is most of the index.
    return connection.execute(
        "SELECT f.kind, f.id, f.name, f.name_json, best.score, t.name, t.tags, t.short, t.prose, t.layout "
        "FROM files AS f JOIN text AS t ON t.rowid = f.rowid "
        f"JOIN (SELECT text.rowid AS rowid, -bm25(text, {_WEIGHTED}) AS score, f.kind AS kind, f.id AS id "
        f"FROM text JOIN files AS f ON f.rowid = text.rowid "
        f"WHERE text MATCH ? AND f.kind IN ({_marks(kinds)}) ORDER BY score DESC, f.kind, f.id LIMIT ?) AS best "
        f"ON best.rowid = f.rowid ORDER BY best.score DESC, best.kind, best.id",
        (match, *kinds, limit),
    ).fetchall()


def all_kinds_asked(connection: sqlite3.Connection, kinds: tuple[str, ...]) -> bool:
    """Whether every row of the index is of one of `kinds` (a search of the whole studio).

    A kind has rows only once `_refresh` has listed its folder, in the same transaction, so
    the kinds of `listings` (a few rows) hold every kind of `files`."""
    return all(kind in kinds for (kind,) in connection.execute("SELECT kind FROM listings"))


def search_pieces(studio: Studio, kinds: tuple[str, ...], query: str, limit: int) -> list[dict]:
    """The best `limit` pieces of `kinds` for `query` (see `parse_query`), by BM25 (higher
    score first, then kind and id); each names its best-matching field and shows a snippet."""
    parsed = parse_query(query)
    if not parsed.match:
        return []

    def ask(connection: sqlite3.Connection) -> list:
        return _ranked(connection, kinds, parsed.match, limit)

    rows = _answer(studio, kinds, ask)
    hits = []
    for kind, piece_id, name, name_json, score, *text in rows:
        pointer, snippet = best_field(_fields(*text), parsed.words)
        hits.append(
            {
                "kind": kind,
                "id": piece_id,
                "name": name if name_json is None else json.loads(name_json),
                "score": round(score, 6),
                "pointer": pointer,
                "snippet": snippet,
            }
        )
    return hits
