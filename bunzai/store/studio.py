"""The studio folder: where it is, how it is laid out, and creating it.

    <studio>/
      bunzai.toml                 settings, written with tomli-w
      <kind>/<id>.json            one canonical piece
      assets/<sha256>.<ext>       content-addressed media
      Graveyard/<kind>/<id>@<utc>.json
      Export/<utc> Kit <id>/
      .bunzai/changes.jsonl       change log
      .bunzai/locks/              per-path lock files
      .bunzai/drafts/             drafts kept by `bunzai.changes`
      .bunzai/history/<kind>/<id>/<revision>.json   earlier revisions, for `bunzai revert`
      .bunzai/cursors/<session>.json                where each session last read the log

Every path helper validates what it is given (kind, id, hash, extension) before a path is
built, so a hostile name never reaches the file system. Linux only (see `bunzai.store`).
"""

from __future__ import annotations

import os
import re
import stat
from functools import lru_cache

from bunzai.errors import BunzaiError, from_os_error
from bunzai.model import KIND_NAMES
from bunzai.model.ids import id_problem
from bunzai.validate import check_kind

TYPE_CHECKING = False  # pathlib costs 5 ms to import in an installed bunzai; list and search never need it
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

STUDIO_FILE = "bunzai.toml"
STATE_FOLDER = ".bunzai"
STUDIO_FORMAT = 1
ENV_STUDIO = "BUNZAI_STUDIO"

_SHA256 = re.compile(r"[0-9a-f]{64}", re.ASCII)
_EXT = re.compile(r"[a-z0-9]{1,10}", re.ASCII)  # the pattern of bunzai.model.base.AssetRef.ext


def check_id(piece_id: object) -> str:
    """`piece_id` when it is a safe id; BunzaiError invalid_id naming the problem otherwise."""
    problem = id_problem(piece_id)
    if problem:
        raise BunzaiError(
            "invalid_id",
            f"{_shown(piece_id)!r} is not a valid id: {problem}",
            hint="use lowercase letters, digits, '.', '_' and '-', e.g. ada-lovelace",
        )
    return piece_id  # type: ignore[return-value]


def _shown(value: object) -> object:
    """An id as a message shows it: bytes of a command-line argument that are not UTF-8, which
    Python keeps as lone surrogates (`\\udcff`), shown as U+FFFD, as a terminal shows them."""
    from bunzai.files import text_name  # here: only a refused id needs it, and `formats` never imports it

    return text_name(value) if isinstance(value, str) else value


def check_sha256(sha256: object) -> str:
    if not isinstance(sha256, str) or not _SHA256.fullmatch(sha256):
        raise BunzaiError(
            "invalid_input",
            f"{sha256!r} is not a SHA-256 hash",
            hint="an asset hash is 64 lowercase hex digits",
        )
    return sha256


def check_ext(ext: object) -> str:
    if not isinstance(ext, str) or not _EXT.fullmatch(ext):
        raise BunzaiError(
            "invalid_input",
            f"{ext!r} is not a file extension bunzai stores",
            hint="an asset extension is 1 to 10 lowercase letters or digits, without the dot (png)",
        )
    return ext


