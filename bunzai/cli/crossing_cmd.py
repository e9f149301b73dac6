"""The crossing: import, transfer, export, convert, formats."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from bunzai.cli import completion
from bunzai.cli.context import studio_of
from bunzai.cli.output import emit, emit_line, render_error, say, to_text, visible

ToArg = Annotated[
    str, typer.Option("--to", help="Target format id (see `bunzai formats`).", autocompletion=completion.formats)
]
# a stored piece's crossing also takes a platform's name (`convert.platform_format`); `convert` does not
PIECE_TO_HELP = (
    "Target format id, or a platform's name (e.g. sillytavern, risuai): its one format that writes the "
    "piece's kind, else the one the piece came from; where several are left the refusal lists them "
    "(see `bunzai formats`)."
)
PieceToArg = Annotated[str, typer.Option("--to", help=PIECE_TO_HELP, autocompletion=completion.formats)]
FromEngineOpt = Annotated[
    str | None,
    typer.Option(
        "--from-engine",
        help=(
            "Macro engine the piece's text was written for, where its original format does not say (a piece made in "
            "bunzai)."
        ),
        autocompletion=completion.engines,
    ),
]
EngineOpt = Annotated[
    str | None,
    typer.Option(
        "--engine",
        help=(
            "Macro engine that will read the file, where the format alone does not say (e.g. lumiverse reading "
            "SillyTavern files); see `bunzai macro engines`."
        ),
        autocompletion=completion.engines,
    ),
]


def import_(
    ctx: typer.Context,
    paths: Annotated[list[Path], typer.Argument(help="Files or folders to import; - reads one file from stdin.")],
    id: Annotated[str | None, typer.Option("--id", help="Id of the (first) piece; only with one file.")] = None,
    format: Annotated[
        str | None,
        typer.Option("--format", help="Read as this format instead of sniffing.", autocompletion=completion.formats),
    ] = None,
    on_conflict: Annotated[
        str,
        typer.Option(
            "--on-conflict",
            help=(
                "An id already in the studio or claimed earlier in this import: refuse (apply says stale), skip (no "
                "draft; a card's book gets -2 where another book holds its id) or suffix (-2, -3 ...)."
            ),
        ),
    ] = "refuse",
) -> int:
    """Read platform files into create drafts.

    Read platform files into create drafts, one JSON line per piece; pipe them to `bunzai apply`.

    A file carrying several pieces (a card with its book) gives a group of linked drafts,
    applied all-or-none. Nothing is written here.

    Example: bunzai import ChatML.json | bunzai apply --yes
    """
    from itertools import chain

    from bunzai import limits
    from bunzai.changes.imports import Skipped, drafts_from_path
    from bunzai.cli.progress import Progress
    from bunzai.errors import BunzaiError

    if sum(str(path) == "-" for path in paths) > 1:
        raise BunzaiError("usage", "standard input (-) can be read once", "name - at most once")
    if id is not None and (len(paths) != 1 or paths[0].is_dir()):
        raise BunzaiError("usage", "--id names the piece of a single file", "import one file when giving --id")
    if format is not None:  # a format that does not exist is the command's error, before any file is read
        from bunzai.adapters.registry import get_adapter

        get_adapter(format)
    _configure_engines(ctx)
    conflicts = _conflict_policy(ctx, on_conflict)
    failed = drafted = 0
    skipped: list[tuple[str, bool]] = []  # (name, whether a folder too deep to walk)
    progress = Progress("importing", "imported", after=limits.PROGRESS_MIN_FILES)
    # Every path in one stream, under one policy: a card held back for a world read later
    # (--on-conflict suffix) waits for the world of any path, not only its own.
    stream = chain.from_iterable(drafts_from_path(path, piece_id=id, format_id=format) for path in paths)
    for file, result in conflicts.apply(stream):
        if isinstance(result, Skipped) and result.told:  # a note on a folder, not a file passed over
            say(f"bunzai: {visible(result.reason)}")
            continue
        progress.step(file.name)
        if isinstance(result, Skipped):
            skipped.append((visible(file.name), result.deep))  # a file name may hold any character
            continue
        if isinstance(result, BunzaiError):
            failed += 1
            result.details.setdefault("path", str(file))
            render_error(result)
            continue
        for draft in result:
            drafted += 1
            emit_line(draft)
    progress.done()
    if skipped:
        shown = ", ".join(name for name, _ in skipped[:5]) + (
            f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""
        )
        say(f"bunzai: skipped {len(skipped)} file(s) or folder(s): {shown}")
        deep = [name for name, too_deep in skipped if too_deep]
        if deep:
            say(
                f"bunzai: {len(deep)} folder(s) lie deeper than {limits.FOLDER_WALK_MAX_DEPTH} levels and were "
                f"not walked: {', '.join(deep[:5])}; import them on their own"
            )
    if conflicts.summary():
        say(conflicts.summary())
    if not (drafted or failed or conflicts.skipped):
        raise _nothing_found(paths, len(skipped))
    return 1 if failed else 0


def _nothing_found(paths: list[Path], skipped: int):
    """The refusal of an import that found no piece at all: silence would read as success, and
    `apply` would then complain of empty input. (Pieces left out by --on-conflict skip were found.)"""
    from bunzai.errors import BunzaiError

    where = ", ".join(str(path) for path in paths)
    if skipped:
        hint = f"no format claims the {skipped} file(s) or folder(s) named on stderr; see `bunzai formats`"
    else:
        hint = "the folder holds no file to read; hidden folders, symlinks and system junk (.DS_Store) are passed over"
    return BunzaiError("not_found", f"no piece to import in {where}", hint)


def _conflict_policy(ctx: typer.Context, name: str):
    """The --on-conflict policy; skip and suffix read the studio's ids once. refuse needs no
    studio: it looks for one only when a card's copy of its world meets an earlier copy."""
    from bunzai.changes.conflicts import ConflictPolicy, check_policy, policy_for

    if check_policy(name) == "refuse":
        return ConflictPolicy(name, (), _studio_reader_when_asked(ctx))
    return policy_for(studio_of(ctx), name)


