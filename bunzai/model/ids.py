"""Safe ids: the one rule for every piece id, file stem and graveyard entry.

A safe id is `[a-z0-9][a-z0-9._-]{0,127}`, ASCII only, not ending in a dot and not a
reserved device name on Windows (`con`, `nul`, `com1` ...), so it is a valid file stem on
every system a studio may be copied to. Look-alike Unicode, path separators, NUL, `.`,
`..` and uppercase are all outside the pattern.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


ID_MAX_LENGTH = 128  # mirrored in bunzai.limits; the model may not import bunzai
NAME_HASH_LENGTH = 6  # mirrored in bunzai.limits, with its reason
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


@lru_cache(maxsize=256)  # pure; a card's read asks for the same names' slugs several times
def slugify(name: str) -> str:
    """A safe id derived from a display name ('Ada Lovelace' -> 'ada-lovelace').

    Latin letters with accents are folded to ASCII ('Élodie' -> 'elodie'). A name in
    another script is transliterated and followed by a short hash of the name
    ('雪乃' -> 'xuenai-<6 hex>'), so two names that transliterate alike ('雪' and 'Xue')
    still give two ids. Anything else outside the pattern becomes '-'. Returns '' when
    nothing usable is left (a name of symbols only): callers then use `name_hash`.
    """
    from anyascii import anyascii  # here, not at import: reading a piece never needs it

    normal = unicodedata.normalize("NFKC", name)
    folded = unicodedata.normalize("NFKD", normal).encode("ascii", "ignore").decode("ascii")
    transliterated = anyascii(normal)
    slug = _slug(transliterated)
    if slug and _slug(folded) != slug:
        suffix = "-" + name_hash(name)
        slug = slug[: ID_MAX_LENGTH - len(suffix)].rstrip("-._") + suffix
    if _WINDOWS_RESERVED.fullmatch(slug):  # the device name is the part before the first dot
        stem, dot, rest = slug.partition(".")
        slug = f"{stem}-1{dot}{rest}"[:ID_MAX_LENGTH].rstrip("-._")
    return slug if is_safe_id(slug) else ""


def name_hash(name: str) -> str:
    """A short stable hash of a name (NFC, UTF-8): the part of an id that keeps names apart."""
    data = unicodedata.normalize("NFC", name).encode("utf-8")
    import hashlib  # here: `list` and `read` import this module and never hash a name

    return hashlib.sha256(data).hexdigest()[:NAME_HASH_LENGTH]


def _slug(ascii_text: str) -> str:
    slug = re.sub(r"[^a-z0-9._-]+", "-", ascii_text.lower())
    slug = re.sub(r"-{2,}", "-", slug).strip("-._")
    return slug[:ID_MAX_LENGTH].rstrip("-._")