class Studio:
    """A studio folder. Building one touches nothing; see `find_studio` and `init_studio`.

    Immutable and compared by its root, as a frozen dataclass would be; written out because
    importing `dataclasses` (it imports `inspect`) costs half of Python's start-up, and every
    command, `list` and `search` included, builds a Studio. For the same reason `root`, a
    `Path`, is made on first use: `folder` is the root as a string, which is all that `list`
    and `search` need (importing pathlib costs them a tenth of their time in an installed
    bunzai).
    """

    __slots__ = ("folder", "_root")
    folder: str

    def __init__(self, root: Path | str) -> None:
        if isinstance(root, str):
            object.__setattr__(self, "_root", None)
        else:
            from pathlib import Path  # (already imported by the caller that made `root`)

            root = Path(root)
            object.__setattr__(self, "_root", root)
        object.__setattr__(self, "folder", os.fspath(root))

    @property
    def root(self) -> Path:
        if self._root is None:
            from pathlib import Path

            object.__setattr__(self, "_root", Path(self.folder))
        return self._root

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Studio is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a Studio is immutable")

    def __eq__(self, other: object) -> bool:
        return self.root == other.root if type(other) is Studio else NotImplemented

    def __hash__(self) -> int:
        return hash((self.root,))

    def __repr__(self) -> str:
        return f"Studio(root={self.root!r})"

    def __reduce__(self) -> tuple:  # copy and pickle build a new one
        return (Studio, (self.root,))

    @property
    def settings_path(self) -> Path:
        return self.root / STUDIO_FILE

    def kind_dir(self, kind: str) -> Path:
        return self.root / check_kind(kind)

    def piece_path(self, kind: str, piece_id: str) -> Path:
        """`<root>/<kind>/<id>.json`, after checking the kind and the id."""
        from pathlib import Path

        return Path(self.piece_file(kind, piece_id))

    def piece_file(self, kind: str, piece_id: str) -> str:
        """`piece_path` as a string, made without pathlib (`bunzai read` imports none)."""
        check_kind(kind)
        check_id(piece_id)
        return os.path.join(self.folder, kind, f"{piece_id}.json")

    @property
    def assets_dir(self) -> Path:
        return self.root / "assets"

    def asset_path(self, sha256: str, ext: str) -> Path:
        """`<root>/assets/<sha256>.<ext>`, after checking the hash and the extension."""
        check_sha256(sha256)
        check_ext(ext)
        return self.assets_dir / f"{sha256}.{ext}"

    @property
    def graveyard_dir(self) -> Path:
        return self.root / "Graveyard"

    @property
    def export_dir(self) -> Path:
        return self.root / "Export"

    @property
    def state_dir(self) -> Path:
        return self.root / STATE_FOLDER

    @property
    def changes_log(self) -> Path:
        return self.state_dir / "changes.jsonl"

    @property
    def locks_dir(self) -> Path:
        return self.state_dir / "locks"

    @property
    def drafts_dir(self) -> Path:
        return self.state_dir / "drafts"

    @property
    def history_dir(self) -> Path:
        return self.state_dir / "history"

    @property
    def cursors_dir(self) -> Path:
        return self.state_dir / "cursors"

    def writable_dir(self, folder: Path) -> Path:
        """`folder`, a folder inside the studio, made where missing; refused (unsafe_path) when
        any part of it below the studio's root is a symlink or not a folder, so no write can
        land outside the studio through a linked `Export/`, `character/` or `.bunzai/`.
        Every call looks at the folders on disk; only where `folder` sits is worked out once."""
        from pathlib import Path

        if not isinstance(folder, Path):
            folder = Path(folder)
        try:
            parts = _parts_below(self.folder, os.fspath(folder))
        except ValueError:
            raise BunzaiError(
                "unsafe_path", f"{folder} is outside the studio {self.root}", "bunzai writes only inside its studio"
            ) from None
        path = self.folder
        for depth, part in enumerate(parts, 1):
            path = os.path.join(path, part)
            try:
                mode = os.lstat(path).st_mode
            except FileNotFoundError:
                try:
                    os.mkdir(path)
                except FileExistsError:
                    pass
                mode = os.lstat(path).st_mode
            if not stat.S_ISDIR(mode):
                what = "a symbolic link" if stat.S_ISLNK(mode) else "not a folder"
                raise BunzaiError(
                    "unsafe_path",
                    f"{'/'.join(parts[:depth])} in the studio is {what}; bunzai will not write through it",
                    f"make {path} a plain folder of the studio",
                )
        return folder


@lru_cache(maxsize=256)
def _parts_below(root: str, folder: str) -> tuple[str, ...]:
    """`folder`'s parts below `root`, as PurePath.relative_to gives them (ValueError when it is
    not below): an apply asks for the same few folders for every piece, and this lexical work
    cost most of each call."""
    from pathlib import PurePath

    return PurePath(folder).relative_to(root).parts


def init_studio(path: str | os.PathLike[str]) -> tuple[Studio, bool]:
    """Create a studio at `path` (or complete one); returns it and whether it was created.

    Idempotent: an existing `bunzai.toml` is never rewritten; missing folders are added.
    """
    from pathlib import Path

    from bunzai.store.atomic import write_new  # lazy: bunzai search and mcp's initialize open a studio, never write

    root = Path(path).expanduser().absolute()
    if os.path.exists(root) and not os.path.isdir(root):
        raise BunzaiError(
            "studio_missing",
            f"{root} exists and is not a folder",
            hint="choose another path for the studio",
        )
    studio = Studio(root)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a file on the way, a name too long; read-only, full, forbidden: their codes
        raise from_os_error(error, root) or BunzaiError(
            "studio_missing",
            f"no studio folder can be made at {root}: {error.strerror}",
            hint="choose another path for the studio",
        ) from None
    import tomli_w  # here: only `init` writes the settings file; every other command only finds it

    settings = tomli_w.dumps({"studio": {"format": STUDIO_FORMAT}}).encode("utf-8")
    try:
        write_new(studio.settings_path, settings)
        created = True
    except BunzaiError as error:
        if error.code != "occupied":
            raise
        created = False
    for folder in (
        *(root / kind for kind in KIND_NAMES),
        studio.assets_dir,
        studio.graveyard_dir,
        studio.export_dir,
        studio.locks_dir,
        studio.drafts_dir,
        studio.cursors_dir,
        *(studio.history_dir / kind for kind in KIND_NAMES),
    ):
        studio.writable_dir(folder)
    return studio, created


