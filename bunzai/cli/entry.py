"""The `bunzai` console script: run the Typer app, render every failure as JSON.

`bunzai --version` is answered before Typer is imported: it is the command scripts call to
probe for bunzai, and it should cost no more than starting Python. So are the plain forms of
`read`, `list`, `search` and `formats` (see `bunzai.cli.hot`).
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> None:
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:  # closed when bunzai started
        from bunzai.cli.stdio import open_closed_stdio

        open_closed_stdio()
    if not _plain_stdio():  # a non-blocking or unbuffered standard stream would lose data
        from bunzai.cli.stdio import hold_whole_stdio

        hold_whole_stdio()
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    if encoding.lower().replace("_", "-") not in ("utf-8", "utf8"):  # PYTHONIOENCODING, a legacy locale
        from bunzai.cli.stdio import mend_stdout_encoding

        mend_stdout_encoding()
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--version"]:
        from bunzai import __version__

        try:
            sys.stdout.write(f"bunzai {__version__}\n")
            sys.stdout.flush()
        except BrokenPipeError:
            sys.exit(_reader_gone())
        sys.exit(0)
    import gc

    from bunzai.limits import GC_THRESHOLDS

    # bunzai's data are trees (parsed JSON, models of it), so the collector's full passes,
    # which the default thresholds run again and again as a big book or library is read, walk
    # millions of objects and find no cycle: a draft on a book of 4,000 entries spent more than half its CPU there
    gc.set_threshold(*GC_THRESHOLDS)
    sys.exit(run(args))


def _plain_stdio() -> bool:
    """Whether stdin, stdout and stderr block and the two outputs are buffered, as Python makes
    them for a terminal, a file or a pipe of its own: then nothing needs `bunzai.cli.stdio`,
    whose import is spared."""
    import io

    for stream, fd, kind in (
        (sys.stdin, 0, io.BufferedReader),
        (sys.stdout, 1, io.BufferedWriter),
        (sys.stderr, 2, io.BufferedWriter),
    ):
        try:
            if not (isinstance(stream.buffer, kind) and os.get_blocking(fd)):
                return False
        except (AttributeError, OSError, ValueError):  # no stream, or not a file: left as it is
            continue
    return True


def run(args: list[str]) -> int:
    """Run one command; return its exit code. Errors become JSON documents here, once."""
    try:
        code = _run(args)
        sys.stdout.flush()  # what a command wrote without flushing meets a closed pipe here, not at exit
        return code
    except BrokenPipeError:  # raised printing an error document: the reader left before it
        return _reader_gone()


def _run(args: list[str]) -> int:
    from bunzai.cli.output import render_error
    from bunzai.errors import BunzaiError, Interrupted

    try:
        args = output_flags(studio_first(args))
        from bunzai.cli.hot import fast_command

        fast = fast_command(args)
        if fast is not None:  # a hot command in its plain form: no Typer to import (see hot.py)
            return fast()
        from bunzai.cli.app import command_for

        command = command_for(args)
        raising = _raise_interrupts(args)
        try:
            result = command.main(args=args, prog_name="bunzai", standalone_mode=False)
        finally:
            if raising:
                import signal

                signal.signal(signal.SIGINT, signal.default_int_handler)
        return result if isinstance(result, int) else 0
    except BunzaiError as error:
        return render_error(error)
    except BrokenPipeError:  # before OSError: nothing more can be printed, not even an error
        return _reader_gone()
    except OSError as error:
        from bunzai.store.faults import caught_fault

        # not a temp file or .bunzai/ inside; a fault naming no file (a full disk in write or fsync) names the studio
        coded = caught_fault(error, None if error.filename else _studio_root(args))
        if coded is None:
            return _internal(error)
        return render_error(coded)
    except (KeyboardInterrupt, Interrupted):
        return render_error(BunzaiError("usage", "interrupted", "nothing was written after the interruption"))
    except Exception as error:  # noqa: BLE001 - the one place every failure is rendered
        usage = _usage_error(error)
        if usage is not None:
            return render_error(usage)
        return _internal(error)


def _raise_interrupts(args: list[str]) -> bool:
    """From now on SIGINT raises `errors.Interrupted` (`bunzai.changes.interrupts`); whether it was set
    (`_run` puts Python's default back after the command). Not where SIGINT was not Python's
    default (ignored by a shell for a background job, or a caller's own handler). The hot
    commands (`bunzai.cli.hot`: read, list, search, formats, mcp) never come here: a
    KeyboardInterrupt reaches `_run`'s handler from them as it is."""
    import signal  # here: the hot commands never need it

    from bunzai.changes.interrupts import on_sigint

    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    signal.signal(signal.SIGINT, on_sigint)
    return True


def _studio_root(args: list[str]) -> str | None:
    """The studio the command ran in, as it found it (`--studio`, $BUNZAI_STUDIO, bunzai.toml
    upward, the default one), for a fault that names no file; None when there is none."""
    from bunzai.errors import BunzaiError
    from bunzai.store.studio import find_studio

    try:
        args = studio_first(args)
        explicit = args[1] if len(args) > 1 and args[0] == "--studio" else None
        return str(find_studio(explicit, create=False).root)
    except (BunzaiError, OSError):
        return None


def studio_first(args: list[str]) -> list[str]:
    """`--studio DIR` may come after the command too (`bunzai list --studio X`): it is moved
    to the front, where the global option lives. Only before a `--`; given twice, a usage error."""
    from bunzai.errors import BunzaiError

    end = args.index("--") if "--" in args else len(args)
    found: list[str] = []
    rest: list[str] = []
    index = 0
    while index < end:
        token = args[index]
        if token == "--studio" and index + 1 < end:
            found.append(args[index + 1])
            index += 2
            continue
        if token.startswith("--studio="):
            found.append(token[len("--studio=") :])
            index += 1
            continue
        rest.append(token)
        index += 1
    if not found:
        return args
    if len(found) > 1:
        raise BunzaiError("usage", "--studio is given more than once", "give one --studio DIR")
    return ["--studio", found[0], *rest, *args[end:]]


def output_flags(args: list[str]) -> list[str]:
    """`--table` and `--nl` may come anywhere before a `--`: they choose how list-like answers
    print (see `bunzai.cli.output`) and are taken out here, so both paths see the same command."""
    from bunzai.cli.output import set_output_mode
    from bunzai.errors import BunzaiError

    end = args.index("--") if "--" in args else len(args)
    flags = [token for token in args[:end] if token in ("--table", "--nl")]
    if not flags:
        return args
    if len(set(flags)) > 1:
        raise BunzaiError("usage", "--table and --nl cannot be given together", "choose one")
    set_output_mode(flags[0][2:])
    return [token for token in args[:end] if token not in ("--table", "--nl")] + args[end:]


def _reader_gone() -> int:
    """Whoever read stdout stopped (`bunzai list --nl | head -1`): end quietly with status 1, as
    Click ends the commands that go through Typer. The process's stdout (descriptor 1) is
    pointed at /dev/null so that Python's own flush at exit does not fail a second time with a
    traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except (OSError, ValueError):  # no stdout to point anywhere: nothing is left to flush
        pass
    return 1


def _internal(error: Exception) -> int:
    from bunzai.cli.output import render_error
    from bunzai.errors import BunzaiError

    if os.environ.get("BUNZAI_DEBUG"):
        import traceback

        traceback.print_exc()
    return render_error(
        BunzaiError(
            "internal",
            f"internal error: {type(error).__name__}: {error}",
            "this is a bug in bunzai; run again with BUNZAI_DEBUG=1 for the traceback and report it",
        )
    )


def _usage_error(error: Exception):
    """Typer/Click usage errors carry exit_code 2 and a formatted message."""
    from bunzai.errors import BunzaiError

    if getattr(error, "exit_code", None) == 2 and hasattr(error, "format_message"):
        message = error.format_message()
        ctx = getattr(error, "ctx", None)
        hint = f"see `{ctx.command_path} --help`" if ctx is not None else "see `bunzai --help`"
        return BunzaiError("usage", message, hint)
    if type(error).__name__ == "Abort":
        return BunzaiError("usage", "aborted", "nothing was written")
    return None
