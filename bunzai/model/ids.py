"""Safe ids: the one rule for every piece id, file stem and graveyard entry.

A safe id is `[a-z0-9][a-z0-9._-]{0,127}`, ASCII only, not ending in a dot and not a
reserved device name on Windows (`con`, `nul`, `com1` ...), so it is a valid file stem on
every system a studio may be copied to. Look-alike Unicode, path separators, NUL, `.`,
`..` and uppercase are all outside the pattern.
"""

from __future__ import annotations

import re
import unicodedata

ID_MAX_LENGTH = 128  # mirrored in bunzai.limits; the model may not import bunzai
_SAFE_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,127}", re.ASCII)
_WINDOWS_RESERVED = re.compile(r"(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?", re.ASCII)


def id_problem(value: object) -> str | None:
    """Why `value` is not a safe id, or None when it is one."""
    if not isinstance(value, str):
        return "an id must be a string"
    if not value:
        return "an id may not be empty"
    if len(value) > ID_MAX_LENGTH:
        return f"an id may have at most {ID_MAX_LENGTH} characters (this one has {len(value)})"
    if not _SAFE_ID.fullmatch(value):
        return (
            "an id may hold only lowercase ASCII letters, digits, '.', '_' and '-', "
            "and must start with a letter or digit"
        )
    if value.endswith("."):
        return "an id may not end with '.'"
    if _WINDOWS_RESERVED.fullmatch(value):
        return f"{value!r} is a reserved device name on Windows"
    return None


def is_safe_id(value: object) -> bool:
    return id_problem(value) is None


def slugify(name: str) -> str:
    """A safe id derived from a display name ('Ada Lovelace' -> 'ada-lovelace').

    Accents are folded to ASCII; anything else outside the pattern becomes '-'. Returns
    '' when nothing usable is left (a name in a non-Latin script): callers then ask for --id.
    """
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9._-]+", "-", folded.lower())
    slug = re.sub(r"-{2,}", "-", slug).strip("-._")
    slug = slug[:ID_MAX_LENGTH].rstrip("-._")
    if _WINDOWS_RESERVED.fullmatch(slug):
        slug = f"{slug}-1"
    return slug if is_safe_id(slug) else ""