def _existing_studio(path: str, source: str, base: str) -> Studio:
    root = os.path.join(base, os.path.expanduser(path))  # a relative path is taken from `cwd`
    if not os.path.isfile(os.path.join(root, STUDIO_FILE)):
        where = os.path.normpath(root)
        if os.path.exists(where) and not os.path.isdir(where):  # `bunzai init` there would be refused
            folder = os.path.dirname(where)
            settings = os.path.basename(where) == STUDIO_FILE and os.path.isdir(folder)
            hint = (
                f"give {source} the folder that holds it: {folder}"
                if settings
                else f"it is a file, not a folder: give {source} a studio's folder"
            )
        elif _file_on_the_way(where):  # `f.txt/sub`: no folder can be made there either
            hint = f"{_file_on_the_way(where)} is a file, not a folder: give {source} a studio's folder"
        else:
            hint = f"create one with `bunzai init {where}`"
        raise BunzaiError(
            "studio_missing", f"no studio at {where} (given by {source}): it holds no {STUDIO_FILE}", hint
        )
    return Studio(root)


def _file_on_the_way(path: str) -> str | None:
    """The nearest existing path above `path` when it is a file (no folder can be made below it)."""
    above = os.path.dirname(path)
    while above and not os.path.exists(above) and os.path.dirname(above) != above:
        above = os.path.dirname(above)
    return above if above and os.path.isfile(above) else None


def find_studio(
    explicit: str | os.PathLike[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    home: str | os.PathLike[str] | None = None,
    create: bool = True,
) -> Studio:
    """The studio to work in: `--studio`, then $BUNZAI_STUDIO, then the nearest folder
    upward from `cwd` holding `bunzai.toml`, then `<home>/.bunzai/studio` (created on
    first use unless `create` is false: then studio_missing). `env`, `cwd` and `home`
    default to the process's own; relative paths in `explicit` and the environment are
    taken from `cwd`.

    Paths are strings here, walked with `os.path` as `pathlib` would walk them (each parent
    by its name, `..` not resolved): `list` and `search` find their studio without pathlib.
    """
    start = os.getcwd() if cwd is None else os.fspath(cwd)
    if not os.path.isabs(start):
        start = os.path.join(os.getcwd(), start)
    if explicit is not None and os.fspath(explicit) != "":
        return _existing_studio(os.fspath(explicit), "--studio", start)
    environ = os.environ if env is None else env
    from_env = environ.get(ENV_STUDIO, "")
    if from_env:
        return _existing_studio(from_env, ENV_STUDIO, start)
    for folder in upward(start):
        if os.path.isfile(os.path.join(folder, STUDIO_FILE)):
            return Studio(folder)
    default = default_studio_folder(home)
    if not create and not os.path.isfile(os.path.join(default, STUDIO_FILE)):
        raise BunzaiError(
            "studio_missing",
            f"no studio chosen (no --studio, {ENV_STUDIO} or {STUDIO_FILE} upward) and none at {default}",
            hint=f"create one with `bunzai init {default}`, or give --studio DIR",
        )
    studio, _ = init_studio(default)
    return studio


def upward(start: str) -> list[str]:
    """`start` (an absolute path) and each folder above it, up to the root, by name as
    `Path(start)` and its `parents` name them (`..` is a folder's name, not resolved), as
    strings: pathlib is not imported for it."""
    parts = [part for part in start.split("/") if part and part != "."]
    head = "//" if start.startswith("//") and not start.startswith("///") else "/"
    return [head + "/".join(parts[:end]) for end in range(len(parts), -1, -1)]


def default_studio_folder(home: str | os.PathLike[str] | None = None) -> str:
    """`<home>/.bunzai/studio` as a string: the studio used when nothing else names one."""
    base = os.path.expanduser("~") if home is None else os.fspath(home)
    return os.path.join(base, ".bunzai", "studio")


def default_studio_root(home: str | os.PathLike[str] | None = None) -> Path:
    """`<home>/.bunzai/studio`: the studio used when nothing else names one."""
    from pathlib import Path

    return Path(default_studio_folder(home))