def _studio_reader_when_asked(ctx: typer.Context):
    """A reader of the studio's pieces that opens the studio on its first question (none there:
    every answer is None)."""
    from bunzai.changes.conflicts import stored_reader
    from bunzai.errors import BunzaiError

    opened = []

    def read(kind: str, piece_id: str):
        if not opened:
            try:
                opened.append(stored_reader(studio_of(ctx)))
            except BunzaiError:  # no studio to write into yet: nothing is stored
                opened.append(lambda _kind, _id: None)
        return opened[0](kind, piece_id)

    return read


def transfer(
    ctx: typer.Context,
    ref: Annotated[
        str, typer.Argument(help="kind/id, or an id that only one kind holds.", autocompletion=completion.piece_refs)
    ],
    to: PieceToArg,
    engine: EngineOpt = None,
    from_engine: FromEngineOpt = None,
) -> int:
    """Preview a crossing and its losses.

    Preview a crossing: target format, file name, size and every loss. Writes nothing.

    Example: bunzai transfer seraphina --to ccv1.json
    """
    from bunzai.convert import transfer_report

    emit(transfer_report(studio_of(ctx), ref, to, engine=engine, source=from_engine))
    return 0


def export(
    ctx: typer.Context,
    refs: Annotated[
        list[str] | None,
        typer.Argument(
            help="kind/id, or an id that only one kind holds; with --into, any number (none: every piece).",
            show_default=False,
            autocompletion=completion.piece_refs,
        ),
    ] = None,
    to: Annotated[
        str | None,
        typer.Option("--to", help=PIECE_TO_HELP, autocompletion=completion.formats),
    ] = None,
    engine: EngineOpt = None,
    from_engine: FromEngineOpt = None,
    into: Annotated[
        str | None,  # a str: Path("") would be the working folder, and an empty --into names none
        typer.Option("--into", help="Write into this folder, laid out as --layout, instead of a studio kit folder."),
    ] = None,
    layout: Annotated[
        str | None,
        typer.Option(
            "--layout",
            help="With --into: the folder layout (sillytavern: a SillyTavern user folder; "
            "textgen: text-generation-webui's characters/ folder).",
        ),
    ] = None,
) -> int:
    """Write a crossing into a fresh export folder.

    Write a crossing into a fresh Export/<UTC> Kit <id>/ folder of the studio; print the receipt.

    With --into DIR --layout sillytavern (or textgen), write pieces (all when none is named)
    where SillyTavern (or text-generation-webui) looks for them, create-only, and print one report.

    Example: bunzai export seraphina --to sillytavern.card.png
    """
    if into is not None or layout is not None:
        return _export_library(ctx, refs or [], into, layout, to or engine or from_engine)
    from bunzai.convert import export_piece
    from bunzai.errors import BunzaiError

    if not refs or len(refs) != 1 or to is None:
        raise BunzaiError(
            "usage",
            "export takes one piece and --to FORMAT (or --into DIR --layout LAYOUT)",
            "bunzai export seraphina --to sillytavern.card.png",
        )
    emit(export_piece(studio_of(ctx, writes=True), refs[0], to, engine=engine, source=from_engine))
    return 0


