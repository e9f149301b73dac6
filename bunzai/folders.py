"""Shared folders: paths outside the studio that bunzai may read, under explicit grants.

Grants are kept in `bunzai.toml` (`[folders] granted = [...]`, real paths); the studio is a
standing grant. Every path a person gives is made absolute, resolved to its real path
(so no symlink can carry it out of a grant) and only then checked against the grants.
Walks skip symlinked entries and are bounded in depth and entries (bunzai.files).

A person at a shell may name any file their account reads (a capability's `@portrait.png`);
an agent over MCP may not: while a tool runs for it (`local_files_within`), every local file a
capability reads is held to the studio and the grants, as `folder_import`'s paths are.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from bunzai.errors import BunzaiError, from_os_error
from bunzai.files import read_file_bytes, walk_entries, walk_files
from bunzai.query.search import caseless, terms_of
from bunzai.store.settings import read_settings, update_settings


def granted_folders(studio) -> list[Path]:
    folders = read_settings(studio).get("folders", {}).get("granted", [])
    return [Path(folder) for folder in folders if isinstance(folder, str)]


def _given(path: str | Path) -> Path:
    """A path as a person or an agent gave it, `~` expanded; one holding a NUL is refused."""
    if "\0" in str(path):
        raise BunzaiError(
            "invalid_input", "a path cannot hold a NUL character", "give the path as the file system names it"
        )
    return Path(path).expanduser()


def _standing(studio) -> list[Path]:
    """The folders a path may lie in: the studio and every grant."""
    return [studio.root.resolve(), *granted_folders(studio)]


def _inside(real: Path, folders: list[Path]) -> bool:
    return any(real == folder or real.is_relative_to(folder) for folder in folders)


def _real_folder(folder: str | Path) -> Path:
    path = _given(folder)
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError, UnicodeEncodeError) as error:  # no such path, a file on the way, a name too long
        missing = BunzaiError("not_found", f"no folder at {path}", "check the path; grant a folder that exists")
        raise _failed_disk(error, path) or missing from None
    if not real.is_dir():
        raise BunzaiError("invalid_input", f"{path} is not a folder", f"grant the folder that holds it: {real.parent}")
    return real


def _failed_disk(error: Exception, path: Path) -> BunzaiError | None:
    """io_error where the disk failed (EIO) on the way to `path`: not said to be missing."""
    return (
        from_os_error(error, path, writing=False) if isinstance(error, OSError) and error.errno == errno.EIO else None
    )


def grant(studio, folder: str | Path) -> list[str]:
    real = str(_real_folder(folder))

    def add(settings: dict) -> None:
        granted = settings.setdefault("folders", {}).setdefault("granted", [])
        if real not in granted:
            granted.append(real)

    return update_settings(studio, add)["folders"]["granted"]


def revoke(studio, folder: str | Path) -> list[str]:
    path = Path(folder).expanduser()
    candidates = {str(path.absolute())}
    try:
        candidates.add(str(path.resolve(strict=True)))
    except (FileNotFoundError, RuntimeError):
        pass  # a folder deleted since it was granted can still be revoked by its old path

    def remove(settings: dict) -> None:
        granted = settings.get("folders", {}).get("granted", [])
        kept = [g for g in granted if g not in candidates]
        if len(kept) == len(granted):
            raise BunzaiError("not_found", f"{folder} is not a granted folder", "see `bunzai folder list`")
        settings["folders"]["granted"] = kept

    return update_settings(studio, remove).get("folders", {}).get("granted", [])


def checked_path(studio, path: str | Path, *, for_agent: bool = False) -> Path:
    """The real path of `path`, if it lies inside the studio or a granted folder. `for_agent`: the
    refusal tells an agent over MCP nothing outside the grants (see `_not_granted`)."""
    given = _given(path)
    try:
        # Where it leads, whether or not it is there: a path outside the grants is refused
        # as such before anything says whether it exists (an agent learns nothing outside them).
        real = given.resolve(strict=False)
    except (OSError, RuntimeError, UnicodeEncodeError):  # a link loop, a name no file system takes
        raise BunzaiError("not_found", f"nothing at {given}", "check the path, or list the folder") from None
    folders = _standing(studio)
    for leads in (real, None):  # where it leads, then (checked again) where it really is
        if leads is None:
            try:
                leads = given.resolve(strict=True)
            except (OSError, RuntimeError, UnicodeEncodeError) as error:  # no such path, a file on the way ...
                missing = BunzaiError("not_found", f"nothing at {given}", "check the path, or list the folder")
                raise _failed_disk(error, given) or missing from None
        if not _inside(leads, folders):
            raise _not_granted(given, folders) if for_agent else _not_granted_here(given, leads)
    return leads


def _not_granted_here(given: Path, leads: Path) -> BunzaiError:
    """The refusal a person at a shell gets: where the path really leads, and the folder to grant,
    the nearest one that exists (granting one that does not is refused as not_found)."""
    where = f" (it is really {leads})" if leads != given.absolute() else ""
    there = leads.parent  # the nearest thing on its way that is there: a folder, or a file
    while not os.path.exists(there) and there != there.parent:  # os.path: an unreadable folder is not there
        there = there.parent
    if not os.path.isdir(there):
        grant_it = f"`bunzai folder grant {there.parent}`"
        hint = f"{there} is a file, not a folder: grant the folder that holds it first: {grant_it}"
    elif there == leads.parent:
        hint = f"grant the folder that really holds it first: `bunzai folder grant {there}`"
    else:
        hint = f"no folder {leads.parent} exists: grant the nearest one above it first: `bunzai folder grant {there}`"
    return BunzaiError("not_granted", f"{given} is outside the studio and every granted folder{where}", hint)


def _not_granted(given: Path, folders: list[Path], what: str = "") -> BunzaiError:
    """The refusal an agent over MCP gets, made of the path as given alone: not where a link leads,
    not which folders exist, so its words are the same whatever lies outside the grants. A path
    written inside a grant leads out through a link there; any other is outside, and the folder
    to grant is the one it is written in (or the nearest above it, when that one does not exist)."""
    said = f"{what + ': ' if what else ''}{given}"
    if _written_inside(given, folders):
        return BunzaiError(
            "not_granted",
            f"{said} leads out of the studio and every granted folder through a link",
            "a link does not carry a path out of a grant: give a path that stays inside, or grant the folder "
            "the link leads to with `bunzai folder grant`",
        )
    return BunzaiError(
        "not_granted",
        f"{said} is outside the studio and every granted folder",
        "grant the folder it is in first (or the nearest one above it, if that folder does not exist): "
        f"`bunzai folder grant {given.absolute().parent}`",
    )


def _written_inside(given: Path, folders: list[Path]) -> bool:
    """Whether `given` is written inside a grant: a folder on its way, resolved as grants are kept
    (real paths: a symlinked home is the home it leads to), is a grant or lies in one. Only folders
    that are there are resolved, from the root down, so the walk is as deep as the folders that exist.
    It tells an agent no more than a read would: a path written through a link into a grant is read."""
    written = os.path.normpath(given.absolute())
    if _inside(Path(written), folders):
        return True
    parts = Path(written).parts
    for depth in range(2, len(parts)):  # the folders above the path, the root's child first
        folder = os.path.join(*parts[:depth])
        if not os.path.isdir(folder):
            return False
        if _inside(Path(os.path.realpath(folder)), folders):
            return True
    return False


def search(studio, query: str, limit: int) -> dict:
    """Files in granted folders whose relative path holds every word of `query`, as the answer
    `folder search` prints: `items`, and where the search could not look everywhere, `unreadable`
    (folders that cannot be reached, listed or entered, a grant included: another user's home, a
    dead mount) and `unfinished` (grants past WALK_MAX_ENTRIES: searched up to it, then left for
    the next grant). Both are passed over; the rest is searched."""
    terms = terms_of(query)
    hits: list[dict] = []
    unreadable: list[str] = []
    unfinished: list[dict] = []
    for folder in granted_folders(studio):
        try:  # stat, not is_dir: newer Pythons' is_dir says False for a folder it cannot reach
            if not stat.S_ISDIR(folder.stat().st_mode):
                continue
        except (FileNotFoundError, NotADirectoryError):  # a grant since removed: nothing to search there
            continue
        except OSError:  # EACCES, ENOTCONN ...
            unreadable.append(str(folder))
            continue
        try:
            if _search_grant(folder, terms, hits, limit, unreadable):
                break
        except BunzaiError as error:
            if error.code != "too_large":
                raise
            unfinished.append(_past_the_limit(folder, error.details["limit"]))
    answer = {"query": query, "count": len(hits), "items": hits}
    return (
        answer | ({"unreadable": unreadable} if unreadable else {}) | ({"unfinished": unfinished} if unfinished else {})
    )


def _search_grant(folder: Path, terms: list[str], hits: list[dict], limit: int, unreadable: list[str]) -> bool:
    """Add the hits of one grant to `hits`; True once they reach `limit`."""
    # the files `folder import` and SillyTavern list
    for file in walk_files(folder, dot_files=True, unreadable=unreadable):
        relative = file.relative_to(folder).as_posix()
        key = caseless(relative)
        if not all(term in key for term in terms):
            continue
        try:
            size = file.stat().st_size
        except FileNotFoundError:  # removed since the walk listed it
            continue
        except OSError:  # the walk entered its folder, then it failed (a disk, a mount): named, not sized
            if str(file.parent) not in unreadable:
                unreadable.append(str(file.parent))
            continue
        hits.append({"folder": str(folder), "path": str(file), "relative": relative, "size": size})
        if len(hits) >= limit:
            return True
    return False


def _past_the_limit(folder: Path, limit: int) -> dict:
    """What `unfinished` says of a grant the search left at `limit` entries (WALK_MAX_ENTRIES)."""
    return {
        "folder": str(folder),
        "code": "too_large",
        "message": f"{folder} holds more than {limit} entries: the search looked at the first "
        f"{limit}, in name order, and went on to the next grant",
        "hint": "grant the folders you search in, further down, in place of this one: "
        f"`bunzai folder grant {folder}/SUBFOLDER`, then `bunzai folder revoke {folder}`",
    }


def read_page(studio, path: str | Path, offset: int, limit: int) -> dict:
    """A granted file: a page of its text, or its size and hash when it is not text."""
    real = checked_path(studio, path)
    if real.is_dir():
        return _folder_page(real, offset, limit)
    data = read_file_bytes(real)
    result = {"path": str(real), "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return result | {"type": "binary"}
    part = text[offset : offset + limit]
    end = offset + len(part)
    return result | {
        "type": "text",
        "length": len(text),
        "offset": offset,
        "value": part,
        "next_offset": end if end < len(text) else None,
    }


def _folder_page(folder: Path, offset: int, limit: int) -> dict:
    """A page of what `folder` holds, one level (`folder search` looks deeper): its subfolders,
    then its files, each in name order, as `walk_entries` keeps them; `count` counts both, and
    `offset` and `limit` page through both in that order. An entry that cannot be looked at (a bad
    inode, a path too long) is passed over and named under `unreadable`, on every page; a folder
    that cannot be listed or entered is refused (nothing in it could be read)."""
    unreadable: list[str] = []
    try:
        walk = walk_entries(folder, max_depth=0, dot_files=True, bad_entries=unreadable)
        entries = sorted(walk, key=lambda entry: not entry[1])  # stable
    except BunzaiError as error:
        if error.code != "too_large":
            raise
        raise _too_many_to_page(folder, error.details["limit"]) from None
    page = entries[offset : offset + limit]
    end = offset + len(page)
    return {
        "path": str(folder),
        "type": "folder",
        "folders": [path.name for path, is_folder in page if is_folder],
        "files": [path.name for path, is_folder in page if not is_folder],
        "count": len(entries),
        "offset": offset,
        "next_offset": end if end < len(entries) else None,
    } | ({"unreadable": unreadable} if unreadable else {})


def _too_many_to_page(folder: Path, limit: int) -> BunzaiError:
    """The refusal of a folder too large to page. A page is in name order, and the first names of
    that order are known only once every name is: a small --limit would list and sort it all the
    same (a stream in the order the disk gives is no page: that order may change between calls)."""
    return BunzaiError(
        "too_large",
        f"{folder} holds more than {limit} entries at one level: a page is in name order, so every "
        "entry would be listed and sorted, however short a page is asked for",
        f"read a file in it by its path (`bunzai folder read {folder}/NAME`), or import it whole "
        f"(`bunzai folder import {folder}`: an import walks any number of files)",
        limit=limit,
    )


# The studio whose grants bound the local files capabilities read, while a tool runs for an agent.
_WITHIN: ContextVar = ContextVar("local_files_within", default=None)


@contextmanager
def local_files_within(studio):
    """While the block runs, `gated` holds every local file to the studio and its grants."""
    token = _WITHIN.set(studio)
    try:
        yield
    finally:
        _WITHIN.reset(token)


def refuse_outside(path: str | Path, what: str = "") -> None:
    """Under `local_files_within`: not_granted when `path` leads outside the studio and every
    grant, asked before anything is looked up at it (whether it exists, is a file, holds a
    member), so an agent learns nothing of what lies outside them."""
    studio = _WITHIN.get()
    if studio is None:
        return
    given = _given(path)
    try:
        real = given.resolve(strict=False)
    except (OSError, RuntimeError, UnicodeEncodeError):  # a name no file system takes: nothing to learn
        return
    folders = _standing(studio)
    if not _inside(real, folders):
        raise _not_granted(given, folders, what)


def gated(path: str | Path) -> Path:
    """`path` itself, or under `local_files_within` its real path once it is shown to lie in the
    studio or a granted folder (not_granted, not_found otherwise)."""
    studio = _WITHIN.get()
    return Path(path) if studio is None else checked_path(studio, path, for_agent=True)
