"""The error taxonomy: one code per kind of failure, shared by the CLI and MCP.

An error is raised where the problem is known, with a sentence a person can act on and a
hint; it is rendered in one place (`bunzai.cli.output`). Exit codes: 1 refusal, 2 usage,
3 internal fault.
"""

from __future__ import annotations

import errno

REFUSAL = 1
USAGE = 2
INTERNAL = 3

# code -> exit status. A code is part of the public contract: scripts match on it.
CODES: dict[str, int] = {
    "not_found": REFUSAL,  # no piece, asset, graveyard entry or file by that name
    "ambiguous_ref": REFUSAL,  # a bare id that several kinds hold
    "invalid_id": REFUSAL,  # an id that is not a safe slug
    "invalid_input": REFUSAL,  # input that does not validate against the model
    "invalid_json": REFUSAL,  # text that is not JSON (or is too large / too deep)
    "invalid_draft": REFUSAL,  # a document that is not a bunzai draft
    "invalid_piece": REFUSAL,  # a stored file that does not parse as a canonical piece
    "invalid_promptbook": REFUSAL,  # a promptbook that breaks a decoder rule
    "bad_pointer": REFUSAL,  # a malformed or missing RFC 6901 pointer
    "unknown_kind": USAGE,  # a kind name bunzai does not have (a mistyped argument, like an unknown command)
    "too_large": REFUSAL,  # input over a limit in bunzai.limits
    "too_deep": REFUSAL,  # JSON nested deeper than bunzai.limits allows
    "stale": REFUSAL,  # the stored revision is not the one expected
    "occupied": REFUSAL,  # create-only write onto a taken id or name
    "confirmation_required": REFUSAL,  # a write that needs --yes or a terminal to ask on
    "lock_timeout": REFUSAL,  # another writer held the lock for too long
    "studio_missing": REFUSAL,  # no studio at the path given
    "corrupt_asset": REFUSAL,  # a stored asset whose bytes no longer match its sha256 name
    "unknown_format": REFUSAL,  # a format id no adapter registers
    "unsupported": REFUSAL,  # a format that cannot read/write this file or kind
    "unrecognized_file": REFUSAL,  # no adapter claims the file
    "corrupt_file": REFUSAL,  # a damaged container: truncated PNG, bad CRC, bad base64/UTF-8
    "unsafe_archive": REFUSAL,  # zip bomb, oversized member, ../ or absolute names, duplicates
    "not_granted": REFUSAL,  # a path outside every folder granted with `bunzai folder grant`
    "forbidden_change": REFUSAL,  # a capability changed what it may not: kind, id, escrow, or anything (read)
    "invalid_capability": REFUSAL,  # a capability module that breaks the contract (duplicate id, bad CAPABILITY)
    "invalid_tool": REFUSAL,  # a tool module (bunzai/tools/) that breaks the contract (duplicate name, bad TOOL)
    "out_of_date": REFUSAL,  # a generated file (the capability catalog, its docs) differs from its sources
    "source_changed": REFUSAL,  # a file a draft names media in changed since the draft was made
    "source_missing": REFUSAL,  # a file a draft names media in is gone
    "invalid_regex": REFUSAL,  # a JavaScript pattern (or its flags) that does not compile
    "regex_timeout": REFUSAL,  # a pattern that ran out of time (catastrophic backtracking) or memory
    "regex_no_match": REFUSAL,  # a pattern that matched nothing where a match was required (a drawing's sample)
    "unsafe_path": REFUSAL,  # a path that leaves its root: `..`, absolute, a symlink (docs pages)
    "self_review": REFUSAL,  # a reviewer approving a summary they stamped themselves
    "studio_read_only": REFUSAL,  # the file system refuses writes (mounted read-only)
    "disk_full": REFUSAL,  # no space left on the device, or the disk quota is used up
    "permission_denied": REFUSAL,  # the operating system does not let bunzai read or write a file
    "revert_forbidden": REFUSAL,  # a revert of a piece another session (or a hand edit) changed since
    "revert_unavailable": REFUSAL,  # a revert whose earlier revision the studio no longer holds
    "usage": USAGE,  # bad command-line usage
    "internal": INTERNAL,  # a bug: please report it
}


class BunzaiError(Exception):
    """A failure with a stable code, a message for people, and a hint on what to do next."""

    def __init__(self, code: str, message: str, hint: str = "", **details: object) -> None:
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.details = details

    @property
    def exit_code(self) -> int:
        return CODES[self.code]

    def to_json(self) -> dict:
        error: dict[str, object] = {"code": self.code, "message": self.message, "hint": self.hint}
        if self.details:
            error["details"] = self.details
        return {"error": error}


def suggestions(word: object, choices) -> list[str]:
    """Known spellings close to `word`, best first: names that start with it, then
    difflib's nearest (at most `limits.SUGGEST_MAX`)."""
    if not isinstance(word, str) or not word:
        return []
    import difflib

    from bunzai.limits import SUGGEST_CUTOFF, SUGGEST_MAX

    known = sorted({choice for choice in choices if choice != word})
    found = [choice for choice in known if choice.startswith(word)]
    found += difflib.get_close_matches(word, known, n=SUGGEST_MAX, cutoff=SUGGEST_CUTOFF)
    return list(dict.fromkeys(found))[:SUGGEST_MAX]


def did_you_mean(word: object, choices, otherwise: str = "") -> str:
    """A hint naming the close spellings of `word` ("did you mean a, b?"), then `otherwise`."""
    return _hint(suggestions(word, choices), otherwise)


def _hint(close: list[str], otherwise: str) -> str:
    if not close:
        return otherwise
    text = "did you mean " + ", ".join(close) + "?"
    return f"{text} ({otherwise})" if otherwise else text


def unknown_name(code: str, message: str, word: object, choices, otherwise: str = "",
                 close: list[str] | None = None) -> BunzaiError:
    """A refusal of an unknown name whose hint suggests the known names spelled like it (also
    listed under details.suggestions, when there are any). `close` overrides the spellings."""
    close = suggestions(word, choices) if close is None else close
    return BunzaiError(code, message, _hint(close, otherwise), **({"suggestions": close} if close else {}))


_OS_ERRORS = {
    errno.EROFS: ("studio_read_only", "the file system is read-only", "remount it writable, or work on a copy"),
    errno.ENOSPC: ("disk_full", "no space is left on the device", "free some space and run the command again"),
    errno.EDQUOT: ("disk_full", "the disk quota is used up", "free some space and run the command again"),
    errno.EACCES: ("permission_denied", "permission denied", "check who owns the file or folder"),
    errno.EPERM: ("permission_denied", "operation not permitted", "check who owns the file or folder"),
}


def from_os_error(error: OSError) -> BunzaiError | None:
    """The coded refusal for an environment fault (read-only, full, forbidden), else None."""
    known = _OS_ERRORS.get(error.errno)
    if known is None:
        return None
    code, what, hint = known
    where = f": {error.filename}" if error.filename else ""
    return BunzaiError(code, f"{what}{where}; nothing was half-written", hint)