def _export_library(
    ctx: typer.Context, refs: list[str], into: str | None, layout: str | None, single: str | None
) -> int:
    from bunzai.errors import BunzaiError
    from bunzai.library_export import export_library

    if into is None or layout is None or single:
        raise BunzaiError(
            "usage",
            "a library export takes --into DIR and --layout LAYOUT, and no --to or --engine "
            "(the layout names each piece's format)",
            "bunzai export --into ST --layout sillytavern",
        )
    if not into.strip():  # an unset variable (`--into "$ST"`) must not export into the working folder
        raise BunzaiError("usage", "--into names no folder", "bunzai export --into ST --layout sillytavern")
    report = export_library(studio_of(ctx, writes=True), Path(into), layout, refs)
    emit(report.to_json())
    return 1 if report.failed else 0


def convert(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="The file to convert; - reads it from stdin.")],
    to: ToArg,
    output: Annotated[str, typer.Option("--output", "-o", help="Where to write the result; - for stdout.")],
    force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists.")] = False,
    format: Annotated[
        str | None,
        typer.Option(
            "--format", help="Read FILE as this format instead of sniffing.", autocompletion=completion.formats
        ),
    ] = None,
) -> int:
    """Convert one file with no studio; report losses.

    One-off crossing with no studio: FILE in, OUT written, the loss report as JSON.

    With `-o -` the converted bytes go to stdout and the report to stderr.

    Example: bunzai convert card.png --to ccv3.json -o card.json
    """
    from bunzai.adapters.common.losses import no_studio
    from bunzai.adapters.inspect import read_bytes
    from bunzai.convert import convert_piece, own_book
    from bunzai.errors import BunzaiError
    from bunzai.files import read_file_bytes, read_stdin_bytes

    _configure_engines(ctx)
    stdin = str(file) == "-"  # the format is then sniffed from the bytes alone (or given)
    adapter, decoded = read_bytes(
        read_stdin_bytes() if stdin else read_file_bytes(file), "-" if stdin else file.name, format
    )
    if not decoded.pieces:
        raise BunzaiError(
            "unrecognized_file", f"{file}: the file holds no piece", "export it again from the app that made it"
        )
    blobs = {blob.sha256: blob.data for blob in decoded.blobs}

    def media(ref):
        if ref.sha256 not in blobs and decoded.stored_media:  # a piece file copied out of a studio
            raise BunzaiError(
                "not_found",
                f"{file} names a medium it does not carry ({ref.sha256[:12]}….{ref.ext}): a piece file copied out "
                "of a studio keeps its media there",
                "export it from the studio (bunzai export REF --to FORMAT), or as bunzai.native, which carries them",
            )
        return blobs[ref.sha256]

    crossing = convert_piece(decoded.pieces[0], to, media)
    crossing.losses = [no_studio(loss) for loss in crossing.losses]  # no studio keeps an escrow here
    report = {"source": str(file), "source_format": adapter.format_id} | crossing.report()
    report["warnings"] = list(decoded.warnings)  # what reading mended: repeated keys, lone surrogates
    first, *rest = decoded.pieces
    left = [f"{p.kind}/{p.id}" for p in rest if not own_book(first, p)]  # a card's book crossed in it
    if left:
        report["not_converted"] = left
    if crossing.files is not None:
        _write_output_folder(Path(output), crossing.files, force)
        emit(report | {"output": output})
        return 0
    if output == "-":
        sys.stdout.buffer.write(crossing.data)
        sys.stdout.flush()
        say(to_text(report, pretty=False))  # one line, hidden characters escaped like stdout's JSON
        return 0
    _write_output(Path(output), crossing.data, force, output)
    emit(report | {"output": output})
    return 0


def _write_output_folder(path: Path, files: list[tuple[str, bytes]], force: bool) -> None:
    """A folder-shaped format (a sprite folder) is written as a new folder OUT, never into one:
    its files go into a hidden folder beside it, renamed to OUT once all are written, so a write
    stopped halfway (a full disk) leaves no folder OUT behind."""
    import shutil

    from bunzai.errors import BunzaiError
    from bunzai.store.atomic import temp_name, write_new
    from bunzai.store.exports import check_plain_name
    from bunzai.store.faults import Unsettled

    for name, _ in files:
        check_plain_name(name)
    if str(path) == "-" or force:
        raise BunzaiError(
            "usage",
            "this format is a folder: name a new folder with -o (no stdout, no --force)",
            "bunzai convert sprites.zip --to sillytavern.sprites.folder -o Seraphina",
        )
    _check_parent(path)
    if path.exists() or path.is_symlink():
        raise BunzaiError("occupied", f"{path} exists; nothing was written", "name a new folder")
    partial = path.parent / temp_name(path.name, f".{os.getpid()}.partial")  # cut to fit, as a temp file's
    try:
        partial.mkdir()
        for name, data in files:
            write_new(partial / name, data)
        os.rename(partial, path)  # onto no folder: an empty one made since would be replaced, a full one refuses
    except BaseException as error:
        shutil.rmtree(partial, ignore_errors=True)
        if isinstance(error, OSError):
            raise _unwritable(path, error) from None
        if isinstance(error, Unsettled):  # a file written, its folder's sync failed: all taken back
            raise error.taken_back(path, "the folder", held=partial) from None
        raise


def _write_output(path: Path, data: bytes, force: bool, given: str = "") -> None:
    from bunzai.errors import BunzaiError
    from bunzai.store.atomic import replace_file, write_new

    if given.endswith(("/", os.sep)):  # Path() drops the slash: `-o out/` would write a file named out
        raise BunzaiError("invalid_input", f"{given} names a folder", "name the output file, e.g. -o out/card.json")
    if path.is_dir():
        raise BunzaiError("invalid_input", f"{path} is a folder", "name the output file")
    if _special(path):  # /dev/null, /dev/stdout, a FIFO: written into, never replaced by a file
        try:
            with open(path, "wb") as out:
                out.write(data)
        except OSError as error:
            raise BunzaiError("invalid_input", f"cannot write to {path}: {error.strerror}", "name a file") from None
        return
    _check_parent(path)
    try:
        if force:
            replace_file(path, data)
        else:
            write_new(path, data)
    except BunzaiError as error:
        if error.code == "occupied":
            raise BunzaiError("occupied", f"{path} exists; nothing was written", "pass --force to replace it") from None
        raise
    except OSError as error:  # no room, no permission: said with the path, not as a bug
        raise _unwritable(path, error) from None


def _check_parent(path: Path) -> None:
    """-o names a file in a folder that exists: the output's folder is never made."""
    from bunzai.errors import BunzaiError

    parent = path.parent
    if not parent.is_dir():
        what = "is not a folder" if parent.exists() else "does not exist"
        raise BunzaiError(
            "not_found", f"{parent} {what}; nothing was written", "name a file in a folder that exists with -o"
        )


def _unwritable(path: Path, error: OSError):
    """An OSError of writing OUT, coded: a full disk, a read-only or forbidden place as the store
    says them, anything else as invalid_input; nothing is left of OUT either way."""
    from bunzai.errors import BunzaiError, from_os_error

    known = from_os_error(error, path)  # OUT, not the temp file or hidden folder the error names
    if known is not None:
        return known
    reason = error.strerror or type(error).__name__
    return BunzaiError("invalid_input", f"cannot write {path}: {reason}; nothing was written", "name another file")


def _special(path: Path) -> bool:
    """An existing character device or FIFO (the rename of --force would replace it by a file)."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def formats() -> int:
    """List every format bunzai reads or writes.

    List every format: id, label, kinds, extensions, container, read/write.

    Example: bunzai formats
    """
    from bunzai.cli.hot import formats_command

    return formats_command()


def _configure_engines(ctx: typer.Context) -> None:
    """Hand the studio's engine checkouts to the adapters (see convert.configure_engines).

    Reading files needs no studio, so one is used only when named or found, never created here.
    """
    from bunzai.cli.context import Globals
    from bunzai.convert import configure_engines
    from bunzai.store.studio import ENV_STUDIO, STUDIO_FILE, find_studio

    root = ctx.find_root()
    named = root.obj.studio if isinstance(root.obj, Globals) else None
    here = Path.cwd()
    if not (named or os.environ.get(ENV_STUDIO) or any((f / STUDIO_FILE).is_file() for f in (here, *here.parents))):
        return
    configure_engines(find_studio(named))


def register(app: typer.Typer) -> None:
    app.command("import")(import_)
    app.command()(transfer)
    app.command()(export)
    app.command()(convert)
    app.command()(formats)
